"""Rattenkrieg's abstract symbolic model (`specs.rattenkrieg.formal.symbolic`): its properties
proved over
it, every concrete step of seeded games a model step (refinement direction (a)), rule breaches
caught with their clauses, each formal statement false where its property is, and the two
readings of the step rules (Z3 and plain Python) in agreement."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kernel.game import Outcome
from kernel.playout import play
from kernel.properties import Property
from solvers import smt
from solvers.checking import prover, refinement
from solvers.checking.model_search import model_of
from solvers.checking.system import (
    Conjunct,
    WithoutClause,
    choice_frame,
    concrete_frame,
    evaluate,
    pinned,
    z3_frame,
)
from solvers.checking.terms import CONCRETE
from specs.rattenkrieg.formal import properties, verification
from specs.rattenkrieg.formal.symbolic_state import at
from specs.rattenkrieg.formal.verification import (
    AFTERMATH,
    CARDS,
    COMBAT,
    COMBATANTS,
    CONTROL,
    DRAWS,
    EFFECTS,
    FACES,
    FLIPPED,
    HANDS,
    LOOP,
    PAY,
    PICKS,
    REAR,
    RESULT,
    SEQUENCE,
    SETUP,
    STAGED,
    STEPS,
    UNITS,
    Link,
    symbolic_model,
)
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.actions import Attack, Designate, Draw, Event, Move, Pass, Pay, Recruit
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.control import settle
from specs.rattenkrieg.rules.state import (
    GE,
    SU,
    Combat,
    DrawFor,
    PendingMove,
    Phase,
    Pick,
    RKState,
    Stage,
    Step,
)
from specs.rattenkrieg.rules.units import eliminate
from tests.rattenkrieg.positions import (
    CATALOGUE,
    GAME,
    GAME_RULES,
    GREAR,
    SREAR,
    TW,
    active,
    position,
)
from tests.rattenkrieg.test_symbolic_aftermath import _damaged
from tests.rattenkrieg.test_symbolic_combat import BROKEN as BROKEN_COMBATS
from tests.sizes import FULL

BOARD: Board = GAME_RULES.board
STANDARD = symbolic_model(CATALOGUE.preset("standard"))
PROVED = {CARDS, STEPS, HANDS, FACES, REAR, UNITS, RESULT, CONTROL, LOOP, FLIPPED}
PROVED |= {EFFECTS, PAY, SETUP, DRAWS}  # records beyond counts and places
PROVED |= {STAGED, COMBATANTS, PICKS}  # the parts of SEQUENCE, COMBAT, AFTERMATH proved
PROVED |= {SEQUENCE}  # whole: the records of each stage, the acting unit's flags, the flips
PROVED |= {COMBAT, AFTERMATH}  # whole: the combat table, what is left to decide
INVARIANTS = PROVED - {LOOP, FLIPPED}
NO_LEAK = "RKS-P-NO-LEAK"  # two runs, not 1-induction: tests/rattenkrieg/test_no_leak_proof.py
RLIMIT = 50_000_000
OTHER_READINGS: list[dict[str, str]] = [
    {
        "played_step": "returned",
        "used_steps": "removed",
        "discard_faces": "face_up",
        "uncontested_card": "returned",
        "event_source": "hand_or_step",
        "lost_step": "random",
        "hand_limit": "hard_limit",
        "tie_refight": "cards_only",
        "zero_steps": "last_step_eliminates",
        "cardless_entry": "combat_follows",
        "refill_amount": "partial",
        "rear_retreat_ban": "damage_only",
        "t34_support_card": "any_card",
    },
    {
        "discard_faces": "face_down",
        "recruit_turn": "extra",
        "t34_revival": "recruiting_phase",
        "arrival_state": "flipped",
        "contested_control": "uncontrolled",
        "occupying": "present",
        "raising": "alternating",
        "effect_duration": "first_round",
        "effect_stacking": "once",
        "assault_gun_on_panzer": "no_effect",
        "event_timing": "player_turn_too",
        "reattack_events": "effects",
        "reattack_effects": "carried",
        "soviet_rear_entry": "one_way",
    },
]


def _start() -> RKState:
    return GAME.initial_state(CATALOGUE.preset("standard"))


def _mismatch(before: RKState, after: RKState, action: Any = None) -> refinement.Mismatch | None:
    """Direction (a) for a hand-made step from `before` to `after` (the action is `Pass` unless
    given; the link reads the step's result from `after`, so the rules' own `apply` is
    bypassed)."""
    link = Link(CATALOGUE.preset("standard"))
    action = Pass() if action is None else action
    link.known_step(before, action, after)
    return refinement.check_step(link, before, action, after, "hand-made step")


def _prop(pid: str) -> Property:
    return next(p for p in verification.properties() if p.id == pid)


# --- proofs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(CATALOGUE.presets))
def test_rks_2_4_1_3_5_1_4_1_1_properties_are_proved_over_the_abstraction(preset: str) -> None:
    """RKS-2.4.1, RKS-3.4.1, RKS-3.4.3, RKS-3.5.1, RKS-4.1.1, RKS-7.4.2, RKS-7.5.3, RKS-8.9.2,
    RKS-9.8.2: each property the abstraction states is proved by 1-induction from its step
    rules (RKS-P-HAND and RKS-P-UNITS given a lemma, RKS-P-LOOP by one part)."""
    link = symbolic_model(CATALOGUE.preset(preset))
    formal = link.formal()
    assert set(formal) == PROVED | {NO_LEAK}
    if not FULL:
        return  # `wargame verify` (in make test) proves each; make bench checks the methods
    for pid in sorted(PROVED):
        v = prover.check(link.system, formal[pid], rlimit=RLIMIT)
        assert v.status == "proved", (pid, v.detail)
        assert v.method == ("1-induction by parts" if pid == LOOP else "1-induction"), pid


def test_rks_9_8_2_the_loop_is_not_stated_when_chuikov_may_be_paid_with_a_step() -> None:
    """RKS-9.8.2 (AMB-RKS-20 i): under event_source=hand_or_step a step card pays for General
    Chuikov's flip and the loop's measure may grow (the playouts show it), so the abstraction
    has no Chuikov rule and states no RKS-P-LOOP there."""
    link = Link(CATALOGUE.variant("standard", {"event_source": "hand_or_step"}))
    assert set(link.formal()) == INVARIANTS | {FLIPPED, NO_LEAK}
    assert "RKS-9.8.2" not in {g.clause for g in _guard(link)}


def _guard(link: Link) -> list[Conjunct[bool]]:
    start = concrete_frame(link.system.variables, link.system.initial())
    choice = choice_frame(link.system.schemas[0], {})
    return link.system.schemas[0].guard(CONCRETE, start, choice)


def test_rks_5_1_2_the_other_properties_stay_with_the_playouts() -> None:
    """RKS-5.1.2, RKS-7.2.1: the one property the abstraction does not state under the presets
    is RKS-P-ENDS, false, which `wargame verify` refutes with a playout that repeats a
    position."""
    ids = {p.id for p in verification.properties()}
    assert ids > PROVED
    assert ids - set(STANDARD.formal()) == {"RKS-P-ENDS"}


@pytest.mark.parametrize(
    ("clause", "pid"),
    [
        ("RKS-3.5.1", REAR),
        ("RKS-7.5.3", STEPS),
        ("RKS-3.4.3", CARDS),
        ("RKS-2.4.1", CARDS),
        ("RKS-10.1.2", HANDS),
        ("RKS-5.1.1", HANDS),
        ("RKS-8.7.1", FACES),
        ("RKS-3.3.3", FACES),
        ("RKS-4.1.1", RESULT),
        ("RKS-4.1.2", RESULT),
        ("RKS-8.9.2", UNITS),
        ("RKS-6.1.1", UNITS),
        ("RKS-3.3.2", UNITS),
        ("RKS-3.1.1", UNITS),
        ("RKS-9.8.2", LOOP),
        ("RKS-10.1.2", LOOP),
        ("RKS-7.4.2", FLIPPED),
        ("RKS-3.6.2", CONTROL),
        ("RKS-8.10.6", CONTROL),
        ("RKS-7.1.1", EFFECTS),
        ("RKS-9.1.1", EFFECTS),
        ("RKS-9.4.1", EFFECTS),
        ("RKS-9.5.1", EFFECTS),
        ("RKS-9.2.2", EFFECTS),
        ("RKS-8.2.2", EFFECTS),
        ("RKS-9.7.1", EFFECTS),
        ("RKS-7.3.1", PAY),
        ("RKS-7.1.2", PAY),
        ("RKS-5.1.1", SETUP),
        ("RKS-3.1.1", SETUP),
        ("RKS-3.3.1", SETUP),
        ("RKS-3.4.3", DRAWS),
        ("RKS-6.1.2", DRAWS),
        ("RKS-6.2.2", DRAWS),
        ("RKS-10.1.2", DRAWS),
        ("RKS-10.2.1", DRAWS),
        ("RKS-7.5.1", DRAWS),
        ("RKS-5.1.2", STAGED),
        ("RKS-10.1.1", STAGED),
        ("RKS-7.1.1", STAGED),
        ("RKS-9.6.1", STAGED),
        ("RKS-8.2.3", COMBATANTS),
        ("RKS-8.12.3", COMBATANTS),
        ("RKS-8.1.1", COMBATANTS),
        ("RKS-8.9.1", PICKS),
        ("RKS-8.12.1", PICKS),
        ("RKS-9.6.1", PICKS),
        ("RKS-8.3.1", SEQUENCE),
        ("RKS-10.3.1", SEQUENCE),
    ],
)
def test_rks_3_5_1_7_5_3_the_proofs_rest_on_the_step_rules(clause: str, pid: str) -> None:
    """RKS-3.5.1, RKS-7.5.3, RKS-3.4.3, RKS-2.4.1, RKS-10.1.2, RKS-5.1.1, RKS-8.7.1, RKS-3.3.3,
    RKS-4.1.1, RKS-4.1.2, RKS-8.9.2, RKS-6.1.1, RKS-3.3.2, RKS-3.1.1, RKS-9.8.2, RKS-7.4.2,
    RKS-3.6.2, RKS-8.10.6, RKS-7.1.1, RKS-9.1.1, RKS-9.4.1, RKS-9.5.1, RKS-9.2.2, RKS-8.2.2,
    RKS-9.7.1, RKS-7.3.1, RKS-7.1.2, RKS-3.3.1, RKS-6.2.2, RKS-10.2.1, RKS-7.5.1, RKS-5.1.2,
    RKS-10.1.1, RKS-9.6.1, RKS-8.2.3, RKS-8.12.3, RKS-8.9.1, RKS-8.1.1, RKS-8.3.1, RKS-10.3.1,
    RKS-8.12.1:
    without the step rule of its clause, the property is refuted over the abstraction or no
    longer inductive (proved by parts: its part is not): the proof is no tautology."""
    link = Link(CATALOGUE.preset("standard"))
    link.model.schemas = (WithoutClause(link.model.schemas[0], clause),)
    statement = link.formal()[pid]
    if isinstance(statement, prover.StepInvariant) and statement.parts is not None:
        # proved by parts: without the rule, the part is no longer inductive
        parts = statement.parts()
        assert prover.not_inductive_part(link.system, (), parts, RLIMIT) is not None
        return
    v = prover.check(link.system, statement, rlimit=RLIMIT)
    assert v.status != "proved", v.detail
    assert v.method != "solver", v.detail  # Z3 answered: refuted, or not inductive (no limit hit)


def test_rks_8_7_4_under_first_round_the_effects_proof_rests_on_the_refight_rule() -> None:
    """RKS-8.7.4, RKS-9.5.1 (AMB-RKS-20 iv, effect_duration=first_round): RKS-P-EFFECTS is
    proved, and without the rule that a refought tie ends the combat's events it is not."""
    variant = CATALOGUE.variant("standard", {"effect_duration": "first_round"})
    link = Link(variant)
    assert prover.check(link.system, link.formal()[EFFECTS], rlimit=RLIMIT).status == "proved"
    link = Link(variant)
    link.model.schemas = (WithoutClause(link.model.schemas[0], "RKS-8.7.4"),)
    v = prover.check(link.system, link.formal()[EFFECTS], rlimit=RLIMIT)
    assert v.status != "proved" and v.method != "solver", v.detail


# --- refinement, direction (a) -------------------------------------------------------------------


@pytest.mark.skipif(
    not FULL, reason="`wargame verify` (in make test) runs it on two seeds; make bench on one more"
)
def test_rks_5_1_1_every_step_of_seeded_games_is_a_model_step() -> None:
    """RKS-5.1.1: every step of a seeded game satisfies every step rule of the abstraction
    (`wargame verify` runs this under both presets on other seeds)."""
    report = refinement.run(GAME, STANDARD, "standard", games=1, every=0, seed=3)
    assert report.ok, [str(m) for m in report.mismatches]
    assert report.steps > 200


@pytest.mark.parametrize("readings", range(len(OTHER_READINGS)))
def test_rks_3_4_3_every_step_under_other_readings_is_a_model_step(readings: int) -> None:
    """RKS-3.4.3, RKS-3.3.3, RKS-8.7.1 (AMB-RKS-7): the step rules hold under readings the
    presets do not take (step cards returned or removed, discards face up or down, events paid
    with steps, a random lost step, recruits in an extra turn, late T-34 revival, contested
    Areas uncontrolled: AMB-RKS-11); the game reaches its result."""
    variant = CATALOGUE.variant("standard", OTHER_READINGS[readings])
    link = Link(variant)
    found: list[refinement.Mismatch] = []
    steps = [0]
    last: list[RKState] = []

    def on_step(before: RKState, action: Any, after: RKState) -> None:
        steps[0] += 1
        m = refinement.check_step(link, before, action, after, f"step {steps[0]}")
        if m is not None:
            found.append(m)
        last[:] = [after]

    play(GAME, GAME.initial_state(variant), random.Random(5), max_steps=3000, on_step=on_step)
    assert not found, [str(m) for m in found[:3]]
    assert steps[0] > 200 and last[0].result is not None


def _stepwise(s: RKState, *actions: Any) -> list[RKState]:
    """The positions `actions` lead to from `s` by the rules, each step checked to be a model
    step and each position to satisfy its RKS-P-PAY, RKS-P-EFFECTS, RKS-P-DRAWS and RKS-P-SETUP
    statements and properties."""
    link = Link(s.variant)
    seen = [s]
    for i, action in enumerate(actions):
        after = GAME.apply(s, action)
        m = refinement.check_step(link, s, action, after, f"step {i}")
        assert m is None, str(m)
        frame = concrete_frame(link.system.variables, link.project(after))
        for pid in (PAY, EFFECTS, DRAWS, SETUP):
            statement = link.formal()[pid]
            assert isinstance(statement, prover.Invariant)
            assert statement.holds(CONCRETE, frame), (pid, i)
            check = _prop(pid).state_check
            assert check is not None and check(after), (pid, i)
        s = after
        seen.append(s)
    return seen


def test_rks_8_12_4_a_t34_moving_along_and_paying_its_own_card_is_a_model_step() -> None:
    """RKS-8.12.4, RKS-7.3.1 (AMB-RKS-15 iv, t34_escort=flipped_paid_each): a Rifle entering an
    empty German Area with the T-34, two cards paid one by one: every step a model step, the
    waiting move as RKS-P-PAY states it (the seeded playouts seldom take a T-34 along)."""
    units = {"Rifle-1": (TW, ["2H"]), "T-34": (TW, [])}
    s = active(
        "Rifle-1",
        units,
        hands={SU: ["3H"]},
        control={"barrikady": GE},
        options={"t34_escort": "flipped_paid_each"},
    )
    seen = _stepwise(s, Move("barrikady", "T-34"), Pay("2H"), Pay("3H"))
    assert [x.pending.payments if x.pending else 0 for x in seen] == [0, 2, 1, 0]


def test_rks_7_5_1_a_recruit_and_its_draw_are_model_steps() -> None:
    """RKS-7.5.1, RKS-3.4.3: a recruit queues one draw for the unit's step, which the next step
    deals: both model steps, the queued draw as RKS-P-DRAWS states it."""
    s = position({"71": (GREAR, ["2S"]), "14Pz": GREAR})
    seen = _stepwise(s, Recruit("71"), Draw("9H"))
    assert seen[1].stage == Stage.DRAW and seen[1].draws == (DrawFor("steps", "71"),)
    assert seen[2].draws == () and "9H" in seen[2].units[BOARD.unit_index["71"]].steps


def test_rks_9_5_1_an_event_passing_into_a_combat_is_a_model_step() -> None:
    """RKS-9.5.1, RKS-8.2.2: the Combat Engineer played by the acting unit, then its combat,
    which takes the event in: every step a model step, RKS-P-EFFECTS as stated."""
    units = {"71": (TW, ["2S", "3S"]), "Rifle-1": (TW, ["2H"])}
    s = active("71", units, hands={GE: ["KC", "4S"]})
    seen = _stepwise(s, Event("KC"), Attack())
    assert seen[1].effects == ("engineer",)
    assert seen[2].combat is not None and seen[2].combat.effects == ("engineer",)
    assert seen[2].effects == ()


def _turn() -> RKState:
    """The set-up position taken to the Player Turns (so that a hand-made change breaks no rule
    of the set-up steps too)."""
    return attrs.evolve(_start(), phase=Phase.PLAYER_TURNS, stage=Stage.PLAYER_TURN)


def _breach(change: Callable[[RKState], RKState]) -> refinement.Mismatch:
    before = _turn()
    m = _mismatch(before, change(before))
    assert m is not None
    return m


def _to_steps(s: RKState, unit: str, cards: list[str]) -> RKState:
    """`cards` taken from the deck onto `unit`'s steps."""
    s = BOARD.update(s, unit, steps=BOARD.unit(s, unit).steps | frozenset(cards))
    return attrs.evolve(s, deck=s.deck - frozenset(cards))


def test_rks_3_5_1_a_unit_entering_the_enemy_rear_is_caught() -> None:
    """RKS-3.5.1: a German unit stepping into the Soviet Rear."""
    m = _breach(lambda s: BOARD.update(s, "14Pz", area=SREAR))
    assert m.clauses == ("RKS-3.5.1",)


def test_rks_7_5_3_a_unit_gaining_steps_beyond_its_original_number_is_caught() -> None:
    """RKS-7.5.3, RKS-3.3.1: an Infantry Division dealt a third step (and its two are a model
    step)."""
    m = _breach(lambda s: _to_steps(s, "71", ["AS", "2S", "3S"]))
    assert m.clauses == ("RKS-7.5.3",)
    s = _turn()
    assert _mismatch(s, _to_steps(s, "71", ["AS", "2S"])) is None


def test_rks_3_4_3_a_card_in_two_places_is_caught() -> None:
    """RKS-3.4.3, RKS-2.4.1: a card drawn into a hand that stays in the deck, or a card that is
    none of the 52."""
    s = attrs.evolve(_start(), phase=Phase.RECRUITING, stage=Stage.DISCARD)
    m = _mismatch(s, attrs.evolve(s, hand_su=frozenset({"AS"})))
    assert m is not None and m.clauses == ("RKS-3.4.3",)
    m = _breach(lambda s: attrs.evolve(s, discards=frozenset({"1Z"})))
    assert "RKS-2.4.1" in m.clauses


def test_rks_10_1_2_a_hand_growing_in_the_player_turns_is_caught() -> None:
    """RKS-10.1.2, RKS-3.4.1: a card into the German hand in the Player Turns, or a fourth one
    in set-up (three are dealt); three at once while the Rifles are placed break the placing
    rule alone (RKS-3.1.1)."""

    def dealt(n: int, phase: Phase) -> Callable[[RKState], RKState]:
        cards = frozenset(["AS", "2S", "3S", "4S"][:n])
        return lambda s: attrs.evolve(s, phase=phase, hand_ge=cards, deck=s.deck - cards)

    s = attrs.evolve(_start(), phase=Phase.PLAYER_TURNS)
    m = _mismatch(s, dealt(1, Phase.PLAYER_TURNS)(s))
    assert m is not None and m.clauses == ("RKS-10.1.2",)
    m = _mismatch(_start(), dealt(4, Phase.SETUP)(_start()))
    assert m is not None and "RKS-10.1.2" in m.clauses
    m = _mismatch(_start(), dealt(3, Phase.SETUP)(_start()))
    assert m is not None and m.clauses == ("RKS-3.1.1",)  # no card is dealt while placing


def test_rks_4_1_1_a_wrong_winner_is_caught() -> None:
    """RKS-4.1.1: the game given to the German at the end of Turn 6 while the Soviets hold the
    arrow Areas; the victory condition's own result is a model step."""
    s = attrs.evolve(_start(), turn=sequence.LAST_TURN, phase=Phase.RECRUITING, stage=Stage.DISCARD)
    wrong = attrs.evolve(
        s, phase=Phase.OVER, stage=Stage.OVER, result=Outcome(GE, clause="RKS-4.1.1")
    )
    m = _mismatch(s, wrong)
    assert m is not None and m.clauses == ("RKS-4.1.1",)
    right = sequence.victory(BOARD, s)
    assert right.result is not None and right.result.winner == SU
    assert _mismatch(s, right) is None


def test_rks_8_9_2_a_unit_leaving_the_map_uneliminated_is_caught() -> None:
    """RKS-8.9.2: a unit taken off the map with no elimination recorded (and one eliminated
    by the rules' `eliminate` is a model step)."""
    m = _breach(lambda s: BOARD.update(s, "14Pz", area=None))
    assert m.clauses == ("RKS-8.9.2",)
    s = _turn()
    assert _mismatch(s, eliminate(BOARD, s, "14Pz")) is None


def _chuikov(paid: bool) -> tuple[RKState, RKState]:
    """A flipped Soviet Rifle in the Player Turns turned face up, the Soviet hand paying a card
    for it or not."""
    s = attrs.evolve(_start(), phase=Phase.PLAYER_TURNS, hand_su=frozenset({"KH"}))
    s = attrs.evolve(BOARD.update(s, "T-34", flipped=True), deck=s.deck - {"KH"})
    after = BOARD.update(s, "T-34", flipped=False)
    if paid:
        after = attrs.evolve(after, hand_su=frozenset(), discards=frozenset({"KH"}))
    return s, after


def test_rks_9_8_2_a_unit_turned_face_up_for_nothing_is_caught() -> None:
    """RKS-9.8.2: in the Player Turns a unit turned face up with no card leaving the Soviet
    hand; with General Chuikov discarded, it is a model step."""
    m = _mismatch(*_chuikov(paid=False))
    assert m is not None and m.clauses == ("RKS-9.8.2",)
    assert _mismatch(*_chuikov(paid=True)) is None


def _entered(s: RKState) -> RKState:
    """The German 14th Panzer moved into the first Normal Area, which the Soviets control and no
    unit holds at set-up, its control left as it was."""
    return BOARD.update(s, "14Pz", area=BOARD.normal_areas[0])


def test_rks_3_6_2_control_not_following_the_units_is_caught() -> None:
    """RKS-3.6.2, RKS-3.6.3, RKS-8.10.6: a German unit alone in a Soviet-controlled Area, or a
    unit isolated in its own Rear; with control settled by the rules' `settle`, the move is a
    model step."""
    assert _breach(_entered).clauses == ("RKS-3.6.2",)
    s = _turn()
    moved = settle(BOARD, _entered(s))
    assert moved.control[BOARD.index[BOARD.normal_areas[0]]] == GE
    assert _mismatch(s, moved) is None
    assert _breach(lambda s: BOARD.update(s, "14Pz", isolated=True)).clauses == ("RKS-8.10.6",)


def _designated(flipped: bool) -> tuple[RKState, Designate, RKState]:
    """The German 14th Panzer designated in the Player Turns, flipped or face up before."""
    s = attrs.evolve(_start(), phase=Phase.PLAYER_TURNS, stage=Stage.PLAYER_TURN, player=GE)
    s = BOARD.update(s, "14Pz", flipped=flipped)
    return s, Designate("14Pz"), attrs.evolve(s, acting="14Pz", stage=Stage.ACTIVE)


def test_rks_7_4_2_a_flipped_unit_designated_is_caught() -> None:
    """RKS-7.4.2, RKS-10.3.1: a flipped unit designated to act; face up, it is a model step."""
    before, action, after = _designated(flipped=True)
    m = _mismatch(before, after, action)
    assert m is not None and m.clauses == ("RKS-7.4.2",)
    before, action, after = _designated(flipped=False)
    assert _mismatch(before, after, action) is None


def _acting(unit: str, side: str) -> RKState:
    """`unit` of `side` acting in the Player Turns, no event in force."""
    s = attrs.evolve(_start(), phase=Phase.PLAYER_TURNS, stage=Stage.ACTIVE, player=side)
    return attrs.evolve(s, acting=unit)


def test_rks_9_1_1_an_event_put_in_force_wrongly_is_caught() -> None:
    """RKS-9.1.1, RKS-9.1.2, RKS-9.4.1: a Soviet event in force for a German unit, or the
    Assault Gun for a Panzer Division; the Combat Engineer for it is a model step."""
    s = _acting("14Pz", GE)
    m = _mismatch(s, attrs.evolve(s, effects=("molotov",)))
    assert m is not None and m.clauses == ("RKS-9.1.1",)
    m = _mismatch(s, attrs.evolve(s, effects=("assault_gun",)))
    assert m is not None and m.clauses == ("RKS-9.4.1",)
    assert _mismatch(s, attrs.evolve(s, effects=("engineer",))) is None


def test_rks_8_7_1_a_card_turned_face_up_in_the_deck_is_caught() -> None:
    """RKS-8.7.1, RKS-3.4.3: a card of the deck turned face up."""
    m = _breach(lambda s: attrs.evolve(s, face_up=frozenset({"AS"})))
    assert m.clauses == ("RKS-8.7.1",)


# --- the formal statements say what the properties say -----------------------------------------


def _broken(pid: str) -> RKState:
    """A position that breaks property `pid` (not one play reaches)."""
    s = _start()
    if pid == CARDS:
        return attrs.evolve(s, hand_su=frozenset({"AS"}))
    if pid == STEPS:
        return _to_steps(s, "T-34", ["AS"])
    if pid == HANDS:
        cards = frozenset(["AS", "2S", "3S", "4S"])
        return attrs.evolve(s, hand_ge=cards, deck=s.deck - cards)
    if pid == FACES:
        return attrs.evolve(s, face_up=frozenset({"AS"}))
    if pid == REAR:
        return BOARD.update(s, "14Pz", area=SREAR)
    if pid == UNITS:
        return BOARD.update(s, "14Pz", area=None)
    if pid == CONTROL:
        return _entered(s)
    if pid == DRAWS:  # a hand drawn up in the Player Turns
        return attrs.evolve(_turn(), stage=Stage.DRAW, draws=(DrawFor("hand", GE),))
    if pid == SETUP:  # the first Rifle on the second Normal Area
        return BOARD.update(s, BOARD.rifles[0], area=BOARD.normal_areas[1])
    if pid == PAY:  # a move waiting for its card into the enemy Rear
        move = PendingMove(SREAR, None, 1)
        return attrs.evolve(_acting("14Pz", GE), stage=Stage.PAY, pending=move)
    if pid == PICKS:  # the Sniper's pick for the German player
        return attrs.evolve(_acting("14Pz", GE), stage=Stage.PICK, pick=Pick("sniper", GE))
    if pid == COMBATANTS:  # a German unit attacking a German defender
        s = attrs.evolve(_acting("14Pz", GE), stage=Stage.COMBAT)
        return attrs.evolve(s, combat=Combat(TW, "14Pz", Step.ATTACK, defender="71"))
    if pid == STAGED:  # a German unit acting at the start of a Player Turn
        return attrs.evolve(_turn(), acting="14Pz")
    if pid == SEQUENCE:  # a pass still counted in the Recruiting Phase
        return attrs.evolve(s, phase=Phase.RECRUITING, stage=Stage.DISCARD, passes=1)
    if pid == COMBAT:  # the Soviet raising out of turn under Chuikov (the German raises first)
        return BROKEN_COMBATS["a raise out of turn"]()
    if pid == AFTERMATH:  # a stepless Rifle to take damage with nowhere to go and no T-34
        return _damaged(control={TW: GE})
    if pid == EFFECTS:  # a Soviet event in force for a German unit
        s = attrs.evolve(s, phase=Phase.PLAYER_TURNS, stage=Stage.ACTIVE, player=GE)
        return attrs.evolve(s, acting="14Pz", effects=("molotov",))
    s = attrs.evolve(s, turn=sequence.LAST_TURN)
    return attrs.evolve(s, phase=Phase.OVER, result=Outcome(GE, clause="RKS-4.1.1"))


@pytest.mark.parametrize("pid", sorted(INVARIANTS))
def test_rks_2_4_1_each_formal_statement_is_false_where_its_property_is(pid: str) -> None:
    """RKS-2.4.1, RKS-7.5.3, RKS-3.4.1, RKS-3.4.3, RKS-3.5.1, RKS-4.1.1, RKS-3.6.2: on positions
    of a seeded game both a property and its formal statement (over the projection) hold; on a
    position made to break the property, the formal statement fails too (it says no less)."""
    link = STANDARD
    statement = link.formal()[pid]
    assert isinstance(statement, prover.Invariant)
    prop = _prop(pid)
    assert prop.state_check is not None
    variables = link.system.variables

    def holds(s: RKState) -> bool:
        return bool(statement.holds(CONCRETE, concrete_frame(variables, link.project(s))))

    seen: list[RKState] = []
    play(GAME, _start(), random.Random(1), max_steps=600, on_step=lambda b, a, s: seen.append(s))
    assert all(holds(s) and prop.state_check(s) for s in seen[::7])
    bad = _broken(pid)
    assert not prop.state_check(bad)
    assert not holds(bad)


def test_rks_5_1_2_the_loop_statement_is_false_where_its_property_is() -> None:
    """RKS-5.1.2, RKS-9.8.2: on the steps of a seeded game both RKS-P-LOOP and its formal
    statement hold; on a step that turns a unit face up for nothing, both fail."""
    link = STANDARD
    statement = link.formal()[LOOP]
    assert isinstance(statement, prover.StepInvariant)
    prop = _prop(LOOP)
    assert prop.step_check is not None
    variables = link.system.variables

    def holds(before: RKState, after: RKState) -> bool:
        s, n = (concrete_frame(variables, link.project(x)) for x in (before, after))
        return bool(statement.holds(CONCRETE, s, n))

    steps: list[tuple[RKState, Any, RKState]] = []
    play(GAME, _start(), random.Random(1), max_steps=600, on_step=lambda *x: steps.append(x))
    assert all(holds(b, a) and prop.step_check(b, x, a) for b, x, a in steps)
    before, after = _chuikov(paid=False)
    assert not prop.step_check(before, Pass(), after)
    assert not holds(before, after)


def test_rks_7_4_2_the_flipped_statement_is_false_where_its_property_is() -> None:
    """RKS-7.4.2, RKS-7.5.2, RKS-8.12.4: on the steps of a seeded game both RKS-P-FLIPPED and its
    formal statement (over the projections, with the step's actors) hold, and units do act; on
    a step that designates a flipped unit, both fail."""
    link = Link(CATALOGUE.preset("standard"))
    statement = link.formal()[FLIPPED]
    assert isinstance(statement, prover.StepInvariant)
    prop = _prop(FLIPPED)
    assert prop.step_check is not None
    variables = link.system.variables

    def holds(before: RKState, action: Any, after: RKState) -> bool:
        link.known_step(before, action, after)
        s, n = (concrete_frame(variables, link.project(x)) for x in (before, after))
        return bool(statement.holds(CONCRETE, s, n))

    steps: list[tuple[RKState, Any, RKState]] = []
    play(GAME, _start(), random.Random(1), max_steps=600, on_step=lambda *x: steps.append(x))
    assert all(holds(b, x, a) and prop.step_check(b, x, a) for b, x, a in steps)
    assert any(properties.actors(x) for _, x, _ in steps)
    before, action, after = _designated(flipped=True)
    assert not prop.step_check(before, action, after)
    assert not holds(before, action, after)


# --- two readings, one truth ---------------------------------------------------------------------


def _z3_accepts(link: Link, before: dict[str, int | bool], after: dict[str, Any]) -> bool:
    """The step rules as one Z3 formula over symbolic frames, pinned to the two states."""
    system = link.system
    schema = system.schemas[0]
    s = z3_frame(system.variables, "@0")
    c = z3_frame(schema.choices, "@c")
    solver = smt.Solver(finite_domain=False, rlimit=RLIMIT)
    solver.add(pinned(system.variables, s, before))
    solver.add(pinned(schema.choices, c, after))
    solver.add(smt.formula(smt.Z3.all(g.make() for g in schema.guard(smt.Z3, s, c))))
    return solver.check()


def test_rks_3_5_1_the_z3_and_python_readings_of_the_step_rules_agree() -> None:
    """RKS-3.5.1, RKS-3.4.3: on real steps and on broken ones, the step rules read by Z3 accept
    exactly what the plain evaluation accepts."""
    link = Link(CATALOGUE.preset("standard"))
    schema = link.system.schemas[0]
    cases: list[tuple[RKState, Any, RKState]] = []

    def on_step(before: RKState, action: Any, after: RKState) -> None:
        if len(cases) < 10 and before.units != after.units:
            cases.append((before, action, after))

    play(GAME, _start(), random.Random(2), max_steps=400, on_step=on_step)
    s = _start()
    cases.append((s, Pass(), BOARD.update(s, "14Pz", area=SREAR)))
    cases.append((s, Pass(), attrs.evolve(s, hand_su=frozenset({"AS"}))))
    assert len(cases) == 12
    verdicts = []
    for before, action, after in cases:
        link.known_step(before, action, after)
        _, choice = link.schema_of(before, action)
        plain = not evaluate(link.system, link.project(before), schema, choice).failed
        assert _z3_accepts(link, link.project(before), choice) == plain
        verdicts.append(plain)
    assert verdicts.count(False) == 2


def test_rks_3_1_1_the_abstraction_starts_at_the_projected_set_up() -> None:
    """RKS-3.1.1, RKS-3.2.1, RKS-3.4.2: the model starts at the projected set-up (Turn 1, no
    result, every card once, the units where they start) and is marked as an abstraction, so
    `wargame explore` does not read it."""
    link = STANDARD
    assert link.exact is False
    start = link.system.initial()
    assert start["turn"] == 1 and start["won"] == 0
    assert all(start[f"card.{c}"] == 1 for c in link.model.cards)
    for u in _start().units:
        assert start[at(u.id)] == (0 if u.area is None else link.model.areas[u.area])
    assert model_of(verification.symbolic_model, CATALOGUE.preset("standard")) is None


@pytest.mark.parametrize("effects", ["spent", "carried"])
def test_rks_8_11_2_events_before_the_attack_again_are_model_steps(effects: str) -> None:
    """RKS-8.11.2, RKS-9.5.1 (reattack_events=effects, with either reattack_effects): an
    event played while the attacker must attack again or retreat, and the attack again that
    takes it in, are model steps (the step rule is widened for that reading only)."""
    from specs.rattenkrieg.rules.actions import Accept, Action, LoseStep, Play

    options = {"reattack_events": "effects", "reattack_effects": effects}
    link = Link(CATALOGUE.variant("standard", options))
    units = {"29Mot": ("orlovka", ["2C", "3C"]), "13Gds": (TW, ["5H", "6H"])}
    s = active("29Mot", units, hands={GE: ["KS", "KC"]}, control={"orlovka": GE}, options=options)
    steps: list[Action] = [Event("KS"), Move(TW), Play("2C"), Accept(), LoseStep("13Gds", "5H")]
    for action in [*steps, Event("KC"), Attack()]:
        after = GAME.apply(s, action)
        m = refinement.check_step(link, s, action, after, str(action))
        assert m is None, str(m)
        s = after
    assert s.combat is not None and "engineer" in s.combat.effects
