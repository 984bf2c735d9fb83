"""Shortest witnesses with fewer units (`solvers.checking.shrink`, issue 14, item 5): the unit
shrink
takes off the set-up every unit a witness does not need, keeps the ones it needs and skips a
set-up the game refuses; the shrunk witness replays from its start under both readings to the
same kind of difference, the gap search and the report start its log there too, and the
report's logs replay (`tools.playlog`).

The game is `Pawns`, a tiny one with units on a map: pawns on a line of hexes, each moving one
hex on at a time. Units, in the state JSON's order: the headquarters HQ at hex 8, which the
position check keeps on the map (PAWN-1: a position without it is refused), and the pawns X at
1, Y at 2, Z at 5. A pawn moves one hex on into a free hex short of hex 8 (PAWN-2), or the
side passes. The option `claim` is a planted ambiguity (PAWN-3): with X on hex 3, reading
`near` lets the side claim the game, `far` does not, and `stuck` leaves it no action at all (a
planted gap). So a witness of `far` against `near` needs X, and Y out of X's way or off the
map, nothing else. `Lax` is the same game with a position check that lets the HQ off the map;
`Hooked` the same game with its own `without_unit` hook, which the shrink uses in place of the
JSON edit.

All of it runs in well under a second (a few dozen replays of a tiny game).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import STATE_FORMAT, envelope
from kernel.data import FactResult, Provenance
from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput
from kernel.game import Outcome
from kernel.roles import AssembledGame
from kernel.variants import Catalogue, Option, Reading, Variant
from solvers.checking.differences import Finding, Witness, compare, start_state
from solvers.checking.explore import reading_variant
from solvers.checking.gaps import stuck_readings
from solvers.checking.shrink import shrink, shrink_finding
from solvers.checking.side_by_side import along
from tests.removed import removed_units
from tools import game_logs, playlog
from tools.explore_report import write_report

CAT = Catalogue(
    game="pawns",
    options=(
        Option(
            "claim",
            "May the side claim the game with X on hex 3?",
            ("PAWN-3",),
            (
                Reading("far", "", "test"),
                Reading("near", "", "test"),
                Reading("stuck", "", "test"),
            ),
        ),
    ),
    presets={"far": {"claim": "far"}, "near": {"claim": "near"}},
    default_preset="far",
)
IDS = ("HQ", "X", "Y", "Z")
SETUP = (8, 1, 2, 5)
LAST = 8


@attrs.frozen
class PawnState:
    variant: Variant
    hexes: tuple[int | None, ...]  # each unit's hex, in the order of IDS (None: off the map)
    claimed: bool = False


@attrs.frozen
class Move:
    unit: str


@attrs.frozen
class Claim:
    pass


@attrs.frozen
class Pass:
    pass


PawnAction = Move | Claim | Pass


class Pawns:
    name = "pawns"
    title = "Pawns"
    sides: tuple[str, ...] = ("A",)
    catalogue = CAT
    nontermination_clauses: tuple[str, ...] = ("PAWN-PASS",)
    perfect_information: bool = True

    def presets(self) -> Mapping[str, Variant]:
        return {n: CAT.preset(n) for n in CAT.presets}

    def initial_state(self, variant: Variant) -> PawnState:
        return PawnState(variant, SETUP)

    def to_move(self, state: PawnState) -> str | None:
        return None if state.claimed else "A"

    def legal_actions(self, state: PawnState) -> Sequence[PawnAction]:
        """PAWN-2: a pawn moves one hex on into a free hex short of the HQ's; PAWN-3: the
        claim with X on hex 3, by the reading."""
        if state.claimed:
            return []
        at_3 = state.hexes[IDS.index("X")] == 3
        if at_3 and state.variant.is_("claim", "stuck"):
            return []  # PAWN-3 (the planted gap)
        out: list[PawnAction] = []
        hq = state.hexes[0]
        for uid, h in zip(IDS[1:], state.hexes[1:], strict=True):
            if h is not None and h + 1 != hq and h + 1 < LAST and h + 1 not in state.hexes:
                out.append(Move(uid))  # PAWN-2
        if at_3 and state.variant.is_("claim", "near"):
            out.append(Claim())  # PAWN-3
        return [*out, Pass()]

    def chance_outcomes(self, state: PawnState) -> Sequence[tuple[PawnAction, Fraction]]:
        return []

    def apply(self, state: PawnState, action: PawnAction) -> PawnState:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not legal", clauses=("PAWN-2",))
        if isinstance(action, Claim):
            return attrs.evolve(state, claimed=True)
        if isinstance(action, Move):
            i = IDS.index(action.unit)
            hexes = list(state.hexes)
            hexes[i] = (hexes[i] or 0) + 1
            return attrs.evolve(state, hexes=tuple(hexes))
        return state

    def outcome(self, state: PawnState) -> Outcome | None:
        return Outcome("A", (), "PAWN-3", "claimed") if state.claimed else None

    def observe(self, state: PawnState, side: str) -> dict[str, Any]:
        return self.state_to_json(state)

    def check_position(self, state: PawnState) -> None:
        """PAWN-1: the HQ stays on the map; no two units share a hex."""
        if state.hexes[0] is None:
            raise ImpossiblePosition("the HQ is on the map", clauses=("PAWN-1",), field="units")
        on = [h for h in state.hexes if h is not None]
        if len(on) != len(set(on)):
            raise ImpossiblePosition("two units on one hex", clauses=("PAWN-2",), field="units")

    def no_action_clauses(self, state: PawnState) -> tuple[str, ...]:
        return ("PAWN-3",)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return []

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return []

    def state_to_json(self, state: PawnState) -> dict[str, Any]:
        units = [{"id": u, "hex": h} for u, h in zip(IDS, state.hexes, strict=True)]
        body = {"variant": state.variant.to_json(), "units": units, "claimed": state.claimed}
        return envelope(STATE_FORMAT, "pawns", body)

    def state_from_json(self, data: Any) -> PawnState:
        try:
            units = data["units"]
            ids = tuple(u["id"] for u in units)
            hexes = tuple(u["hex"] for u in units)
            variant = CAT.variant_from_json(data["variant"])
            claimed = data["claimed"]
        except (TypeError, KeyError) as exc:
            raise InvalidInput(f"not a pawns position: {exc}", field="state") from None
        if data.get("game") != "pawns" or ids != IDS or not isinstance(claimed, bool):
            raise InvalidInput("not a pawns position", field="state")
        if any(h is not None and (type(h) is not int or not 1 <= h <= LAST) for h in hexes):
            raise InvalidInput("a hex is from 1 to 8", field="units")
        state = PawnState(variant, hexes, claimed)
        self.check_position(state)
        return state

    def action_to_json(self, action: PawnAction) -> dict[str, Any]:
        if isinstance(action, Move):
            return {"type": "move", "unit": action.unit}
        return {"type": "claim" if isinstance(action, Claim) else "pass"}

    def action_from_json(self, data: Any) -> PawnAction:
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "move" and data.get("unit") in IDS:
            return Move(data["unit"])
        if kind in ("claim", "pass") and len(data) == 1:
            return Claim() if kind == "claim" else Pass()
        raise InvalidInput(f"not a pawns action: {data!r}", field="action")

    def describe(self, state: PawnState, action: PawnAction) -> str:
        if isinstance(action, Move):
            at = state.hexes[IDS.index(action.unit)]
            return f"{action.unit} moves from hex {at} to hex {(at or 0) + 1}"
        return "A claims the game" if isinstance(action, Claim) else "A passes"

    def headline(self, state: PawnState) -> str:
        return " ".join(f"{u}@{h}" for u, h in zip(IDS, state.hexes, strict=True))

    def events(self, before: PawnState, action: PawnAction, after: PawnState) -> list[str]:
        return []


class Lax(Pawns):
    """Pawns whose position check lets the HQ off the map."""

    def check_position(self, state: PawnState) -> None:
        """PAWN-2 only: no two units share a hex."""
        on = [h for h in state.hexes if h is not None]
        if len(on) != len(set(on)):
            raise ImpossiblePosition("two units on one hex", clauses=("PAWN-2",), field="units")


class Hooked(Pawns):
    """Pawns with the `without_unit` hook (`kernel.game.UnitRemoval`): a pawn taken out is
    recorded as such in `calls`; Z, say, is one the rules cannot take out (None)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def without_unit(self, state: PawnState, unit: str) -> PawnState | None:
        self.calls.append((unit, state.variant.reading("claim")))
        i = IDS.index(unit)
        if unit == "Z" or state.hexes[i] is None:
            return None
        return attrs.evolve(state, hexes=(*state.hexes[:i], None, *state.hexes[i + 1 :]))


GAME: AssembledGame[Any, Any] = Pawns()  # type: ignore[assignment]
LAX: AssembledGame[Any, Any] = Lax()  # type: ignore[assignment]
FAR = reading_variant(CAT, "far", "claim", "far")
NEAR = reading_variant(CAT, "far", "claim", "near")
STUCK = reading_variant(CAT, "far", "claim", "stuck")

PASS = {"type": "pass"}
X, Y, Z = ({"type": "move", "unit": u} for u in ("X", "Y", "Z"))
# Z wanders, the side passes, Y makes way, X walks to hex 3: there `near` may claim
LONG = (Z, Y, PASS, Y, X, X)


def _witness(game: AssembledGame[Any, Any], vb: Variant = NEAR) -> Witness:
    w = along(game, FAR, vb, [game.action_from_json(a) for a in LONG], "guided play")
    assert w is not None and len(w.log) == len(LONG) and w.difference.kind == "actions"
    return w


def _finding(w: Witness, rb: str = "near") -> Finding:
    return Finding("claim", ("PAWN-3",), None, "far", rb, "far", "differ", w, "", 0.0)


def _off(start: Any) -> list[str]:
    """The units off the map at a start."""
    return [u["id"] for u in start["units"] if u["hex"] is None]


def _replay_from_start(
    game: AssembledGame[Any, Any], w: Witness, vb: Variant = NEAR
) -> tuple[Any, Any]:
    """The witness log from its start under both readings (raises if illegal under either)."""
    a, b = start_state(game, FAR, w.start), start_state(game, vb, w.start)
    for data in w.log:
        action = game.action_from_json(data)
        a, b = game.apply(a, action), game.apply(b, action)
    return a, b


def test_units_the_difference_does_not_need_are_taken_off_the_set_up() -> None:
    w = _witness(GAME)
    small, replays = shrink(GAME, FAR, NEAR, w)
    # Y's two moves only made way for X: without Y they are dropped; Z was never needed
    assert small.log == (X, X)
    assert small.start is not None and _off(small.start) == ["Y", "Z"]
    assert removed_units(GAME.state_to_json(GAME.initial_state(FAR)), small.start) == ["Y", "Z"]
    assert small.units == 2 and small.shrunk_from == len(LONG)
    assert small.found_by == "guided play" and small.difference.kind == "actions"
    # the shrunk witness replays under both readings from its start to the same difference
    a, b = _replay_from_start(GAME, small)
    assert GAME.state_to_json(a) == small.state
    diff = compare(GAME, a, b)
    assert diff is not None and diff.kind == "actions" and diff.only_b == ('{"type": "claim"}',)
    assert 0 < replays <= 120 + 60


def test_the_actions_alone_keep_every_unit() -> None:
    """With no replays for the units, only actions are dropped (as before this shrink)."""
    small, _ = shrink(GAME, FAR, NEAR, _witness(GAME), max_unit_replays=0)
    assert small.log == (Y, Y, X, X) and small.start is None and small.units == 4


def test_a_unit_the_difference_needs_is_kept_and_a_refused_set_up_is_skipped() -> None:
    small, _ = shrink(GAME, FAR, NEAR, _witness(GAME))
    assert small.start is not None
    on = [u["id"] for u in small.start["units"] if u["hex"] is not None]
    assert on == ["HQ", "X"]  # X is needed; the HQ's removal is refused (PAWN-1)
    # where the position check lets the HQ off the map, it goes too, and X still stays
    lax, _ = shrink(LAX, FAR, NEAR, _witness(LAX))
    assert lax.start is not None and _off(lax.start) == ["HQ", "Y", "Z"]
    assert lax.log == (X, X) and lax.units == 1
    a, b = _replay_from_start(LAX, lax)
    assert LAX.state_to_json(a) == lax.state and compare(LAX, a, b) == lax.difference


def test_the_unit_shrink_is_deterministic_and_bounded_by_a_count_of_replays() -> None:
    w = _witness(GAME)
    first = shrink(GAME, FAR, NEAR, w)
    assert shrink(GAME, FAR, NEAR, w) == first
    _, actions_only = shrink(GAME, FAR, NEAR, w, max_unit_replays=0)
    needed = first[1] - actions_only
    assert needed > 0
    sizes = []
    for bound in range(needed + 1):
        got, used = shrink(GAME, FAR, NEAR, w, max_unit_replays=bound)
        assert used - actions_only <= bound
        assert shrink(GAME, FAR, NEAR, w, max_unit_replays=bound) == (got, used)
        sizes.append((len(got.log), got.units))
    assert sizes[0] == (4, 4) and sizes[-1] == (2, 2)
    assert sizes == sorted(sizes, reverse=True)  # more replays never give a bigger witness


def test_a_shrunk_witness_shrinks_no_further() -> None:
    small, _ = shrink(GAME, FAR, NEAR, _witness(GAME))
    again, _ = shrink(GAME, FAR, NEAR, small)
    assert again is small


def test_the_gap_search_and_the_report_start_where_the_shrunk_witness_does(
    tmp_path: Path,
) -> None:
    """Under `stuck`, X on hex 3 leaves no action: the gap search finds it at the shrunk
    witness, its log starting from the witness's start; the report names the units taken off,
    records the start and writes logs that replay from it."""
    finding = shrink_finding(GAME, _finding(_witness(GAME, STUCK), "stuck"))
    w = finding.witness
    assert w is not None and w.log == (X, X) and w.start is not None
    gaps = stuck_readings(GAME, [finding])
    assert [g.reading for g in gaps] == [("claim", "stuck")]
    gap = gaps[0]
    assert gap.log == (X, X) and gap.start is not None and _off(gap.start) == ["Y", "Z"]
    assert gap.start["variant"] == STUCK.to_json()
    write_report(GAME, tmp_path, [finding], gaps, [])
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    entry = results["options"][0]["witness"]
    assert entry["removed_units"] == ["Y", "Z"] and entry["start"] == w.start
    assert results["gaps"][0]["start"] == gap.start
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "The log starts from the set-up without Y, Z." in page
    assert "from the set-up without Y, Z)" in page  # the gap's play log
    assert "After 2 actions from the set-up without Y, Z" in page
    narrated = [part.split("</pre>")[0] for part in page.split("<pre class='playlog'>")[1:]]
    assert len(narrated) == 2 and all("X moves from hex 2 to hex 3" in n for n in narrated)
    assert not any("not legal" in n for n in narrated)  # each action legal from the start
    names = [*entry["logs"], results["gaps"][0]["log"]]
    for name in names:
        data = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        assert _off(data["start"]) == ["Y", "Z"]
        log = game_logs.read_log(GAME, data)
        got = playlog.replay_log(GAME, log, None)
        assert GAME.state_to_json(got.final) == data["final_state"]
    # a witness not shrunk has no start: its logs are as before
    plain = tmp_path / "plain"
    write_report(GAME, plain, [_finding(_witness(GAME, STUCK), "stuck")], [], [])
    results = json.loads((plain / "results.json").read_text(encoding="utf-8"))
    assert results["options"][0]["witness"]["start"] is None
    for name in results["options"][0]["witness"]["logs"]:
        assert "start" not in json.loads((plain / name).read_text(encoding="utf-8"))
    assert "The log starts from the set-up itself." in (plain / "index.html").read_text(
        encoding="utf-8"
    )


def test_a_game_with_the_hook_has_its_units_taken_out_by_it() -> None:
    """The hook, not the JSON edit, takes each unit out: it is asked for every unit on the map
    at the start, read under reading A; a unit it refuses (Z) stays, though the JSON edit would
    have taken it off; a removal whose start the codec refuses (the HQ, PAWN-1) is skipped."""
    hooked = Hooked()
    game: AssembledGame[Any, Any] = hooked  # type: ignore[assignment]
    small, _ = shrink(game, FAR, NEAR, _witness(game))
    assert [u for u, _ in hooked.calls] == ["HQ", "X", "Y", "Z"]
    assert {r for _, r in hooked.calls} == {"far"}
    assert small.start is not None and _off(small.start) == ["Y"]
    assert small.log == (X, X) and small.units == 3
    a, b = _replay_from_start(game, small)
    assert game.state_to_json(a) == small.state and compare(game, a, b) == small.difference
