"""The SNC position check's attack strength: an attack that has struck can be resolved (part of
`position.check_position`).

`Strike` closes an attack's declaration only when its attackers' adjusted strength does not
round down to 0 (SNC-10.4.1.8: creek 1/2, river 1/3, only the units crossing, the total rounded
down once): the odds divide one total by the other (SNC-10.3.0.1 to SNC-10.3.0.4) and a total
of 0 gives no CRT column, so the rules refuse such a group before it strikes (an overrun's
likewise, SNC-9.6.4). From the strike to the die (fire support, the air die, naval gunfire,
the combat die: SNC-11.1.1 to SNC-11.3.2, SNC-10.5.0.1) nothing changes the attackers, their
hexes or their steps, for losses come only from the die (SNC-10.5.1.1). So in those steps:

- every attacker of a land attack or overrun is still on the map, in the hex it attacks from
  (SNC-10.0.5), the group has at least one unit, and its adjusted strength is above 0;
- while attackers are still joining (`Step.JOIN`) a partial group may be weaker, and after the
  die losses may leave the survivors with nothing: those positions are reachable and pass.

A landing's strength (SNC-8.4.0.5, halved from the sea) is not held here: nothing refuses a
landing group whose halved strength is 0 before it lands, so such a position is not known to be
unreachable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.errors import ImpossiblePosition
from specs.snc1937.rules.odds import attack_strength
from specs.snc1937.rules.state import SNCState, Step

if TYPE_CHECKING:
    from specs.snc1937.rules.tables import Tables

STRUCK_STEPS = frozenset({Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL, Step.SUPPORT_D, Step.ROLL})
"""The steps of a combat after `Strike` and before its die (SNC-11.1.1 to SNC-11.3.2,
SNC-10.5.0.1)."""


def _refuse(message: str, field: str, *clauses: str) -> ImpossiblePosition:
    return ImpossiblePosition(f"{message} ({', '.join(clauses)})", field=field, clauses=clauses)


def check_strength(t: Tables, s: SNCState) -> None:
    """A land attack or overrun between its strike and its die has all its attackers on the
    map and an adjusted strength above 0 (see the module docstring; SNC-10.4.1.8)."""
    c = s.combat
    if c is None or c.landing or s.step not in STRUCK_STEPS:
        return
    loc = dict(s.where)
    for k, u in enumerate(c.attackers):
        if u not in loc:
            raise _refuse(
                f"{u} attacks, and before the die no attacker has left the hex it attacks from",
                f"combat.attackers[{k}]",
                "SNC-10.0.5",
                "SNC-10.5.1.1",
            )
    if not c.attackers:
        raise _refuse(
            "an attack that has struck has at least one attacker, and no strength without one",
            "combat.attackers",
            "SNC-10.0.5",
            "SNC-10.4.1.8",
        )
    strength = attack_strength(
        t.data, t.board, c.target, {u: loc[u] for u in c.attackers}, s.reduced
    )
    if strength <= 0:
        raise _refuse(
            f"the attack on {c.target} by {', '.join(c.attackers)} has struck, and its "
            "adjusted strength rounds down to 0: no such attack strikes",
            "combat.attackers",
            "SNC-10.4.1.8",
            "SNC-10.3.0.1",
        )
