"""What the OpenSpiel adapter's tests share: a seeded random step (chance by its
probabilities), the id sequences a state offers, and the globals a pickle loads."""

from __future__ import annotations

import io
import pickle
import random
from typing import Any


def random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(ids, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def sequences_from(state: Any) -> dict[tuple[int, ...], Any]:
    """Every full id sequence the legal ids allow from `state` (no pending prefix) to the
    next kernel state, with the kernel state it reaches."""
    out: dict[tuple[int, ...], Any] = {}

    def walk(s: Any, path: tuple[int, ...]) -> None:
        for a in s.legal_actions():
            child = s.clone()
            child.apply_action(a)
            if child.prefix:
                assert child.prefix == (*path, a)
                walk(child, (*path, a))
            else:
                out[(*path, a)] = child.kernel_state

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
