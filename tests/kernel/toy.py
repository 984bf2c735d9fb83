"""A tiny game that implements the Game contract, to test the kernel without any real rules.

Two sides add 1 or 2 to a shared total, or pass; after each addition a coin (chance) may add
one more. The first total of GOAL or more ends the game. With `stuck_at`, the side to move has
no action at that total (a planted gap). `coin_name` changes nothing (an equivalent pair).

Its codec is the contract's: wire records (`kernel.wire`) decoded strictly, then a position
check (`check_position`), so kernel and tool tests (views, schemas, logs) run against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import attrs

from kernel.codec import STATE_FORMAT, OutcomeRecord, VariantRecord, envelope
from kernel.data import FactResult, Provenance
from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput
from kernel.game import CHANCE, Outcome, WireTypes
from kernel.variants import Catalogue, Option, Reading, Variant
from kernel.wire import Meta, Record, convert, to_builtins

GOAL = 6
MAX_TOTAL = GOAL + 2
"""The largest total play reaches: GOAL - 1, plus 2, plus the coin's 1."""
CAT = Catalogue(
    game="toy",
    options=(
        Option(
            "gap",
            "Plant a gap?",
            ("TOY-1",),
            (Reading("none", "", "test"), Reading("stuck_at_3", "", "test")),
        ),
        Option(
            "coin_name",
            "What the coin is called (two readings with the same rules: equivalent).",
            ("TOY-2",),
            (Reading("coin", "", "test"), Reading("token", "", "test")),
        ),
    ),
    presets={
        "plain": {"gap": "none", "coin_name": "coin"},
        "gapped": {"gap": "stuck_at_3", "coin_name": "coin"},
    },
    default_preset="plain",
)


@attrs.frozen
class ToyState:
    variant: Variant
    total: int
    side: str
    coin: bool = False
    result: Outcome | None = None


@attrs.frozen
class Add:
    amount: int


@attrs.frozen
class Pass:
    pass


@attrs.frozen
class Coin:
    heads: bool


ToyAction = Add | Pass | Coin


# --- wire types ------------------------------------------------------------------------------

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


class Toy:
    name = "toy"
    title = "Toy"
    sides: tuple[str, ...] = ("A", "B")
    catalogue = CAT
    nontermination_clauses: tuple[str, ...] = ("TOY-PASS",)
    perfect_information: bool = True
    wire = WireTypes(state=ToyStateRecord, action=ToyActionRecord, observation=ToyStateRecord)

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
        return self.state_to_json(state)

    def no_action_clauses(self, state: ToyState) -> tuple[str, ...]:
        return ("TOY-1",)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return []

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return []

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
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

    def state_from_json(self, data: Any) -> ToyState:
        record = convert(data, ToyStateRecord)
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

    def action_to_json(self, action: ToyAction) -> dict[str, Any]:
        match action:
            case Add(n):
                return {"type": "add", "amount": n}
            case Pass():
                return {"type": "pass"}
            case Coin(h):
                return {"type": "coin", "heads": h}
        raise TypeError(action)

    def action_from_json(self, data: Any) -> ToyAction:
        record: ToyActionRecord = convert(data, ToyActionRecord, what="action")  # type: ignore[arg-type]
        if isinstance(record, AddRecord):
            return Add(record.amount)
        if isinstance(record, CoinRecord):
            return Coin(record.heads)
        return Pass()

    def describe(self, state: ToyState, action: ToyAction) -> str:
        return repr(action)

    def headline(self, state: ToyState) -> str:
        return f"total {state.total}"

    def events(self, before: ToyState, action: ToyAction, after: ToyState) -> list[str]:
        return []
