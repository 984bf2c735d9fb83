"""Helpers of the rule-removal tests of Rattenkrieg's proofs: a proof rests on a step rule
when, with that one rule left out, it no longer goes through."""

from __future__ import annotations

from kernel.variants import Variant
from solvers.checking import prover
from solvers.checking.system import Conjunct, Schema, choice_frame, concrete_frame
from solvers.checking.terms import CONCRETE, B, Frame, I, Ops
from solvers.checking.verdicts import Verdict
from specs.rattenkrieg.formal.verification import Link

RLIMIT = 50_000_000


class WithoutRule(Schema):
    """`schema` with the guard conjuncts whose text starts with `start` left out (finer than
    `solvers.checking.system.WithoutClause`: one rule, not every rule citing its clause)."""

    def __init__(self, schema: Schema, start: str) -> None:
        self.inner, self.start = schema, start
        self.name, self.clauses, self.choices = schema.name, schema.clauses, schema.choices

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [g for g in self.inner.guard(o, s, c) if not g.text.startswith(self.start)]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.inner.effect(o, s, c)


def verdict_without(variant: Variant, start: str, pid: str) -> Verdict:
    """The verdict on property `pid` under `variant` with the one step rule whose text starts
    with `start` left out (checked to leave out exactly one conjunct at the set-up)."""
    link = Link(variant)
    schema = link.model.schemas[0]
    dropped = WithoutRule(schema, start)
    start_frame = concrete_frame(link.system.variables, link.system.initial())
    choice = choice_frame(schema, {})
    assert len(dropped.guard(CONCRETE, start_frame, choice)) == (
        len(schema.guard(CONCRETE, start_frame, choice)) - 1
    )
    link.model.schemas = (dropped,)
    return prover.check(link.system, link.formal()[pid], rlimit=RLIMIT)
