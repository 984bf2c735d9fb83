"""The information-set MCTS's fast paths (issue 34, item 5) held to their plain forms: the root's
untried actions kept by their places in the seat's list (`_Root`) draw what the fresh-list
filter draws from the same generator, duplicates included, and choose as the descent that asks
every action, on a Chinese placement with thousands of actions too; a rollout's end scored from
the state (`evaluate_state`) gives the very root statistics the observation's evaluation gives;
the steps kept per search (`tools.agents.steps`) grow the very tree the rules asked afresh
grow, while asking the rules less where determinizations repeat."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import tools.agents.ismcts as ismcts
from kernel.chance import sample
from kernel.game import CHANCE
from tests.sizes import size
from tests.tools.test_agents_sampling import _decisions, _reference_simulate
from tools.agents.evaluations import state_evaluation
from tools.agents.ismcts import ISMCTSAgent, _Root
from tools.agents.match import seat
from tools.agents.steps import Steps
from tools.registry import get_game


@pytest.mark.parametrize("legal", [list("abcdefg"), list("abacdbbe"), list(range(40))])
def test_root_draws_what_the_fresh_filter_draws(legal: list[Any]) -> None:
    """Each expansion takes the action `[a for a in legal if a not in children]` would give
    from the same generator, an action listed twice counted once it is tried, until none is
    left untried."""
    root, rng_fast, rng_plain = _Root(legal), random.Random(5), random.Random(5)
    children: set[Any] = set()
    while True:
        fresh = [a for a in legal if a not in children]
        assert bool(root.untried) == bool(fresh)
        assert [legal[i] for i in root.untried] == fresh
        if not fresh:
            break
        drawn = root.expand(legal, rng_fast)
        assert drawn == fresh[rng_plain.randrange(len(fresh))]
        children.add(drawn)
    assert children == set(legal)


def _placements(count: int) -> list[Any]:
    """SNC states where the Chinese place reinforcements (SNC-8.2.1) among more actions than a
    search has simulations, from a seeded random game."""
    game = get_game("snc1937")
    rng = random.Random(0)
    s = game.initial_state(game.catalogue.variant(None, {}))
    found: list[Any] = []
    while len(found) < count and game.to_move(s) is not None:
        if game.to_move(s) == CHANCE:
            s = game.apply(s, sample(game.chance_outcomes(s), rng))
            continue
        legal = game.legal_actions(s)
        if len(legal) > 1000:
            found.append(s)
        s = game.apply(s, legal[rng.randrange(len(legal))])
    return found


def test_a_root_of_thousands_chooses_as_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """SNC-8.2.1: a placement among thousands of actions, more than the simulations, so the
    root is never fully tried: the same choice as the descent that asks every action."""
    game = get_game("snc1937")
    agent = ISMCTSAgent(simulations=size(12, 40), rollout_depth=2)
    found = _placements(size(1, 3))
    assert found
    seats = [seat(game, s, str(game.to_move(s)), game.legal_actions(s)) for s in found]
    assert all(len(st.legal) > agent.simulations for st in seats)
    ours = [agent.choose(st, random.Random(i)) for i, st in enumerate(seats)]
    monkeypatch.setattr(ISMCTSAgent, "_simulate", _reference_simulate)
    assert ours == [agent.choose(st, random.Random(i)) for i, st in enumerate(seats)]


def _root_statistics(agent: ISMCTSAgent, st: Any, seed: int) -> list[tuple[Any, int, float]]:
    root = _Root(st.legal)
    rng = random.Random(seed)
    for _ in range(agent.simulations):
        agent._simulate(st, root, rng)
    return [(a, c.visits, c.total) for a, c in root.children.items()]


def test_state_evaluation_is_found_where_the_game_has_one() -> None:
    assert state_evaluation("snc1937") is not None
    assert state_evaluation("rattenkrieg") is None
    assert state_evaluation("no_such_game") is None


def test_scoring_from_the_state_keeps_every_root_statistic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SNC: the search that scores its rollouts' ends with `evaluate_state` (asked at least once)
    grows the very tree, visits and totals, of the one that scores the side's observation."""
    game = get_game("snc1937")
    agent = ISMCTSAgent(simulations=size(12, 30), rollout_depth=3)
    real = state_evaluation("snc1937")
    assert real is not None
    calls = {"n": 0}

    def counted(rules: Any, s: Any, side: str) -> float:
        calls["n"] += 1
        return real(rules, s, side)

    found = _decisions("snc1937", size(3, 8))
    seats = [seat(game, s, str(game.to_move(s)), game.legal_actions(s)) for s in found]
    monkeypatch.setattr(ismcts, "state_evaluation", lambda _name: counted)
    fast = [_root_statistics(agent, st, i) for i, st in enumerate(seats)]
    assert calls["n"] > 0
    monkeypatch.setattr(ismcts, "state_evaluation", lambda _name: None)
    assert fast == [_root_statistics(agent, st, i) for i, st in enumerate(seats)]


def test_a_wrong_state_score_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sabotage: a state score that is not the observation's changes some root statistic."""
    game = get_game("snc1937")
    agent = ISMCTSAgent(simulations=size(12, 30), rollout_depth=3)
    seats = [
        seat(game, s, str(game.to_move(s)), game.legal_actions(s))
        for s in _decisions("snc1937", size(3, 8))
    ]
    monkeypatch.setattr(ismcts, "state_evaluation", lambda _name: None)
    plain = [_root_statistics(agent, st, i) for i, st in enumerate(seats)]
    monkeypatch.setattr(ismcts, "state_evaluation", lambda _name: lambda r, s, side: 0.5)
    assert plain != [_root_statistics(agent, st, i) for i, st in enumerate(seats)]


def _counted_statistics(
    name: str, agent: ISMCTSAgent, kept: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[tuple[Any, int, float]]], int]:
    """The root statistics of seeded searches at the game's decisions, with the steps kept per
    search or asked of the rules each time, and how many steps the rules were asked."""
    game = get_game(name)
    found = _decisions(name, size(3, 6))
    asked = {"n": 0}
    apply, legal_actions = game.apply, game.legal_actions

    def counted_apply(s: Any, a: Any) -> Any:
        asked["n"] += 1
        return apply(s, a)

    def counted_legal(s: Any) -> Any:
        asked["n"] += 1
        return legal_actions(s)

    out = []
    with monkeypatch.context() as m:
        m.setattr(game, "apply", counted_apply)
        m.setattr(game, "legal_actions", counted_legal)
        for i, s in enumerate(found):
            st = seat(game, s, str(game.to_move(s)), legal_actions(s))
            root = _Root(st.legal, Steps(game) if kept else None)
            rng = random.Random(i)
            for _ in range(agent.simulations):
                agent._simulate(st, root, rng)
            out.append([(a, c.visits, c.total) for a, c in root.children.items()])
    return out, asked["n"]


@pytest.mark.parametrize(
    ("name", "repeats"), [("nomonhan", True), ("shumshu", False), ("snc1937", True)]
)
def test_kept_steps_grow_the_same_tree_asking_less(
    name: str, repeats: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same visits and totals at every root action from the same generator, and, where the
    determinizations repeat (Nomonhan hides nothing, so each is the state itself; SNC's
    decisions met here), fewer questions to the rules, never more."""
    agent = ISMCTSAgent(simulations=size(24, 60), rollout_depth=3)
    kept, asked_kept = _counted_statistics(name, agent, True, monkeypatch)
    plain, asked_plain = _counted_statistics(name, agent, False, monkeypatch)
    assert kept == plain
    assert asked_kept < asked_plain if repeats else asked_kept <= asked_plain


def test_steps_kept_by_state_alone_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sabotage: a successor kept by its state alone, whatever the action, grows another tree
    (the action first taken from a state would be taken again)."""
    agent = ISMCTSAgent(simulations=size(24, 60), rollout_depth=3)
    plain, _ = _counted_statistics("snc1937", agent, False, monkeypatch)
    kept: dict[int, tuple[Any, Any]] = {}

    def by_state(self: Steps, state: Any, action: Any) -> Any:
        hit = kept.get(id(state))
        if hit is None or hit[0] is not state:
            hit = kept[id(state)] = (state, self.game.apply(state, action))
        return hit[1]

    monkeypatch.setattr(Steps, "apply", by_state)
    wrong, _ = _counted_statistics("snc1937", agent, True, monkeypatch)
    assert wrong != plain


def test_steps_answer_as_the_rules_and_ask_once() -> None:
    """A kept listing and successor are the rules' own, asked once; an equal determinization is
    replaced by the first one met, so its steps are kept too."""
    game = get_game("snc1937")
    s = _decisions("snc1937", 1)[0]
    equal = attrs.evolve(s)
    assert equal == s and equal is not s
    steps = Steps(game)
    assert steps.drawn(s) is s
    assert steps.drawn(equal) is s
    legal = steps.legal_actions(s)
    assert list(legal) == list(game.legal_actions(s))
    assert steps.legal_actions(s) is legal
    after = steps.apply(s, legal[0])
    assert after == game.apply(s, legal[0])
    assert steps.apply(s, legal[0]) is after
    assert steps.apply(equal, legal[0]) is not after  # another object: asked afresh


def test_bench_takes_the_best_of_its_rounds() -> None:
    """`bench.agents --repeat`: the same count of decisions timed in each round."""
    from bench.agents import decisions_per_second

    got = decisions_per_second("shumshu", 2, 2, "ismcts", repeat=2)
    assert not isinstance(got, str) and got[1] == 2 and got[0] > 0
