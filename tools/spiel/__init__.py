"""The kernel's games as Python OpenSpiel games (`pyspiel.register_game`), registered on import.

The generic adapter is `tools.spiel.adapter`; each game's fixed action ids, sub-decisions and
observation tensor are in its package's OpenSpiel codec (`specs/<game>/spiel.py`), which the
package declares (`GamePackage.spiel`): every registered game with a codec is registered here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from kernel.spiel_codec import Spec
from tools.registry import game_names, get_game, get_package
from tools.spiel.adapter import _SPECS, WargameGame, add_spec, game_type


def specs() -> list[Spec]:
    """Every registered game's spec (built once), in game and preset order."""
    if not _SPECS:
        for name in game_names():
            codecs = get_package(name).spiel
            for spec in codecs(get_game(name)) if codecs is not None else ():
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
