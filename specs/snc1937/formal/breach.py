"""What a breach of an SNC property is (`Breach`: the JSON field, the clause, the message), and
the facts about a step that several properties read (sudden death, the units in play).

Apart so that the invariants of `properties` and the step-property finders of `step_breaches`
share them without importing one another.
"""

from __future__ import annotations

import attrs

from specs.snc1937.rules.state import SNCState

SUDDEN_DEATH = frozenset({"SNC-4.1.1", "SNC-4.1.2", "SNC-4.2.1"})
"""Results that end the game at once, whatever check is under way."""


@attrs.frozen
class Breach:
    """Where a position or a step breaks a property: the JSON field (of the position after the
    step), the clause, and what is wrong."""

    field: str
    clause: str
    message: str


def in_play(s: SNCState) -> set[str]:
    """Units on the map or in a TRT box (reinforcements to come, elite units to return)."""
    return {u for u, _ in s.where} | {u for u, _ in s.trt}


def sudden_death(before: SNCState, after: SNCState) -> bool:
    """The step ended the game by sudden death (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1)."""
    return (
        before.result is None and after.result is not None and after.result.clause in SUDDEN_DEATH
    )
