"""The kernel's games as Python OpenSpiel games (`pyspiel.register_game`), registered on import.

The generic adapter is `tools.spiel.adapter`; each game's fixed action ids, sub-decisions and
observation tensor are in its own module of this package, whose `specs()` lists its games (one
per preset). Every module here but the adapter is such a module, so a new game registers by
adding its module.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

import pyspiel

from tools.spiel.adapter import _SPECS, Spec, WargameGame, add_spec, game_type


def codec_modules() -> list[str]:
    """The modules of this package with a `specs()` each, in name order."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "adapter")


def specs() -> list[Spec]:
    """Every registered game's spec (built once)."""
    if not _SPECS:
        for name in codec_modules():
            module = importlib.import_module(f"tools.spiel.{name}")
            for spec in module.specs():
                add_spec(spec)
    return list(_SPECS.values())


def _creator(key: str) -> type[WargameGame]:
    """A subclass of `WargameGame` bound to `key`. OpenSpiel keeps the creator until the C++
    registry is destroyed, after the interpreter has finalized: a class (kept alive by its own
    reference cycles) outlives that, where a closure would be freed without the GIL and abort
    the process at exit."""

    def init(self: WargameGame, params: Mapping[str, Any] | None = None) -> None:
        WargameGame.__init__(self, key, params)

    return type(f"WargameGame_{key}", (WargameGame,), {"__init__": init})


def register() -> list[str]:
    """Register every game with OpenSpiel (once); returns their short names."""
    known = set(pyspiel.registered_names())
    names = []
    for spec in specs():
        if spec.short_name not in known:
            pyspiel.register_game(game_type(spec), _creator(spec.short_name))
        names.append(spec.short_name)
    return names


GAMES = register()
"""The short names registered on import."""
