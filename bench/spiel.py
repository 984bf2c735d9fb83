"""The OpenSpiel adapter's cost per kernel step, against the kernel's own Game API.

`python -m bench.spiel [--quick] [--game NAME ...] [--playouts N] [--rounds N]` prints, per
game and preset, the CPU time of the same seeded random games played twice: through the Game
API (`to_move`, `legal_actions`, `chance_outcomes`, `apply`) and through the registered
OpenSpiel game (`is_terminal`, `current_player`, `legal_actions`, `chance_outcomes`,
`apply_action`, as a bot calls them), and the ratio adapter / kernel (issue 34: at most 1.3).
Observation and information-state strings and tensors are NOT included: a bot that reads them
pays `observe` and their encoding on top, the same with or without the adapter.

Like for like. A uniform choice over the adapter's ids is not a uniform choice over the kernel's
actions (a compound action is chosen sub-decision by sub-decision), so one seeded game is played
first, untimed, through the adapter, and recorded as the index picked at every OpenSpiel step
and the index of the resulting action in the kernel's `legal_actions` (or `chance_outcomes`) at
every kernel step (a perfect-information game's forced sub-decisions taken with the choice
before them, as the adapter takes them). Both timed loops then replay those indices: the same
kernel states, the same number of kernel steps, no random draw in either (a game the adapter
truncates in the middle of a compound action is recorded up to its last whole kernel step).
Every `functools` cache and the codecs' kept trees are emptied before each timed replay, so
neither reads what another one computed for the same positions. Each game is replayed
`--rounds` times through both, the two passes of a round back to back, and the pair with the
median ratio is kept: a load that comes and goes on a shared machine falls on both passes of a
pair alike (the best time of each, taken separately, may come from two different moments of
the machine: such ratios spread about twice as much from run to run). Numbers to compare
between runs on one machine, never pass/fail.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel

import tools.spiel
from kernel.game import CHANCE
from kernel.spiel_codec import Spec
from tools.spiel.adapter import WargameState

FULL = {"playouts": 8, "rounds": 5}
QUICK = {"playouts": 3, "rounds": 2}
GOAL = 1.3
"""Issue 34: the adapter costs at most 1.3 times a kernel step."""


@dataclass
class Trace:
    """One recorded game: the index picked at each OpenSpiel step (into `legal_actions`, or
    into `chance_outcomes` at a chance node) and at each kernel step (into the kernel's
    `legal_actions` or `chance_outcomes`)."""

    spiel: list[int]
    kernel: list[int]


def _kernel_index(spec: Spec, kstate: Any, chance: bool, seq: tuple[int, ...]) -> int:
    """Where the action `seq` encodes is in the kernel's list at `kstate` (untimed)."""
    game, codec = spec.game, spec.codec
    if chance:
        outs = game.chance_outcomes(kstate)
        return next(i for i, (a, _) in enumerate(outs) if codec.chance_id(a) == seq[0])
    return next(i for i, a in enumerate(game.legal_actions(kstate)) if codec.tokens(a) == seq)


def record(spec: Spec, seed: int) -> Trace:
    """A seeded random game through the adapter: uniform over the legal ids, chance by its
    probabilities (what `pyspiel`'s random bots do), cut at its last whole kernel step."""
    rng = random.Random(seed)
    state: WargameState = pyspiel.load_game(spec.short_name).new_initial_state()
    trace = Trace([], [])
    done = 0  # OpenSpiel steps up to the last whole kernel step
    while not state.is_terminal():
        before = state.kernel_state
        chance = state.is_chance_node()
        if chance:
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            k = rng.choices(range(len(ids)), probs)[0]
            seq: tuple[int, ...] = (ids[k],)
        else:
            ids = tuple(state.legal_actions())
            k = rng.randrange(len(ids))
            full = state.step(ids[k])[1]  # with the forced ids after it
            seq = () if full is None else spec.codec.tokens(full)
        trace.spiel.append(k)
        state.apply_action(ids[k])
        if state.kernel_state is not before:
            trace.kernel.append(_kernel_index(spec, before, chance, seq))
            done = len(trace.spiel)
    del trace.spiel[done:]
    return trace


def play_kernel(spec: Spec, picks: Sequence[int]) -> int:
    """The recorded kernel steps through the Game API, as a kernel bot makes them."""
    game = spec.game
    state = game.initial_state(spec.variant)
    for k in picks:
        if game.to_move(state) == CHANCE:
            action = game.chance_outcomes(state)[k][0]
        else:
            action = game.legal_actions(state)[k]
        state = game.apply(state, action)
    game.to_move(state)
    return len(picks)


def play_adapter(spec: Spec, picks: Sequence[int]) -> int:
    """The recorded OpenSpiel steps through the adapter, as an OpenSpiel bot makes them (the
    game loaded once, as the kernel's is)."""
    state = _loaded(spec.short_name).new_initial_state()
    chance = int(pyspiel.PlayerId.CHANCE)
    for k in picks:
        state.is_terminal()
        if state.current_player() == chance:
            ids = [a for a, _ in state.chance_outcomes()]
        else:
            ids = state.legal_actions()
        state.apply_action(ids[k])
    state.is_terminal()
    return len(picks)


@functools.cache
def _loaded(name: str) -> Any:
    return pyspiel.load_game(name)


def clear_caches() -> None:
    """Every `functools` cache and every codec's kept trees emptied: a pass starts cold."""
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper) and obj is not _loaded:
            obj.cache_clear()
    for spec in tools.spiel.specs():
        for attr in ("_trees", "_kept"):
            kept = getattr(spec.codec, attr, None)
            if kept is not None:
                kept.clear()


def _timed(fn: Any, spec: Spec, picks: list[int]) -> float:
    clear_caches()
    start = time.process_time()
    fn(spec, picks)
    return time.process_time() - start


def bench_spec(spec: Spec, playouts: int, rounds: int, seed: int) -> dict[str, Any]:
    """Each game replayed through both, back to back, `rounds` times; of each game the pair
    with the median ratio is kept (the lower one of two middle pairs)."""
    traces = [record(spec, seed + i) for i in range(playouts)]
    kernel = adapter = 0.0
    for t in traces:
        pairs = [
            (_timed(play_kernel, spec, t.kernel), _timed(play_adapter, spec, t.spiel))
            for _ in range(rounds)
        ]
        pairs.sort(key=lambda pair: pair[1] / pair[0] if pair[0] > 0 else float("inf"))
        k, a = pairs[(len(pairs) - 1) // 2]
        kernel += k
        adapter += a
    return {
        "name": spec.short_name,
        "kernel_steps": sum(len(t.kernel) for t in traces),
        "spiel_steps": sum(len(t.spiel) for t in traces),
        "kernel_seconds": kernel,
        "adapter_seconds": adapter,
        "ratio": adapter / kernel if kernel > 0 else float("inf"),
    }


def render(results: list[dict[str, Any]], playouts: int, rounds: int) -> str:
    lines = [
        f"OpenSpiel adapter / Game API, CPU time of the same {playouts} seeded random games per "
        f"preset (the median of {rounds} back-to-back pairs; no observation or information-state "
        f"strings; goal <= {GOAL})",
        f"  {'game':<46}{'kernel steps':>13}{'spiel steps':>13}{'kernel s':>10}{'adapter s':>11}"
        f"{'ratio':>8}",
    ]
    for r in results:
        flag = "" if r["ratio"] <= GOAL else "  over the goal"
        lines.append(
            f"  {r['name']:<46}{r['kernel_steps']:>13,}{r['spiel_steps']:>13,}"
            f"{r['kernel_seconds']:>10.2f}{r['adapter_seconds']:>11.2f}{r['ratio']:>8.2f}{flag}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.spiel", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, one round")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--playouts", type=int, help="seeded games per preset")
    parser.add_argument("--rounds", type=int, help="timed pairs of passes (the median is kept)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    base = QUICK if args.quick else FULL
    playouts = args.playouts or base["playouts"]
    rounds = args.rounds or base["rounds"]
    specs = [s for s in tools.spiel.specs() if not args.game or s.game.name in args.game]
    for spec in specs:  # untimed: what a process pays once (imports, tables built)
        play_adapter(spec, record(spec, args.seed + playouts).spiel)
    results = [bench_spec(spec, playouts, rounds, args.seed) for spec in specs]
    print(render(results, playouts, rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
