"""What the prover answers (`Verdict`: proved, refuted with a witness `Trace`, or unknown).

Apart from `prover` so that the searches built on it (`induction`, `bounded_search`,
`refinement`, `noninterference`) and the tools that show a witness share the answer's shape
without importing the prover's statements.
"""

from __future__ import annotations

from typing import Literal

import attrs

Status = Literal["proved", "refuted", "unknown"]


@attrs.frozen
class Trace:
    """A path of the model: states[i] --steps[i]--> states[i+1]. For a lasso, the last state
    equals states[loop]."""

    states: tuple[dict[str, int | bool], ...]
    steps: tuple[tuple[str, dict[str, int | bool]], ...]
    loop: int | None = None


@attrs.frozen
class Verdict:
    status: Status
    method: str
    detail: str
    trace: Trace | None = None
    seconds: float = 0.0
