"""The toy's position check: refuse a position no play of the rules reaches."""

from __future__ import annotations

from kernel.errors import ImpossiblePosition
from kernel.game import Outcome
from tests.toy.rules.state import GOAL, MAX_TOTAL, ToyState


def check_position(state: ToyState) -> None:
    """TOY-GOAL: a result exactly when the total has reached the goal after the coin, won
    by the side that added last (the one not to move); no play passes MAX_TOTAL."""
    if state.total > MAX_TOTAL:
        raise ImpossiblePosition("no play reaches this total", field="total")
    over = state.total >= GOAL and not state.coin
    if over != (state.result is not None):
        raise ImpossiblePosition(
            "a result exactly when the goal is reached", clauses=("TOY-GOAL",), field="result"
        )
    if state.result is not None:
        winner = "B" if state.side == "A" else "A"
        if state.result != Outcome(winner, (), "TOY-GOAL", "goal reached"):
            raise ImpossiblePosition(
                "the result is not the goal's", clauses=("TOY-GOAL",), field="result"
            )


class ToyPositionCheck:
    """The toy's position-check role (`kernel.roles.PositionCheck`)."""

    def __init__(self, rules: object) -> None:
        self.rules = rules

    def check_position(self, state: ToyState) -> None:
        check_position(state)
