"""The toy `Game` dispatcher: the toy's rules (the codec, narration, position check and data
check are roles of their own, in `io/` and `formal/`).

With the variant's `gap` read as `stuck_at_3`, the side to move has no action at total 3 (a
planted gap); `_overflow` and the branch of `_after` that calls it are planted dead rules
(TOY-9.1, TOY-9.2) the gap search must find unnamed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from kernel.errors import IllegalAction
from kernel.game import CHANCE, Outcome
from kernel.variants import Variant
from tests.toy.data.variants import CAT
from tests.toy.io import codec
from tests.toy.rules.actions import Add, Coin, Pass, ToyAction
from tests.toy.rules.state import GOAL, ToyState


class Toy:
    """The toy's rules (`kernel.game.Game`); its other roles are in `io/` and `formal/`."""

    name = "toy"
    title = "Toy"
    sides: tuple[str, ...] = ("A", "B")
    catalogue = CAT
    nontermination_clauses: tuple[str, ...] = ("TOY-PASS",)
    perfect_information: bool = True

    def presets(self) -> Mapping[str, Variant]:
        return {n: CAT.preset(n) for n in CAT.presets}

    def initial_state(self, variant: Variant) -> ToyState:
        return ToyState(variant, 0, "A")

    def to_move(self, state: ToyState) -> str | None:
        if state.result is not None:
            return None
        return CHANCE if state.coin else state.side

    def legal_actions(self, state: ToyState) -> Sequence[ToyAction]:
        """Add 1 or 2, or pass (TOY-1.1)."""
        if state.coin or state.result is not None:
            return []
        if state.variant.is_("gap", "stuck_at_3") and state.total == 3:
            return []
        return [Add(1), Add(2), Pass()]  # TOY-1.1

    def chance_outcomes(self, state: ToyState) -> Sequence[tuple[ToyAction, Fraction]]:
        return [(Coin(False), Fraction(1, 2)), (Coin(True), Fraction(1, 2))] if state.coin else []

    def apply(self, state: ToyState, action: ToyAction) -> ToyState:
        if state.coin:
            if not isinstance(action, Coin):
                raise IllegalAction("the coin is to be tossed", clauses=("TOY-2",))
            total = state.total + (1 if action.heads else 0)
            return self._after(attrs.evolve(state, coin=False, total=total))
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not legal", clauses=("TOY-1",))
        other = "B" if state.side == "A" else "A"
        if isinstance(action, Pass):
            return attrs.evolve(state, side=other)
        assert isinstance(action, Add)
        return attrs.evolve(state, total=state.total + action.amount, side=other, coin=True)

    def _overflow(self, state: ToyState) -> ToyState:
        """A planted dead rule: a total beyond the goal is cut back (TOY-9.1). Nothing calls
        it, so no play ever reaches it, and the gap search must find it unnamed."""
        return attrs.evolve(state, total=min(state.total, GOAL))  # TOY-9.1

    def _after(self, state: ToyState) -> ToyState:
        """The goal (TOY-GOAL), and a planted rule whose branch never fires (TOY-9.2): this
        function runs after every toss, but no total gets that far past the goal."""
        if state.total > GOAL + 3:  # TOY-9.2: a total this far past the goal is cut back
            return self._overflow(state)
        if state.total >= GOAL:
            loser = state.side
            winner = "B" if loser == "A" else "A"
            return attrs.evolve(state, result=Outcome(winner, {}, "TOY-GOAL", "goal reached"))
        return state

    def outcome(self, state: ToyState) -> Outcome | None:
        return state.result

    def observe(self, state: ToyState, side: str) -> dict[str, Any]:
        """The toy hides nothing: a side sees the state document."""
        return codec.state_to_json(state)

    def no_action_clauses(self, state: ToyState) -> tuple[str, ...]:
        return ("TOY-1",)
