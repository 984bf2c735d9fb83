"""Two Rattenkrieg reading pairs that cannot differ under preset standard, proved over the
data: every combat strength the revisions can make (RKS-8.8.1 to RKS-8.8.3, RKS-8.12.3,
RKS-9.4.1, RKS-9.5.1, RKS-9.7.1) for every unit, Area, role and event in force is computed
under both readings and compared. Each enumeration is exhaustive over the finite inputs
`combat_strength` reads, so the equality is a proof, not a sample of play."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs

from kernel.roles import rules_of
from solvers.checking.explore import reading_variant
from specs.rattenkrieg.rules.state import GE, SU, Combat, Step
from specs.rattenkrieg.rules.strength import combat_strength
from tools.registry import get_game

GAME = get_game("rattenkrieg")
RULES = rules_of(GAME)
BOARD = RULES.board


def _combats(attacker_side: str | None) -> Iterator[tuple[Combat, str, tuple[str, ...]]]:
    """Every combat `combat_strength` can be asked about, with the unit asked and the acting
    unit's events (`RKState.effects`): each pair of units of opposite sides as attacker and
    defender (the attacker of `attacker_side` only, when given), each Area, each T-34 support
    or none, each count (0 to 2: two cards of each event exist, RKS-9.1.1) of the attacker's
    "next combat" events in the combat and of the Assault Gun for the acting unit."""
    units = list(BOARD.specs)
    t34 = [u for u in units if BOARD.specs[u].type == "tank"]
    for attacker, defender in itertools.permutations(units, 2):
        a, d = BOARD.specs[attacker], BOARD.specs[defender]
        if a.side == d.side or (attacker_side is not None and a.side != attacker_side):
            continue
        events = ("engineer",) if a.side == GE else ("molotov", "chuikov")
        for area in BOARD.areas:
            for support in [None, *t34]:
                for n, m in itertools.product(range(3), range(3)):
                    effects = (events[0],) * n + (events[-1],) * (m if a.side == SU else 0)
                    acting = ("assault_gun",) * m if a.side == GE else ()
                    c = Combat(
                        area, attacker, Step.RAISE, defender, support=support, effects=effects
                    )
                    for unit in (attacker, defender):
                        yield c, unit, acting


def _strengths(option: str, ra: str, rb: str, attacker_side: str | None) -> int:
    """How many combat strengths were compared; asserts each is the same under `ra` and
    `rb` of `option` (preset standard otherwise)."""
    cat = GAME.catalogue
    sa = GAME.initial_state(reading_variant(cat, "standard", option, ra))
    sb = GAME.initial_state(reading_variant(cat, "standard", option, rb))
    n = 0
    for c, unit, acting in _combats(attacker_side):
        xa: Any = attrs.evolve(sa, effects=acting)
        xb: Any = attrs.evolve(sb, effects=acting)
        assert combat_strength(BOARD, xa, c, unit) == combat_strength(BOARD, xb, c, unit), (
            c,
            unit,
        )
        n += 1
    return n


def test_rks_8_8_2_strength_floor_never_applies() -> None:
    """RKS-8.8.2 (strength_floor, AMB-RKS-23 ii: none against one): no modified strength falls
    below 1, so the floor never changes one. The weakest unit has strength 1 and gains only;
    the one negative revision is a German Panzer Division's -2 in a City Area (RKS-8.8.2),
    on strength 7. Every combat, role and event count gives the same strength."""
    assert _strengths("strength_floor", "none", "one", None) > 0


def test_rks_9_5_1_engineer_scope_is_moot_under_standard() -> None:
    """RKS-9.5.1, RKS-8.8.2 (engineer_scope, AMB-RKS-23 iii: enemy_bonus against all) under
    standard: the Combat Engineer is a German event in force only in the acting German unit's
    combat (RKS-9.5.1; the position check's `effects_fit`, RKS-9.1.1, holds the combat's
    events to the attacker's), so the only German unit in such a combat is the attacker, and
    under standard's terrain_side=defender (AMB-RKS-23 i) an attacker has no City modifier to
    cancel. Every combat with a German attacker gives the same strengths under both."""
    cat = GAME.catalogue
    assert cat.preset("standard").reading("terrain_side") == "defender"
    assert _strengths("engineer_scope", "enemy_bonus", "all", GE) > 0


def test_the_enumeration_sees_a_difference_where_there_is_one() -> None:
    """The same enumeration under terrain_side's other reading (both units revised) finds
    engineer_scope's readings apart: it would catch a difference if there were one."""
    cat = GAME.catalogue
    both = {"terrain_side": "both"}
    sa = GAME.initial_state(cat.variant("standard", {**both, "engineer_scope": "enemy_bonus"}))
    sb = GAME.initial_state(cat.variant("standard", {**both, "engineer_scope": "all"}))
    assert any(
        combat_strength(BOARD, sa, c, u) != combat_strength(BOARD, sb, c, u)
        for c, u, _ in _combats(GE)
    )
