"""Shumshu's direct legality checks and kept answers against plain references (issue 34).

`apply` checks a move or a sea-movement choice by asking about that action alone (the unit's own
destinations, `landing.sail_choice_ok`), never by listing every legal action; here, on positions
from seeded playouts, an action is accepted exactly when it is in `legal_actions`, for the
legal actions and for near misses of each kind (moves to hexes out of reach, other units, hexes
that are not coastal, units that may not embark). The defender sets are kept by the weights of
the stack and the readings they depend on, and the answers about joins and whole declarations
for the last positions asked; each is held equal to the solver asked afresh. Each check is also
broken on purpose and the comparison tells it apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from kernel.hexes import Hex
from solvers.queries import stacking
from specs.shumshu.rules import combat, combat_query, landing, turn_decisions
from specs.shumshu.rules.actions import Action, Done, Embark, LandAt, Move
from specs.shumshu.rules.declare import front, pairs_of
from specs.shumshu.rules.state import RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import real_in
from tests.shumshu.positions import CATALOGUE, OPTIONS, RULES, B

SEEDS = range(6)  # seeded playouts per preset
STEPS = 400  # at most this many steps each (a count, not a time)


def _playout(preset: str, seed: int) -> Iterator[ShumshuState]:
    rng = random.Random(seed)
    s = RULES.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = RULES.to_move(s)
        if side is None:
            return
        yield s
        if side == CHANCE:
            outcomes = RULES.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(RULES.legal_actions(s))
        s = RULES.apply(s, action)


POSITIONS = [
    s
    for p in sorted(CATALOGUE.presets)
    for seed in SEEDS
    for s in _playout(p, seed)
    if RULES.to_move(s) not in (None, CHANCE)
]
COAST = [h for h in B.hexes if B.is_coastal(h)]
RUSSIANS = [u.id for u in B.data.units if u.side == RU]


def _near_misses(s: ShumshuState) -> list[Action]:
    """Actions of the position's kind that are mostly illegal: moves of the first pieces of
    either side to far and near hexes (SHU-MOVE.1 to SHU-MOVE.4), landings at every coastal
    hex (SHU-LAND.1, SHU-LAND.5) and every Russian unit embarking (SHU-LAND.2, SHU-REINF.3)."""
    if s.stage == Stage.MOVE:
        on_map = [p for p in s.units if p.loc is Loc.MAP and p.hex is not None][:8]
        return [
            Move(p.id, h)
            for p in on_map
            for h in {*B.hexes[::30], *B.neighbors(p.hex)}  # type: ignore[arg-type]
        ]
    if s.stage == Stage.SAIL:
        return [*(LandAt(h) for h in COAST), *(Embark(u) for u in RUSSIANS)]
    return [Done()]


def _accepted(s: ShumshuState, a: Action) -> bool:
    try:
        RULES.apply(s, a)
    except IllegalAction:
        return False
    return True


def _disagreements(positions: Sequence[ShumshuState]) -> int:
    """(position, action) pairs where `apply` accepts an action not in `legal_actions`, or
    refuses one in it."""
    bad = 0
    for s in positions:
        legal = list(RULES.legal_actions(s))
        wanted = set(legal)
        for a in dict.fromkeys([*legal[:: max(1, len(legal) // 40)], *_near_misses(s)]):
            bad += _accepted(s, a) != (a in wanted)
    return bad


def _of(*stages: Stage) -> list[ShumshuState]:
    return [s for s in POSITIONS if s.stage in stages]


def test_enough_positions_of_each_kind() -> None:
    assert len(_of(Stage.MOVE)) >= 100 and len(_of(Stage.SAIL)) >= 20


def test_shu_move_1_apply_accepts_exactly_the_listed_moves() -> None:
    assert _disagreements(_of(Stage.MOVE)) == 0


def test_shu_land_1_shu_land_2_apply_accepts_exactly_the_listed_sail_choices() -> None:
    assert _disagreements(_of(Stage.SAIL)) == 0


def test_every_step_apply_accepts_exactly_the_listed_actions() -> None:
    """Every other kind of decision: the legal actions (sampled) are accepted, Done only when
    listed."""
    others = [s for s in POSITIONS if s.stage not in (Stage.MOVE, Stage.SAIL)]
    assert {s.stage for s in others} >= {Stage.SETUP, Stage.DECLARE}
    assert _disagreements(others[::2]) == 0


def test_a_sabotaged_move_check_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move check that accepts every move of any unit to any hex is told apart."""
    monkeypatch.setattr(turn_decisions, "move_problem", lambda b, s, unit, to: None)
    assert _disagreements(_of(Stage.MOVE)[::4]) > 0


def test_a_sabotaged_sail_check_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sea-movement check that forgets the red range and the coast is told apart."""

    def any_hex(b: Any, s: ShumshuState, action: LandAt | Embark) -> bool:
        if isinstance(action, LandAt):
            return s.sail is None and landing.landing_open(s)
        return action.unit in landing.embark_choices(b, s)

    monkeypatch.setattr(landing, "sail_choice_ok", any_hex)
    assert _disagreements(_of(Stage.SAIL)) > 0


# --- the kept defender sets -----------------------------------------------------------------

FRESH_SETS = combat.defender_sets.__wrapped__


def _stacks() -> list[tuple[ShumshuState, Hex]]:
    """(position, hex) for hexes holding units that could defend, a few per position."""
    out: list[tuple[ShumshuState, Hex]] = []
    for s in POSITIONS[::5]:
        held = sorted({p.hex for p in s.units if p.loc is Loc.MAP and p.hex is not None})
        out.extend((s, h) for h in held[::4] if real_in(B, s, h))
    return out


def _fresh_defenders(s: ShumshuState, h: Hex) -> list[tuple[str, ...]]:
    """SHU-STACK.3: the stacking solver asked afresh on the hex's own problem, its units
    named, each set in data order and the sets sorted by their units' data order."""
    problem, stack = combat.defence_problem(B, s, h)
    sets = [
        tuple(sorted(c.kept, key=B.order.__getitem__))
        for c in stacking.compliance_choices(problem, stack)
    ]
    return sorted(sets, key=lambda kept: [B.order[u] for u in kept])


def _defender_differences(stacks: list[tuple[ShumshuState, Hex]]) -> int:
    return sum(combat.defender_choices(B, s, h) != _fresh_defenders(s, h) for s, h in stacks)


def test_shu_stack_3_kept_defender_sets_match_the_solver_asked_afresh() -> None:
    stacks = _stacks()
    assert len(stacks) >= 50 and any(len(real_in(B, s, h)) > 1 for s, h in stacks)
    assert _defender_differences(stacks) == 0


def test_shu_stack_3_defender_sets_under_every_reading_match_the_solver() -> None:
    """Under every reading of the options the sets are kept by (`regiment_counts`,
    `defender_count`), the kept sets are the solver's."""
    stacks = [(s, h) for s, h in _stacks() if len(real_in(B, s, h)) > 1]
    for counts in OPTIONS["regiment_counts"]:
        for number in OPTIONS["defender_count"]:
            v = CATALOGUE.variant("draft", {"regiment_counts": counts, "defender_count": number})
            again = [(attrs.evolve(s, variant=v), h) for s, h in stacks]
            assert _defender_differences(again) == 0


def test_a_sabotaged_defender_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache keyed on the side alone (another stack's sets answered) is told apart."""
    kept: dict[str, tuple[tuple[int, ...], ...]] = {}

    def by_side(side: str, weights: tuple[int, ...], weighted: bool, every: bool) -> Any:
        return kept.setdefault(side, FRESH_SETS(side, weights, weighted, every))

    monkeypatch.setattr(combat, "defender_sets", by_side)
    assert _defender_differences(_stacks()) > 0


# --- the kept answers of the declaration -----------------------------------------------------

FRESH_JOIN = combat_query._join_ok.__wrapped__
FRESH_WHOLE = combat_query._declaration_ok.__wrapped__


def _join_differences(positions: Sequence[ShumshuState]) -> int:
    """(position, join) pairs where the kept answer of `join_ok` or `declaration_ok` differs
    from the solver asked afresh (SHU-COMBAT.1 to SHU-COMBAT.4), each asked twice, as the
    listing and the check of the chosen action do."""
    bad = 0
    for s in positions:
        pairs = pairs_of(s.pending)
        f = front(B, s)
        for a in f.attackers:
            for t in f.contacts[a]:
                fresh = FRESH_JOIN(B, s, pairs, a, t)
                bad += combat_query.join_ok(B, s, pairs, a, t) != fresh
                bad += combat_query.join_ok(B, s, list(pairs), a, t) != fresh
        whole = FRESH_WHOLE(B, s, pairs)
        bad += combat_query.declaration_ok(B, s, pairs) != whole
        bad += combat_query.declaration_ok(B, s, list(pairs)) != whole
    return bad


def test_shu_combat_1_kept_join_answers_match_the_solver_asked_afresh() -> None:
    declaring = _of(Stage.DECLARE)
    assert len(declaring) >= 20 and any(s.pending for s in declaring)
    assert _join_differences(declaring) == 0


def test_a_sabotaged_join_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache keyed on the joining unit and its target alone (any position's answer
    reused) is told apart."""
    kept: dict[tuple[str, Hex], bool] = {}

    def by_unit(b: Any, s: ShumshuState, pairs: Any, unit: str, target: Hex) -> bool:
        return kept.setdefault((unit, target), FRESH_JOIN(b, s, pairs, unit, target))

    monkeypatch.setattr(combat_query, "_join_ok", by_unit)
    assert _join_differences(_of(Stage.DECLARE)) > 0


FRESH_RULES = combat_query._rules_of.__wrapped__


def _problem_differences(positions: Sequence[ShumshuState]) -> int:
    """Positions where the declaration problem's reasons (made once per side) or its names
    (read when asked) differ from ones made afresh from the position (SHU-COMBAT.1 to
    SHU-COMBAT.4, SHU-RGT.4)."""
    bad = 0
    for s in positions:
        f = front(B, s)
        problem = combat_query.combat_problem(B, s)
        bad += problem.rules != FRESH_RULES(f.side, f.obligation_clause)
        names = {p.id: f"{p.id} in {p.hex}" for p in s.units if p.hex is not None}
        bad += dict(problem.names) != names
    return bad


def test_shu_combat_1_declaration_reasons_and_names_match_ones_made_afresh() -> None:
    declaring = _of(Stage.DECLARE)
    assert {s.side for s in declaring} == {"RU", "JP"}
    assert _problem_differences(declaring) == 0


def test_sabotaged_declaration_reasons_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reasons made once for the Russians and given to both sides are told apart."""
    russian = combat_query._rules_of("RU", "SHU-COMBAT.4")
    monkeypatch.setattr(combat_query, "_rules_of", lambda side, clause: russian)
    assert _problem_differences(_of(Stage.DECLARE)) > 0
