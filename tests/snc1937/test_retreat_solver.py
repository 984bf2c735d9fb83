"""The one-hex retreat from the solver layer (SNC-8.4.0.9, SNC-8.4.1.3, AMB-SNC-11), held equal
to specs/snc1937/rules/retreat.py."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex
from solvers.reasons import Reason
from specs.snc1937.rules.retreat import retreat_outcome
from specs.snc1937.rules.retreat_query import destinations, explain
from tests.snc1937.test_movement import LAND
from tests.snc1937.test_zoc import BOARD, CH, CH_STATIC, DATA, JP, STANDARD, h, pos, variant

FORBIDDEN = variant(retreat_into_ezoc="forbidden")
JP_UNITS = sorted(u.id for u in DATA.units if u.side == "JP")


def _clauses(reasons: Iterable[Reason]) -> set[str]:
    return {c for r in reasons for c in r.clauses}


@settings(max_examples=80, deadline=None)
@given(
    frm=st.sampled_from(LAND),
    data=st.data(),
    forbidden=st.booleans(),
    static=st.booleans(),
)
def test_snc_8_4_0_9_destinations_equal_the_oracle(
    frm: Hex, data: st.DataObject, forbidden: bool, static: bool
) -> None:
    """SNC-8.4.0.9, SNC-8.4.1.3, SNC-9.0.12, SNC-9.4.6, AMB-SNC-11 (property): the solver's
    retreat hexes are the oracle's, under both readings of `retreat_into_ezoc`, for a unit
    and for a garrison."""
    near = sorted({m for n in BOARD.neighbors(frm) for m in BOARD.neighbors(n)} - {frm})
    near = [x for x in near if BOARD.enterable(x)]
    foes = data.draw(st.lists(st.sampled_from(near), max_size=4, unique=True)) if near else []
    unit = CH_STATIC if static else CH
    stacks = {frm: (unit,), **{x: (JP_UNITS[i],) for i, x in enumerate(foes)}}
    v = FORBIDDEN if forbidden else STANDARD
    want = retreat_outcome(BOARD, DATA, v, stacks, unit, frm)
    got = destinations(BOARD, DATA, v, stacks, unit, frm)
    assert set(got) == set(want)
    for x in got:
        assert explain(BOARD, DATA, v, stacks, unit, frm, [x]) == []


def test_snc_8_4_0_9_wusong_example() -> None:
    """SNC-8.4.0.9: from Wusong (3510) with Japanese units in 3511 the retreat hexes are the
    other land neighbours, as the oracle says."""
    stacks = pos(h3510=CH, h3511=JP)
    got = set(destinations(BOARD, DATA, STANDARD, stacks, CH, h("3510")))
    assert got == {h("3509"), h("3609"), h("3610"), h("3410"), h("3409")}


def test_snc_9_0_12_never_into_enemy_units_explained() -> None:
    """SNC-9.0.12: retreating into the hex of an enemy unit is refused, naming the clause."""
    stacks = pos(h3510=CH, h3511=JP)
    reasons = explain(BOARD, DATA, STANDARD, stacks, CH, h("3510"), [h("3511")])
    assert _clauses(reasons) == {"SNC-9.0.12"}


def test_snc_0_0_1_never_into_3513_explained() -> None:
    """SNC-0.0.1, SNC-9.4.6: 3513 is never a retreat hex; the refusal names the clauses."""
    stacks = pos(h3514=CH)
    assert h("3513") not in destinations(BOARD, DATA, STANDARD, stacks, CH, h("3514"))
    reasons = explain(BOARD, DATA, STANDARD, stacks, CH, h("3514"), [h("3513")])
    assert "SNC-0.0.1" in _clauses(reasons)


def test_snc_8_4_0_9_garrison_is_eliminated_explained() -> None:
    """SNC-8.4.0.9: a garrison step has no retreat hex, and a retreat is refused by name."""
    stacks = pos(h3510=CH_STATIC, h3511=JP)
    assert destinations(BOARD, DATA, STANDARD, stacks, CH_STATIC, h("3510")) == ()
    reasons = explain(BOARD, DATA, STANDARD, stacks, CH_STATIC, h("3510"), [h("3509")])
    assert _clauses(reasons) == {"SNC-8.4.0.9"}


def test_snc_8_4_0_9_exactly_one_hex() -> None:
    """SNC-8.4.0.9: the retreat is one hex: two hexes or none are refused by the step rule."""
    stacks = pos(h3510=CH, h3511=JP)
    assert _clauses(explain(BOARD, DATA, STANDARD, stacks, CH, h("3510"), [])) == {"SNC-8.4.0.9"}
    two = explain(BOARD, DATA, STANDARD, stacks, CH, h("3510"), [h("3509"), h("3508")])
    assert _clauses(two) == {"SNC-8.4.0.9"}


def test_snc_8_4_1_3_ezoc_option_explained() -> None:
    """SNC-8.4.1.3, AMB-SNC-11: into an enemy ZOC under `allowed`; refused under `forbidden`,
    naming the ambiguity."""
    stacks = pos(h3417=JP, h3416=CH)
    allowed = set(destinations(BOARD, DATA, STANDARD, stacks, CH, h("3416")))
    barred = set(destinations(BOARD, DATA, FORBIDDEN, stacks, CH, h("3416")))
    assert barred < allowed
    x = sorted(allowed - barred)[0]
    assert explain(BOARD, DATA, STANDARD, stacks, CH, h("3416"), [x]) == []
    assert _clauses(explain(BOARD, DATA, FORBIDDEN, stacks, CH, h("3416"), [x])) == {"AMB-SNC-11"}
