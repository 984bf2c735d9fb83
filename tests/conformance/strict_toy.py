"""The toy game (tests/toy/) with a strict codec and a position check, built the way
issue 11 asks of every game: wire records decoded strictly (`kernel.wire`), then a check that
refuses positions no play reaches. The mutation kit must find nothing wrong with it, and must
find each weakness planted into it (tests/conformance/test_mutation_kit.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.game import Outcome, WireTypes
from kernel.wire import Meta, Record, convert, to_builtins
from tests.toy.data.variants import CAT
from tests.toy.doubles import WholeToy
from tests.toy.rules.actions import Add, Coin, Pass, ToyAction
from tests.toy.rules.state import GOAL, ToyState

MAX_TOTAL = GOAL + 2
"""The largest total play reaches: GOAL - 1, plus 2, plus the coin's 1."""

Total = Annotated[int, Meta(ge=0, le=MAX_TOTAL)]


class StateRecord(Record, frozen=True):
    format: Literal["wargame-kernel/state"]
    version: Literal[1]
    game: Literal["toy"]
    variant: VariantRecord
    total: Total
    side: Literal["A", "B"]
    coin: bool
    result: OutcomeRecord | None


class AddRecord(Record, frozen=True, tag_field="type", tag="add"):
    amount: Literal[1, 2]


class PassRecord(Record, frozen=True, tag_field="type", tag="pass"):
    pass


class CoinRecord(Record, frozen=True, tag_field="type", tag="coin"):
    heads: bool


ActionRecord = AddRecord | PassRecord | CoinRecord


class StrictToy(WholeToy):
    """Toy, read strictly: the reference a game's input contract is measured against."""

    wire = WireTypes(state=StateRecord, action=ActionRecord, observation=StateRecord)

    def state_from_json(self, data: Any) -> ToyState:
        record = convert(data, StateRecord)
        variant = CAT.variant_from_json(to_builtins(record.variant))
        if variant.to_json() != to_builtins(record.variant):
            raise InvalidInput("the preset does not read its options so", field="variant")
        result = None
        if record.result is not None:
            r = record.result
            result = Outcome(r.winner, tuple(r.points.items()), r.clause, r.reason)
        state = ToyState(variant, record.total, record.side, record.coin, result)
        self.check_position(state)
        return state

    def check_position(self, state: ToyState) -> None:
        """TOY-GOAL: a result exactly when the total has reached the goal after the coin, won
        by the side that added last (the one not to move); a coin only after an addition of 1
        or 2 to a total short of the goal."""
        over = state.total >= GOAL and not state.coin
        if over != (state.result is not None):
            raise ImpossiblePosition("a result iff the goal is reached", field="result")
        if state.result is not None:
            winner = "B" if state.side == "A" else "A"
            expected = Outcome(winner, (), "TOY-GOAL", "goal reached")
            if state.result != expected:
                raise ImpossiblePosition("the result is not the goal's", field="result")
        most = MAX_TOTAL - 1 if state.coin else MAX_TOTAL  # the coin adds at most one more
        if state.total > most or (state.coin and state.total < 1):
            raise ImpossiblePosition("no play reaches this total", field="total")

    def action_from_json(self, data: Any) -> ToyAction:
        record: ActionRecord = convert(data, ActionRecord)  # type: ignore[arg-type]
        if isinstance(record, AddRecord):
            return Add(record.amount)
        if isinstance(record, CoinRecord):
            return Coin(record.heads)
        return Pass()
