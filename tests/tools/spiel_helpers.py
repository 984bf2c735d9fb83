"""What the OpenSpiel adapter's tests share: a seeded random step (chance by its
probabilities), the id sequences a state offers, and the globals a pickle loads."""

from __future__ import annotations

import io
import pickle
import random
from typing import Any

import pyspiel

_PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION


def random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(ids, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def sequences_from(state: Any) -> dict[tuple[int, ...], Any]:
    """Every full id sequence the legal ids allow from `state` (no pending prefix) to the
    next kernel state, with the kernel state it reaches; the ids a perfect-information game
    takes without asking (a sub-decision with one option) included, as the codec's `tokens`
    has them. Every sub-decision it does ask has two options or more."""
    out: dict[tuple[int, ...], Any] = {}
    perfect = state.get_game().get_type().information == _PERFECT

    def walk(s: Any, path: tuple[int, ...]) -> None:
        ids = s.legal_actions()
        assert not (perfect and path and len(ids) < 2), f"a forced sub-decision asked at {path}"
        for a in ids:
            child = s.clone()
            child.apply_action(a)
            if child.kernel_state is s.kernel_state:  # a choice left
                assert child.prefix[: len(path) + 1] == (*path, a)
                walk(child, child.prefix)
            else:
                out[s.step(a)[0]] = child.kernel_state  # the forced ids after `a` included

    walk(state, ())
    return out


def pickled_globals(obj: Any) -> set[str]:
    """The "module name" of every global (class or function) a pickle of `obj` loads."""
    names: set[str] = set()

    class Recording(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            names.add(f"{module} {name}")
            return super().find_class(module, name)

    Recording(io.BytesIO(pickle.dumps(obj))).load()
    return names
