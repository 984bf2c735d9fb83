"""Advance after combat and the 10th Army's landing and two-hex advance (SNC-10.5.3.x,
SNC-8.4.1.1 to SNC-8.4.1.3)."""

from __future__ import annotations

from collections.abc import Mapping

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import advance as A
from specs.snc1937.rules.board import Board

DATA = load_data()
BOARD = Board(DATA)


def variant(**overrides: str) -> Variant:
    """Preset `standard` of the game's catalogue with `overrides`."""
    return CATALOGUE.variant("standard", overrides)


def h(text: str) -> Hex:
    return parse_hex(text)


def pos(layout: Mapping[str, tuple[str, ...]]) -> dict[Hex, tuple[str, ...]]:
    return {h(k): v for k, v in layout.items()}


def at_most(n: int) -> A.MayStack:
    """A stacking predicate: at most `n` units in the hex (a stand-in for the stacking module)."""

    def check(_hex: Hex, units: tuple[str, ...]) -> bool:
        return len(units) <= n

    return check


THIRD = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4")
TENTH = ("JP-6D-1", "JP-6D-2", "JP-6D-3", "JP-6D-4", "JP-9B-1")


def test_snc_10_5_3_1_only_into_an_empty_hex() -> None:
    """SNC-10.5.3.1: the attackers may advance only if the defender's hex is left empty."""
    held = pos({"3510": THIRD, "3511": ("CH-98D",)})
    assert A.advance_choices(THIRD, held, h("3511"), at_most(5)) == ((),)
    problem = A.advance_problem(THIRD, held, h("3511"), ("JP-3D-1",), at_most(5))
    assert problem is not None and "SNC-10.5.3.1" in problem
    empty = pos({"3510": THIRD})
    assert len(A.advance_choices(THIRD, empty, h("3511"), at_most(5))) == 16


def test_snc_10_5_3_5_advance_is_optional() -> None:
    """SNC-10.5.3.5: advancing is optional: not advancing is always the first choice."""
    empty = pos({"3510": THIRD})
    assert A.advance_choices(THIRD, empty, h("3511"), at_most(5))[0] == ()
    assert A.advance_problem(THIRD, empty, h("3511"), (), at_most(0)) is None


def test_snc_10_5_3_6_participating_survivors_only() -> None:
    """SNC-10.5.3.6, SNC-10.5.3.1 (AMB-SNC-29): any number of surviving participating attackers
    may advance; units that did not attack, or were eliminated, may not."""
    stacks = pos({"3510": ("JP-3D-1", "JP-3D-2", "JP-SHIGETO")})  # JP-3D-3 was eliminated
    attackers = ("JP-3D-1", "JP-3D-2", "JP-3D-3")
    choices = A.advance_choices(attackers, stacks, h("3511"), at_most(5))
    assert choices == ((), ("JP-3D-1",), ("JP-3D-2",), ("JP-3D-1", "JP-3D-2"))
    problem = A.advance_problem(attackers, stacks, h("3511"), ("JP-SHIGETO",), at_most(5))
    assert problem is not None and "SNC-10.5.3.6" in problem


def test_snc_10_5_3_2_stacking_observed() -> None:
    """SNC-10.5.3.2, SNC-10.5.3.6: the advance stops at the stacking limit the predicate
    gives: with two units allowed, no set of three is offered or accepted."""
    empty = pos({"3510": THIRD})
    choices = A.advance_choices(THIRD, empty, h("3511"), at_most(2))
    assert max(len(c) for c in choices) == 2 and len(choices) == 1 + 4 + 6
    assert choices == tuple(sorted(choices, key=lambda c: (len(c), c)))
    problem = A.advance_problem(THIRD, empty, h("3511"), THIRD[:3], at_most(2))
    assert problem is not None and "SNC-10.5.3.2" in problem


def test_snc_10_5_3_7_defenders_never_advance() -> None:
    """SNC-10.5.3.7: a victorious defender holds in place: a defending unit named in an advance
    is refused."""
    stacks = pos({"3510": THIRD, "3410": ("CH-98D",)})
    problem = A.advance_problem(THIRD, stacks, h("3511"), ("CH-98D",), at_most(5))
    assert problem is not None and "SNC-10.5.3.7" in problem


def test_snc_10_5_3_4_ezoc_does_not_block() -> None:
    """SNC-10.5.3.4: an advance into a hex next to Chinese units (in their ZOC) is allowed."""
    stacks = pos({"3510": THIRD, "3411": ("CH-36D",), "3611": ("CH-88D",)})
    assert A.advance_problem(THIRD, stacks, h("3511"), THIRD, at_most(5)) is None


# --- the 10th Army (SNC-8.4.1.x) -----------------------------------------------------------------


def test_snc_8_4_1_1_amb_snc_43_landing_east_of_32xx() -> None:
    """SNC-8.4.1.1 (AMB-SNC-43, `east_of_32xx`): under `columns` (standard) the 10th Army lands
    at a landing hex in column 32 or east (3417 historical, 3218 inclusive), not 3004 or a
    non-landing hex; under `rows` no hex qualifies on this map, which has no row 32."""
    v = variant()
    assert A.tenth_army_may_land(BOARD, v, h("3417"))
    assert A.tenth_army_may_land(BOARD, v, h("3218"))
    assert not A.tenth_army_may_land(BOARD, v, h("3004"))
    assert not A.tenth_army_may_land(BOARD, v, h("3511"))
    rows = variant(east_of_32xx="rows")
    assert not any(A.tenth_army_may_land(BOARD, rows, x) for x in DATA.map.landings)
    (line,) = [r for r in DATA.setup.reinforcements if r.gt == 7 and r.restriction]
    assert line.restriction is not None and line.restriction.east_of == "32xx"
    assert A.east_of_line(line.restriction.east_of) == 32


def test_snc_8_4_1_2_second_hex_not_chinese_occupied() -> None:
    """SNC-8.4.1.2: from the landing hex (3417) the 10th Army may advance a second hex into any
    adjacent hex without Chinese units (3416, 3318, 3317 are land; the rest is sea); a Chinese
    occupied one (3416) is not offered."""
    stacks = pos({"3417": TENTH, "3416": ("CH-98D",)})
    found = A.tenth_army_second_hexes(DATA, BOARD, h("3417"), stacks)
    assert found == (A.SecondHex(h("3318"), False), A.SecondHex(h("3317"), False))


def test_snc_8_4_1_3_all_adjacent_chinese_then_coastal() -> None:
    """SNC-8.4.1.3: if every adjacent hex is Chinese-occupied, the 10th Army may advance into an
    adjacent Chinese-occupied coastal hex (3416, 3318; not 3317, inland), the Chinese there
    retreating one hex."""
    stacks = pos({"3417": TENTH, "3416": ("CH-98D",), "3318": ("CH-55D",), "3317": ("CH-56D",)})
    found = A.tenth_army_second_hexes(DATA, BOARD, h("3417"), stacks)
    assert found == (A.SecondHex(h("3416"), True), A.SecondHex(h("3318"), True))


def test_snc_8_4_1_2_second_advance_choices() -> None:
    """SNC-8.4.1.2, SNC-10.5.3.2: each second-hex advance is a destination and a non-empty set
    of the Japanese in the landing hex fitting the stacking limit with the Japanese already
    there (two units allowed, one already in 3317)."""
    stacks = pos({"3417": TENTH[:2], "3416": ("CH-98D",), "3317": ("JP-18D-1",)})
    found = A.tenth_army_second_choices(DATA, BOARD, h("3417"), stacks, at_most(2))
    assert (h("3317"), TENTH[:2]) not in found
    assert (h("3317"), (TENTH[0],)) in found and (h("3318"), TENTH[:2]) in found
    assert all(x != h("3416") for x, _ in found)
