"""What a study plays: the game, the variant, the agent of each side, the option readings and
the seeds. Everything a game's result depends on, besides its seed, is in the plan's identity,
hashed to the key the store files results under, the code that plays it included
(`fingerprint.code_fingerprint`); the seed range is not, so a study grown to more games reuses
the games already played, and one run after a rules change plays its games again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.errors import InvalidInput
from kernel.game import Game
from kernel.variants import Variant
from tools.agents.match import DEFAULT_MAX_STEPS
from tools.registry import get_game
from tools.study.fingerprint import code_fingerprint

MAX_SEED = 2**63 - 1
"""The largest seed (SQLite's INTEGER, and the seeds a play log records)."""
KEY_FORMAT = 2
"""Bumped when the stored rows change meaning, so old rows are never read as new ones."""
BASE = ""
"""The reading label of a study without `--compare`: the plan's variant itself."""


@attrs.frozen
class Plan:
    """One study. `readings` are the compared option's readings, the base variant's first;
    (BASE,) without `--compare`."""

    game: str
    preset: str
    options: tuple[tuple[str, str], ...]
    agents: tuple[tuple[str, str], ...]  # (side, agent name), in the game's side order
    simulations: int | None
    max_steps: int
    compare: str | None
    readings: tuple[str, ...]
    seed_start: int
    games: int
    code: str = ""  # the fingerprint of the code and data that play it

    def identity(self) -> dict[str, Any]:
        """What a game's result depends on besides the reading and the seed."""
        return {
            "format": KEY_FORMAT,
            "game": self.game,
            "preset": self.preset,
            "options": dict(self.options),
            "agents": dict(self.agents),
            "simulations": self.simulations,
            "max_steps": self.max_steps,
            "compare": self.compare,
            "code": self.code,
        }

    @property
    def key(self) -> str:
        """A stable hash of the identity: the same on every machine and Python run."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    @property
    def seeds(self) -> range:
        return range(self.seed_start, self.seed_start + self.games)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(side for side, _ in self.agents)

    def variant(self, reading: str) -> Variant:
        """The variant one reading plays: the preset, the fixed options, and the compared
        option read as `reading`."""
        overrides = dict(self.options)
        if self.compare is not None:
            overrides[self.compare] = reading
        return get_game(self.game).catalogue.variant(self.preset, overrides)

    def label(self, reading: str) -> str:
        """How reports name a reading's variant ("ja with tie=draw")."""
        return get_game(self.game).catalogue.name_of(self.variant(reading))

    def to_json(self) -> dict[str, Any]:
        return {
            **self.identity(),
            "key": self.key,
            "sides": list(self.sides),
            "readings": list(self.readings),
            "seed_start": self.seed_start,
            "games": self.games,
        }


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """`--option NAME=READING` arguments, as `wargame play --option` reads them."""
    overrides: dict[str, str] = {}
    for item in items:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            raise InvalidInput(f"--option takes NAME=READING, not {item!r}", field="--option")
        overrides[name] = reading
    return overrides


def make_plan(
    game_name: str,
    *,
    preset: str | None = None,
    agent: str = "random",
    against: str = "random",
    games: int = 100,
    seed_start: int = 0,
    options: Sequence[str] = (),
    compare: str | None = None,
    simulations: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    check_agents: bool = True,
    code: str | None = None,
) -> Plan:
    """A checked plan; every refusal is an InvalidInput naming the argument at fault. Without
    `check_agents` the agents are not built: a plan only looked up in the store (its key)
    needs none of their imports. `code` stands for the code's fingerprint (None: computed,
    `fingerprint.code_fingerprint`)."""
    game = get_game(game_name)
    cat = game.catalogue
    if preset is not None and preset not in cat.presets:
        known = ", ".join(sorted(cat.presets))
        raise InvalidInput(
            f"{game.name} has no preset {preset!r} (presets: {known})", field="--preset"
        )
    preset_name = preset or cat.default_preset
    overrides = parse_options(options)
    cat.variant(preset_name, overrides)  # refuses an unknown option or reading, naming it
    if games < 1:
        raise InvalidInput("--games must be at least 1", field="--games")
    if seed_start < 0 or seed_start + games - 1 > MAX_SEED:
        raise InvalidInput(f"seeds must lie in 0..{MAX_SEED}", field="--seed-start")
    if simulations is not None and simulations < 1:
        raise InvalidInput("--simulations must be at least 1", field="--simulations")
    if max_steps < 1:
        raise InvalidInput("--max-steps must be at least 1", field="--max-steps")
    readings: tuple[str, ...] = (BASE,)
    if compare is not None:
        readings = _compared_readings(game, preset_name, overrides, compare)
    sides = game.sides
    agents = tuple((side, agent if i == 0 else against) for i, side in enumerate(sides))
    plan = Plan(
        game=game.name,
        preset=preset_name,
        options=tuple(sorted(overrides.items())),
        agents=agents,
        simulations=simulations,
        max_steps=max_steps,
        compare=compare,
        readings=readings,
        seed_start=seed_start,
        games=games,
        code=code_fingerprint(game.name) if code is None else code,
    )
    if check_agents:
        from tools.study.engine import check_agents as check  # the engine builds agents

        check(plan)
    return plan


def _compared_readings(
    game: Game[Any, Any], preset: str, overrides: dict[str, str], compare: str
) -> tuple[str, ...]:
    cat = game.catalogue
    if compare not in {o.name for o in cat.options}:
        known = ", ".join(o.name for o in cat.options)
        raise InvalidInput(
            f"{game.name} has no option {compare!r} (options: {known})", field="--compare"
        )
    if compare in overrides:
        raise InvalidInput(
            f"--compare {compare} runs every reading of {compare}: do not also fix it "
            "with --option",
            field="--compare",
        )
    base = dict(cat.variant(preset, overrides).choices)[compare]
    played = [r.name for r in cat.option(compare).played()]
    if len(played) < 2:
        raise InvalidInput(
            f"option {compare!r} has one playable reading: nothing to compare", field="--compare"
        )
    return (base, *[r for r in played if r != base])
