"""The position's `checked` (SNC-6.0.2, SNC-6.0.3; AMB-SNC-8): the hexes covered by the
stacking check the last step started, set where the rules start a check and () after every
other step. Seeded playouts compare it with the derivation `step_breaches.checked_hexes` made
from the step before `checked` existed (kept here as the oracle); the codec carries it, the
position check refuses an impossible one, and both sides see it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest

from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.hexes import Hex, hex_name, parse_hex
from kernel.playout import play
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal import step_breaches
from specs.snc1937.rules import stacking
from specs.snc1937.rules.actions import Action, Done
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step
from specs.snc1937.rules.tables import Tables, locations, stacks
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
T = RULES.tables
PLACEMENT = {"reinforcement_stacking": "checked_on_placement"}
OTHER_READINGS = {
    "stacking_check": "global",
    "movement_check_side": "both_players",
    "reinforcement_stacking": "checked_on_placement",
    "sudden_defeat_timing": "end_of_phase",
    "overrun_stacking": "after_each_overrun",
}


def old_checked_hexes(
    t: Tables, before: SNCState, action: Any, after: SNCState
) -> tuple[Hex, ...] | None:
    """The oracle: `step_breaches.checked_hexes` as it was before the position recorded the
    check, re-deriving it from the step (SNC-6.0.2 (a), (b); AMB-SNC-8 (c)), with the overrun
    reading (overrun_stacking) added since."""
    v = before.variant
    st = stacks(after.where)
    if isinstance(action, Done) and before.step == Step.MAIN and not before.moving:
        if before.phase in (Phase.OPS1, Phase.OPS2) and before.ops_kind() == "move":
            return stacking.hexes_to_check(st, t.data, v, phasing=before.side)
        if before.phase == Phase.REINF and v.is_("reinforcement_stacking", "checked_on_placement"):
            return tuple(sorted({h for u, h in after.where if u in before.arrived}))
        return None
    c = before.combat
    if c is None or after.combat is not None:
        return None
    if c.landing and not v.is_("reinforcement_stacking", "checked_on_placement"):
        return None
    if c.overrun and not v.is_("overrun_stacking", "after_each_overrun"):
        return None  # SNC-6.0.2: an overrun is fought in a Move phase (AMB-SNC-8)
    loc = locations(after.where)
    fought = [c.target, *(loc[u] for u in c.attackers if u in loc)]
    return stacking.hexes_to_check(st, t.data, v, phasing=before.side, after_combat=fought)


def _cut_short(before: SNCState, after: SNCState) -> bool:
    """The step ended the game by sudden death with a combat open (SNC-4.1.1, SNC-4.1.2,
    SNC-4.2.1): the rules closed the combat without its check, where the oracle, which only
    saw the combat gone, reported one. SNC-P-STACKING ignores such a step either way."""
    return before.combat is not None and before.result is None and after.result is not None


def _compare(preset: str, options: dict[str, str], seed: int) -> Counter[str]:
    seen: Counter[str] = Counter()

    def on_step(before: SNCState, action: Action, after: SNCState) -> None:
        old = old_checked_hexes(T, before, action, after)
        seen["steps"] += 1
        if _cut_short(before, after) and after.checked != (old or ()):
            assert after.checked == (), (before, action, after)
            seen["cut_short"] += 1
            return
        assert after.checked == (old or ()), (action, old, after.checked, before.step)
        if old is not None:
            seen["checks"] += 1
            if isinstance(action, Done) and before.phase == Phase.REINF:
                seen["reinf_checks"] += 1
        if after.checked:
            seen["nonempty"] += 1
            assert step_breaches.checked_hexes(T, before, action, after) == after.checked
        else:
            assert step_breaches.checked_hexes(T, before, action, after) is None

    s = GAME.initial_state(CATALOGUE.variant(preset, options))
    out = play(
        GAME, s, random.Random(seed), RULES.playout_agents(), max_steps=20000, on_step=on_step
    )
    assert out.stop == "ended", out.report()
    return seen


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("standard", {}, 1),
        ("standard", {}, 2),
        ("printed", {}, 1),
        ("printed", {}, 2),
        ("standard", PLACEMENT, 1),
        ("standard", PLACEMENT, 3),
        ("printed", PLACEMENT, 1),
        ("printed", PLACEMENT, 3),
        ("standard", OTHER_READINGS, 1),
    ],
)
def test_snc_6_0_2_checked_is_the_old_derivation_on_seeded_playouts(
    preset: str, options: dict[str, str], seed: int
) -> None:
    """SNC-6.0.2, SNC-6.0.3, AMB-SNC-8: at every step of seeded games under both presets and
    under reinforcement_stacking=checked_on_placement, `after.checked` is what the old
    derivation from the step gave (a check covering no hex reads as none); checks were met.
    An overrun starts a check only under overrun_stacking=after_each_overrun."""
    seen = _compare(preset, options, seed)
    assert seen["steps"] > 100 and seen["checks"] > 0 and seen["nonempty"] > 0, seen
    if options.get("reinforcement_stacking") == "checked_on_placement":
        assert seen["reinf_checks"] > 0, seen


def _positions(preset: str, seed: int, count: int) -> list[SNCState]:
    """Positions right after a stacking check started, from a seeded game."""
    out: list[SNCState] = []

    def on_step(before: SNCState, action: Action, after: SNCState) -> None:
        if after.checked and len(out) < count:
            out.append(after)

    s = GAME.initial_state(CATALOGUE.variant(preset, PLACEMENT))
    play(GAME, s, random.Random(seed), RULES.playout_agents(), max_steps=20000, on_step=on_step)
    assert out
    return out


def test_snc_6_0_2_checked_travels_with_the_position() -> None:
    """SNC-6.0.2: the JSON codec carries `checked` both ways; both sides see it; the next step
    clears it unless it starts a check of its own."""
    for s in _positions("standard", 1, 5):
        data = GAME.state_to_json(s)
        assert list(data["checked"]) == [hex_name(h) for h in s.checked]
        assert GAME.state_from_json(data) == s
        for side in (CH, JP):
            assert list(GAME.observe(s, side)["checked"]) == list(data["checked"])
        if GAME.to_move(s) not in (None, "chance") and GAME.legal_actions(s):
            a = GAME.legal_actions(s)[0]
            nxt = GAME.apply(s, a)
            assert nxt.checked == (old_checked_hexes(T, s, a, nxt) or ())


def test_snc_6_0_2_position_check_refuses_an_impossible_checked() -> None:
    """SNC-6.0.2: a `checked` hex off the map, listed out of order, empty, or a check stored
    with a combat still open is refused, naming the field."""
    s = _positions("standard", 1, 1)[0]
    data = GAME.state_to_json(s)
    with pytest.raises(InvalidInput) as off:
        GAME.state_from_json({**data, "checked": ["9999"]})
    assert off.value.field is not None and off.value.field.startswith("checked")
    if len(data["checked"]) > 1:
        with pytest.raises(InvalidInput) as order:
            GAME.state_from_json({**data, "checked": list(reversed(data["checked"]))})
        assert order.value.field == "checked"
    occupied = stacks(s.where)
    near = (n for h in sorted(occupied) for n in T.board.neighbors(h))
    empty = next(n for n in near if n not in occupied and T.board.enterable(n))
    with pytest.raises(ImpossiblePosition) as vacant:
        GAME.state_from_json({**data, "checked": [hex_name(empty)]})
    assert vacant.value.field == "checked[0]"
    start = GAME.state_to_json(GAME.initial_state(CATALOGUE.preset("standard")))
    assert list(start["checked"]) == []
    del start["checked"]  # every field is required: a document reads back as it was sent
    with pytest.raises(InvalidInput) as missing:
        GAME.state_from_json(start)
    assert missing.value.field == "checked"


def test_snc_6_0_2_checked_cleared_by_every_other_step() -> None:
    """SNC-6.0.2: a position's `checked` is the last step's only; a step that starts no check
    (here the first cull, or the next move) leaves ()."""
    s = _positions("standard", 1, 1)[0]
    assert s.checked
    fake = attrs.evolve(s, checked=(parse_hex("3006"),))
    for a in GAME.legal_actions(fake)[:3] if GAME.to_move(fake) not in (None, "chance") else []:
        nxt = GAME.apply(fake, a)
        assert nxt.checked == (old_checked_hexes(T, fake, a, nxt) or ())
