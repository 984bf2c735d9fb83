"""What bounds every Z3 check, and what a check that meets a bound (or fails) raises.

A fixed random seed and a deterministic resource limit (`rlimit`, which unlike a timeout gives
the same answer on every machine and every run) for every solver; a wall-clock deadline only
where a user's `--budget` sets one (`wall_clock`). `unknown` is never a pass: it raises
`SolverUnknown` (`BudgetSpent` when the deadline passed) naming the limit that was hit; Z3's own
exceptions are wrapped in `SolverFailure`.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from kernel.errors import WargameError

SEED = 0
DEFAULT_RLIMIT = 20_000_000  # about a second of search on a 2-core machine; deterministic


class SolverUnknown(WargameError):
    """Z3 answered `unknown`: the question is open, never to be read as a yes or a no."""

    kind = "solver_unknown"


class BudgetSpent(SolverUnknown):
    """A check stopped because the wall-clock deadline of `wall_clock` passed: the question is
    open, like any unknown, and the limit hit is the budget, not the rlimit."""

    kind = "budget_spent"


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)
NO_TIMEOUT = 4294967295  # z3's default: no timeout


@contextlib.contextmanager
def wall_clock(deadline: float | None) -> Iterator[None]:
    """Within the block, every check stops at `deadline` (a `time.perf_counter` value) with
    `BudgetSpent`; None: no deadline. Only tools with a user's `--budget` set one: a test's
    verdict depends on rlimits alone, never on how loaded the machine is."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def current_deadline() -> float | None:
    """The deadline `wall_clock` set for the checks made now (None: no deadline)."""
    return _DEADLINE.get()


class SolverFailure(WargameError):
    """Z3 raised an exception of its own."""

    kind = "solver_failure"
