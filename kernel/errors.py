"""The three kinds of failure a caller must tell apart.

Like python-chess's InvalidMoveError / IllegalMoveError split: input that cannot be read at all,
a position the rules forbid, and an action the rules forbid in a legal position. Each carries
what a user needs to fix it: the JSON field, or the clause IDs that the input breaks.
"""

from __future__ import annotations

from typing import Any


class WargameError(Exception):
    """Base of every error this project raises on purpose."""

    kind = "error"

    def __init__(
        self, message: str, *, clauses: tuple[str, ...] = (), field: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.clauses = tuple(clauses)
        self.field = field

    def to_json(self) -> dict[str, Any]:
        """The error as the one JSON object the CLI writes to stderr."""
        out: dict[str, Any] = {"error": self.kind, "message": self.message}
        if self.clauses:
            out["clauses"] = list(self.clauses)
        if self.field is not None:
            out["field"] = self.field
        return out


class InvalidInput(WargameError):
    """Input that does not parse: malformed JSON, a missing field, an unknown id or hex."""

    kind = "invalid_input"


class ImpossiblePosition(WargameError):
    """A well-formed state that no play of the rules could reach (e.g. two units in a hex)."""

    kind = "impossible_position"


class IllegalAction(WargameError):
    """An action the rules forbid in this position; `clauses` names the rules it breaks."""

    kind = "illegal_action"


class DataError(WargameError):
    """A data file (map, counters, tables) that is malformed or contradicts the rules text."""

    kind = "data_error"


class MissingExtra(WargameError):
    """A command that needs optional packages the install left out (an extra of
    `pyproject.toml`): the core install is the kernel, the rules and the solvers only."""

    kind = "missing_extra"

    def __init__(self, extra: str, feature: str, cause: ImportError) -> None:
        super().__init__(
            f"{feature} needs the {extra!r} extra ({cause.name or cause}): "
            f"pip install 'wargame-kernel[{extra}]'"
        )
        self.extra = extra
