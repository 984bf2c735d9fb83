"""Perft: counting the leaves of a game tree to a fixed depth, as a regression check.

A change to the rules that alters which actions are legal changes these counts, so a stored
table of them catches silent changes to move generation (as chess engines do with perft).

Convention: a ply is one step of play, either one action of a side or one chance outcome.
Every chance outcome counts as one branch, whatever its probability (no weighting). A leaf is a
state reached after exactly `depth` plies; a state where the game is over (or where the side to
move has no action) before `depth` plies contributes 0, as a mate does in chess perft. At
`depth == 0` every state, terminal or not, is one leaf.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from kernel.game import CHANCE
from kernel.roles import AssembledGame

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")

CONVENTION = (
    "perft(depth): leaves at exactly `depth` plies; a ply is one action of a side or one "
    "chance outcome (each outcome one branch, unweighted); states where the game is over "
    "before `depth` contribute 0; perft(0) = 1"
)


def branches(game: AssembledGame[S, A], state: S) -> Sequence[A]:
    """The actions leaving `state`: the legal actions, or the chance outcomes at CHANCE."""
    side = game.to_move(state)
    if side is None:
        return ()
    if side == CHANCE:
        return [action for action, _ in game.chance_outcomes(state)]
    return game.legal_actions(state)


def perft(game: AssembledGame[S, A], state: S, depth: int) -> int:
    """Leaves at exactly `depth` plies from `state` (see the module docstring).

    Memoized on (state, depth): units moved in different orders reach equal states, so the
    tree folds into a much smaller graph. The last ply is counted in bulk, without applying.
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    table: dict[tuple[S, int], int] = {}
    return _perft(game, state, depth, table)


def _perft(game: AssembledGame[S, A], state: S, depth: int, table: dict[tuple[S, int], int]) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return len(branches(game, state))
    key = (state, depth)
    hit = table.get(key)
    if hit is not None:
        return hit
    total = 0
    for action in branches(game, state):
        total += _perft(game, game.apply(state, action), depth - 1, table)
    table[key] = total
    return total


def perft_naive(game: AssembledGame[S, A], state: S, depth: int) -> int:
    """Perft by plain recursion, applying every action: the reference the fast one must match."""
    if depth == 0:
        return 1
    return sum(
        perft_naive(game, game.apply(state, action), depth - 1) for action in branches(game, state)
    )


def divide(game: AssembledGame[S, A], state: S, depth: int) -> list[tuple[A, int]]:
    """Perft split by first action, each with the leaves below it (`depth - 1` more plies).

    Comparing two divides shows which first action's subtree changed, to narrow a regression.
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    table: dict[tuple[S, int], int] = {}
    return [
        (action, _perft(game, game.apply(state, action), depth - 1, table))
        for action in branches(game, state)
    ]


def divide_lines(game: AssembledGame[S, A], state: S, depth: int) -> list[str]:
    """`divide` as readable lines (one per first action, then the total)."""
    rows = divide(game, state, depth)
    lines = [f"{game.describe(state, a)}: {n}" for a, n in rows]
    lines.append(f"total: {sum(n for _, n in rows)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m tools.perft [--game G] [--preset P] [--depth D] [--divide]`: counts by hand."""
    import argparse

    from tools.registry import get_game

    parser = argparse.ArgumentParser(prog="python -m tools.perft", description=__doc__)
    parser.add_argument("--game", default="nomonhan")
    parser.add_argument("--preset", default=None, help="default: every preset")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--divide", action="store_true", help="counts per first action")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    presets = game.presets()
    names = [args.preset] if args.preset else list(presets)
    for name in names:
        state = game.initial_state(presets[name])
        if args.divide:
            print(f"{game.name} {name} divide {args.depth}")
            for line in divide_lines(game, state, args.depth):
                print(f"  {line}")
        else:
            counts = [perft(game, state, d) for d in range(1, args.depth + 1)]
            print(f"{game.name} {name}: " + ", ".join(f"d{d}={n}" for d, n in enumerate(counts, 1)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
