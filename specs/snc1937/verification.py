"""The SNC's verification entry points (`solvers.verification.SpecVerification`).

The properties of `specs.snc1937.properties` are declared for the tools the same way as the
other games'. There is no symbolic model of the SNC: a 42 x 25 hex map, 151 counters, fire
support, landings and the TRT are out of reach for this pass, so `symbolic_model` returns None
for every variant and `wargame verify snc1937` checks the properties on seeded playouts, saying
so ("tested", never "proved").
"""

from __future__ import annotations

import functools

from kernel.properties import Property
from kernel.variants import Variant
from solvers.verification import SymbolicModel
from specs.snc1937 import properties as props
from specs.snc1937.data import load_data
from specs.snc1937.flow import Tables


@functools.cache
def properties() -> tuple[Property, ...]:
    return props.properties(Tables(load_data()))


def symbolic_model(variant: Variant) -> SymbolicModel | None:
    """None: no variant of the SNC has a symbolic model yet."""
    return None
