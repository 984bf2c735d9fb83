"""A match's readable log as one reader may see it.

The referee reads every ply. A side reads its own actions, and the other side's actions and
the chance outcomes only in a game with no hidden information (`Game.perfect_information`):
in the others a move, a draw or a roll may carry what the side may not know, so such a ply
shows only who acted. That rule is safe by construction, whatever a game's descriptions say.
A side's own ply may still cause what it may not see (a card of the opponent's put face down):
a narration that tells a side less than the referee offers `events_for(before, action, after,
side)`, and a side's log takes its events from there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from tools.service.store import REFEREE

Decode = Callable[[int, dict[str, Any]], Any]
"""(ply, state document) -> state: the caller's cache of decoded states."""


def shown(game: AssembledGame[Any, Any], reader: str, by: str) -> bool:
    """May `reader` (a side or the referee) read what `by` did?"""
    return reader in (REFEREE, by) or game.perfect_information


def _events(
    game: AssembledGame[Any, Any], reader: str, before: Any, action: Any, after: Any
) -> list[str]:
    """The events of a ply as `reader` may read them: the narration's `events_for` a side when
    it has one (the narration role behind the assembled game's `events`), else its events."""
    if reader != REFEREE:
        narration = getattr(game.events, "__self__", None)
        told = getattr(narration, "events_for", None)
        if told is not None:
            return list(told(before, action, after, reader))
    return game.events(before, action, after)


def entries(
    game: AssembledGame[Any, Any],
    steps: Sequence[tuple[dict[str, Any], dict[str, Any]]],
    reader: str,
    decode: Decode,
) -> list[dict[str, Any]]:
    """The log entries (`documents.LogEntry`) of `steps` ((action, state after) per ply, the
    initial state first as ({}, initial)) for `reader`."""
    out: list[dict[str, Any]] = []
    before = decode(0, steps[0][1])
    for ply, (action_json, after_json) in enumerate(steps[1:]):
        after = decode(ply + 1, after_json)
        by = game.to_move(before) or "nobody"
        if shown(game, reader, by):
            action = game.action_from_json(action_json)
            probability = None
            if by == CHANCE:
                probability = next(
                    (str(p) for a, p in game.chance_outcomes(before) if a == action), None
                )
            out.append(
                {
                    "ply": ply,
                    "by": by,
                    "text": game.describe(before, action),
                    "headline": game.headline(after),
                    "events": _events(game, reader, before, action, after),
                    "probability": probability,
                    "action": action_json,
                }
            )
        else:
            what = "a chance outcome hidden from you" if by == CHANCE else "an action"
            out.append(
                {
                    "ply": ply,
                    "by": by,
                    "text": f"{by}: {what}",
                    "headline": None,
                    "events": [],
                    "probability": None,
                    "action": None,
                }
            )
        before = after
    return out
