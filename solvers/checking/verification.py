"""What a spec hands the verification tools: its properties, and per variant a symbolic model
linked to the Python rules.

A spec package provides a `verification` module with `properties()` and
`symbolic_model(variant)`; the latter may return None (or raise `WargameError`) for a variant
its model does not encode, and then the spec's properties are only checked on playouts. Nothing
here knows any game: the link is the spec's `project` (a concrete state as model values) and
`schema_of` (a concrete action as a schema and its choices).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from kernel.properties import Property
from kernel.variants import Variant
from solvers.checking.prover import Formal
from solvers.checking.system import System


class SymbolicModel(Protocol):
    """A variant's transition system with its formal statements and its link to the rules.

    `exact` says whether the model's steps are the rules' in both directions. An abstraction
    (False) over-approximates them: every concrete step is a model step (refinement direction
    (a)), so what is proved over it holds of the rules, but a model path may be no game, so
    direction (b) is not checked and a counterexample over it is only a candidate."""

    exact: bool

    @property
    def system(self) -> System: ...

    def formal(self) -> Mapping[str, Formal]:
        """Each property's formal statement over `system`, by property ID."""
        ...

    def project(self, state: Any) -> dict[str, int | bool]:
        """The model's view of a concrete state."""
        ...

    def schema_of(self, state: Any, action: Any) -> tuple[str, dict[str, int | bool]]:
        """The schema a concrete action (taken in `state`) is an instance of, and its choices."""
        ...

    def clauses_of(self, variable: str) -> tuple[str, ...]:
        """The clauses that say how `variable` changes (to name them when it differs)."""
        ...


class SpecVerification(Protocol):
    """The `verification` module of a spec."""

    def properties(self) -> tuple[Property, ...]: ...

    def symbolic_model(self, variant: Variant) -> SymbolicModel | None: ...
