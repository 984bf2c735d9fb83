"""OpenSpiel's observation tensor carries every public field a side's observation has, so a
learner reading the tensor is shown what the view shows, no less: Rattenkrieg's combat cause
(AMB-RKS-16) and the step cards both players saw (`exposed`, AMB-RKS-7); SNC's stacking check,
where play goes after it (`after_stack`) and the units culled in it (SNC-6.0.4). Each test
changes one field of a real observation and requires another tensor."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from specs.rattenkrieg.io.tensor import CARDS
from specs.rattenkrieg.spiel import RattenkriegCodec
from specs.snc1937.spiel import SNCCodec
from tests.hidden.twins import RKS, SNC
from tools.testing.histories import play_history, states


def _tensor(codec: Any, observation: dict[str, Any]) -> tuple[float, ...]:
    out = np.zeros(codec.observation_size, dtype=np.float32)
    codec.observation_tensor(observation, (), out)
    return tuple(float(x) for x in out)


def _rks_combat_observation() -> dict[str, Any]:
    """A Soviet observation during the first combat of a seeded standard game."""
    h = play_history(RKS, RKS.presets()["standard"], random.Random(1), 200)
    s = next(s for s in states(RKS, h) if s.combat is not None)
    return RKS.observe(s, "SU")


def test_amb_rks_16_the_combat_cause_reaches_the_tensor() -> None:
    """AMB-RKS-16: a combat, a bombardment or an air support opened the record, which both
    players saw played: three causes, three tensors."""
    codec = RattenkriegCodec(RKS.rules)
    obs = _rks_combat_observation()
    seen = set()
    for cause in ("combat", "bombardment", "air_support"):
        changed = copy.deepcopy(obs)
        changed["combat"]["cause"] = cause
        seen.add(_tensor(codec, changed))
    assert len(seen) == 3


def test_amb_rks_7_the_exposed_step_cards_reach_the_tensor() -> None:
    """AMB-RKS-7: a step card judged face up and returned to its unit is known to both
    players; which cards are exposed changes the tensor, card by card."""
    codec = RattenkriegCodec(RKS.rules)
    obs = _rks_combat_observation()
    base = _tensor(codec, obs)
    free = [c for c in CARDS if c not in obs["exposed"]][:5]
    tensors = set()
    for card in free:
        changed = copy.deepcopy(obs)
        changed["exposed"] = sorted([*obs["exposed"], card])
        tensors.add(_tensor(codec, changed))
    assert base not in tensors and len(tensors) == len(free)


def _snc_observation() -> dict[str, Any]:
    s = SNC.initial_state(SNC.presets()["standard"])
    return SNC.observe(s, "CH")


@pytest.mark.parametrize("side", ["CH", "JP"])
def test_snc_6_0_4_where_play_goes_after_the_stacking_check_reaches_the_tensor(
    side: str,
) -> None:
    """SNC-6.0.4: the check follows a combat or ends a phase (public); the three values of
    `after_stack` give three tensors."""
    codec = SNCCodec(SNC.rules)
    obs = SNC.observe(SNC.initial_state(SNC.presets()["standard"]), side)
    seen = set()
    for after in ("", "main", "phase"):
        changed = {**obs, "after_stack": after}
        seen.add(_tensor(codec, changed))
    assert len(seen) == 3


def test_snc_6_0_4_the_units_culled_and_their_hexes_reach_the_tensor() -> None:
    """SNC-6.0.4: a culled unit goes from its hex to the open dead pile; which unit was culled,
    from which hex and in which order all change the tensor."""
    codec = SNCCodec(SNC.rules)
    obs = _snc_observation()
    stacks = [s for s in obs["stacks"] if len(s["units"]) >= 1]
    (a, ha), (b, hb) = [(s["units"][0], s["hex"]) for s in stacks[:2]]
    assert ha != hb

    def culled(*records: tuple[str, str]) -> tuple[float, ...]:
        return _tensor(codec, {**obs, "culled": [{"unit": u, "hex": x} for u, x in records]})

    variants = [
        culled(),
        culled((a, ha)),
        culled((a, hb)),
        culled((b, ha)),
        culled((a, ha), (b, hb)),
        culled((b, hb), (a, ha)),
    ]
    assert len(set(variants)) == len(variants)
