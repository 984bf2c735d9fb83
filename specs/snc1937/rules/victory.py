"""How the game is won (SNC-4.x): the Chinese sudden-death victory and defeat, and the
end-of-turn Victory Check.

Each function looks at a position (`stacks`: unit ids by hex), the Japanese-controlled hexes
(`control`, see control.py) and the GT, and returns the outcome (`kernel.game.Outcome`: the
winner "CH" or "JP" and the deciding clause) or None. A win is a win: no outcome has points or
levels (SNC-4.4.1). When the sudden-death conditions are looked at (after each action or at
phase ends, AMB-SNC-15) is the sequence of play's business. The only hex named here is the one
the text names, Shanghai 3512; the city hexes come from the map data (AMB-SNC-17).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kernel.game import Outcome
from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.control import japanese_cities
from specs.snc1937.rules.memo import identity_memo

SHANGHAI = parse_hex("3512")  # SNC-4.1.1, SNC-4.1.2, SNC-4.2.1
FIRST_ADJACENCY_GT = 8  # SNC-4.1.2
LAST_DEFEAT_GT = 5  # SNC-4.2.1
LAST_GT = 12  # SNC-4.3.3, SNC-5.0.1


@identity_memo  # asked after every action: built once per board
def shanghai_ring(board: Board) -> frozenset[Hex]:
    """3512 and the hexes adjacent to it (SNC-4.1.2, SNC-4.2.1)."""
    return frozenset((SHANGHAI, *board.neighbors(SHANGHAI)))


def _counts(unit: str, data: SNCData, variant: Variant) -> bool:
    """Whether a unit is one of the "Chinese units" of SNC-4.1.2 and SNC-4.2.1: any Chinese
    unit, or only mobile ones under sudden_death_units=mobile_only (found here)."""
    spec = data.unit(unit)
    if spec.side != "CH":
        return False
    return not (spec.is_static and variant.is_("sudden_death_units", "mobile_only"))


def chinese_near_shanghai(
    board: Board, data: SNCData, stacks: Mapping[Hex, tuple[str, ...]], variant: Variant
) -> bool:
    """Whether a Chinese unit is in 3512 or a hex adjacent to it (SNC-4.1.2, SNC-4.2.1)."""
    counting = _counting(data, variant)
    for h in shanghai_ring(board):
        for u in stacks.get(h, ()):
            counts = counting.get(u)
            if counts is None:  # not in the data: `_counts` refuses it
                counts = _counts(u, data, variant)
            if counts:
                return True
    return False


@identity_memo  # asked after every action: worked out once per data set and variant
def _counting(data: SNCData, variant: Variant) -> dict[str, bool]:
    """`_counts` for every unit of the data."""
    return {u.id: _counts(u.id, data, variant) for u in data.units}


def sudden_victory(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    control: frozenset[Hex],
    gt: int,
    variant: Variant,
    entered: Iterable[Hex] = (),
) -> Outcome | None:
    """The Chinese sudden-death victory (SNC-4.1.1, SNC-4.1.2).

    SNC-4.1.1: the Chinese control 3512, at any time. SNC-4.1.2: on or after GT 8, Chinese
    units in 3512 or a hex adjacent to it; under gt8_adjacency=literal any such unit wins,
    under must_gain only one that has just moved or advanced there (`entered`: the hexes
    Chinese units came to be in by movement or advance in the action just taken; AMB-SNC-14)."""
    if SHANGHAI not in control:
        return Outcome("CH", clause="SNC-4.1.1", reason="the Chinese control Shanghai (3512)")
    if gt < FIRST_ADJACENCY_GT:
        return None
    ring = shanghai_ring(board)
    if variant.is_("gt8_adjacency", "must_gain"):
        gained = set(entered) & ring
        near = any(_counts(u, data, variant) for h in gained for u in stacks.get(h, ()))
    else:
        near = chinese_near_shanghai(board, data, stacks, variant)
    if near:
        return Outcome(
            "CH",
            clause="SNC-4.1.2",
            reason=f"Chinese units in or next to 3512 on GT {gt} (GT 8 or later)",
        )
    return None


def sudden_defeat(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    gt: int,
    variant: Variant,
) -> Outcome | None:
    """The Chinese sudden-death defeat (SNC-4.2.1): from the start of GT 1 to the end of GT 5,
    no Chinese unit in or adjacent to 3512 ends the game with a Japanese win."""
    if 1 <= gt <= LAST_DEFEAT_GT and not chinese_near_shanghai(board, data, stacks, variant):
        return Outcome(
            "JP",
            clause="SNC-4.2.1",
            reason=f"no Chinese unit in or next to 3512 on GT {gt} (GT 1 to 5)",
        )
    return None


def defeat_checked_now(variant: Variant, *, busy: bool) -> bool:
    """Whether the sudden-death defeat (SNC-4.2.1) is looked at after the action just taken,
    per `sudden_defeat_timing` (AMB-SNC-15): after every action (after_each_action: each hex
    entered, each step lost), only when no move or combat is under way (after_each_move: `busy`
    says one is), or never here (end_of_phase: the sequence looks at each phase's end)."""
    if variant.is_("sudden_defeat_timing", "after_each_action"):
        return True
    return variant.is_("sudden_defeat_timing", "after_each_move") and not busy


def sudden_death(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    control: frozenset[Hex],
    gt: int,
    variant: Variant,
    entered: Iterable[Hex] = (),
) -> Outcome | None:
    """Either sudden-death end (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1). They cannot hold together:
    the victory needs a Chinese unit in 3512 or, from GT 8, next to it; the defeat needs none
    there up to GT 5."""
    return sudden_victory(board, data, stacks, control, gt, variant, entered) or sudden_defeat(
        board, data, stacks, gt, variant
    )


def japanese_hold_all_cities(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    control: frozenset[Hex],
    variant: Variant,
) -> bool:
    """Whether the Japanese control all seven city hexes (SNC-4.3.1), 3513 counted when all the
    others are (SNC-4.3.2). Control is hex control, or under victory_control=occupation a
    Japanese unit in each city (AMB-SNC-16 (iii))."""
    if variant.is_("victory_control", "occupation"):
        control = frozenset(
            h for h, us in stacks.items() if any(data.unit(u).side == "JP" for u in us)
        )
    return japanese_cities(board, control) == frozenset(board.map.cities)


def victory_check(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    control: frozenset[Hex],
    gt: int,
    variant: Variant,
) -> Outcome | None:
    """The Victory Check Phase (II.D) of GT `gt` (SNC-4.3.1 to SNC-4.3.3): the Japanese win if
    they control every city hex; otherwise, at GT 12, the Chinese win; else play goes on."""
    if japanese_hold_all_cities(board, data, stacks, control, variant):
        return Outcome("JP", clause="SNC-4.3.1", reason="the Japanese control all seven cities")
    if gt >= LAST_GT:
        return Outcome(
            "CH", clause="SNC-4.3.3", reason="GT 12 ends without every city hex Japanese"
        )
    return None
