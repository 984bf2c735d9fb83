"""The sudden-death look at Shanghai, read from a per-variant table of the units that count
(issue 34).

`victory.chinese_near_shanghai` is asked after every action (SNC-4.1.2, SNC-4.2.1); it reads
whether a unit counts from a table made once per data set and variant, and the ring of 3512
and its neighbours once per board. Here every unit of the data, alone in each hex of the ring
and in a hex outside it, must count exactly as the rules say under both readings of
`sudden_death_units`; an id not in the data is still refused; and a table that counts static
units under mobile_only must be told apart by the same comparison.
"""

from __future__ import annotations

import pytest

from kernel.errors import WargameError
from kernel.hexes import parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import victory

GAME = SNC()
B, D = GAME.board, GAME.data
RING = sorted(victory.shanghai_ring(B))
OUTSIDE = parse_hex("3010")  # three hexes from 3512: outside the ring
READINGS = ("any_unit", "mobile_only")


def _should_count(unit: str, reading: str) -> bool:
    """SNC-4.1.2, SNC-4.2.1: a Chinese unit; under mobile_only, a mobile one."""
    spec = D.unit(unit)
    return spec.side == "CH" and not (spec.is_static and reading == "mobile_only")


def _differences() -> list[str]:
    out = []
    for reading in READINGS:
        v = CATALOGUE.variant("standard", {"sudden_death_units": reading})
        for u in D.units:
            want = _should_count(u.id, reading)
            for h in RING:
                if victory.chinese_near_shanghai(B, D, {h: (u.id,)}, v) != want:
                    out.append(f"{u.id} in {h} under {reading}")
            if victory.chinese_near_shanghai(B, D, {OUTSIDE: (u.id,)}, v):
                out.append(f"{u.id} outside the ring under {reading}")
    return out


def test_the_ring_is_3512_and_its_neighbours() -> None:
    """SNC-4.1.2, SNC-4.2.1: 3512 and the six hexes adjacent to it, none farther."""
    shanghai = parse_hex("3512")
    assert set(RING) == {shanghai, *B.neighbors(shanghai)} and OUTSIDE not in RING
    assert any(D.unit(u.id).is_static and u.side == "CH" for u in D.units)


def test_snc_4_1_2_and_4_2_1_units_count_as_the_rules_say() -> None:
    """SNC-4.1.2, SNC-4.2.1 (sudden_death_units, both readings): the table's answer for every
    unit in every ring hex is the rule's."""
    assert _differences() == []


def test_snc_4_2_1_an_unknown_unit_is_still_refused() -> None:
    """An id the data does not hold is refused, as it was before the table."""
    v = CATALOGUE.preset("standard")
    with pytest.raises(WargameError):
        victory.chinese_near_shanghai(B, D, {RING[0]: ("no-such-unit",)}, v)


def test_a_sabotaged_counting_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that counts every Chinese unit, static ones under mobile_only too, is caught."""
    monkeypatch.setattr(
        victory, "_counting", lambda data, variant: {u.id: u.side == "CH" for u in data.units}
    )
    assert _differences()
