"""SNC-P-NO-LEAK: what the SNC hides (the units under an enemy stack's top, SNC-6.3.1) never
reaches the side it is hidden from. Tested, not proved: why, and what is tested instead.

**Why the model cannot carry it yet.** Non-interference is proved by self-composition
(`solvers.checking.noninterference`) over a model whose observation is written once over its
state and held equal to `io.observation.observe`. The SNC's model
(`specs.snc1937.formal.symbolic`) is an over-approximating abstraction: it keeps each unit's
hex, but not which unit of a stack is on top (`SNCState.on_top`, AMB-SNC-40), not the combat
record nor the stage of an attack's resolution that reveals a defending stack (SNC-6.3.1,
SNC-10.0.5), and its one schema's choices are the next state itself, with no action whose
observable part could be named. The Chinese-or-Japanese view of a stack (its top unit and its
count) is therefore not a function of the model's state, and a step of the model may change a
hidden unit's hex in any way its step rules allow: a proof over it would have to be about an
observation the model does not have. The model would need the stack order, the combat's
target, declared units and step, and an action label per schema.

**What is tested.** On every position of seeded playouts (`wargame verify`), the check below:
no unit hidden from a side (on the map, in an enemy stack, under its top, and not in the
defending hex once the attack's resolution has begun) is named in the one record of units on
the map the observation shows both sides as it is: the elite units waiting for their return
die (SNC-8.1.2). (A combat's defenders are shown from the start of its resolution and stay
known after a retreat: SNC-6.3.1's disclosure, not a leak.) That is a narrow check; whole
histories, with twins that differ only in what a side cannot see, are compared by the history
harness (tests/hidden/test_snc1937.py).
"""

from __future__ import annotations

from kernel.properties import Property, Verdict
from specs.snc1937.rules.state import CH, JP, SNCState, Step
from specs.snc1937.rules.tables import Tables, stacks
from specs.snc1937.rules.top_unit import top_first

NO_LEAK = "SNC-P-NO-LEAK"
HIDDEN_STEPS = frozenset({Step.JOIN})
"""The attack's steps before its defenders are shown (SNC-10.0.5: declared, not yet begun)."""
FOG_STEPS = frozenset({Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL})
"""More of them under `fog_fire_support=support_then_reveal` (AMB-SNC-40)."""


def _hidden_steps(s: SNCState) -> frozenset[Step]:
    if s.variant.is_("fog_fire_support", "support_then_reveal"):
        return HIDDEN_STEPS | FOG_STEPS
    return HIDDEN_STEPS


def unseen(t: Tables, s: SNCState, side: str) -> frozenset[str]:
    """The units `side` cannot identify: under the top of an enemy stack (SNC-6.3.1), unless
    the stack is the target of an attack whose resolution has begun."""
    c = s.combat
    shown = c.target if c is not None and s.step not in _hidden_steps(s) else None
    out: set[str] = set()
    for h, units in stacks(s.where).items():
        if t.spec[units[0]].side == side or h == shown:
            continue
        out.update(top_first(t, s, units)[1:])
    return frozenset(out)


def names_no_hidden_unit(t: Tables, s: SNCState) -> bool:
    """The elite wait, which both sides see as it is, names no unit one of them cannot
    identify (SNC-8.1.2, SNC-6.3.1)."""
    for side in (JP, CH):
        hidden = unseen(t, s, side)
        if hidden & set(s.elite):
            return False
    return True


def no_leak(t: Tables, expected: dict[str, Verdict]) -> Property:
    return Property(
        NO_LEAK,
        ("SNC-6.3.1", "SNC-10.0.5", "SNC-8.1.2"),
        "Nothing hidden leaks: a unit under an enemy stack's top is never named to the side "
        "it is hidden from (checked here: in the elite wait). Tested on playouts, not proved: "
        "the SNC's model is an abstraction without stack order, combat record or actions, so "
        "the observation cannot be written over it (specs.snc1937.formal.noleak); whole "
        "histories are compared by the history harness (tests/hidden).",
        "invariant",
        expected,
        state_check=lambda s: names_no_hidden_unit(t, s),
        formal="not stated: the abstraction has no observation (see the statement)",
    )
