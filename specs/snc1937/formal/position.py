"""The SNC position check: a decoded state must be one the rules could reach.

Every unit is in exactly one place (on the map, in a TRT box, in the dead pile, or waiting for
its elite return die, SNC-8.1.2), but the Japanese garrisons still in the pool (SNC-9.1.3):
the two set up on the map are on it or dead (SNC-9.1.2); units are only on enterable hexes,
never in 3513 (SNC-0.0.1) nor on water (SNC-9.4.6); no hex holds both sides (SNC-6.0.1);
only two-step units are reduced (SNC-2.2.1.12); a combat is stored only inside a Fight or
landing (SNC-10.1.2).

Each field is also held to its domain as the rules give it, not to the values play happened to
show (`position_domains.check_domains`): the steps a phase has, the hex a static unit may be
in, who may attack and defend, the TRT boxes a counter may wait in, and the hexes a stacking
check left over the limits; and an attack that has struck has an adjusted strength above 0
(`position_strength.check_strength`, SNC-10.4.1.8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.errors import ImpossiblePosition
from kernel.hexes import hex_adjacent
from specs.snc1937.formal import properties
from specs.snc1937.formal.position_domains import check_domains, garrison_pool
from specs.snc1937.formal.position_strength import check_strength
from specs.snc1937.rules.state import JP, Phase, SNCState, Step
from specs.snc1937.rules.tables import stacks

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules
    from specs.snc1937.rules.tables import Tables

COMBAT_STEPS = frozenset(
    {
        Step.JOIN, Step.SUPPORT_A, Step.AIR_ASK, Step.SUPPORT_D, Step.ROLL, Step.LOSS_D,
        Step.RETREAT, Step.LOSS_A, Step.ADVANCE, Step.ADVANCE_ON,
    }
)  # fmt: skip


def _refuse(message: str, field: str, *clauses: str) -> ImpossiblePosition:
    return ImpossiblePosition(f"{message} ({', '.join(clauses)})", field=field, clauses=clauses)


def check_position(t: Tables, s: SNCState) -> None:
    places: dict[str, str] = {}
    groups: tuple[tuple[str, list[str]], ...] = (
        ("where", [u for u, _ in s.where]),
        ("trt", [u for u, _ in s.trt]),
        ("dead", list(s.dead)),
        ("elite", list(s.elite)),
    )
    for name, units in groups:
        for u in units:
            if u in places:
                raise _refuse(f"{u} is both in {places[u]} and in {name}", name, "SNC-2.1.1")
            places[u] = name
    _check_nowhere(t, places)
    properties.check_invariants(t, s)  # the declared state invariants (SNC-P-*)
    for i, (u, h) in enumerate(s.where):
        if not t.board.enterable(h):
            raise _refuse(
                f"{u} is on {h}, which no unit may enter",
                f"where[{i}].hex",
                "SNC-0.0.1",
                "SNC-9.4.6",
            )
    for h, here in stacks(s.where).items():
        if len({t.spec[u].side for u in here}) > 1:
            raise _refuse(f"both sides in {h}", "where", "SNC-6.0.1")
    for u in s.reduced:
        if t.spec[u].steps != 2:
            raise _refuse(f"{u} has one step and cannot be reduced", "reduced", "SNC-2.2.1.12")
    if s.moving:
        loc = dict(s.where)
        if any(u not in loc for u in s.moving) or len({loc[u] for u in s.moving}) != 1:
            raise _refuse("a moving group is one stack on the map", "moving", "SNC-9.0.10")
        overrunning = s.combat is not None and s.combat.overrun  # SNC-9.6.3
        forming = s.step == Step.GROUP and s.mp == 16 and s.combat is None  # SNC-9.0.10
        steps = (Step.MAIN, Step.STACK)
        if not forming and (not 0 <= s.mp < 16 or (s.step not in steps and not overrunning)):
            raise _refuse(
                "a move under way has spent MP, in the main step or its overrun's battle",
                "mp",
                "SNC-9.0.1",
                "SNC-9.6.3",
            )
    elif s.mp or s.overrun_next or s.step == Step.GROUP:
        raise _refuse("MP and an overrun's sequel only for a move under way", "mp", "SNC-9.0.7")
    if (s.overrun_next == "repeat") != (s.overrun_target is not None):
        raise _refuse("a repeated overrun names its hex", "overrun_target", "SNC-9.6.8")
    alive = dict(s.where)
    overrunners = [] if s.combat is None or not s.combat.overrun else s.combat.attackers
    if any(u in alive for u in overrunners) and not s.moving and s.step != Step.JOIN:
        raise _refuse("an overrun is made by a moving group", "combat.overrun", "SNC-9.6.2")
    _check_overrun_group(t, s)
    if s.combat is not None and s.step not in COMBAT_STEPS and s.step != Step.AIR_ROLL:
        raise _refuse("a combat outside the combat steps", "combat", "SNC-10.1.2")
    if s.combat is None and s.step in COMBAT_STEPS:
        raise _refuse("a combat step without a combat", "step", "SNC-10.1.2")
    if (s.result is None) != (s.phase != Phase.OVER):
        raise _refuse("a result exactly when the game is over", "result", "SNC-5.2.2")
    if s.phase == Phase.DECLARE and s.order is not None:
        raise _refuse("no phase order before the declaration", "order", "SNC-5.3.1")
    if s.phase in (Phase.OPS1, Phase.REINF, Phase.OPS2) and s.order is None:
        raise _refuse("the phase order is declared first", "order", "SNC-5.3.1")
    _check_checked(s)
    _check_topped(t, s)
    check_domains(t, s)
    check_strength(t, s)


def _check_nowhere(t: Tables, places: dict[str, str]) -> None:
    """Every unit is somewhere (SNC-3.1.4) but the Japanese garrisons still in the pool
    (SNC-9.1.3). The two set up on the map (SNC-9.1.2, SNC-13.24, SNC-13.25) are never in
    it: static, they stay in their hex until eliminated (SNC-9.1.1, SNC-2.2.1.13), and a
    captured city draws only garrisons neither on the map nor eliminated (AMB-SNC-37)."""
    missing = set(t.spec) - set(places) - garrison_pool(t)
    if not missing:
        return
    names = ", ".join(sorted(missing, key=t.order.__getitem__))
    if missing & set(t.jp_garrisons):
        raise _refuse(
            f"units nowhere: {names}; a garrison set up on the map is on it or eliminated",
            "where",
            "SNC-9.1.2",
            "SNC-3.1.4",
        )
    raise _refuse(f"units nowhere: {names}", "where", "SNC-3.1.4")


def _check_overrun_group(t: Tables, s: SNCState) -> None:
    """An overrun's group being declared (`Step.JOIN` with `combat.overrun`): in a Japanese
    Move phase, no move under way yet, mobile Japanese units that have not moved this phase,
    all in one hex next to the target (SNC-9.6.1, SNC-9.6.2, SNC-5.3.2)."""
    c = s.combat
    if c is None or not c.overrun or s.step != Step.JOIN:
        return
    ops = s.phase in (Phase.OPS1, Phase.OPS2) and s.order is not None
    if s.side != JP or not ops or s.ops_kind() != "move" or s.moving or s.mp or s.overrun_next:
        raise _refuse(
            "an overrun group is declared in a Japanese Move phase, before its move",
            "combat.overrun",
            "SNC-9.6.1",
            "SNC-5.3.2",
        )
    loc = dict(s.where)
    for u in c.attackers:
        spec = t.spec[u]
        if u not in loc or spec.side != JP or spec.is_static or u in s.done:
            raise _refuse(
                f"{u} may not be in an overrun group: a mobile Japanese unit on the map that "
                "has not moved this phase",
                "combat.attackers",
                "SNC-9.6.2",
                "SNC-9.0.10",
            )
    hexes = {loc[u] for u in c.attackers}
    if len(hexes) > 1 or any(not hex_adjacent(h, c.target) for h in hexes):
        raise _refuse(
            "an overrun group starts its move in one hex, next to the target",
            "combat.attackers",
            "SNC-9.6.2",
        )


def _check_topped(t: Tables, s: SNCState) -> None:
    """The units put on top in this phase (`topped`, AMB-SNC-40): the phasing player's,
    still on the map and among those put on top, and only within an Operations or
    Reinforcement Phase."""
    if not s.topped:
        return
    if s.phase not in (Phase.OPS1, Phase.REINF, Phase.OPS2):
        raise _refuse(
            "units are put on top only in an Operations or Reinforcement Phase",
            "topped",
            "AMB-SNC-40",
            "SNC-6.3.1",
        )
    for u in sorted(s.topped, key=t.order.__getitem__):
        if t.spec[u].side != s.side or u not in set(s.on_top):
            raise _refuse(
                f"{u} was not put on top by the phasing player", "topped", "AMB-SNC-40", "SNC-6.3.1"
            )


def _check_checked(s: SNCState) -> None:
    """The last step's stacking check (`checked`, SNC-6.0.2, SNC-6.0.3): it covers occupied
    hexes, listed once each in hex order; it starts only once a combat is over; the hexes it
    handed to the culls are among them."""
    if list(s.checked) != sorted(set(s.checked)):
        raise _refuse("checked hexes are listed once each, in order", "checked", "SNC-6.0.2")
    occupied = stacks(s.where)
    for i, h in enumerate(s.checked):
        if h not in occupied:
            raise _refuse(
                f"a stacking check covers occupied hexes, and {h} is empty",
                f"checked[{i}]",
                "SNC-6.0.2",
            )
    if s.checked and s.combat is not None:
        raise _refuse("a stacking check starts once the combat is over", "checked", "SNC-6.0.2")
    if s.checked and s.step == Step.STACK and not set(s.stack_hexes) <= set(s.checked):
        raise _refuse(
            "the culls are for hexes the stacking check covered",
            "stack_hexes",
            "SNC-6.0.2",
            "SNC-6.0.4",
        )


class SNCPositionCheck:
    """The position check role (`kernel.roles.PositionCheck`), built from the rules."""

    def __init__(self, rules: SNCRules) -> None:
        self.rules = rules

    def check_position(self, s: SNCState) -> None:
        check_position(self.rules.tables, s)
