"""What the game store refuses: a database it cannot use, an unknown game id, a stale ply.

Apart from the store so that the job store and the service's error mapping can name them
without importing the store itself.
"""

from __future__ import annotations

from kernel.errors import InvalidInput, WargameError


class StoreError(WargameError):
    """The database cannot be used (e.g. written by a newer version of this program)."""

    kind = "store_error"


class UnknownGame(InvalidInput):
    """No game with this id is stored."""

    kind = "unknown_game"


class StaleSubmission(WargameError):
    """An action computed against a ply that is no longer the current one."""

    kind = "stale_submission"

    def __init__(self, message: str, *, expected: int, field: str | None = "ply") -> None:
        super().__init__(message, field=field)
        self.expected = expected
