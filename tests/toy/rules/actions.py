"""The toy's actions: add 1 or 2, pass, and the coin's toss (chance)."""

from __future__ import annotations

import attrs


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
