"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012, SO-ISMCTS) for the
games with hidden information.

Each simulation draws a determinization with `seat.sample` (built from the side's observation
alone, `tools.agents.resampling`), so the search never sees what its side may not. It descends
one tree whose edges are the actions of both sides, as in SO-ISMCTS, choosing among the actions
legal in that determinization by UCB with availability counts (a child's exploration term counts
the visits in which it was legal, not its parent's visits). Chance steps are drawn with their
exact probabilities (`kernel.chance.sample`) and are not edges of the tree (open loop: a node
averages over them, which keeps what a die or a draw showed the other side out of the keys).
Past the tree a uniform random rollout runs for at most `rollout_depth` steps (None: to the end
of the game, plain ISMCTS); then a finished game scores +1 / -1 / 0 for the searching side's
win / loss / draw, and an unfinished one the game's `specs.<game>.evaluation.evaluate(observation,
side)` of the searching side's observation, or 0 where the game has none. Where the evaluation's
module also has `evaluate_state(rules, state, side)` (the same value read from the state, held
equal to it by the game's tests), that is used instead, so a rollout's end builds no
observation document.

At the root the side to move and its legal actions are the seat's: a determinization has the
side's observation, and the legal actions follow from it (the resamplers' tests hold both), so
they are not asked again of each determinization, and the untried ones are kept by their places
in the seat's list (`_Root`), so that a root of thousands of actions (a Chinese placement in
SNC) is not gone through at each descent. Down the tree, the steps of a search are kept
(`tools.agents.steps`): a descent that repeats an earlier one on an equal determinization asks
the rules nothing again. Each shortcut draws what the plain form draws from the same generator
(tests/tools/test_agents_search.py).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.chance import sample
from kernel.game import CHANCE, Game
from kernel.roles import rules_of
from tools.agents.base import Seat
from tools.agents.evaluations import declared_evaluation as evaluation
from tools.agents.evaluations import state_evaluation
from tools.agents.steps import Steps


class _Node:
    """Statistics of one edge of the tree, from the view of the side that took it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class _Root(_Node):
    """The root, whose legal actions are the seat's in every determinization: which of them are
    still untried is kept as their places in `legal` (an action listed twice, at all its places),
    so a descent neither lists nor looks up every action (a Chinese placement has thousands)."""

    __slots__ = ("places", "steps", "untried")

    def __init__(self, legal: Sequence[Any], steps: Steps | None = None) -> None:
        super().__init__()
        self.steps = steps
        """The search's steps down the tree, kept (`tools.agents.steps`); None: none kept."""
        self.places: dict[Any, list[int]] = {}
        for i, a in enumerate(legal):
            self.places.setdefault(a, []).append(i)
        self.untried = list(range(len(legal)))

    def expand(self, legal: Sequence[Any], rng: random.Random) -> Any:
        """An untried action drawn uniformly, as `[a for a in legal if a not in children]`
        would give it from the same generator, and no longer untried."""
        action = legal[self.untried[rng.randrange(len(self.untried))]]
        for i in self.places[action]:
            self.untried.remove(i)
        return action


DEFAULT_SIMULATIONS = 100
"""Determinized descents per decision."""
DEFAULT_ROLLOUT_DEPTH = 8
"""Steps of random play (chance included) past the tree before the evaluation scores the
position. Shorter rollouts are cheaper (two steps make a decision 1.6 to 3.4 times faster,
`bench/agents.py`) but play worse: at 30 simulations a side, each side taken in turn, the search
with two steps won 7 of 40 seeded Nomonhan games and 0 of 6 Shumshu games against the same
search with eight, with four steps 6 of 20 and 3 of 10; what a combat or a draw a few steps past
the leaf comes to is worth more to the evaluation than the noise of the random choices on the
way. None plays the rollout to the end of the game (plain ISMCTS)."""


@attrs.frozen
class ISMCTSAgent:
    """SO-ISMCTS with `simulations` determinized descents per decision."""

    simulations: int = DEFAULT_SIMULATIONS
    name: str = "mcts"
    rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH
    """Steps (chance included) of the random rollout before the position is evaluated; None
    plays the rollout to the end of the game and never calls the evaluation."""
    exploration: float = 0.7
    """The UCB constant; values lie in [-1, 1]."""

    def choose(self, seat: Seat[Any, Any], rng: random.Random) -> Any:
        """One of `seat.legal`: the most visited root action, then the best on average, then
        one drawn from `rng` among equals (so a search that sees no difference does not keep
        taking the same free action, RKS-7.2.1); the first legal one with no simulation, and a
        forced action without searching."""
        if len(seat.legal) == 1:
            return seat.legal[0]
        root = _Root(seat.legal, Steps(seat.game))
        for _ in range(self.simulations):
            self._simulate(seat, root, rng)
        tried = sorted(root.children, key=lambda a: root.places[a][0])  # in `seat.legal`'s order
        scored = [((c.visits, c.total / c.visits), a) for a in tried for c in (root.children[a],)]
        if not scored:
            return seat.legal[0]
        top = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score == top])

    def _simulate(self, seat: Seat[Any, Any], root: _Node, rng: random.Random) -> None:
        """One descent on a fresh determinization: down the tree to its first untried action
        (chance steps drawn on the way), then the rollout's value backed up the path."""
        game = seat.game
        me = seat.side
        kept = root.steps if isinstance(root, _Root) else None
        steps: Any = game if kept is None else kept  # the tree's steps, kept per search
        state = seat.sample(rng) if kept is None else kept.drawn(seat.sample(rng))
        node = root
        path: list[tuple[_Node, str]] = []
        mover = me
        legal: Sequence[Any] = seat.legal  # the root's: the seat's (module docstring)
        while True:
            fresh = self._fresh(node, legal)
            expanded = bool(fresh)
            if expanded:
                action = (
                    node.expand(legal, rng)
                    if isinstance(node, _Root)
                    else fresh[rng.randrange(len(fresh))]
                )
                child = node.children[action] = _Node()
            else:
                action, child = self._select(node, legal)
            path.append((child, mover))
            state = steps.apply(state, action)
            node = child
            if expanded:  # the tree grows by one node per descent
                break
            side = game.to_move(state)
            while side == CHANCE:
                state = steps.apply(state, sample(game.chance_outcomes(state), rng))
                side = game.to_move(state)
            if side is None:
                break
            legal = steps.legal_actions(state)
            if not legal:
                break
            mover = side
        value = self._rollout(game, state, me, rng)
        for child, side in path:
            child.visits += 1
            child.total += value if side == me else -value

    @staticmethod
    def _fresh(node: _Node, legal: Sequence[Any]) -> Sequence[Any]:
        """The untried actions of `legal` at `node`, in their order, with the availability of
        the tried ones counted (SO-ISMCTS); at the root only whether one is untried (each of its
        children is legal in every determinization)."""
        if isinstance(node, _Root):
            for tried in node.children.values():
                tried.avail += 1
            return node.untried
        fresh = []
        for a in legal:
            child = node.children.get(a)
            if child is None:
                fresh.append(a)
            else:
                child.avail += 1
        return fresh

    def _select(self, node: _Node, legal: Any) -> tuple[Any, _Node]:
        """UCB1 over the legal actions with availability counts (SO-ISMCTS)."""
        best: tuple[Any, _Node] | None = None
        score = -math.inf
        for a in legal:
            child = node.children[a]
            u = child.total / child.visits + self.exploration * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if u > score:
                best, score = (a, child), u
        assert best is not None
        return best

    def _rollout(self, game: Game[Any, Any], state: Any, me: str, rng: random.Random) -> float:
        steps = itertools.count() if self.rollout_depth is None else range(self.rollout_depth)
        for _ in steps:
            side = game.to_move(state)
            if side is None:
                break
            if side == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                if not legal:
                    return 0.0  # a gap in the rules: neither side's result
                action = legal[rng.randrange(len(legal))]
            state = game.apply(state, action)
        if game.to_move(state) is None:
            out = game.outcome(state)
            if out is None or out.winner is None:
                return 0.0
            return 1.0 if out.winner == me else -1.0
        from_state = state_evaluation(game.name)
        if from_state is not None:
            return max(-1.0, min(1.0, float(from_state(rules_of(game), state, me))))
        evaluate = evaluation(game.name)
        if evaluate is None:
            return 0.0
        return max(-1.0, min(1.0, float(evaluate(game.observe(state, me), me))))
