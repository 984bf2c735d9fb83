"""What an invariant of Shumshu's position check is (`Invariant`: an ID, its statement and the
search for breaches) and what it reports (`Breach`: the JSON field, the clause, the message).

Apart so that the invariants of `position` and of `position_records` share them without
importing one another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import ShumshuState


@attrs.frozen
class Breach:
    field: str
    clause: str
    message: str


@attrs.frozen
class Invariant:
    id: str
    statement: str
    find: Callable[[Board, ShumshuState], Iterator[Breach]]
