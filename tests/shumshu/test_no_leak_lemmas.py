"""The lemmas SHU-P-NO-LEAK's relation assumes (specs.shumshu.formal.noleak_lemmas): each holds at
every position of seeded games (projected onto the extended model, face-up ghosts included),
each is an inductive invariant of the extended model given the ones before it, and a lemma
with a case missing or turned round is caught (SHU-COMBAT.5, SHU-COMBAT.6, SHU-DISRUPT.5,
SHU-SETUP.1, AMB-SHU-21)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.game import CHANCE
from solvers.checking.prover import Invariant, Lemma, check
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE, B, Frame, I, Ops
from specs.shumshu.formal import noleak, noleak_lemmas
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.verification import Link, symbolic_model
from specs.shumshu.rules.state import JP
from tools.registry import get_game

GAME = get_game("shumshu")
PRESET = "draft"
STEPS = 400  # steps of a playout checked (a whole game is about a hundred)
RLIMIT = 50_000_000  # each lemma's induction takes a few million


@functools.cache
def link() -> Link:
    model = symbolic_model(GAME.presets()[PRESET])
    assert model is not None
    return model


def model() -> Model:
    return link().model


def positions(seed: int) -> Iterator[dict[str, int | bool]]:
    """The extended model's view of every position of a seeded random game."""
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.presets()[PRESET])
    for _ in range(STEPS):
        yield {**link().project(state), **noleak.project_face_up(model(), state)}
        side = GAME.to_move(state)
        if side is None:
            return
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            options = list(GAME.legal_actions(state))
        state = GAME.apply(state, rng.choice(options))


def holds_on(lemma: Lemma, values: dict[str, int | bool]) -> bool:
    system = noleak.extended(model())
    return bool(lemma.holds(CONCRETE, concrete_frame(system.variables, values)))


LEMMAS = [lem.name for lem in noleak_lemmas.lemmas(link().model)]


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_each_lemma_holds_on_playout_positions(seed: int) -> None:
    """SHU-COMBAT.5, SHU-COMBAT.6, SHU-DISRUPT.5: every lemma holds at every position of a
    game (whose pieces start face down; that some are turned face up in such games is
    `test_a_lemma_turned_round_fails_on_a_game`)."""
    lemmas = noleak_lemmas.lemmas(model())
    checked = 0
    for values in positions(seed):
        for lemma in lemmas:
            assert holds_on(lemma, values), lemma.name
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("index", range(len(LEMMAS)), ids=LEMMAS)
def test_each_lemma_is_inductive(index: int) -> None:
    """Each lemma is an inductive invariant of the extended model, given those before it:
    what `noninterference.prove` asks before it assumes them."""
    lemmas = noleak_lemmas.lemmas(model())
    system = noleak.extended(model())
    formal = Invariant(lemmas[index].holds, lemmas=lemmas[:index])
    assert check(system, formal, rlimit=RLIMIT).status == "proved"


def _removed_decoys_forgotten(m: Model) -> Lemma:
    """`japanese_places` with a case missing: a discovered decoy's place (SHU-COMBAT.6)."""
    t = m.t

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.all(
            o.any([o.le(s.i(m.at[u]), t.H), o.eq(s.i(m.at[u]), t.GONE)]) for u in t.of_side[JP]
        )

    return Lemma("Japanese pieces are off the map, on it or eliminated", holds)


def _defenders_hidden(m: Model) -> Lemma:
    """`face_down_clean`'s defender case turned round: a face-up piece never defends."""
    t = m.t

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.all(
            o.implies(s.b(noleak.rev(t.ids[u])), o.not_(s.b(m.fdef[u]))) for u in t.of_side[JP]
        )

    return Lemma("face-up pieces never defend", holds)


def test_a_lemma_missing_a_case_is_not_proved() -> None:
    """SHU-COMBAT.6: a decoy discovered is removed until next turn, so a lemma that leaves
    that place out is broken by a step of the model (the landing or combat that discovers
    it) and is not proved."""
    system = noleak.extended(model())
    lemmas = noleak_lemmas.lemmas(model())
    verdict = check(system, Invariant(_removed_decoys_forgotten(model()).holds), rlimit=RLIMIT)
    assert verdict.status != "proved"
    assert check(system, Invariant(lemmas[0].holds), rlimit=RLIMIT).status == "proved"


def test_a_lemma_turned_round_fails_on_a_game() -> None:
    """SHU-COMBAT.5: a defender is revealed, so the claim that a face-up piece never defends
    fails at a position of a seeded game where a Japanese piece defends."""
    wrong = _defenders_hidden(model())
    assert any(not holds_on(wrong, v) for seed in range(8) for v in positions(seed))
