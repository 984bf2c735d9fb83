"""The sequence of play (SHU-SEQ.1, SHU-SEQ.2): set-up, then per half-day turn the Russian
player-turn (regiments, sea movement with the air strike and landings, replacements,
movement, attacks) and the Japanese one (reinforcement, decoys, movement, attacks), recovery at
the ends of player-turns, and the end of the game.

Each `*_step` function enters a step if it offers a choice, or goes on to the next one: a
state handed back by `apply` always waits for a decision (or a die), or the game is over. After
each step come its decisions, one function per kind of action (`place_piece`, `form_regiment`,
... `advance`): each checks the action against the lists the step offers, raising
`IllegalAction` with the clauses it breaks, applies it and goes on.
"""

from __future__ import annotations

import attrs

from kernel.errors import IllegalAction
from kernel.game import Outcome
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.shumshu.data.variants import LENGTH
from specs.shumshu.rules import combat, crt, landing
from specs.shumshu.rules.actions import Embark, LandAt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import declaration_error, declaration_ok, join_ok
from specs.shumshu.rules.declare import combats_of, front, pairs_of
from specs.shumshu.rules.effects import eliminate, form, recover
from specs.shumshu.rules.movement import move_problem
from specs.shumshu.rules.odds import odds, outcome, worst_roll
from specs.shumshu.rules.state import (
    JP,
    RU,
    Combat,
    Fight,
    Loc,
    Piece,
    Sail,
    ShumshuState,
    Stage,
)
from specs.shumshu.rules.units import (
    hex_sides,
    holder,
    next_period_start,
    period,
    real_in,
    update,
)


def illegal(message: str, *clauses: str) -> IllegalAction:
    """An action refused: the message followed by the clauses it breaks."""
    return IllegalAction(f"{message} ({', '.join(clauses)})", clauses=clauses)


def initial_state(b: Board, v: Variant) -> ShumshuState:
    """Before play: the Japanese Shumshu pieces wait to be placed, the rest of the Japanese
    on Paramushir, every Russian unit off-board (SHU-SETUP.1 to SHU-SETUP.3)."""
    # SHU-SETUP.2 the other Japanese units on Paramushir, SHU-SETUP.3 the Russians off-board
    pieces = tuple(
        Piece(u.id, Loc.UNFORMED if u.setup == "formed" else Loc.POOL) for u in b.data.units
    )
    s = ShumshuState(
        variant=v,
        turn=1,
        side=JP,
        stage=Stage.SETUP,
        units=pieces,
        ships=b.data.capabilities,
    )
    return s if setup_waiting(b, s) else start_player_turn(b, s, RU)


def setup_waiting(b: Board, s: ShumshuState) -> tuple[str, ...]:
    """The Japanese Shumshu pieces still to set up, in data order (SHU-SETUP.1)."""
    return tuple(p.id for p in s.units if p.loc is Loc.POOL and b.unit(p.id).setup == "shumshu")


def place_piece(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A Japanese piece of the Japanese player's choosing goes face down on a hex of Shumshu;
    once the last is placed the first Russian player-turn begins (SHU-SETUP.1).

    The order is free: SHU-SETUP.1 lists the pieces and says nothing of an order, and
    SHU-COMBAT.5 hides them ("Jpns units hidden until combat"). A fixed order would tell the
    Russians, who see each face-down counter go down on its hex, which step placed the tank
    and which the decoys: across a table they see counters going onto hexes, nothing more.
    With a free order the same hexes in the same order can hold any of the pieces, so the
    Russian view of every step (`io.observation`: a count per hex) and its log line
    (`io.narration`: the hex, not the piece) are the same whichever piece went where
    (tests/shumshu/test_hidden_history.py)."""
    if unit not in setup_waiting(b, s):
        raise illegal(
            f"{unit} is not a Japanese piece waiting to be set up on Shumshu", "SHU-SETUP.1"
        )
    if not b.on_island(h):
        raise illegal(f"{h} is not a hex of Shumshu", "SHU-SETUP.1")
    s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-SETUP.1: placed on Shumshu, hidden
    if not setup_waiting(b, s):
        return start_player_turn(b, s, RU)
    return s


def game_length(v: Variant) -> int:
    return LENGTH[v.reading("game_length")]


# --- player-turns -------------------------------------------------------------------------------


def start_player_turn(b: Board, s: ShumshuState, side: str) -> ShumshuState:
    """The Russians land, move and attack first, then the Japanese (SHU-SEQ.1)."""
    s = attrs.evolve(
        s,
        side=side,
        moved=frozenset(),
        acted=frozenset(),
        air_used=False,
        sail=None,
        pending=(),
        fight=None,
    )
    return form_step(b, s) if side == RU else reinforce_step(b, s)


def form_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.formable(b, s):
        return attrs.evolve(s, stage=Stage.FORM)
    return sail_step(b, s)


def form_regiment(b: Board, s: ShumshuState, regiment: str) -> ShumshuState:
    """Three battalions together and undisrupted become their regiment (SHU-RGT.1)."""
    where = dict(landing.formable(b, s))
    if regiment not in where:
        raise illegal(
            f"{regiment} cannot form: its three battalions must be together and "
            "undisrupted at the start of the turn",
            "SHU-RGT.1",
        )
    return form_step(b, form(b, s, regiment, where[regiment]))


def sail_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.sail_choices(b, s):
        return attrs.evolve(s, stage=Stage.SAIL)
    return air_step(b, s)


def choose_sail(b: Board, s: ShumshuState, action: LandAt | Embark) -> ShumshuState:
    """A landing hex picked, or a unit embarked, for this turn's sea movement (SHU-LAND.1,
    SHU-LAND.2, SHU-REINF.3); once nothing more may be chosen the units sail."""
    if action not in landing.sail_choices(b, s):
        if isinstance(action, LandAt):
            raise illegal(*landing.land_at_problem(b, s, action.hex))
        raise illegal(
            f"{action.unit} cannot embark: a Russian unit off-board, due by its turn, in "
            "data order, at most three landers (one per capability) or one delivery per "
            "capability to the beachhead on an AM turn",
            "SHU-LAND.2",
            "SHU-REINF.3",
        )
    if isinstance(action, LandAt):
        s = attrs.evolve(s, sail=Sail(action.hex))
    else:
        sail = landing.start_sail(s, None)
        s = attrs.evolve(s, sail=attrs.evolve(sail, party=(*sail.party, action.unit)))
    if landing.sail_choices(b, s):
        return s
    assert s.sail is not None
    return air_step(b, attrs.evolve(s, sail=attrs.evolve(s.sail, sailed=True)))


def sail_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The Russians end their choices at sea and the units embarked sail (SHU-LAND.2)."""
    if not landing.sail_done_ok(s):
        raise illegal("a landing needs at least one battalion", "SHU-LAND.2")
    sail = attrs.evolve(s.sail, sailed=True) if s.sail is not None else None
    return air_step(b, attrs.evolve(s, sail=sail))


def air_step(b: Board, s: ShumshuState) -> ShumshuState:
    """The Ki-43 against shipping, before the landing rolls (SHU-AIR.2, AMB-SHU-23)."""
    if not landing.strike_possible(s):
        return landing_step(b, s)
    if s.variant.is_("air_strike", "mandatory"):
        return attrs.evolve(s, stage=Stage.AIR_ROLL)
    return attrs.evolve(s, stage=Stage.AIR)


def strike(b: Board, s: ShumshuState, yes: bool) -> ShumshuState:
    """The Japanese send the Ki-43 against Russian shipping, or not (SHU-AIR.2)."""
    if yes:  # SHU-AIR.2: the Ki-43 rolls against Russian shipping
        return attrs.evolve(s, stage=Stage.AIR_ROLL)
    return landing_step(b, s)


def air_roll(b: Board, s: ShumshuState, face: int, sunk: str | None) -> ShumshuState:
    """The Ki-43's roll against shipping, then the landings (SHU-AIR.2, SHU-AIR.3)."""
    if (face, sunk) not in {(f, u) for f, u, _ in landing.air_outcomes(b, s)}:
        raise illegal(
            "not a possible roll of the Ki-43: a die face, and a unit sunk only on its best roll",
            "SHU-AIR.2",
        )
    return landing_step(b, landing.apply_air(b, s, face, sunk))


def landing_step(b: Board, s: ShumshuState) -> ShumshuState:
    """The next lander attacks the coastal hex on its own (SHU-LAND.2), or the sea movement
    ends."""
    sail = s.sail
    if sail is None or sail.hex is None or not sail.party:
        return finish_sail(b, s)
    lander = sail.party[0]
    s = combat.discover_decoys(b, s, sail.hex, next_period_start(s))
    fight = Fight(sail.hex, (lander,), landing=True)  # SHU-LAND.2: each lander on its own
    s = attrs.evolve(s, fight=fight)
    who = holder(b, s, sail.hex)
    if who == RU and not sail.landed and s.variant.is_("friendly_landing", "no_roll"):
        return friendly_landing(b, s)
    if who != JP:
        if sail.landed and s.variant.is_("cleared_hex_rolls", "land_freely"):
            return lander_done(b, s)
        return attrs.evolve(s, stage=Stage.ROLL)
    return defenders_step(b, s)


def friendly_landing(b: Board, s: ShumshuState) -> ShumshuState:
    """A landing on a hex the Russians held before it: nobody is attacked, so every lander
    comes ashore without a roll (`friendly_landing=no_roll`, SHU-LAND.1, SHU-LAND.2)."""
    sail = s.sail
    assert sail is not None and sail.hex is not None
    party = sail.party
    s = update(s, party, loc=Loc.MAP, hex=sail.hex)
    if s.variant.is_("landed_units", "landing_is_action"):
        s = attrs.evolve(s, acted=s.acted | set(party))
    sail = attrs.evolve(sail, party=(), landed=True)
    return finish_sail(b, attrs.evolve(s, sail=sail, fight=None))


def lander_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The lander lands once the hex is clear of the enemy (SHU-LAND.7, AMB-SHU-4 iv), is lost
    (worst roll, AE), or its landing failed (D, AD, a hex held by No Retreat!)."""
    sail, fight = s.sail, s.fight
    assert sail is not None and sail.hex is not None and fight is not None
    lander = fight.attackers[0]
    p = s.piece(lander)
    if p.loc is Loc.POOL:
        cleared = fight.result in ("", "DE", "DR", "DW") and holder(b, s, sail.hex) != JP
        if cleared:  # SHU-LAND.7: the hex cleared (DE, DR, DW), the lander comes ashore
            s = update(s, [lander], loc=Loc.MAP, hex=sail.hex)
            sail = attrs.evolve(sail, landed=True)
            if s.variant.is_("landed_units", "landing_is_action"):
                s = attrs.evolve(s, acted=s.acted | {lander})
        elif s.variant.is_("failed_landing", "sea_box"):
            s = landing.to_sea_box(b, s, lander)
    sail = attrs.evolve(sail, party=sail.party[1:])
    return landing_step(b, attrs.evolve(s, sail=sail, fight=None))


def finish_sail(b: Board, s: ShumshuState) -> ShumshuState:
    """A successful landing makes its hex the beachhead (SHU-LAND.1); deliveries land there
    (SHU-REINF.3)."""
    sail = s.sail
    if sail is not None:
        if sail.hex is not None and sail.landed:
            s = attrs.evolve(s, beachhead=sail.hex)  # SHU-LAND.1: the landing hex, supply base
        elif sail.hex is None and sail.party and s.beachhead is not None:
            s = update(s, sail.party, loc=Loc.MAP, hex=s.beachhead)  # SHU-REINF.3: delivered
    return replace_step(b, attrs.evolve(s, sail=None))  # SHU-REPL.2: after the deliveries


def replace_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.replacements(b, s):
        return attrs.evolve(s, stage=Stage.REPLACE)
    return move_step(b, s)


def replace_unit(b: Board, s: ShumshuState, unit: str) -> ShumshuState:
    """An eliminated infantry battalion comes back at the beachhead (SHU-REPL.1,
    SHU-REPL.2)."""
    if unit not in landing.replacements(b, s):
        lost_now = unit in s.acted and s.variant.is_("replace_lost", "next_turn")
        raise illegal(
            f"{unit} cannot be replaced: one eliminated infantry battalion per "
            "turn, at the beachhead, after the reinforcements (AMB-SHU-9)"
            + (
                "; it was lost at sea this player-turn (replace_lost=next_turn)" if lost_now else ""
            ),
            "SHU-REPL.1",
            "SHU-REPL.2",
        )
    # SHU-REPL.1: an eliminated battalion back, one per turn
    s = update(s, [unit], loc=Loc.MAP, hex=s.beachhead, revealed=False)
    return move_step(b, attrs.evolve(s, replaced=period(s)))


def reinforce_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.reinforcements(b, s):
        return attrs.evolve(s, stage=Stage.REINFORCE)
    return decoy_step(b, s)


def reinforce(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """One Japanese unit arrives from Paramushir (SHU-REINF.1, SHU-REINF.2)."""
    if (unit, h) not in landing.reinforcements(b, s):
        raise illegal(
            f"{unit} cannot arrive at {h}: one unit from Paramushir to hex 33 on "
            "the Japanese AM turn",
            "SHU-REINF.2",
            "SHU-REINF.1",
        )
    s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-REINF.2: one unit arrives
    if s.variant.is_("reinforcement_moves", "arrival_is_move"):
        s = attrs.evolve(s, moved=s.moved | {unit})
    return decoy_step(b, s)


def decoy_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.decoy_returns(b, s):
        return attrs.evolve(s, stage=Stage.DECOY)
    return move_step(b, s)


def return_decoy(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A discovered decoy comes back face down (SHU-COMBAT.6, AMB-SHU-21)."""
    if (unit, h) not in landing.decoy_returns(b, s):
        due = sorted({u for u, _ in landing.decoy_returns(b, s)})
        where = sorted({str(x) for _, x in landing.decoy_returns(b, s)})
        raise illegal(
            f"{unit} cannot come back at {h}: the decoys that may come back now are "
            f"{', '.join(due) or 'none'}, into {', '.join(where) or 'no hex'} "
            f"(decoy_return={s.variant.reading('decoy_return')}, AMB-SHU-21)",
            "SHU-COMBAT.6",
        )
    s = update(s, [unit], loc=Loc.MAP, hex=h, recover=0, revealed=False)
    if s.variant.is_("decoy_return_moves", "return_is_move") and s.variant.is_(
        "decoy_movement", "like_infantry"
    ):
        s = attrs.evolve(s, moved=s.moved | {unit})
    return decoy_step(b, s)


def decoy_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The Japanese keep the decoys still due off the map this player-turn: allowed only
    under `decoy_return_compulsory=optional` (SHU-COMBAT.6)."""
    if not landing.decoy_may_wait(s):
        raise illegal(
            "a decoy due back comes back now: it was removed only until the next turn "
            "(decoy_return_compulsory=compulsory)",
            "SHU-COMBAT.6",
        )
    return move_step(b, s)


def move_step(b: Board, s: ShumshuState) -> ShumshuState:
    return attrs.evolve(s, stage=Stage.MOVE)


def move_unit(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """One unit moves (SHU-MOVE.1 to SHU-MOVE.4, by `move_problem`)."""
    found = move_problem(b, s, unit, to)
    if found is not None:
        raise illegal(f"{found[1]} ({found[0]})", found[0])
    s = update(s, [unit], hex=to)
    return attrs.evolve(s, moved=s.moved | {unit})


def declare_step(b: Board, s: ShumshuState) -> ShumshuState:
    """Attacks follow movement (SHU-SEQ.1); the phase is passed over only when both players
    can see that no attack is possible.

    Every player-turn has its attacks (SHU-SEQ.1: "Russ land/move first, then attack, then
    Japanese do so"); declaring none is the phasing player's choice. Skipping the declaration
    when no legal one attacks is only a shortcut, and for the Japanese it would tell the
    Russians what SHU-COMBAT.5 hides: a lone face-down counter next to them is a decoy (it never
    attacks, AMB-SHU-30) exactly when the phase is skipped. So the Japanese declaration is
    entered, and left by `Done`, whenever an undisrupted Japanese piece, face up or down, is
    next to a Russian-held hex (`jp_contact`): what the Russian view shows, whichever piece
    is which. The residual is what the rules show anyway: a counter the Russians know to be a
    decoy by elimination (every real unit accounted for face up) tells them nothing new."""
    f = front(b, s)
    if any(join_ok(b, s, (), a, t) for a in f.attackers for t in f.contacts[a]):
        return attrs.evolve(s, stage=Stage.DECLARE, pending=())
    if s.side == JP and jp_contact(b, s):  # SHU-SEQ.1, SHU-COMBAT.5: "no attacks", said aloud
        return attrs.evolve(s, stage=Stage.DECLARE, pending=())
    return end_combat_phase(b, s)


def jp_contact(b: Board, s: ShumshuState) -> bool:
    """An undisrupted Japanese piece on the map next to a Russian-held hex (SHU-COMBAT.1): as
    far as the Russian view tells (SHU-COMBAT.5, face-down pieces all alike), the Japanese
    may have an attack to declare."""
    sides = hex_sides(b, s)
    return any(
        not p.disrupted and any(sides.get(n) == RU for n in b.neighbors(p.hex))
        for p in s.units
        if p.loc is Loc.MAP and p.hex is not None and b.side_of[p.id] == JP
    )


def join_attack(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A unit joins the attack into `h`, in data order, while the declaration can still be
    completed (SHU-COMBAT.1 to SHU-COMBAT.4); a Japanese one is revealed (SHU-COMBAT.5)."""
    pairs = pairs_of(s.pending)
    if not join_ok(b, s, pairs, unit, h):
        raise declaration_error(b, s, (*pairs, (unit, h)), joining=unit)
    pending = combats_of(b, (*pairs, (unit, h)))
    if b.side_of[unit] == JP and s.variant.is_("reveal", "in_combat"):
        s = update(s, [unit], revealed=True)  # SHU-COMBAT.5: revealed once in combat
    return attrs.evolve(s, pending=pending)


def declaration_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The attacks joined are the declaration, if it is a whole legal one (SHU-COMBAT.1 to
    SHU-COMBAT.4); then they are resolved."""
    pairs = pairs_of(s.pending)
    if not declaration_ok(b, s, pairs):
        raise declaration_error(b, s, pairs)
    return pick_step(b, s)


def pick_step(b: Board, s: ShumshuState) -> ShumshuState:
    if not s.pending:
        return end_combat_phase(b, s)
    if len(s.pending) == 1 or s.variant.is_("resolution_order", "declared"):
        return start_fight(b, s, s.pending[0])
    return attrs.evolve(s, stage=Stage.PICK)


def resolve_attack(b: Board, s: ShumshuState, h: Hex) -> ShumshuState:
    """The attacker picks the declared attack to resolve next (SHU-COMBAT.1)."""
    chosen = [c for c in s.pending if c.hex == h]
    if not chosen:
        raise illegal(f"no declared attack into {h} may be resolved now", "SHU-COMBAT.1")
    return start_fight(b, s, chosen[0])


# --- one combat ----------------------------------------------------------------------------------


def start_fight(b: Board, s: ShumshuState, c: Combat) -> ShumshuState:
    """Decoys in the hex are discovered (SHU-COMBAT.6, `decoy_discovery`); an attack on a hex
    that held only decoys is an automatic DE, or has no result (`decoy_only_attack`,
    AMB-SHU-21 iv). No other hex can be empty when its attack comes: only the combat into a
    hex moves or removes its units."""
    s = attrs.evolve(s, pending=tuple(x for x in s.pending if x != c))
    s = combat.discover_decoys(b, s, c.hex, next_period_start(s))
    fight = Fight(c.hex, c.attackers)
    s = attrs.evolve(s, fight=fight)
    if not real_in(b, s, c.hex):
        if s.variant.is_("decoy_only_attack", "no_result"):
            return fight_done(b, s)
        return after_result(b, combat.apply_result(b, s, fight, "DE"))
    return defenders_step(b, s)


def defenders_step(b: Board, s: ShumshuState) -> ShumshuState:
    fight = s.fight
    assert fight is not None
    choices = combat.defender_choices(b, s, fight.hex)
    if len(choices) == 1:
        return set_defenders(b, s, choices[0])
    return attrs.evolve(s, stage=Stage.DEFENDERS)


def defend(b: Board, s: ShumshuState, units: tuple[str, ...]) -> ShumshuState:
    """The defender picks the units that defend the hex (SHU-STACK.3)."""
    fight = s.fight
    assert fight is not None
    ordered = tuple(sorted(units, key=lambda u: b.order.get(u, len(b.order))))
    if ordered not in combat.defender_choices(b, s, fight.hex):
        raise illegal(combat.defence_refusal(b, s, fight.hex, ordered), "SHU-STACK.3")
    return set_defenders(b, s, ordered)


def set_defenders(b: Board, s: ShumshuState, defenders: tuple[str, ...]) -> ShumshuState:
    """Defenders are revealed: they are in combat (SHU-COMBAT.5)."""
    fight = s.fight
    assert fight is not None
    s = update(s, [d for d in defenders if b.side_of[d] == JP], revealed=True)  # SHU-COMBAT.5
    s = attrs.evolve(s, fight=attrs.evolve(fight, defenders=defenders))
    fight = s.fight
    assert fight is not None
    if combat.hold_allowed(b, s, fight):  # No Retreat! may be declared (SHU-LAND.8, SHU-LAND.9)
        return attrs.evolve(s, stage=Stage.HOLD)
    return commit_step(b, s)


def hold(b: Board, s: ShumshuState, yes: bool) -> ShumshuState:
    """The defender declares No Retreat!, or not (SHU-LAND.8, SHU-LAND.9)."""
    assert s.fight is not None
    s = attrs.evolve(s, fight=attrs.evolve(s.fight, hold=yes))
    return commit_step(b, s)


def commit_step(b: Board, s: ShumshuState) -> ShumshuState:
    fight = s.fight
    assert fight is not None
    o = odds(b, s, fight)
    if o.automatic:  # odds_beyond=automatic (AMB-SHU-16)
        return after_result(b, combat.apply_result(b, s, fight, o.automatic))
    choices = combat.commit_choices(b, s, fight)
    if len(choices) == 1:
        return set_commit(b, s, *choices[0])
    return attrs.evolve(s, stage=Stage.COMMIT)


def set_commit(b: Board, s: ShumshuState, press: bool, air: bool, banzai: bool) -> ShumshuState:
    fight = s.fight
    assert fight is not None
    fight = attrs.evolve(fight, press=press, air=air, banzai=banzai)
    if air:
        s = attrs.evolve(s, air_used=True, air_turn=s.turn)
    return attrs.evolve(s, fight=fight, stage=Stage.ROLL)


def commit(b: Board, s: ShumshuState, press: bool, air: bool, banzai: bool) -> ShumshuState:
    """The attacker presses (SHU-PRESS.1), calls the Ki-43 (SHU-AIR.1) and declares Banzai!
    (SHU-BANZAI.1), as far as each is open to it."""
    assert s.fight is not None
    if (press, air, banzai) not in combat.commit_choices(b, s, s.fight):
        raise illegal(
            "not a choice open to this attacker: only the attacker presses; the "
            "Ki-43 once per player-turn and Banzai! for Japanese attacks",
            "SHU-PRESS.1",
            "SHU-AIR.1",
            "SHU-BANZAI.1",
        )
    return set_commit(b, s, press, air, banzai)


def roll(b: Board, s: ShumshuState, face: int) -> ShumshuState:
    """The die is rolled (SHU-CRT.1) and the table read (SHU-CRT.2); a lander's roll is read
    as `landing_roll` says."""
    if not 1 <= face <= 6:
        raise illegal("a die shows 1 to 6", "SHU-CRT.1")
    fight = s.fight
    assert fight is not None
    fight = attrs.evolve(fight, face=face)
    s = attrs.evolve(s, fight=fight)
    if not fight.landing:
        reading = outcome(b, s, fight, face)
        return after_result(b, combat.apply_result(b, s, fight, reading.result))
    return landing_roll(b, s, fight, face)


def landing_roll(b: Board, s: ShumshuState, fight: Fight, face: int) -> ShumshuState:
    """A lander's roll: its worst roll sinks it with a landing capability (SHU-LAND.3,
    SHU-LAND.4); an unopposed lander is done; against defenders the table decides, after a
    worst roll only by reading (`worst_roll_opposed`), and an AE loses the lander."""
    lander = fight.attackers[0]
    worst = worst_roll(b, s, fight, face)
    if worst:  # SHU-LAND.3, SHU-LAND.4
        s = landing.lost_at_sea(landing.lose_ship(eliminate(b, s, [lander])), [lander])
    if not fight.defenders:
        return lander_done(b, s)
    result = outcome(b, s, fight, face).result
    if worst:
        if s.variant.is_("worst_roll_opposed", "crt_too") and result in crt.DEFENDER_RESULTS:
            return after_result(b, combat.apply_result(b, s, fight, result))
        return lander_done(b, attrs.evolve(s, fight=attrs.evolve(fight, result="lost")))
    if result == "AE":
        s = landing.lost_at_sea(eliminate(b, s, [lander]), [lander])
    return after_result(b, combat.apply_result(b, s, fight, result))


def after_result(b: Board, s: ShumshuState) -> ShumshuState:
    """Routs and withdrawals, one unit at a time (SHU-CRT.4, SHU-CRT.5)."""
    fight = s.fight
    assert fight is not None
    while fight.retreating:
        unit = fight.retreating[0]
        if s.piece(unit).loc is not Loc.MAP:
            fight = attrs.evolve(fight, retreating=fight.retreating[1:])
            s = attrs.evolve(s, fight=fight)
            continue
        if combat.retreat_choices(b, s, fight):
            return attrs.evolve(s, stage=Stage.RETREAT)
        s = combat.apply_retreat(b, s, unit, None)
        fight = s.fight
        assert fight is not None
    s = combat.lone_decoys(b, s, fight.hex, next_period_start(s))
    if fight.landing:
        return lander_done(b, s)
    return advance_step(b, s)


def retreat(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """The next routed or withdrawn unit goes one hex, into the island, free of enemy units
    (SHU-CRT.4, SHU-CRT.5)."""
    fight = s.fight
    assert fight is not None
    clause = "SHU-CRT.4" if fight.result == "DR" else "SHU-CRT.5"
    if unit != fight.retreating[0] or to not in combat.retreat_choices(b, s, fight):
        raise illegal(
            f"{fight.retreating[0]} goes next, one hex into a hex of the island "
            "free of enemy units",
            clause,
        )
    return after_result(b, combat.apply_retreat(b, s, unit, to))


def advance_step(b: Board, s: ShumshuState) -> ShumshuState:
    """Victors may advance (SHU-COMBAT.13)."""
    fight = s.fight
    assert fight is not None
    winners = combat.victors(b, s, fight) if not fight.winners else fight.winners
    winners = tuple(w for w in winners if combat.advance_choices(b, s, fight, w))
    if winners:  # SHU-COMBAT.13: the victors may advance
        return attrs.evolve(s, stage=Stage.ADVANCE, fight=attrs.evolve(fight, winners=winners))
    return fight_done(b, s)


def advance(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """A victor advances into the defender's hex or an empty hex next to it
    (SHU-COMBAT.13)."""
    fight = s.fight
    assert fight is not None
    if unit not in fight.winners or to not in combat.advance_choices(b, s, fight, unit):
        raise illegal(
            f"{unit} cannot advance into {to}: victors advance into the "
            "defender's hex or an empty hex next to it",
            "SHU-COMBAT.13",
        )
    s = update(s, [unit], hex=to)  # SHU-COMBAT.13: a victor advances
    fight = attrs.evolve(fight, winners=tuple(w for w in fight.winners if w != unit))
    s = attrs.evolve(s, fight=fight)
    return advance_step(b, s) if fight.winners else fight_done(b, s)


def fight_done(b: Board, s: ShumshuState) -> ShumshuState:
    return pick_step(b, attrs.evolve(s, fight=None))


# --- ends of phases, turns and the game ----------------------------------------------------------


def end_combat_phase(b: Board, s: ShumshuState) -> ShumshuState:
    """Russian units recover at the end of the Japanese combat phase (SHU-DISRUPT.4)."""
    s = attrs.evolve(s, pending=(), fight=None)
    if s.side == JP:
        s = recover(b, s, RU)
    return end_player_turn(b, s)


def end_player_turn(b: Board, s: ShumshuState) -> ShumshuState:
    """Japanese units recover at the end of a player-turn (SHU-DISRUPT.3); after the Japanese
    player-turn of the last half-day the game ends (SHU-WIN.3, AMB-SHU-2)."""
    s = recover(b, s, JP)
    if s.side == RU:
        return start_player_turn(b, s, JP)
    if s.turn >= game_length(s.variant):
        return game_over(b, s)
    return start_player_turn(b, attrs.evolve(s, turn=s.turn + 1), RU)  # SHU-SEQ.2: next half-day


def star_hexes(b: Board, s: ShumshuState) -> tuple[bool, bool]:
    """Whether the Russians have the 1-star and the 2-star hex: occupied now, or ever entered
    (AMB-SHU-3)."""
    if s.variant.is_("victory_timing", "ever_entered"):
        return "1" in s.taken, "2" in s.taken
    return holder(b, s, b.data.one_star) == RU, holder(b, s, b.data.two_star) == RU


def verdict(b: Board, s: ShumshuState) -> Outcome:
    """Marginal (SHU-WIN.1) or strategic (SHU-WIN.2) Russian victory, else Japanese
    (SHU-WIN.3)."""
    one, two = star_hexes(b, s)
    if two and (one or s.variant.is_("strategic_needs", "two_star_alone")):
        return Outcome(
            RU,
            {RU: 2, JP: 0},
            "SHU-WIN.2",
            f"strategic victory: the Russians took {b.data.two_star}",
        )
    if one:
        return Outcome(
            RU,
            {RU: 1, JP: 0},
            "SHU-WIN.1",
            f"marginal victory: the Russians took {b.data.one_star}",
        )
    return Outcome(JP, {RU: 0, JP: 1}, "SHU-WIN.3", "the Russians hold no star hex")


def game_over(b: Board, s: ShumshuState) -> ShumshuState:
    return attrs.evolve(
        s, stage=Stage.OVER, result=verdict(b, s), pending=(), fight=None, sail=None
    )


def settle(b: Board, s: ShumshuState) -> ShumshuState:
    """After every action: the beachhead is lost when emptied or taken (AMB-SHU-7); the AT
    guns have arrived once landed (SHU-TANK.2); star hexes entered are recorded and, when they
    count on entry, a strategic victory ends the game (AMB-SHU-3)."""
    if s.stage is Stage.OVER:
        return s
    bh = s.beachhead
    if bh is not None:
        who = holder(b, s, bh)
        if who == JP or (who is None and s.variant.is_("beachhead_lost", "emptied_or_taken")):
            s = attrs.evolve(s, beachhead=None)  # SHU-LAND.10: lost, a new landing may be tried
    if not s.at_arrived and any(
        b.unit(p.id).type == "at_gun" and p.loc is Loc.MAP for p in s.units
    ):
        s = attrs.evolve(s, at_arrived=True)  # SHU-TANK.2: the AT guns have arrived
    if s.variant.is_("victory_timing", "ever_entered"):
        taken = set(s.taken)
        if holder(b, s, b.data.one_star) == RU:
            taken.add("1")
        if holder(b, s, b.data.two_star) == RU:
            taken.add("2")
        if taken != s.taken:
            s = attrs.evolve(s, taken=frozenset(taken))
            one, two = star_hexes(b, s)
            if two and (one or s.variant.is_("strategic_needs", "two_star_alone")):
                return game_over(b, s)
    return s
