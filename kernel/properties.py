"""Properties a spec declares about its own rules, for tests, playouts and the prover.

A property is an ID, the clauses it rests on, a statement in words, and the verdict expected
under each preset. Its concrete form is a Python predicate: over a state (an invariant), over a
step (state, action, next state), or `ends` (play always terminates). The prover attaches the
formal form from the spec's symbolic model under the same ID.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

Verdict = Literal["holds", "fails"]
Kind = Literal["invariant", "step", "ends"]


@attrs.frozen
class Property:
    id: str
    clauses: tuple[str, ...]
    statement: str
    kind: Kind
    expected: Mapping[str, Verdict]  # preset name -> expected verdict
    state_check: Callable[[Any], bool] | None = None  # kind == "invariant"
    step_check: Callable[[Any, Any, Any], bool] | None = None  # kind == "step"
    formal: str = ""  # the formal statement in words; the spec's symbolic model holds its formula

    def holds_in(self, state: Any) -> bool:
        """The invariant on one concrete state (True for other kinds)."""
        return self.state_check is None or self.state_check(state)

    def holds_on(self, before: Any, action: Any, after: Any) -> bool:
        """The step property on one concrete step (True for other kinds)."""
        return self.step_check is None or self.step_check(before, action, after)


def violated(
    properties: tuple[Property, ...], before: Any, action: Any, after: Any
) -> list[Property]:
    """The properties that one concrete step breaks (invariants are checked on `after`)."""
    return [p for p in properties if not (p.holds_in(after) and p.holds_on(before, action, after))]
