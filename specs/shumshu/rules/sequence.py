"""The sequence of play (SHU-SEQ.1, SHU-SEQ.2): per half-day turn the Russian player-turn
(regiments, sea movement with the air strike and landings, replacements, movement, attacks)
and the Japanese one (reinforcement, decoys, movement, attacks), recovery at the ends of
player-turns, and on to the end of the game.

Each `*_step` function enters a step if it offers a choice, or goes on to the next one: a
state handed back by `apply` always waits for a decision (or a die), or the game is over. The
steps call one another round the turn, so they stay together here; the decisions, one
function per kind of action, are in `turn_decisions` and `combat_decisions`, set-up in
`setup` and the end of the game in `ending`. `illegal` is the refusal all of them raise.
"""

from __future__ import annotations

import attrs

from kernel.errors import IllegalAction
from specs.shumshu.rules import combat, landing
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import join_ok
from specs.shumshu.rules.declare import front
from specs.shumshu.rules.effects import recover
from specs.shumshu.rules.ending import game_length, game_over
from specs.shumshu.rules.odds import odds
from specs.shumshu.rules.state import JP, RU, Combat, Fight, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import hex_sides, holder, next_period_start, real_in, update


def illegal(message: str, *clauses: str) -> IllegalAction:
    """An action refused: the message followed by the clauses it breaks."""
    return IllegalAction(f"{message} ({', '.join(clauses)})", clauses=clauses)


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


def sail_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.sail_choices(b, s):
        return attrs.evolve(s, stage=Stage.SAIL)
    return air_step(b, s)


def air_step(b: Board, s: ShumshuState) -> ShumshuState:
    """The Ki-43 against shipping, before the landing rolls (SHU-AIR.2, AMB-SHU-23)."""
    if not landing.strike_possible(s):
        return landing_step(b, s)
    if s.variant.is_("air_strike", "mandatory"):
        return attrs.evolve(s, stage=Stage.AIR_ROLL)
    return attrs.evolve(s, stage=Stage.AIR)


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


def reinforce_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.reinforcements(b, s):
        return attrs.evolve(s, stage=Stage.REINFORCE)
    return decoy_step(b, s)


def decoy_step(b: Board, s: ShumshuState) -> ShumshuState:
    if landing.decoy_returns(b, s):
        return attrs.evolve(s, stage=Stage.DECOY)
    return move_step(b, s)


def move_step(b: Board, s: ShumshuState) -> ShumshuState:
    return attrs.evolve(s, stage=Stage.MOVE)


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
    declaring = attrs.evolve(s, stage=Stage.DECLARE, pending=())
    # asked of the position the declaration is made in: its listing reuses the answers
    f = front(b, declaring)
    if any(join_ok(b, declaring, (), a, t) for a in f.attackers for t in f.contacts[a]):
        return declaring
    if s.side == JP and jp_contact(b, s):  # SHU-SEQ.1, SHU-COMBAT.5: "no attacks", said aloud
        return declaring
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


def pick_step(b: Board, s: ShumshuState) -> ShumshuState:
    if not s.pending:
        return end_combat_phase(b, s)
    if len(s.pending) == 1 or s.variant.is_("resolution_order", "declared"):
        return start_fight(b, s, s.pending[0])
    return attrs.evolve(s, stage=Stage.PICK)


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


def advance_step(b: Board, s: ShumshuState) -> ShumshuState:
    """Victors may advance (SHU-COMBAT.13)."""
    fight = s.fight
    assert fight is not None
    winners = combat.victors(b, s, fight) if not fight.winners else fight.winners
    winners = tuple(w for w in winners if combat.advance_choices(b, s, fight, w))
    if winners:  # SHU-COMBAT.13: the victors may advance
        return attrs.evolve(s, stage=Stage.ADVANCE, fight=attrs.evolve(fight, winners=winners))
    return fight_done(b, s)


def fight_done(b: Board, s: ShumshuState) -> ShumshuState:
    return pick_step(b, attrs.evolve(s, fight=None))


# --- ends of phases and turns --------------------------------------------------------------------


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
