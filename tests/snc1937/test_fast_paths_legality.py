"""`apply`'s legality check against the listing (issue 34).

`apply` refuses an action the listing leaves out (SNC-5.0.3 and each step's clause, through
`refusals.py`). Moves, group joins, overruns and top units are checked on their own; every
other kind against the listing of the very state last listed (a player lists, then applies),
else a fresh one. Here, on positions from seeded playouts of both presets, every listed action
and near misses of each (another unit, another hex, the fixed actions of every step) must be
taken exactly when the listing holds them: with the state just listed, with another state
listed last, and after the caller changed the list it was given; and a check that reads the
last listing whatever state it was for must be told apart by the same comparison.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE
from kernel.hexes import Hex, hex_neighbors
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import (
    Action,
    Declare,
    Done,
    Intercept,
    Join,
    Loss,
    Move,
    Overrun,
    Place,
    Strike,
    Support,
    Top,
)
from specs.snc1937.rules.play import SNCRules
from specs.snc1937.rules.state import Order, SNCState, Step

GAME = SNC()
STEPS = 2500  # steps of each seeded playout searched (a count, not a time)
SEEDS = (0, 1)
KEEP = 40  # positions kept per preset, evenly spaced over the playouts
SAMPLE = 6  # listed actions per position whose near misses are tried
FIXED: tuple[Action, ...] = (
    Done(),
    Strike(),
    Intercept(True),
    Intercept(False),
    *(Declare(o) for o in Order),
    *(Support(k) for k in ("artillery", "air", "naval")),
)


def _playout(preset: str, seed: int) -> Iterator[SNCState]:
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = GAME.to_move(s)
        if side is None:
            return
        if side == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            yield s
            action = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, action)


def _positions() -> list[SNCState]:
    out: list[SNCState] = []
    for preset in sorted(CATALOGUE.presets):
        found = [s for seed in SEEDS for s in _playout(preset, seed)]
        out.extend(found[:: max(1, len(found) // KEEP)])
    return out


POSITIONS = _positions()


def _near_misses(s: SNCState, listed: Sequence[Action], rng: random.Random) -> list[Action]:
    """Each sampled listed action, and the same with another unit of the position or a unit
    off the map, and with a neighbouring hex; then the fixed actions of every step."""
    units = [u for u, _ in s.where]
    off = sorted(u for u in GAME.tables.spec if u not in dict(s.where))
    picked = rng.sample(list(listed), min(SAMPLE, len(listed)))
    out: list[Action] = []
    for a in picked:
        out.append(a)
        record: Any = a  # any kind of action: its fields are read by name
        for field in attrs.fields(type(a)):
            value = getattr(a, field.name)
            if isinstance(value, str) and field.name == "unit":
                swaps = [rng.choice(units), *off[:1], "no-such-unit"]
                out.extend(attrs.evolve(record, **{field.name: u}) for u in swaps)
            elif isinstance(value, Hex):
                out.extend(
                    attrs.evolve(record, **{field.name: n}) for n in hex_neighbors(value)[:2]
                )
    return [*out, *FIXED]


def _takes(s: SNCState, a: Action) -> bool | None:
    """Whether `apply` takes `a` at `s` (a refusal or an unknown unit is no); None when it
    breaks past the check, as an action out of place does."""
    try:
        GAME.apply(s, a)
    except (IllegalAction, InvalidInput):
        return False
    except Exception:
        return None
    return True


def _differences(positions: list[SNCState]) -> list[str]:
    """Where `apply` takes an action the fresh listing leaves out, or refuses one it holds:
    with this state listed last, with another listed last, and with the list given changed."""
    out: list[str] = []
    rng = random.Random(5)
    for i, s in enumerate(positions):
        listed = list(GAME.legal_actions(s))
        other = positions[i - 1]
        for a in _near_misses(s, listed, rng):
            want = a in listed
            GAME.legal_actions(s)
            if _takes(s, a) != want:
                out.append(f"position {i}: {a} just listed")
            GAME.legal_actions(other)
            if _takes(s, a) != want:
                out.append(f"position {i}: {a} with another state listed last")
            given = GAME.legal_actions(s)
            if isinstance(given, list):  # the caller's list changed under it
                given.clear() if want else given.append(a)
            if _takes(s, a) != want:
                out.append(f"position {i}: {a} after the list given was changed")
    return out


def test_enough_positions() -> None:
    steps = {s.step for s in POSITIONS}
    kinds = {type(a) for s in POSITIONS for a in GAME.legal_actions(s)}
    assert len(POSITIONS) >= 60 and len({s.variant for s in POSITIONS}) == 2
    assert {Step.MAIN, Step.JOIN, Step.SUPPORT_A, Step.LOSS_A} <= steps
    assert {Move, Done, Join, Support, Loss, Place, Top, Declare} <= kinds


def test_snc_5_0_3_apply_takes_exactly_the_listed_actions() -> None:
    """SNC-5.0.3 and each step's clause (`refusals.STEP_CLAUSE`): `apply` takes what the
    listing holds and refuses near misses it leaves out, whatever was listed last."""
    assert _differences(POSITIONS) == []


def test_snc_5_0_3_a_memo_read_for_another_state_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A check that reads the last listing whatever state it was made for is caught."""

    def any_state(self: SNCRules, s: SNCState) -> Sequence[Action] | None:
        return None if self._listed is None else self._listed[1]

    monkeypatch.setattr(SNCRules, "_listed_for", any_state)
    assert _differences(POSITIONS)


def test_snc_5_0_3_a_memo_sharing_the_callers_list_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A memo that keeps the very list it hands out is changed by its caller: caught."""

    def shared(self: SNCRules, s: SNCState) -> Sequence[Action]:
        listing = self._listing(s)
        self._listed = (s, listing)
        return listing

    monkeypatch.setattr(SNCRules, "legal_actions", shared)
    assert _differences(POSITIONS)


def test_snc_9_6_overruns_and_tops_stay_checked_on_their_own() -> None:
    """SNC-9.6.1, AMB-SNC-40: an overrun or a top unit is judged without the kept listing,
    so a kept listing of another state changes nothing."""
    for s in POSITIONS:
        listed = list(GAME.legal_actions(s))
        for a in [a for a in listed if isinstance(a, (Overrun, Top))][:3]:
            GAME.legal_actions(POSITIONS[0])
            assert _takes(s, a)
