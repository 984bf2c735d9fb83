"""RKS-P-SEQUENCE proved whole over Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`):
the proof under the readings its step rules follow, each of its step rules needed, its formal
statement false where the property is (beyond RKS-P-STAGES), and hand-made steps that break a
rule caught with the rule's clause."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from solvers.checking import prover, refinement
from solvers.checking.system import choice_frame, concrete_frame
from solvers.checking.terms import CONCRETE, Frame
from specs.rattenkrieg.formal import verification
from specs.rattenkrieg.formal.verification import SEQUENCE, STAGED, Link
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.actions import Pass
from specs.rattenkrieg.rules.state import (
    GE,
    SU,
    Combat,
    Damage,
    DrawFor,
    Phase,
    RKState,
    Stage,
    Step,
)
from tests.rattenkrieg.positions import CATALOGUE, GAME, GAME_RULES, TW
from tests.rattenkrieg.symbolic_helpers import WithoutRule
from tests.sizes import cases

BOARD = GAME_RULES.board
RLIMIT = 50_000_000
FOLLOWED = {  # the readings the new step rules depend on, away from the presets
    "recruit_turn": "extra",
    "arrival_state": "flipped",
    "recruiting_order": "soviet_first",
    "lost_step": "random",
    "event_timing": "player_turn_too",
}


def test_rks_10_1_1_sequence_is_proved_under_the_readings_its_rules_follow() -> None:
    """RKS-10.1.1, RKS-7.5.1, RKS-10.3.1 (AMB-RKS-18 b, AMB-RKS-25, AMB-RKS-7 iii): with a
    recruit remembered, arrivals flipped, the Soviet refilling first and random lost steps,
    RKS-P-SEQUENCE is still proved by 1-induction (the presets prove it in `wargame verify`)."""
    link = Link(CATALOGUE.variant("standard", FOLLOWED))
    v = prover.check(link.system, link.formal()[SEQUENCE], rlimit=RLIMIT)
    assert (v.status, v.method) == ("proved", "1-induction"), v.detail


RULES = [
    "a combat record is opened as play",
    "damage is made as play",
    "a unit is designated on the map",
]
MORE_RULES = [
    "a step that ends in a Reinforcement",
    "only a step of the Player Turns that stays",
    "a pick is made as play",
    "the acting unit has operated",
    "a recruit is remembered",
    "a step of set-up (a placing, the deal) flips",
    "the end of the Recruiting Phase turns",
    "a draw of a Reinforcement Phase flips",
]


SELECTED: list[str] = cases(RULES, MORE_RULES)


@pytest.mark.parametrize("start", SELECTED)
def test_rks_8_3_1_the_sequence_proof_rests_on_each_of_its_rules(start: str) -> None:
    """RKS-8.3.1, RKS-8.9.1, RKS-7.4.2, RKS-10.1.1, RKS-5.1.2, RKS-9.6.1, RKS-7.1.2, RKS-7.5.1,
    RKS-3.1.1, RKS-10.3.1, RKS-6.2.2: without any one of the step rules added for it,
    RKS-P-SEQUENCE is no longer inductive (Z3 answers: no limit hit)."""
    link = Link(CATALOGUE.variant("standard", FOLLOWED))
    schema = link.model.schemas[0]
    dropped = WithoutRule(schema, start)
    assert (
        len(dropped.guard(CONCRETE, *_frames(link)))
        == len(schema.guard(CONCRETE, *_frames(link))) - 1
    )
    link.model.schemas = (dropped,)
    v = prover.check(link.system, link.formal()[SEQUENCE], rlimit=RLIMIT)
    assert v.status != "proved", v.detail
    assert v.method != "solver", v.detail


def _frames(link: Link) -> tuple[Frame[bool, int], Frame[bool, int]]:
    start = concrete_frame(link.system.variables, link.system.initial())
    choice = choice_frame(link.system.schemas[0], {})
    return start, choice


# --- the statement says what the property says, beyond RKS-P-STAGES ---------------------------


def _start() -> RKState:
    return GAME.initial_state(CATALOGUE.preset("standard"))


def _turn(**kw: Any) -> RKState:
    """The set-up position taken to the start of a Player Turn, then changed by `kw`."""
    s = attrs.evolve(_start(), phase=Phase.PLAYER_TURNS, stage=Stage.PLAYER_TURN)
    return attrs.evolve(s, **kw)


def _acting(**kw: Any) -> RKState:
    """The German 14th Panzer acting in the Player Turns, then changed by `kw`."""
    return attrs.evolve(_turn(stage=Stage.ACTIVE, player=GE, acting="14Pz"), **kw)


def _fight() -> Combat:
    return Combat(TW, "14Pz", Step.ATTACK, defender="Rifle-1")


BROKEN: dict[str, Callable[[], RKState]] = {
    "a pass counted in the Recruiting Phase": lambda: attrs.evolve(
        _start(), phase=Phase.RECRUITING, stage=Stage.DISCARD, passes=1
    ),
    "the first refiller the player of a Reinforcement Phase": lambda: attrs.evolve(
        _start(),
        turn=2,
        phase=Phase.REINFORCEMENT,
        stage=Stage.DRAW,
        draws=(DrawFor("hand", GE),),
        player=GE,
    ),
    "a combat record among the acting unit's operations": lambda: _acting(combat=_fight()),
    "a bombardment's damage with a combat open": lambda: _acting(
        stage=Stage.DAMAGE, acted=True, combat=_fight(), damage=Damage("Rifle-1", "bombardment")
    ),
    "the acting unit flipped": lambda: BOARD.update(_acting(), "14Pz", flipped=True),
    "an acting unit fighting before it operated": lambda: _acting(
        stage=Stage.CONTINUE, combat=_fight()
    ),
    "an operation with no unit acting": lambda: _turn(acted=True),
    "a recruit remembered under recruit_turn=player_turn": lambda: _turn(recruited=True),
    "a unit flipped in set-up": lambda: BOARD.update(_start(), "14Pz", flipped=True),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_rks_5_1_2_the_sequence_statement_is_false_where_its_property_is(name: str) -> None:
    """RKS-5.1.2, RKS-10.1.1, RKS-8.2.2, RKS-8.9.1, RKS-7.4.2, RKS-7.1.2, RKS-7.5.1, RKS-10.3.1:
    each position breaks RKS-P-SEQUENCE but not its part RKS-P-STAGES, and the formal
    statement of RKS-P-SEQUENCE over its projection fails too (it says no less)."""
    link = verification.symbolic_model(CATALOGUE.preset("standard"))
    formal = link.formal()
    bad = BROKEN[name]()
    frame = concrete_frame(link.system.variables, link.project(bad))
    whole, part = (_check(pid) for pid in (SEQUENCE, STAGED))
    assert part(bad) and not whole(bad)
    statements = [formal[pid] for pid in (STAGED, SEQUENCE)]
    assert all(isinstance(x, prover.Invariant) for x in statements)
    staged, sequenced = (x for x in statements if isinstance(x, prover.Invariant))
    assert staged.holds(CONCRETE, frame)
    assert not sequenced.holds(CONCRETE, frame)


def _check(pid: str) -> Callable[[RKState], bool]:
    prop = next(p for p in verification.properties() if p.id == pid)
    assert prop.state_check is not None
    return prop.state_check


# --- hand-made steps that break a rule ---------------------------------------------------------


def _mismatch(before: RKState, after: RKState) -> refinement.Mismatch | None:
    link = Link(before.variant)
    link.known_step(before, Pass(), after)
    return refinement.check_step(link, before, Pass(), after, "hand-made step")


def test_rks_5_1_2_passes_kept_into_the_recruiting_phase_are_caught() -> None:
    """RKS-5.1.2, RKS-10.1.1: the second pass opens the Recruiting Phase with the passes
    cleared (`start_recruiting_phase`), a model step; the passes kept are caught."""
    s = _turn(passes=1)
    right = sequence.end_player_turn(BOARD, s, passed=True)
    assert right.phase == Phase.RECRUITING and right.passes == 0
    assert _mismatch(s, right) is None
    m = _mismatch(s, attrs.evolve(right, passes=2))
    assert m is not None and m.clauses == ("RKS-5.1.2",)


def test_rks_8_3_1_a_combat_record_kept_after_its_combat_is_caught() -> None:
    """RKS-8.3.1, RKS-8.11.2: a combat over (no enemy left) returns to the acting unit's
    operations with its record ended; the record kept is caught."""
    s = _acting(stage=Stage.CONTINUE, acted=True, combat=_fight())
    right = attrs.evolve(s, stage=Stage.ACTIVE, combat=None)
    assert _mismatch(s, right) is None
    m = _mismatch(s, attrs.evolve(s, stage=Stage.ACTIVE))
    assert m is not None and m.clauses == ("RKS-8.3.1",)


def test_rks_10_3_1_a_unit_left_flipped_by_the_recruiting_phase_is_caught() -> None:
    """RKS-10.3.1, RKS-5.1.1: the second refill ends Turn 1 with every unit face up and Turn 2's
    Reinforcement Phase open (`after_refill`), a model step; a unit left flipped is caught."""
    s = attrs.evolve(_start(), phase=Phase.RECRUITING, stage=Stage.DISCARD, player=SU)
    s = BOARD.update(s, "14Pz", flipped=True)
    right = sequence.after_refill(BOARD, s)
    assert right.phase == Phase.REINFORCEMENT and right.turn == 2
    assert _mismatch(s, right) is None
    m = _mismatch(s, BOARD.update(right, "14Pz", flipped=True))
    assert m is not None and m.clauses == ("RKS-10.3.1",)
