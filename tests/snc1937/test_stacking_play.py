"""The owner's eliminations from an over-stacked hex, played through the Game API (SNC-6.0.4;
overstack_cull): the choices are the solver layer's (`stacking_query.compliance_choices`), and
a cull under way keeps to one legal choice."""

from __future__ import annotations

import attrs

from kernel.hexes import parse_hex
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal.position_domains import garrison_pool
from specs.snc1937.rules import stacking
from specs.snc1937.rules.actions import Action, Declare, Done, Eliminate
from specs.snc1937.rules.state import CH, Order, SNCState, Step
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
HEX = parse_hex("2707")
ELITE, REGULARS = "CH-87D", ("CH-3D", "CH-6D", "CH-7D")


def over_stacked(**readings: str) -> SNCState:
    """An elite division (3 half-DE) and three regular divisions (2 each) in 2707: 4.5 DE
    against the 3 DE limit (SNC-6.2.3), found by the check that ends the Chinese Move phase
    (SNC-6.0.2 (a))."""
    s = GAME.initial_state(CATALOGUE.variant("standard", readings))
    where = dict.fromkeys((ELITE, *REGULARS), HEX)
    where["JP-G-SHANGHAI"] = parse_hex("3512")
    where["CH-36D"] = parse_hex("3412")  # near Shanghai: no sudden Japanese victory
    dead = frozenset(RULES.tables.spec) - set(where) - garrison_pool(RULES.tables)
    s = attrs.evolve(s, where=tuple(sorted(where.items())), trt=(), dead=dead, turn=6)
    s = GAME.apply(GAME.apply(s, Declare(Order.MOVE_FIGHT)), Done())
    assert s.step == Step.STACK and GAME.to_move(s) == CH
    return s


def test_snc_6_0_4_no_unit_eliminated_needlessly() -> None:
    """SNC-6.0.4 (overstack_cull=minimal): the owner may take the elite division alone or any
    two regular ones; once he has taken a regular one, the elite is no longer offered."""
    s = over_stacked()
    assert set(GAME.legal_actions(s)) == {Eliminate(u) for u in (ELITE, *REGULARS)}
    s = GAME.apply(s, Eliminate("CH-3D"))
    assert s.step == Step.STACK
    assert set(GAME.legal_actions(s)) == {Eliminate("CH-6D"), Eliminate("CH-7D")}
    s = GAME.apply(s, Eliminate("CH-6D"))
    assert s.step != Step.STACK and s.culled == ()
    assert stacking.within_limits([u for u, h in s.where if h == HEX], RULES.data, s.variant)


def test_snc_6_0_4_fewest_units_reading() -> None:
    """overstack_cull=fewest (found here): only the smallest choice, the elite division."""
    s = over_stacked(overstack_cull="fewest")
    assert GAME.legal_actions(s) == [Eliminate(ELITE)]
    s = GAME.apply(s, Eliminate(ELITE))
    assert s.step != Step.STACK


def test_snc_6_0_4_a_cull_under_way_round_trips_through_json() -> None:
    """The units culled so far in a check are part of the state."""
    s = GAME.apply(over_stacked(), Eliminate("CH-3D"))
    assert s.culled == (("CH-3D", HEX),)
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
