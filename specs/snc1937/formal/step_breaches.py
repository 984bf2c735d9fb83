"""The breach finders of the SNC's step properties (SNC-P-STACKING, SNC-P-STATIC, SNC-P-STEPS,
SNC-P-GT-ORDER): where one step (before, action, after) breaks each, naming the clause.

Split from `properties` (the statements, their IDs and their binding to the data): the
stacking check points a step completes (`checked_hexes`, SNC-6.0.2 to SNC-6.0.4) and each
finder, for `properties.step_checks` to wrap as a `Property`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kernel.hexes import Hex
from specs.snc1937.formal.breach import Breach, in_play, sudden_death
from specs.snc1937.rules import stacking
from specs.snc1937.rules.actions import Replace, Roll
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step
from specs.snc1937.rules.tables import Tables, locations, stacks

# --- stacking check points -----------------------------------------------------------------------


def _over(t: Tables, s: SNCState, hexes: Iterable[Hex]) -> tuple[Hex, ...]:
    """Those of `hexes` over the limits in `s` (SNC-6.2.x through `stacking.py`)."""
    return stacking.overstacked(stacks(s.where), hexes, t.data, s.variant)


def checked_hexes(
    t: Tables, before: SNCState, action: Any, after: SNCState
) -> tuple[Hex, ...] | None:
    """The hexes a stacking check covers that this step starts (SNC-6.0.2, SNC-6.0.3;
    AMB-SNC-8), or None when the step starts none: the position's `checked`, which the rules
    set where a check starts (`sequence.end_ops`, `sequence.after_combat`,
    `sequence.end_reinforcements`) and clear on every other step (`SNC.apply`).

    - (a) the end of an Operations Phase of movement (`Done` with no move under way): the
      phasing player's hexes, or both players' under movement_check_side=both_players;
    - (b) the end of a combat: its target and its attackers' hexes, both players' units, or
      every hex under stacking_check=global; a landing combat only under
      reinforcement_stacking=checked_on_placement (AMB-SNC-8 (c)), an overrun only under
      overrun_stacking=after_each_overrun (AMB-SNC-8);
    - the end of a Reinforcement Phase under checked_on_placement: the hexes of the units that
      arrived in it.

    A check that covers no hex (none occupied, no arrival) reads as no check: `()` is both, and
    `stacking_breach` finds nothing over the limits in no hexes either way."""
    return after.checked or None


def stacking_breach(t: Tables, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-6.0.2 to SNC-6.0.4: a check that starts leaves every hex it covers within the limits
    or hands it to its owner's culls (the stack step); when the culls are over, every hex they
    were for is within the limits."""
    if sudden_death(before, after):
        return None  # the game ended at once (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1)
    if before.step == Step.STACK and after.step != Step.STACK:
        over = _over(t, after, before.stack_hexes)
        if over:
            return Breach(
                "stack_hexes",
                "SNC-6.0.4",
                f"the culls ended with {', '.join(map(str, over))} still over-stacked",
            )
    hexes = checked_hexes(t, before, action, after)
    if hexes is None:
        return None
    pending = after.stack_hexes if after.step == Step.STACK else ()
    over = tuple(h for h in _over(t, after, hexes) if h not in pending)
    if over:
        return Breach(
            "where",
            "SNC-6.0.2",
            f"the stacking check passed over-stacked {', '.join(map(str, over))}",
        )
    return None


# --- step properties -----------------------------------------------------------------------------


def gt_order_breach(before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-5.0.1, SNC-5.1.1, SNC-5.2.1: the GT stays, or moves on by one from the Japanese
    player turn to the Chinese one (its declaration, or the game over by sudden death)."""
    if after.turn == before.turn:
        return None
    opens = after.side == CH and after.phase in (Phase.DECLARE, Phase.OVER)
    if after.turn == before.turn + 1 and before.side == JP and opens:
        return None
    return Breach(
        "turn",
        "SNC-5.2.1",
        f"GT {before.turn} ({before.side}) to GT {after.turn} ({after.side}): a GT ends with "
        "the Japanese player turn and the next one opens with the Chinese",
    )


def static_breach(t: Tables, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-2.2.1.8, SNC-9.1.1: a static unit on the map stays in its hex or goes to the
    dead pile (or waits for the elite return die, which no static unit does)."""
    loc = locations(after.where)
    for u, h in before.where:
        if not t.spec[u].is_static:
            continue
        now = loc.get(u)
        if now is None and (u in after.dead or u in after.elite):
            continue
        if now != h:
            to = "off the map" if now is None else f"to {now}"
            return Breach("where", "SNC-2.2.1.8", f"static {u} moved from {h} {to}")
    return None


def steps_breach(t: Tables, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-2.2.1.15, SNC-8.3.x, SNC-8.1.x: steps grow only by a Japanese replacement or
    the return of a Chinese elite unit, reduced."""
    if not before.dead <= after.dead:
        back = ", ".join(sorted(before.dead - after.dead))
        return Breach("dead", "SNC-8.3.3", f"{back} left the dead pile")
    return (
        _restored_breach(t, before, action, after)
        or _elite_breach(t, before, action, after)
        or _arrival_breach(t, before, after)
    )


def _restored_breach(t: Tables, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-8.3.2, SNC-8.3.4: a reduced unit is back to full strength only by a Japanese
    replacement step."""
    for u in sorted(before.reduced - after.reduced):
        if u in after.dead or u in after.elite:
            continue  # eliminated (SNC-2.2.1.13)
        if action == Replace(u) and t.spec[u].side == JP:
            continue  # SNC-8.3.4
        return Breach(
            "reduced",
            "SNC-8.3.2",
            f"{u} came back to full strength without a Japanese replacement step",
        )
    return None


def _elite_breach(t: Tables, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    """SNC-8.1.2, SNC-8.1.3: only an eliminated Chinese elite unit waits for the return die,
    and it comes back by its die only, to the TRT, reduced (or is out for good)."""
    waiting, waited = set(before.elite), set(after.elite)
    for u in sorted(waited - waiting):
        spec = t.spec[u]
        if spec.side != CH or spec.arm != "elite" or u not in locations(before.where):
            return Breach(
                "elite",
                "SNC-8.1.2",
                f"{u} waits for the return die, which only an eliminated Chinese elite unit rolls",
            )
    trt = {u for u, _ in after.trt}
    for u in sorted(waiting - waited):
        if u in after.dead:
            continue  # beyond GT 12: out for good (SNC-8.1.3)
        if isinstance(action, Roll) and u in trt and u in after.reduced:
            continue  # SNC-8.1.2: on the TRT, reduced side up
        return Breach("elite", "SNC-8.1.2", f"{u} came back other than reduced, by its die")
    return None


def _arrival_breach(t: Tables, before: SNCState, after: SNCState) -> Breach | None:
    """SNC-8.3.3, SNC-9.1.3: the only unit that comes into play from nowhere is a Japanese
    garrison from the pool (an elite unit's return is `_elite_breach`'s)."""
    waiting = set(before.elite)
    now = locations(after.where)
    for u in sorted(in_play(after) - in_play(before)):
        if u in waiting:
            continue  # the elite return, checked above
        spec = t.spec[u]
        pool = u not in before.dead and spec.side == JP and spec.is_static and u in now
        if not pool:
            return Breach("where", "SNC-8.3.3", f"{u} came into play from the dead pile or nowhere")
    return None
