"""Where a position breaks one of Rattenkrieg's invariants (`properties.invariants`).

Each invariant finder (`invariants_cards`, `invariants_map`, `invariants_sequence`,
`invariants_draws`, `invariants_operations`, `invariants_combat`, `invariants_aftermath`) takes
the map and counter set and a position, and returns the first `Breach` it finds or None.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Breach:
    """Where a position breaks an invariant: the JSON field, the clause, and what is wrong."""

    field: str
    clause: str
    message: str
