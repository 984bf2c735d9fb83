"""Rattenkrieg's verification entry points (`solvers.verification.SpecVerification`).

The properties of `specs.rattenkrieg.properties` are declared for the prover the same way as
Nomonhan's. There is no symbolic model of Rattenkrieg yet, so `wargame verify` checks them on
seeded playouts and says so ("tested", never "proved"); RKS-P-ENDS is refuted by a playout
that returns to a position (RKS-7.2.1 lets a unit move endlessly between friendly Areas).
"""

from __future__ import annotations

import functools

from kernel.properties import Property
from kernel.variants import Variant
from solvers.verification import SymbolicModel
from specs.rattenkrieg import properties as props
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.data import load_data


@functools.cache
def properties() -> tuple[Property, ...]:
    return props.properties(Board(load_data()))


def symbolic_model(variant: Variant) -> SymbolicModel | None:
    """None: no variant of Rattenkrieg has a symbolic model yet."""
    return None
