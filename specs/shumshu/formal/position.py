"""The position check: refuse what no play of the rules could reach, naming the JSON field and
the clause.

Each invariant is written once, here (SHU-I-STAGE, the step records, in `position_records`),
and used twice: by `check_position` on every state the codec reads, and by the tests after
every step of random play (tests/shumshu/test_playouts.py), which is what shows that play
never leaves them.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernel.errors import ImpossiblePosition
from kernel.hexes import Hex
from specs.shumshu.data.variants import LENGTH
from specs.shumshu.formal.breach import Breach, Invariant
from specs.shumshu.formal.position_records import stage_records
from specs.shumshu.rules import combat
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.ending import verdict
from specs.shumshu.rules.reader import ShumshuRules
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import holder, period

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
    Invariant("SHU-I-STAGE", "each step's records appear in their step only", stage_records),
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
