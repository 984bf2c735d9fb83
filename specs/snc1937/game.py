"""The SNC Game: the kernel contract (`kernel.game.Game`), where the rules meet what a side
is shown.

It stands above the parts: the rules of play (`rules.play.SNCRules`: the sequence of play, each
step in its topic module, an action out of place refused naming its clause) with what a side
may know (`observe`, `io.observation`, SNC-6.3.1) and the agents `wargame play` uses. The roles
besides the rules (codec, narration, picture, position check, data check) are built from it by
the package (`specs/snc1937/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kernel.playout import Agent, observing, random_policy
from specs.snc1937.formal import moot_readings, situations
from specs.snc1937.io import observation
from specs.snc1937.rules.actions import Action
from specs.snc1937.rules.play import SNCRules
from specs.snc1937.rules.state import SNCState


class SNC(SNCRules):
    """Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329, 2021)."""

    def observe(self, s: SNCState, side: str) -> dict[str, Any]:
        """What `side` may know (SNC-6.3.1): only the top unit of each enemy stack."""
        return observation.observe(self, s, side)

    def reading_proofs(self) -> Mapping[str, moot_readings.Proof]:
        """Proofs that two readings of an option cannot differ under this data, by option, for
        the ambiguity explorer (`formal.moot_readings`)."""
        return moot_readings.reading_proofs(self)

    def reading_situations(self) -> Mapping[str, Callable[[SNCState], int]]:
        """Each option's distance to a position where its readings' inputs differ, for the
        ambiguity explorer's steered search (`formal.situations`)."""
        return situations.reading_situations(self)

    def playout_agents(self) -> dict[str, Agent[SNCState, Action]]:
        """Agents for `wargame play`: each decides from its own observation only."""
        return {side: observing(random_policy, side) for side in self.sides}
