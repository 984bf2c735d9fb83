"""The self-composition kit (solvers.checking.noninterference) on a small hand-made model: a
hidden coin and a public counter. The blind side sees the counter; the other side flips the
coin in secret and may reveal it. Non-interference holds when a reveal is part of the step
the blind side sees, and fails, with a pair of steps and a pair of witness games, when a step
copies the hidden coin into what it sees."""

from __future__ import annotations

from typing import Any

from solvers.checking import noninterference as ni
from solvers.checking.prover import Lemma, check
from solvers.checking.system import (
    BoolVar,
    Conjunct,
    IntVar,
    Schema,
    Var,
    evaluate,
    schema_named,
)
from solvers.checking.terms import B, Frame, I, Ops
from solvers.checking.verdicts import Trace


class Flip(Schema):
    """The other side sets the coin in secret, face down again (a secret move)."""

    name, clauses = "flip", ("T-1",)
    choices = (BoolVar("c_coin"),)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [Conjunct("T-1", "before the count ends", lambda: o.lt(s.i("count"), 3))]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        count = o.add([s.i("count"), 1])
        return s.evolve({"count": count}, {"coin": c.b("c_coin"), "shown": o.lit(False)})


class Reveal(Schema):
    """The coin is shown: the blind side sees it as it is (`shown`)."""

    name, clauses = "reveal", ("T-2",)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(bools={"shown": o.lit(True)})


class Peek(Schema):
    """The planted leak: the count moves on by the hidden coin."""

    name, clauses = "peek", ("T-3",)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [Conjunct("T-3", "before the count ends", lambda: o.lt(s.i("count"), 3))]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve({"count": o.add([s.i("count"), o.ite(s.b("coin"), 1, 0)])})


class Coin:
    """The toy system (`solvers.checking.system.System`)."""

    def __init__(self, *schemas: Schema) -> None:
        self.name = "coin"
        self.variables: tuple[Var, ...] = (IntVar("count", 0, 3), BoolVar("coin"), BoolVar("shown"))
        self.schemas: tuple[Schema, ...] = schemas

    def initial(self) -> dict[str, int | bool]:
        return {"count": 0, "coin": False, "shown": False}


class Blind:
    """The blind side: the count, whether the coin is shown, and the coin once it is."""

    side = "blind"

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> dict[str, Any]:
        shown = s.b("shown")
        return {"count": s.i("count"), "shown": shown, "coin": o.all([shown, s.b("coin")])}

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> ni.Label:
        if schema.name == "reveal":
            return schema.name, (s.b("coin"),)  # showing the coin is seen
        return schema.name, ()  # a flip's coin is not


def test_secret_moves_and_declared_reveals_do_not_interfere() -> None:
    """T-1, T-2: from equal observations, equal observable steps give equal observations."""
    v = ni.prove(Coin(Flip(), Reveal()), Blind())
    assert v.status == "proved", v.detail
    assert v.pair is None


def test_a_reveal_the_blind_side_does_not_see_leaks() -> None:
    """T-2: with the coin shown and the reveal's coin left out of its observable part, two
    reveals from states that look alike show different coins."""

    class Unseen(Blind):
        def label(
            self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
        ) -> ni.Label:
            return schema.name, ()

    v = ni.prove(Coin(Flip(), Reveal()), Unseen())
    assert v.status == "refuted"
    assert v.pair is not None and "coin" in v.pair.differs


def test_planted_leak_is_refuted_with_a_pair_that_replays() -> None:
    """T-3 planted: the count reads the hidden coin. The verdict's two steps are steps of the
    model from states the blind side cannot tell apart, with equal observable parts, and their
    results differ in what it sees."""
    system, blind = Coin(Flip(), Reveal(), Peek()), Blind()
    v = ni.prove(system, blind)
    assert v.status == "refuted" and v.pair is not None
    first, second = v.pair.first, v.pair.second
    assert first.steps[0][0] == second.steps[0][0] == "peek"
    assert ni.observation(system, blind, first.states[0]) == ni.observation(
        system, blind, second.states[0]
    )
    for trace in (first, second):
        name, choice = trace.steps[0]
        ev = evaluate(system, trace.states[0], schema_named(system, name), choice)
        assert not ev.failed and ev.after == trace.states[1]
    after1 = ni.observation(system, blind, first.states[1])
    after2 = ni.observation(system, blind, second.states[1])
    assert after1 != after2 and "count" in v.pair.differs


def test_planted_leak_gives_two_witness_games_from_the_initial_state() -> None:
    """The pair found from one reachable position: two games sharing a prefix, each a path of
    the model, whose observations agree until the last step and then differ."""
    system, blind = Coin(Flip(), Reveal(), Peek()), Blind()
    heads, tails = (
        Trace(
            (system.initial(), {"count": 1, "coin": coin, "shown": False}),
            (("flip", {"c_coin": coin}),),
        )
        for coin in (True, False)
    )
    games = ni.reachable_pair(system, blind, ("peek", "peek"), [heads, tails])
    assert games is not None
    one, two = games
    assert one.states[0] == two.states[0] == system.initial()
    assert {one.states[1]["coin"], two.states[1]["coin"]} == {True, False}
    for game in games:
        for i, (name, choice) in enumerate(game.steps):
            ev = evaluate(system, game.states[i], schema_named(system, name), choice)
            assert not ev.failed and ev.after == game.states[i + 1]
    views = [[ni.observation(system, blind, s) for s in g.states] for g in games]
    assert views[0][:-1] == views[1][:-1] and views[0][-1] != views[1][-1]


def test_no_witness_games_without_a_leak_at_the_positions_given() -> None:
    """Without the planted step, no position offers such a pair."""
    system = Coin(Flip(), Reveal())
    path = Trace((system.initial(),), ())
    assert ni.reachable_pair(system, Blind(), ("reveal", "reveal"), [path]) is None


def test_lemmas_are_proved_first_and_assumed_in_both_states() -> None:
    """A lemma that does not hold makes the verdict unknown, never a proof."""
    wrong = Lemma("the coin is never shown", lambda o, s: o.not_(s.b("shown")))
    v = ni.prove(Coin(Flip(), Reveal()), Blind(), lemmas=(wrong,))
    assert v.status == "unknown" and "not proved" in v.detail


def test_the_prover_gives_a_relational_statement_its_own_verdict() -> None:
    """`prover.check` hands a `NoLeak` statement to the kit (how `wargame verify` runs it)."""
    system = Coin(Flip(), Reveal(), Peek())
    assert check(system, ni.NoLeak(Blind())).status == "refuted"
    assert check(Coin(Flip(), Reveal()), ni.NoLeak(Blind())).status == "proved"


def test_a_bridge_is_derived_from_equal_observations_before_it_is_assumed() -> None:
    """A bridge the observations imply (the count, here by cases over its own values) is
    derived and the proof goes through; one they do not imply (the hidden coin) makes the
    verdict unknown, never a proof: a bridge only spells out what equal observations say."""
    seen = ni.Bridge("the count", lambda o, s: s.i("count"), "count")
    v = ni.prove(Coin(Flip(), Reveal()), Blind(), bridges=(seen,))
    assert v.status == "proved", v.detail
    assert "bridges the count" in v.detail
    hidden = ni.Bridge("the coin", lambda o, s: s.b("coin"), "count")
    v = ni.prove(Coin(Flip(), Reveal()), Blind(), bridges=(hidden,))
    assert v.status == "unknown" and "'the coin' does not follow" in v.detail
