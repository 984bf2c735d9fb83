"""The Rattenkrieg Game: the kernel contract over the pure rules modules.

It stands above the parts: the rules of play (`rules.play.RattenkriegRules`) with what a side
is shown (`observe`, `io.observation`), the unit-removal hook (which runs the position check,
`formal.position`) and a refused action named by its JSON form (`io.actions`). The roles
besides the rules (codec, narration, picture, position check, data check) are built from it by
the package (`specs/rattenkrieg/__init__.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kernel.errors import ImpossiblePosition
from kernel.playout import Agent, observing, random_policy
from specs.rattenkrieg.formal import moot_readings, situations
from specs.rattenkrieg.formal.position import check_position
from specs.rattenkrieg.io import observation
from specs.rattenkrieg.io.actions import action_to_json
from specs.rattenkrieg.rules.actions import Action
from specs.rattenkrieg.rules.control import settle
from specs.rattenkrieg.rules.play import RattenkriegRules
from specs.rattenkrieg.rules.state import Phase, RKState
from specs.rattenkrieg.rules.units import eliminate


class Rattenkrieg(RattenkriegRules):
    """Rattenkrieg Stalingrad (CMJ 2008 / Banner of War 2017), English rules text."""

    def observe(self, state: RKState, side: str) -> dict[str, Any]:
        """What `side` may know: its own hand and steps, the opponent's card counts, the public
        cards, face-down cards as face down (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1)."""
        return observation.observe(self, state, side)

    def without_unit(self, state: RKState, unit: str) -> RKState | None:
        """`state` with `unit` eliminated as damage eliminates it (`kernel.game.UnitRemoval`):
        off the map, its step cards discarded (AMB-RKS-7 iv) so that every card stays in one
        place (RKS-P-CARDS), the turn recorded for the T-34's return (RKS-6.3.1), and control
        following the units left (RKS-3.6.2). None when the unit is not on the map, during
        set-up (RKS-3.1.2, RKS-3.2.1: every unit stands where it starts, RKS-P-SETUP), when a
        record of the turn under way names it (the acting unit, a combat, damage, a pending
        move, a draw or a pick: RKS-7.1.1, RKS-8.2.2), or when the position check refuses the
        result."""
        b = self.board
        if unit not in b.side_of or b.unit(state, unit).area is None:
            return None
        if state.phase == Phase.SETUP:
            return None  # RKS-P-SETUP: no unit leaves the map during set-up
        named = {state.acting, *(d.who for d in state.draws)}
        if state.combat is not None:
            c = state.combat
            named.update((c.attacker, c.defender, c.support, *c.staying))
        if state.damage is not None:
            named.add(state.damage.unit)
        if state.pending is not None:
            named.add(state.pending.escort)
        if state.pick is not None:
            named.add(state.pick.who)
        if unit in named:
            return None  # RKS-7.1.1, RKS-8.2.2: the turn under way needs it
        out = settle(b, eliminate(b, state, unit))  # RKS-8.9.2, AMB-RKS-7 iv, RKS-3.6.2
        try:
            check_position(self, out)
        except ImpossiblePosition:
            return None
        return out

    def playout_agents(self) -> dict[str, Agent[RKState, Action]]:
        """Agents for `wargame play`: each chooses from its own observation only, never the
        state (RKS-3.3.3)."""
        return {side: observing(random_policy, side) for side in self.sides}

    def reading_proofs(self) -> Mapping[str, moot_readings.Proof]:
        """Proofs that two readings of an option cannot differ, by option, for the
        ambiguity explorer (`formal.moot_readings`: strength_floor, engineer_scope)."""
        return moot_readings.reading_proofs(self)

    def reading_situations(self) -> Mapping[str, situations.Distance]:
        """Where two readings of an option answer differently, by option, as a distance over a
        state for the ambiguity explorer to steer play by (`formal.situations`)."""
        return situations.reading_situations(self.board)

    def _shown(self, action: Action) -> str:
        """A refused action is named by its JSON form (`io.actions.action_to_json`)."""
        return f"{action_to_json(action)}"
