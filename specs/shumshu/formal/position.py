"""The position check: refuse what no play of the rules could reach, naming the JSON field and
the clause.

Each invariant is written once, here, and used twice: by `check_position` on every state the
codec reads, and by the tests after every step of random play (tests/shumshu/test_playouts.py),
which is what shows that play never leaves them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from kernel.errors import ImpossiblePosition
from kernel.hexes import Hex
from specs.shumshu.data.variants import LENGTH
from specs.shumshu.rules import combat, landing
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import extends
from specs.shumshu.rules.declare import combats_of, pairs_of
from specs.shumshu.rules.reader import ShumshuRules
from specs.shumshu.rules.sequence import setup_waiting, verdict
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import holder, period, real_in


@attrs.frozen
class Breach:
    field: str
    clause: str
    message: str


@attrs.frozen
class Invariant:
    id: str
    statement: str
    find: Callable[[Board, ShumshuState], Iterator[Breach]]


_LOCS = {
    ("JP", "decoy"): {Loc.MAP, Loc.REMOVED, Loc.POOL},
    ("JP", "other"): {Loc.MAP, Loc.POOL, Loc.GONE},
    ("RU", "regiment"): {Loc.MAP, Loc.UNFORMED, Loc.GONE},
    ("RU", "other"): {Loc.MAP, Loc.POOL, Loc.GONE, Loc.SEA, Loc.IN_REGIMENT, Loc.SUNK},
}


def _pieces(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Each piece where its kind can be, on a hex exactly when on the map (SHU-SETUP.1 to
    SHU-SETUP.3, SHU-RGT.1, SHU-COMBAT.6); no Japanese Shumshu piece left on Paramushir after
    set-up; no unit disrupted off the map but in a sea box."""
    setup_over = s.stage is not Stage.SETUP
    for i, p in enumerate(s.units):
        spec = b.unit(p.id)
        kind = "decoy" if spec.is_decoy else "regiment" if spec.is_regiment else "other"
        where = f"units[{i}]"
        if p.loc not in _LOCS[spec.side, kind]:
            yield Breach(f"{where}.loc", "SHU-SETUP.1", f"{p.id} cannot be {p.loc.value}")
        if (p.loc is Loc.MAP) != (p.hex is not None):
            yield Breach(f"{where}.hex", "SHU-SETUP.1", f"{p.id} has a hex only on the map")
        if setup_over and spec.setup == "shumshu" and p.loc is Loc.POOL:
            yield Breach(f"{where}.loc", "SHU-SETUP.1", f"{p.id} was never set up on Shumshu")
        if spec.side == RU and spec.regiment is None and p.loc is Loc.IN_REGIMENT:
            yield Breach(f"{where}.loc", "SHU-RGT.1", f"{p.id} belongs to no regiment")
        if p.disrupted and p.loc not in (Loc.MAP, Loc.SEA):
            yield Breach(f"{where}.disrupted", "SHU-DISRUPT.1", f"{p.id} is disrupted off the map")
        if p.loc is Loc.SEA and not p.disrupted:
            yield Breach(f"{where}.disrupted", "SHU-LAND.7", f"{p.id} waits at sea undisrupted")
        if spec.side == RU and p.revealed:
            yield Breach(f"{where}.revealed", "SHU-COMBAT.5", "only Japanese units are hidden")
        if spec.side == JP and p.disrupted and not p.revealed:
            yield Breach(f"{where}.revealed", "SHU-DISRUPT.5", f"{p.id} is disrupted, so face up")
        if p.loc is Loc.POOL and p.revealed:  # on Paramushir, or not yet set up
            yield Breach(f"{where}.revealed", "SHU-COMBAT.5", f"{p.id} has not fought, so hidden")
        v = s.variant
        if (
            p.loc is Loc.GONE
            and spec.side == JP
            and not p.revealed
            and v.is_("eliminated_face", "face_up")
        ):
            yield Breach(f"{where}.revealed", "SHU-COMBAT.5", f"{p.id} was eliminated face up")
        if p.loc is Loc.SUNK and not v.is_("sunk_passengers", "lost_for_good"):
            yield Breach(f"{where}.loc", "SHU-AIR.2", f"{p.id} sunk counts as eliminated")
        if spec.is_regiment and p.loc is Loc.GONE and not v.is_("reform", "not_after_loss"):
            yield Breach(f"{where}.loc", "SHU-RGT.1", f"{p.id} may always form again")


def _regiments(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """A regiment is on the map exactly while its three battalions are absorbed (SHU-RGT.1,
    AMB-SHU-10)."""
    for i, p in enumerate(s.units):
        spec = b.unit(p.id)
        if not spec.is_regiment:
            continue
        for bn in b.data.battalions_of(p.id):
            inside = s.piece(bn).loc is Loc.IN_REGIMENT
            if inside != (p.loc is Loc.MAP):
                yield Breach(
                    f"units[{i}].loc",
                    "SHU-RGT.1",
                    f"{bn} is in its regiment exactly while {p.id} is formed",
                )


def _one_side(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Only one side in a hex (SHU-STACK.1)."""
    seen: dict[Hex, str] = {}
    for i, p in enumerate(s.units):
        if p.loc is Loc.MAP and p.hex is not None:
            side = b.side_of[p.id]
            if seen.setdefault(p.hex, side) != side:
                yield Breach(f"units[{i}].hex", "SHU-STACK.1", f"both sides in {p.hex}")


def _recovery(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """A disrupted unit recovers at a player-turn not yet ended (SHU-DISRUPT.3,
    SHU-DISRUPT.4); a discovered decoy returns next turn (SHU-COMBAT.6)."""
    pt = s.player_turn
    for i, p in enumerate(s.units):
        side = b.side_of[p.id]
        where = f"units[{i}].recover"
        if p.disrupted:
            span = 1 if side == JP else 5
            if not pt <= p.recover <= pt + span or (side == RU and p.recover % 2):
                yield Breach(
                    where,
                    "SHU-DISRUPT.4" if side == RU else "SHU-DISRUPT.3",
                    f"{p.id} recovers at player-turn {p.recover}, not within its recovery window",
                )
        elif p.loc is Loc.REMOVED:
            if not 1 <= p.recover <= s.turn + 2:
                yield Breach(
                    where, "SHU-COMBAT.6", f"{p.id} returns next turn, not in turn {p.recover}"
                )
        elif p.recover != 0:
            yield Breach(where, "SHU-DISRUPT.1", f"{p.id} is not disrupted and has no recovery")


def _counters(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Counters within the rules' bounds: the turn within the game's length (AMB-SHU-2), the
    capabilities never above three (SHU-LAND.3), one replacement per turn (SHU-REPL.1), the
    Ki-43's use in this turn (AMB-SHU-23), star hexes recorded only when they count on entry
    (AMB-SHU-3), the AT guns arrived once landed (SHU-TANK.2)."""
    v = s.variant
    if s.turn > LENGTH[v.reading("game_length")]:
        yield Breach("turn", "SHU-SEQ.2", f"turn {s.turn} is past the game's length")
    if s.ships > b.data.capabilities:
        yield Breach("ships", "SHU-LAND.3", f"{s.ships} capabilities, more than the three")
    if s.replaced > period(s):
        yield Breach("replaced", "SHU-REPL.1", "a replacement in a turn still to come")
    if s.air_turn > s.turn or (s.air_used and s.air_turn != s.turn):
        yield Breach("air_turn", "SHU-AIR.1", "the Ki-43 used in another turn than recorded")
    if s.taken and not v.is_("victory_timing", "ever_entered"):
        yield Breach("taken", "SHU-WIN.1", "star hexes are recorded only when entry counts")
    at = [p for p in s.units if b.unit(p.id).type == "at_gun" and p.loc is Loc.MAP]
    if at and not s.at_arrived:
        yield Breach("at_arrived", "SHU-TANK.2", "the AT guns are on the map, so they arrived")
    if s.stage is Stage.SETUP and (s.turn != 1 or s.side != JP):
        yield Breach("stage", "SHU-SETUP.1", "the set-up is before Turn 1's Russian turn")


def _schedule(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """No Russian unit ashore before its turn (AMB-SHU-8, SHU-REINF.3) nor during set-up
    (SHU-SETUP.3)."""
    for i, p in enumerate(s.units):
        spec = b.unit(p.id)
        if spec.side != RU or p.loc is Loc.POOL or spec.is_regiment:
            continue
        if p.loc is Loc.UNFORMED:
            continue
        if s.stage is Stage.SETUP or (
            s.variant.is_("schedule", "data") and spec.from_turn > s.turn
        ):
            yield Breach(f"units[{i}].loc", "SHU-SETUP.3", f"{p.id} cannot have sailed yet")


def _beachhead(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """The beachhead is a coastal hex outside the red range, never held by the Japanese, held
    by the Russians unless only a Japanese entry ends it (SHU-LAND.1, SHU-LAND.5, AMB-SHU-7)."""
    h = s.beachhead
    if h is None:
        return
    if not b.is_coastal(h) or b.in_red(h):
        yield Breach("beachhead", "SHU-LAND.5", f"{h} is not a coastal hex open to landings")
    who = holder(b, s, h)
    if who == JP or (who is None and s.variant.is_("beachhead_lost", "emptied_or_taken")):
        yield Breach("beachhead", "SHU-LAND.10", f"the beachhead {h} is lost")


def _stage_records(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Each step's records appear in their step only, agree with the pieces, and leave the
    player to move something to do (so a position read from JSON can always be played on)."""
    stage = s.stage
    if (stage is Stage.OVER) != (s.result is not None):
        yield Breach("result", "SHU-WIN.3", "a finished game has a result, and only it")
    if stage in _RU_STAGES and s.side != RU:
        yield Breach("side", "SHU-SEQ.1", f"stage {stage.value} is in the Russian player-turn")
    if stage in (Stage.REINFORCE, Stage.DECOY, Stage.SETUP) and s.side != JP:
        yield Breach("side", "SHU-SEQ.1", f"stage {stage.value} is in the Japanese player-turn")
    if (s.fight is not None) != (stage in _FIGHT_STAGES):
        yield Breach("fight", "SHU-COMBAT.1", "a combat is resolved only in a combat step")
    landing_fight = s.fight is not None and s.fight.landing
    if s.sail is not None and stage not in _SAIL_STAGES and not landing_fight:
        yield Breach("sail", "SHU-LAND.1", "units are at sea only in the Russian sea movement")
    if landing_fight and s.side != RU:
        yield Breach("side", "SHU-LAND.2", "landings are in the Russian player-turn")
    if s.sail is not None:
        yield from _sail(b, s)
    if s.pending and stage not in {Stage.DECLARE, Stage.PICK} | _FIGHT_STAGES:
        yield Breach("pending", "SHU-COMBAT.1", "attacks are pending only in the combat phase")
    if s.pending and landing_fight:
        yield Breach("pending", "SHU-SEQ.1", "attacks come after the landings")
    yield from _pending(b, s)
    if s.fight is not None:
        yield from _fight(b, s)
    if s.acted and s.side != RU:
        yield Breach("acted", "SHU-SEQ.1", "only Russian units land or form in a player-turn")
    for u in s.moved:
        if b.side_of[u] != s.side or (
            b.unit(u).is_decoy and s.variant.is_("decoy_movement", "fixed")
        ):
            yield Breach("moved", "SHU-MOVE.1", f"{u} cannot have moved in this player-turn")
    for u in s.acted:
        spec = b.unit(u)
        if spec.side != RU or (spec.is_regiment and not s.variant.is_("regiment_use", "next_turn")):
            yield Breach("acted", "SHU-SEQ.1", f"{u} cannot have landed or formed this turn")
    if s.moved and (stage in _BEFORE_MOVE or landing_fight or stage is Stage.REINFORCE):
        yield Breach("moved", "SHU-MOVE.1", "units move after the sea movement and arrivals")
    checks = {
        Stage.SETUP: (bool(setup_waiting(b, s)), "SHU-SETUP.1", "a piece to set up"),
        Stage.FORM: (bool(landing.formable(b, s)), "SHU-RGT.1", "a regiment that can form"),
        Stage.REPLACE: (bool(landing.replacements(b, s)), "SHU-REPL.1", "a battalion to replace"),
        Stage.REINFORCE: (
            bool(landing.reinforcements(b, s)),
            "SHU-REINF.2",
            "a unit that can arrive",
        ),
        Stage.DECOY: (bool(landing.decoy_returns(b, s)), "SHU-COMBAT.6", "a decoy to return"),
        Stage.AIR: (landing.strike_possible(s), "SHU-AIR.2", "the Ki-43 free to strike"),
        Stage.AIR_ROLL: (landing.strike_possible(s), "SHU-AIR.2", "the Ki-43 free to strike"),
        Stage.PICK: (
            len(s.pending) >= 2 and s.variant.is_("resolution_order", "attacker_chooses"),
            "SHU-COMBAT.1",
            "two attacks to choose from",
        ),
    }
    if stage in checks:
        ok, clause, what = checks[stage]
        if not ok:
            yield Breach("stage", clause, f"stage {stage.value} needs {what}")


_RU_STAGES = {Stage.FORM, Stage.SAIL, Stage.AIR, Stage.AIR_ROLL, Stage.REPLACE}
_SAIL_STAGES = {Stage.SAIL, Stage.AIR, Stage.AIR_ROLL}
_BEFORE_MOVE = {
    Stage.SETUP,
    Stage.FORM,
    Stage.SAIL,
    Stage.AIR,
    Stage.AIR_ROLL,
    Stage.REPLACE,
}
_FIGHT_STAGES = {
    Stage.DEFENDERS,
    Stage.HOLD,
    Stage.COMMIT,
    Stage.ROLL,
    Stage.RETREAT,
    Stage.ADVANCE,
}


def _pending(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Declared attacks: undisrupted attackers of the phasing side next to an enemy hex, each
    in one attack, the attacks in their declared form; while declaring, a declaration some
    legal one extends (SHU-COMBAT.1 to SHU-COMBAT.4)."""
    enemy = JP if s.side == RU else RU
    seen: set[str] = set()
    hexes: set[Hex] = set()
    fighting = set(s.fight.attackers) if s.fight is not None else set()
    for i, c in enumerate(s.pending):
        where = f"pending[{i}]"
        if not c.attackers or c.hex in hexes or (s.fight is not None and c.hex == s.fight.hex):
            yield Breach(where, "SHU-COMBAT.1", f"one attack into {c.hex}, with attackers")
        hexes.add(c.hex)
        if holder(b, s, c.hex) != enemy:
            yield Breach(f"{where}.hex", "SHU-COMBAT.1", f"{c.hex} is not an enemy hex")
        for a in c.attackers:
            p = s.piece(a)
            if (
                b.side_of[a] != s.side
                or p.loc is not Loc.MAP
                or p.hex not in b.neighbors(c.hex)
                or a in seen
                or a in fighting
            ):
                yield Breach(f"{where}.attackers", "SHU-COMBAT.1", f"{a} cannot attack {c.hex}")
            seen.add(a)
    if s.stage is Stage.DECLARE:
        pairs = pairs_of(s.pending)
        if s.pending != combats_of(b, pairs) or not extends(b, s, pairs):
            yield Breach(
                "pending", "SHU-COMBAT.4", "no legal declaration goes on from these attacks"
            )


def _sail(b: Board, s: ShumshuState) -> Iterator[Breach]:
    sail = s.sail
    assert sail is not None
    for u in sail.party:
        if not landing.available(b, s, u):
            yield Breach("sail.party", "SHU-LAND.2", f"{u} is not a Russian unit that may sail")
    landing_party = sail.hex is not None
    ranks = [b.order[u] for u in sail.party]
    if ranks != sorted(ranks) and not (
        landing_party and s.variant.is_("lander_order", "russian_choice")
    ):
        yield Breach("sail.party", "SHU-LAND.2", "the units sail in the counter list's order")
    if len(sail.party) > landing.party_limit(s, landing_party) and not sail.sailed:
        yield Breach("sail.party", "SHU-LAND.2", "more units at sea than the ships carry")
    if sail.sailed != (s.stage is not Stage.SAIL):
        yield Breach("sail.sailed", "SHU-LAND.2", "embarking ends when the units sail")
    if sail.hex is not None:
        if not b.is_coastal(sail.hex) or b.in_red(sail.hex):
            yield Breach("sail.hex", "SHU-LAND.5", f"no landing at {sail.hex}")
        barred = landing.hex_barred(b, s, sail.hex)
        if barred is not None and s.stage in _SAIL_STAGES:  # no lander has rolled yet
            yield Breach("sail.hex", barred[0], barred[1])
        if s.stage is Stage.SAIL and not sail.party and not landing.embark_choices(b, s):
            yield Breach("sail.party", "SHU-LAND.2", "a landing with nobody to land")
        if s.variant.is_("landings", "one_beachhead") and s.beachhead is not None:
            yield Breach("sail.hex", "SHU-LAND.10", "a landing while a beachhead holds")
    else:
        if sail.lost_ship or sail.landed:
            yield Breach("sail", "SHU-LAND.4", "deliveries do not roll")
        if sail.party and not landing.delivery_possible(s) and s.stage is Stage.SAIL:
            yield Breach("sail.party", "SHU-REINF.3", "deliveries need a beachhead and an AM turn")


def _fight(b: Board, s: ShumshuState) -> Iterator[Breach]:
    fight = s.fight
    assert fight is not None
    stage = s.stage
    defender = JP if s.side == RU else RU
    before_roll = stage in (Stage.DEFENDERS, Stage.HOLD, Stage.COMMIT, Stage.ROLL)
    if not fight.attackers or any(b.side_of[a] != s.side for a in fight.attackers):
        yield Breach("fight.attackers", "SHU-COMBAT.1", "the attackers are the phasing side's")
        return
    if fight.landing:
        sail = s.sail
        if (
            sail is None
            or sail.hex != fight.hex
            or not sail.party
            or sail.party[0] != fight.attackers[0]
            or len(fight.attackers) != 1
        ):
            yield Breach("fight", "SHU-LAND.2", "a landing roll is the next lander's, alone")
        elif before_roll and s.piece(fight.attackers[0]).loc is not Loc.POOL:
            yield Breach("fight.attackers", "SHU-LAND.2", "the lander is at sea until it lands")
    elif before_roll:
        for a in fight.attackers:
            p = s.piece(a)
            if p.loc is not Loc.MAP or p.hex not in b.neighbors(fight.hex):
                yield Breach("fight.attackers", "SHU-COMBAT.1", f"{a} cannot attack {fight.hex}")
    if fight.banzai and (s.side != JP or fight.landing):
        yield Breach("fight.banzai", "SHU-BANZAI.1", "Banzai! is a Japanese attack")
    if fight.air and not (s.side == JP and s.air and s.air_used and not fight.landing):
        yield Breach("fight.air", "SHU-AIR.1", "the Ki-43 shifts a Japanese attack it flies in")
    real = [p.id for p in real_in(b, s, fight.hex)]
    if any(b.side_of[d] != defender or d not in real for d in fight.defenders) and before_roll:
        yield Breach("fight.defenders", "SHU-STACK.3", "the defenders are units of the hex")
    if before_roll:
        if fight.result or fight.face or fight.retreating or fight.winners or fight.first_to:
            yield Breach("fight.result", "SHU-CRT.1", "nothing is decided before the roll")
        opposed = holder(b, s, fight.hex) == defender
        if not fight.landing and not real:
            yield Breach("fight.hex", "SHU-COMBAT.1", f"nobody defends {fight.hex}")
        if stage is Stage.DEFENDERS:
            if fight.defenders or not opposed or not real:
                yield Breach("fight.defenders", "SHU-STACK.3", "the defenders are still to pick")
        elif opposed or not fight.landing:
            if fight.defenders not in combat.defender_choices(b, s, fight.hex):
                yield Breach("fight.defenders", "SHU-STACK.3", "not a legal set of defenders")
        elif fight.defenders:
            yield Breach("fight.defenders", "SHU-STACK.3", "an empty hex has no defenders")
        if stage in (Stage.DEFENDERS, Stage.HOLD) and (
            fight.hold or fight.press or fight.air or fight.banzai
        ):
            yield Breach("fight.hold", "SHU-LAND.8", "No Retreat! and the attack come later")
        if stage is Stage.HOLD and not combat.hold_allowed(b, s, fight):
            yield Breach("fight.hold", "SHU-LAND.8", "nobody may declare No Retreat! here")
        if fight.hold and not fight.defenders:
            yield Breach("fight.hold", "SHU-LAND.8", "No Retreat! needs defenders")
        if stage is Stage.COMMIT and (fight.press or fight.air or fight.banzai):
            yield Breach("fight.press", "SHU-PRESS.1", "the attacker has not chosen yet")
        if stage is Stage.ROLL and (fight.press, fight.air, fight.banzai) not in _commits(b, s):
            yield Breach("fight.press", "SHU-PRESS.1", "not a choice open to this attacker")
    if stage is Stage.RETREAT:
        ok = fight.result in ("DR", "DW") and bool(fight.retreating)
        if ok:
            first = s.piece(fight.retreating[0])
            ok = first.loc is Loc.MAP and first.hex == fight.hex
            ok = ok and all(
                b.side_of[u] == defender and s.piece(u).hex == fight.hex for u in fight.retreating
            )
            ok = ok and bool(combat.retreat_choices(b, s, fight))
        if not ok:
            yield Breach("fight.retreating", "SHU-CRT.4", "units rout or withdraw after a DR or DW")
    elif fight.retreating:
        yield Breach("fight.retreating", "SHU-CRT.4", "routs and withdrawals come after the roll")
    if fight.first_to is not None and fight.first_to not in b.neighbors(fight.hex):
        yield Breach("fight.first_to", "SHU-CRT.4", "a retreat goes one hex")
    if stage is Stage.ADVANCE:
        ok = not fight.landing and bool(fight.winners)
        ok = ok and all(
            w in fight.attackers
            and s.piece(w).loc is Loc.MAP
            and not s.piece(w).disrupted
            and combat.advance_choices(b, s, fight, w)
            for w in fight.winners
        )
        if not ok:
            yield Breach("fight.winners", "SHU-COMBAT.13", "an advance needs victors")
    elif fight.winners:
        yield Breach("fight.winners", "SHU-COMBAT.13", "victors advance in the advance step")


def _commits(b: Board, s: ShumshuState) -> list[tuple[bool, bool, bool]]:
    """The attacker's choices as they were before the roll (the Ki-43's use is recorded)."""
    fight = s.fight
    assert fight is not None
    before = attrs.evolve(s, air_used=False) if fight.air else s
    if fight.air and before.variant.is_("air_frequency", "once_per_turn"):
        before = attrs.evolve(before, air_turn=0)
    return combat.commit_choices(b, before, fight)


def _result(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """The result is the one the star hexes give (SHU-WIN.1 to SHU-WIN.3)."""
    if s.result is None:
        return
    if s.result != verdict(b, s):
        yield Breach("result", "SHU-WIN.3", "the result is not what the star hexes give")


def _defenders(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """No more units defend a hex than the limit: 3 Russian or 4 Japanese (SHU-STACK.3)."""
    fight = s.fight
    if fight is None:
        return
    for side, limit in combat.DEFENDER_LIMIT.items():
        n = sum(1 for d in fight.defenders if b.side_of[d] == side)
        if n > limit:
            yield Breach(
                "fight.defenders", "SHU-STACK.3", f"{n} units of {side} defend; at most {limit}"
            )


def _decoys(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """A decoy never attacks or defends: it has no factors (SHU-COMBAT.6, AMB-SHU-30)."""
    fight = s.fight
    fighting = [] if fight is None else [*fight.attackers, *fight.defenders]
    for u in [*(a for c in s.pending for a in c.attackers), *fighting]:
        if b.unit(u).is_decoy:
            yield Breach("fight", "SHU-COMBAT.6", f"{u} is a decoy: it never attacks or defends")


def _attackers(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """A disrupted unit never attacks (SHU-DISRUPT.1): the units of a declared attack are
    undisrupted until their combat's roll."""
    before_roll = s.stage in (Stage.DEFENDERS, Stage.HOLD, Stage.COMMIT, Stage.ROLL)
    fight = s.fight
    fighting = fight.attackers if fight is not None and before_roll else ()
    for u in [*(a for c in s.pending for a in c.attackers), *fighting]:
        if s.piece(u).disrupted:
            yield Breach("pending", "SHU-DISRUPT.1", f"{u} is disrupted and cannot attack")


def _setup(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """During the set-up the Japanese place their Shumshu pieces, face down and nothing else
    (SHU-SETUP.1): every other Japanese unit is still on Paramushir (SHU-SETUP.2), and a
    Shumshu piece is still to place or on its hex, undisrupted."""
    if s.stage is not Stage.SETUP:
        return
    for i, p in enumerate(s.units):
        spec = b.unit(p.id)
        if spec.side != JP:
            continue  # every Russian unit off-board: `_schedule` (SHU-SETUP.3)
        where = f"units[{i}]"
        if spec.setup != "shumshu" and p.loc is not Loc.POOL:
            yield Breach(
                f"{where}.loc", "SHU-SETUP.2", f"{p.id} starts on Paramushir, not {p.loc.value}"
            )
        elif p.loc not in (Loc.POOL, Loc.MAP) or p.disrupted or p.revealed or p.recover:
            yield Breach(
                f"{where}.loc", "SHU-SETUP.1", f"{p.id} is set up face down on Shumshu or waits"
            )


def reinforcements_arrived(s: ShumshuState) -> int:
    """How many Japanese reinforcements can have come from Paramushir by now: one in each
    Japanese AM player-turn (SHU-REINF.1, SHU-REINF.2), those of the turns before this one
    (the odd ones, SHU-SEQ.2) and this one's once its reinforcement step is past."""
    earlier = s.turn // 2
    now = s.is_am and s.side == JP and s.stage not in (Stage.SETUP, Stage.REINFORCE)
    return earlier + int(now)


def _arrivals(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """No more Japanese units have left Paramushir than the AM turns brought
    (`reinforcements_arrived`, SHU-REINF.1, SHU-REINF.2): a unit that did is on the map or
    eliminated, never back on Paramushir."""
    come = [
        i
        for i, p in enumerate(s.units)
        if b.side_of[p.id] == JP and b.unit(p.id).setup != "shumshu" and p.loc is not Loc.POOL
    ]
    allowed = reinforcements_arrived(s)
    if len(come) > allowed:
        yield Breach(
            f"units[{come[allowed]}].loc",
            "SHU-REINF.2",
            f"{len(come)} Japanese units came from Paramushir, and by turn {s.turn} "
            f"({s.side}, {s.stage.value}) the AM turns brought at most {allowed}",
        )


def _decoy_faces(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """A decoy on the map is face down and undisrupted: it never attacks or defends, so only
    discovery shows it, and a discovered decoy leaves the map face up until it comes back face
    down (SHU-COMBAT.5, SHU-COMBAT.6, AMB-SHU-30)."""
    for i, p in enumerate(s.units):
        if not b.unit(p.id).is_decoy:
            continue
        if p.loc is Loc.MAP and (p.revealed or p.disrupted):
            field = "revealed" if p.revealed else "disrupted"
            yield Breach(
                f"units[{i}].{field}",
                "SHU-COMBAT.6",
                f"{p.id} is face up or disrupted on the map: a discovered decoy is removed",
            )
        if p.loc is Loc.REMOVED and not p.revealed:
            yield Breach(
                f"units[{i}].revealed", "SHU-COMBAT.6", f"{p.id} was removed once discovered"
            )


INVARIANTS = (
    Invariant("SHU-I-PIECES", "every piece is where its kind can be", _pieces),
    Invariant(
        "SHU-I-REGIMENTS", "a regiment exists exactly while its battalions are in it", _regiments
    ),
    Invariant("SHU-I-ONE-SIDE", "only one side per hex", _one_side),
    Invariant("SHU-I-RECOVERY", "disrupted units recover when the rules say", _recovery),
    Invariant("SHU-I-COUNTERS", "counters within the rules' bounds", _counters),
    Invariant("SHU-I-SCHEDULE", "no Russian unit ashore before its turn", _schedule),
    Invariant("SHU-I-SETUP", "the set-up places only the Shumshu pieces", _setup),
    Invariant("SHU-I-ARRIVALS", "no more Japanese arrivals than the AM turns", _arrivals),
    Invariant("SHU-I-DECOY-FACE", "a decoy on the map is face down", _decoy_faces),
    Invariant("SHU-I-BEACHHEAD", "the beachhead is a Russian-held coastal hex", _beachhead),
    Invariant("SHU-I-STAGE", "each step's records appear in their step only", _stage_records),
    Invariant("SHU-I-RESULT", "the result agrees with the star hexes", _result),
    Invariant("SHU-I-DEFENDERS", "no more defenders than the limit", _defenders),
    Invariant("SHU-I-DECOYS", "a decoy never attacks or defends", _decoys),
    Invariant("SHU-I-ATTACKERS", "a disrupted unit never attacks", _attackers),
)


def invariant(invariant_id: str) -> Invariant:
    """One of the state invariants by ID (the properties share them, `properties`)."""
    return next(inv for inv in INVARIANTS if inv.id == invariant_id)


def breaches(b: Board, s: ShumshuState) -> list[tuple[Invariant, Breach]]:
    return [(inv, br) for inv in INVARIANTS for br in inv.find(b, s)]


def check_position(b: Board, s: ShumshuState) -> None:
    """Refuse what no play could reach: ImpossiblePosition naming the field, the clause and
    the invariant of the first breach."""
    for inv in INVARIANTS:
        br = next(inv.find(b, s), None)
        if br is None:
            continue
        raise ImpossiblePosition(
            f"{br.field}: {br.message} ({br.clause}; invariant {inv.id})",
            clauses=(br.clause, inv.id),
            field=br.field,
        )


class ShumshuPositionCheck:
    """The position-check role (`kernel.roles.PositionCheck`), built from the rules."""

    def __init__(self, rules: ShumshuRules) -> None:
        self.rules = rules

    def check_position(self, s: ShumshuState) -> None:
        """Refuse a position no play could reach, naming the field, the clause and the
        invariant (`check_position`)."""
        check_position(self.rules.board, s)
