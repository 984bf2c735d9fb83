"""The toy's JSON codec: documents out, and documents in decoded strictly through the wire
records (`io/wire.py`), then the position check (`formal/position.py`): `ToyCodec`, the codec
role (`kernel.roles.Codec`)."""

from __future__ import annotations

from typing import Any

from kernel.codec import STATE_FORMAT, envelope
from kernel.errors import InvalidInput
from kernel.game import Outcome, WireTypes
from kernel.wire import convert, to_builtins
from tests.toy.data.variants import CAT
from tests.toy.formal import position
from tests.toy.io.wire import AddRecord, CoinRecord, ToyActionRecord, ToyStateRecord
from tests.toy.rules.actions import Add, Coin, Pass, ToyAction
from tests.toy.rules.state import ToyState


def state_to_json(state: ToyState) -> dict[str, Any]:
    return envelope(
        STATE_FORMAT,
        "toy",
        {
            "variant": state.variant.to_json(),
            "total": state.total,
            "side": state.side,
            "coin": state.coin,
            "result": None if state.result is None else state.result.to_json(),
        },
    )


def state_from_json(data: Any) -> ToyState:
    """The state `data` describes, unchecked against the rules (the caller checks it)."""
    record = convert(data, ToyStateRecord)
    variant = CAT.variant_from_json(to_builtins(record.variant))
    if variant.to_json() != to_builtins(record.variant):
        raise InvalidInput("the preset does not read its options so", field="variant")
    result = None
    if record.result is not None:
        r = record.result
        result = Outcome(r.winner, tuple(r.points.items()), r.clause, r.reason)
    return ToyState(variant, record.total, record.side, record.coin, result)


def action_to_json(action: ToyAction) -> dict[str, Any]:
    match action:
        case Add(n):
            return {"type": "add", "amount": n}
        case Pass():
            return {"type": "pass"}
        case Coin(h):
            return {"type": "coin", "heads": h}
    raise TypeError(action)


def action_from_json(data: Any) -> ToyAction:
    record: ToyActionRecord = convert(data, ToyActionRecord, what="action")  # type: ignore[arg-type]
    if isinstance(record, AddRecord):
        return Add(record.amount)
    if isinstance(record, CoinRecord):
        return Coin(record.heads)
    return Pass()


class ToyCodec:
    """The toy's codec role: its documents, read strictly and then checked."""

    wire = WireTypes(state=ToyStateRecord, action=ToyActionRecord, observation=ToyStateRecord)

    def __init__(self, rules: object) -> None:
        self.rules = rules

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Any) -> ToyState:
        state = state_from_json(data)
        position.check_position(state)
        return state

    def action_to_json(self, action: ToyAction) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> ToyAction:
        return action_from_json(data)
