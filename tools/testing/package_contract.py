"""The package contract: what every game package must satisfy (`kernel.package.GamePackage`).

`contract_problems(package)` lists what a package gets wrong, in words a game's author can act
on; an empty list means the package is well formed. It checks the declaration, not the rules
(the conformance suite, `tools.testing.conformance`, plays the rules):

- the package's name is its rules' name, and its rules have every member of `kernel.game.Game`;
- every role builds from the rules (`GamePackage.assemble`) and plays its part on each preset's
  set-up: the codec reads back what it writes, the position check accepts the set-up, the
  narration gives a headline, the picture a scene, and every data fact holds;
- its data folder holds the shipped data files and the data check runs on them;
- each declared part loads and has its role's shape: the verification link's `properties()`
  and `symbolic_model(variant)`, the evaluation's value in [-1, 1] for each side of each
  preset's set-up, a resampler exactly when the game hides something (and its draw observes
  as the real set-up does), and one OpenSpiel codec per preset named after the game.
"""

from __future__ import annotations

import random
from typing import Any

from kernel.game import Game
from kernel.package import GamePackage

GAME_MEMBERS = (
    "name",
    "title",
    "sides",
    "catalogue",
    "nontermination_clauses",
    "perfect_information",
    "presets",
    "initial_state",
    "to_move",
    "legal_actions",
    "chance_outcomes",
    "apply",
    "outcome",
    "observe",
    "no_action_clauses",
)
"""The members of the rules (`kernel.game.Game`)."""


def contract_problems(package: GamePackage) -> list[str]:
    """What `package` gets wrong (empty: nothing)."""
    try:
        game = package.rules()
    except Exception as exc:
        return [f"rules() fails: {exc!r}"]
    problems = [f"rules lack {m!r}" for m in GAME_MEMBERS if not hasattr(game, m)]
    if game.name != package.name:
        problems.append(f"package name {package.name!r} is not its rules' name {game.name!r}")
    if not package.data_dir.is_dir():
        problems.append(f"data_dir {package.data_dir} is not a folder")
    for check in (_roles, _formal, _evaluation, _resampler, _spiel):
        try:
            problems += check(package, game)
        except Exception as exc:
            problems.append(f"{check.__name__.strip('_')} fails: {exc!r}")
    return problems


def _roles(package: GamePackage, game: Game[Any, Any]) -> list[str]:
    assembled = package.assemble()
    out = [f"data fact fails: {f}" for f in assembled.data_facts() if not f.ok]
    for preset, variant in sorted(game.presets().items()):
        state = assembled.initial_state(variant)
        assembled.check_position(state)
        if assembled.state_from_json(assembled.state_to_json(state)) != state:
            out.append(f"the codec does not read back {preset}'s set-up")
        if not assembled.headline(state):
            out.append(f"no headline for {preset}'s set-up")
        if (
            assembled.scene is not None
            and not (picture := assembled.scene(state)).cells + picture.regions
        ):
            out.append(f"an empty picture of {preset}'s set-up")
    return out


def _formal(package: GamePackage, game: Game[Any, Any]) -> list[str]:
    if package.formal is None:
        return []
    link = package.formal()
    missing = [m for m in ("properties", "symbolic_model") if not callable(getattr(link, m, None))]
    if missing:
        return [f"formal link lacks {', '.join(missing)}"]
    ids = [p.id for p in getattr(link, "properties")()]  # noqa: B009  # typed loosely
    if len(ids) != len(set(ids)):
        return ["formal link declares a property ID twice"]
    return []


def _evaluation(package: GamePackage, game: Game[Any, Any]) -> list[str]:
    if package.evaluation is None:
        return []
    evaluate = package.evaluation()
    out = []
    for preset, variant in sorted(game.presets().items()):
        state = game.initial_state(variant)
        for side in game.sides:
            value = evaluate(game.observe(state, side), side)
            if not -1.0 <= value <= 1.0:
                out.append(f"evaluation of {side} at {preset}'s set-up is {value}, not in [-1, 1]")
    return out


def _resampler(package: GamePackage, game: Game[Any, Any]) -> list[str]:
    if game.perfect_information:
        return [] if package.resampler is None else ["a resampler for a game that hides nothing"]
    if package.resampler is None:
        return ["no resampler for a game with hidden information"]
    draw = package.resampler()
    out = []
    for preset, variant in sorted(game.presets().items()):
        state = game.initial_state(variant)
        for side in game.sides:
            seen = game.observe(state, side)
            drawn = draw(game, seen, side, random.Random(0))
            if game.observe(drawn, side) != seen:
                out.append(f"a resampled {preset} set-up does not observe as the real one")
    return out


def _spiel(package: GamePackage, game: Game[Any, Any]) -> list[str]:
    if package.spiel is None:
        return []
    names = sorted(spec.short_name for spec in package.spiel(package.assemble()))
    expected = sorted(f"python_wargame_{game.name}_{p}" for p in game.presets())
    return [] if names == expected else [f"OpenSpiel games {names}, expected {expected}"]
