"""The toy's wire records (`kernel.wire`): what its codec decodes with and its JSON Schemas
are generated from."""

from __future__ import annotations

from typing import Annotated, Literal

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.wire import Meta, Record
from tests.toy.rules.state import MAX_TOTAL

Total = Annotated[int, Meta(ge=0, le=MAX_TOTAL)]


class ToyStateRecord(Record, frozen=True):
    """A toy position: the total, the side to move, whether the coin is to be tossed, and
    the result once the goal is reached."""

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


ToyActionRecord = AddRecord | PassRecord | CoinRecord
