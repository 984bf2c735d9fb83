"""What one side may know (SNC-6.3.1, SNC-6.3.2; AMB-SNC-40).

A side sees all of its own units. Of an enemy stack it sees the top unit and how many units are
there, until an attack on that stack begins its resolution (the attackers are declared,
SNC-6.3.1: "too late to call off that attack"); then the whole stack is shown. The top unit is
the one its owner last put on top (`Top`, AMB-SNC-40), else the first of the stack in the data's
order (`top_unit.top_first`). The attackers of a combat are declared openly (SNC-10.0.5), or under
attackers_seen=tops_only the defender sees only those on top of their stacks. The dead pile and
the Turn Record Track are open to both players. A side's legal actions depend on this view
alone (tests/snc1937/test_hidden.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kernel.hexes import hex_name
from kernel.wire import to_builtins
from specs.snc1937.io import state_codec
from specs.snc1937.rules.state import SNCState, Step
from specs.snc1937.rules.tables import stacks
from specs.snc1937.rules.top_unit import top_first

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules


def tops_only(s: SNCState) -> bool:
    """attackers_seen=tops_only (found here): SNC-6.3.1 read literally for the attacker's
    stacks too."""
    return s.variant.is_("attackers_seen", "tops_only")


def observe(game: SNCRules, s: SNCState, side: str) -> dict[str, Any]:
    t = game.tables
    order = t.order.__getitem__
    c = s.combat
    hidden_steps = {Step.JOIN}
    if s.variant.is_("fog_fire_support", "support_then_reveal"):  # AMB-SNC-40
        hidden_steps |= {Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL}
    shown = c.target if c is not None and s.step not in hidden_steps else None
    seen: list[dict[str, Any]] = []
    visible: set[str] = set()
    for h, units in sorted(stacks(s.where).items()):
        owner = t.spec[units[0]].side
        ordered = list(top_first(t, s, units))
        if owner != side and h != shown:
            ordered = ordered[:1]  # SNC-6.3.1: only the top unit
        visible.update(ordered)
        seen.append({"hex": hex_name(h), "side": owner, "units": ordered, "count": len(units)})
    combat = state_codec.combat_record(c)
    combat_json = None if combat is None else to_builtins(combat)
    if combat_json is not None and s.step in hidden_steps:
        combat_json["defenders"] = []
    if c is not None and combat_json is not None and side != s.side and tops_only(s):
        # attackers_seen=tops_only (found here): the defender never looks beneath the tops of
        # the attacker's stacks (SNC-6.3.1); units still at sea stand in no stack
        on_map = dict(s.where)
        combat_json["attackers"] = [u for u in c.attackers if u in visible or u not in on_map]
    return {
        "game": game.name,
        "side": side,
        "to_move": game.to_move(s),
        "variant": s.variant.to_json(),
        "turn": s.turn,
        "player": s.side,
        "phase": s.phase.value,
        "step": s.step.value,
        "order": None if s.order is None else s.order.value,
        "stacks": seen,
        "trt": [{"unit": u, "gt": gt} for u, gt in s.trt],
        "dead": sorted(s.dead, key=order),
        "reduced": sorted(
            (u for u in s.reduced if u in visible or u not in dict(s.where)), key=order
        ),
        "jp_control": [hex_name(h) for h in sorted(s.jp_control)],
        "done": sorted((u for u in s.done if u in visible), key=order),
        "attacked": [hex_name(h) for h in sorted(s.attacked)],
        "used": list(s.used),
        "jp_support_ops1": s.jp_support_ops1,
        "ch_air": s.ch_air,
        "ch_air_used": s.ch_air_used,
        "replacements": s.replacements,
        "arrived": sorted((u for u in s.arrived if u in visible), key=order),
        "movable": sorted((u for u in s.movable if u in visible), key=order),
        "moving": [u for u in s.moving if u in visible],
        # public: every move starts with MF 8 (static units never move) and pays by side, terrain,
        # hexside and route alone, never by unit type (SNC-9.0.1, SNC-9.0.2, SNC-9.0.4, SNC-9.4.x,
        # SNC-9.5.x; an overrun by SNC-9.6.1, SNC-9.6.8): the MP left follow from the hexes the
        # group was seen to enter (tests/hidden/test_snc_movement_points.py)
        "mp": s.mp,
        "combat": combat_json,
        "roll": s.roll,
        "elite": list(s.elite),
        "stack_hexes": [hex_name(h) for h in s.stack_hexes],
        "after_stack": s.after_stack,  # public: the check follows a combat or ends a phase
        "result": None if s.result is None else s.result.to_json(),
        "overrun_next": s.overrun_next,
        "overrun_target": None if s.overrun_target is None else hex_name(s.overrun_target),
        "overrun_hexes": [hex_name(h) for h in sorted(s.overrun_hexes)],
        # public: a culled unit is taken from its hex to the open dead pile (SNC-6.0.4)
        "culled": [{"unit": u, "hex": hex_name(h)} for u, h in s.culled],
        "checked": [hex_name(h) for h in s.checked],  # public: occupied hexes only
        "topped": sorted((u for u in s.topped if u in visible), key=order),
    }
