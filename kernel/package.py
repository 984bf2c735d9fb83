"""A game package: the parts of one game, declared in one place (`specs/<game>/__init__.py`).

Every game has the same shape (`docs/adding-a-game.md`): `rules/` (state, actions, board, the
sequence of play, one module per rules topic, and the `Game` dispatcher), `io/` (wire records,
codec, narration, picture, observation), `data/` (data files, loader, facts, variants),
`formal/` (properties, position check, symbolic model, verification link), `bots/` (evaluation,
resampler) and `spiel.py` (its OpenSpiel codec). The package names each part here, so tools
reach a game through the registry and this record, never by module names: a part a game does
not have is None, and a tool says so rather than guessing. The rules build first; every other
role is built from them (`assemble`), so the rules import none of their roles.

Parts are loaded on first use (each is a function that imports it): the rules do not import
the solvers' proof toolchain,
the OpenSpiel codec's numpy, or the bots' tables until a tool asks for them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kernel.game import Game
from kernel.roles import AssembledGame, Codec, DataCheck, Narration, Picture, PositionCheck

if TYPE_CHECKING:
    from kernel.spiel_codec import Spec

Evaluation = Callable[[Mapping[str, Any], str], float]
"""`evaluate(observation, side) -> value in [-1, 1]`, from the observation alone
(`kernel.evaluation`)."""

Resample = Callable[[Any, Mapping[str, Any], str, random.Random], Any]
"""`resample(game, observation, side, rng) -> state`: a full state `side` cannot tell from
the real one (its observation equals `observation`)."""


@attrs.frozen
class GamePackage:
    """One game's parts. Each part but the rules is optional (None: the game has none)."""

    name: str
    """The registry's name of the game (`wargame new NAME`)."""
    rules: Callable[[], Game[Any, Any]]
    """Builds the rules (`kernel.game.Game`)."""
    codec: Callable[[Any], Codec[Any, Any]]
    """Builds, from the rules, the JSON codec (`kernel.roles.Codec`)."""
    narration: Callable[[Any], Narration[Any, Any]]
    """Builds, from the rules, the log's narration (`kernel.roles.Narration`)."""
    position: Callable[[Any], PositionCheck[Any]]
    """Builds, from the rules, the position check (`kernel.roles.PositionCheck`)."""
    data: Callable[[Any], DataCheck]
    """Builds, from the rules, the data check (`kernel.roles.DataCheck`)."""
    data_dir: Path
    """The folder of the game's shipped data files (`*.toml`), for tools that check or mutate
    them (`wargame data check`, the fuzz campaign)."""
    formal: Callable[[], object] | None = None
    """The verification link (`solvers.checking.verification.SpecVerification`): properties
    and, per variant, a symbolic model. Typed loosely here because kernel/ imports no solver."""
    evaluation: Callable[[], Evaluation] | None = None
    """The bots' evaluation of one side's observation."""
    resampler: Callable[[], Resample] | None = None
    """Draws full states from one side's observation (hidden-information games only)."""
    picture: Callable[[Any], Picture[Any]] | None = None
    """Builds, from the rules, the picture (`kernel.roles.Picture`)."""
    spiel: Callable[[Game[Any, Any]], Sequence[Spec]] | None = None
    """The game's OpenSpiel codecs, one registered game per preset (`kernel.spiel_codec`)."""

    def assemble(self) -> AssembledGame[Any, Any]:
        """The rules with every role built from them (`kernel.roles.AssembledGame`)."""
        rules = self.rules()
        picture = None if self.picture is None else self.picture(rules)
        return AssembledGame(
            rules,
            self.codec(rules),
            self.narration(rules),
            self.position(rules),
            self.data(rules),
            picture,
        )


def part(target: str) -> Callable[..., Any]:
    """A part named as `"package.module:attribute"`, imported when first used and called with
    whatever the package passes it (nothing for the rules, the rules for a role, the assembled
    game for the OpenSpiel codecs): a class builds the part, a function returns it. So a game
    declares its parts as data, and loading the rules loads nothing else."""
    module, _, attribute = target.partition(":")

    def load(*args: Any) -> Any:
        found = getattr(importlib.import_module(module), attribute)
        return found(*args)

    load.__qualname__ = f"part({target!r})"
    return load


def value(target: str) -> Callable[[], Any]:
    """A part that is the named object itself (a module, or a function such as an
    evaluation), imported when first used: `"package.module"` or `"package.module:name"`."""
    module, _, attribute = target.partition(":")

    def load() -> Any:
        found = importlib.import_module(module)
        return getattr(found, attribute) if attribute else found

    load.__qualname__ = f"value({target!r})"
    return load
