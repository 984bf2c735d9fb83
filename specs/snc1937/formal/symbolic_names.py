"""The names of the SNC abstract symbolic model's variables (`specs.snc1937.formal.symbolic`).

Split from `symbolic` so that the model, its per-unit step rules (`symbolic_unit`) and its link
to the rules of play (`verification`) share one naming without importing each other: the
global and per-unit variables, a unit's hex (`at`) and flags (`flag`), and the `NEXT` prefix
of the choices that give the next state.
"""

from __future__ import annotations

from solvers.checking.system import BoolVar, IntVar, Var

GLOBAL_INTS = ("turn", "repl")
GLOBAL_BOOLS = ("jp", "opens", "over", "result", "r433", "sudden", "cull")
UNIT_BOOLS = ("trt", "dead", "elite", "red", "chk", "pend")


NEXT = "next."
"""The prefix of the choices that give the next state (a choice named like a state variable
would be that variable to the solver)."""


def renamed(v: Var) -> Var:
    return IntVar(NEXT + v.name, v.lo, v.hi) if isinstance(v, IntVar) else BoolVar(NEXT + v.name)


def at(u: str) -> str:
    return f"at.{u}"


def flag(kind: str, u: str) -> str:
    return f"{kind}.{u}"
