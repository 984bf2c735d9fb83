"""The agents' fast paths (issue 34, item 5) against their plain references: the fast draws of
`tools.agents.resampling.sampler` are the strict resampler's states from the same generator,
with the side's observation, accepted by the position check and with the same legal actions, at
every step of seeded games; a sabotaged fast draw is caught; the information-set MCTS is seeded
and its depth cutoff falls back to whole random games (`rollout_depth=None`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kernel.errors import ImpossiblePosition
from kernel.game import CHANCE
from tests.sizes import size
from tools.agents.base import Agent, RandomAgent
from tools.agents.evaluations import declared_evaluation
from tools.agents.ismcts import ISMCTSAgent
from tools.agents.match import play_match, seat
from tools.agents.resampling import resampler, sampler
from tools.registry import get_game
from tools.testing.histories import play_history, states

HIDDEN_GAMES = ("rattenkrieg", "shumshu", "snc1937")
DRAWS = 3
"""Fast draws compared per state and side."""


def _history_states(name: str, seed: int, steps: int) -> list[Any]:
    game = get_game(name)
    variant = next(iter(game.presets().values()))
    return list(states(game, play_history(game, variant, random.Random(seed), steps)))


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_fast_draws_are_the_strict_draws_at_every_step(name: str) -> None:
    """SNC-6.3.1, SHU-COMBAT.5, RKS-3.3.3: every fast draw has the side's observation, passes
    the position check, lists the real legal actions when the side is to move, and is the state
    the strict resampler (document, decoding, checks) draws from the same generator."""
    game = get_game(name)
    strict, fast = resampler(game), sampler(game)
    checked = 0
    for i, s in enumerate(_history_states(name, 1, size(160, 600))):
        if game.to_move(s) is None:
            break
        for side in game.sides:
            seen = game.observe(s, side)
            draw = fast(seen, side)
            rng_fast, rng_strict = random.Random(i), random.Random(i)
            for _ in range(DRAWS):
                drawn = draw(rng_fast)
                assert drawn == strict(seen, side, rng_strict), (i, side)
                assert game.observe(drawn, side) == seen, (i, side)
                game.check_position(drawn)
                if game.to_move(s) == side:
                    assert list(game.legal_actions(drawn)) == list(game.legal_actions(s))
                checked += 1
    assert checked >= size(160, 600) * DRAWS


def _forget_static_homes(monkeypatch: pytest.MonkeyPatch) -> None:
    """SNC: the fast draw no longer puts static units in their set-up hexes (SNC-2.2.1.8)."""
    import specs.snc1937.bots.resample as snc
    import specs.snc1937.bots.sample_fast as snc_fast

    for module in (snc, snc_fast):
        monkeypatch.setattr(module, "static_homes", lambda t: {})


def _reveal_hidden_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shumshu: the fast draw turns the hidden counters face up (SHU-COMBAT.5)."""
    import specs.shumshu.bots.resample as shu
    from specs.shumshu.rules.state import Loc, Piece

    monkeypatch.setattr(
        shu,
        "_piece",
        lambda uid, loc, h: Piece(
            uid, Loc(loc), None if h is None else shu._hex(h), False, 0, True
        ),
    )


@pytest.mark.parametrize(
    ("name", "sabotage"), [("snc1937", _forget_static_homes), ("shumshu", _reveal_hidden_pieces)]
)
def test_a_sabotaged_fast_draw_is_caught(
    name: str, sabotage: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fast draw broken on purpose: the checked sampler (`check=True`) refuses one of its
    draws (the observation or the position check fails), at a count of seeded positions."""
    sabotage(monkeypatch)
    game = get_game(name)
    checked = sampler(game, check=True)
    caught = 0
    for i, s in enumerate(_history_states(name, 1, 120)):
        if game.to_move(s) is None:
            break
        for side in game.sides:
            draw = checked(game.observe(s, side), side)
            rng = random.Random(i)
            try:
                for _ in range(DRAWS):
                    draw(rng)
            except ImpossiblePosition:
                caught += 1
    assert caught > 0


def _decisions(name: str, count: int) -> list[Any]:
    game = get_game(name)
    found = [
        s
        for s in _history_states(name, 2, 200)
        if game.to_move(s) not in (None, CHANCE) and len(game.legal_actions(s)) > 1
    ]
    return found[:: max(1, len(found) // count)][:count]


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_ismcts_same_seed_same_decision(name: str) -> None:
    """Every random choice comes from the agent's generator: the same seed, the same choice,
    the seat's draws included."""
    game = get_game(name)
    agent = ISMCTSAgent(simulations=12)
    for i, s in enumerate(_decisions(name, size(3, 8))):
        side = str(game.to_move(s))
        legal = game.legal_actions(s)
        first = agent.choose(seat(game, s, side, legal), random.Random(i))
        assert first in list(legal)
        assert agent.choose(seat(game, s, side, legal), random.Random(i)) == first


def test_seeded_ismcts_game_replays_exactly() -> None:
    game = get_game("rattenkrieg")
    variant = next(iter(game.presets().values()))

    def actions(seed: int) -> list[Any]:
        out: list[Any] = []
        agents: dict[str, Agent] = {"GE": ISMCTSAgent(simulations=6), "SU": RandomAgent()}
        play_match(
            game, variant, agents, seed, max_steps=150, on_step=lambda b, a, n: out.append(a)
        )
        return out

    assert actions(3) == actions(3)
    assert actions(3) != actions(4)


@pytest.mark.parametrize("name", ["rattenkrieg", "shumshu"])
def test_no_cutoff_plays_to_the_end_without_the_evaluation(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain reference: with `rollout_depth=None` every rollout is a whole random game
    scored by its result, so the evaluation is never asked, and a cutoff far beyond the end of
    any game plays exactly the same; the default cutoff asks the evaluation."""
    import tools.agents.ismcts as ismcts

    game = get_game(name)
    calls = {"n": 0}
    real = declared_evaluation(name)
    assert real is not None

    def counted(observation: Any, side: str) -> float:
        calls["n"] += 1
        return real(observation, side)

    monkeypatch.setattr(ismcts, "evaluation", lambda _name: counted)
    for i, s in enumerate(_decisions(name, 2)):
        side = str(game.to_move(s))
        legal = game.legal_actions(s)
        plain = ISMCTSAgent(simulations=3, rollout_depth=None)
        far = ISMCTSAgent(simulations=3, rollout_depth=10**6)
        a = plain.choose(seat(game, s, side, legal), random.Random(i))
        assert calls["n"] == 0
        assert far.choose(seat(game, s, side, legal), random.Random(i)) == a
        assert calls["n"] == 0
        ISMCTSAgent(simulations=3).choose(seat(game, s, side, legal), random.Random(i))
        assert calls["n"] > 0
        calls["n"] = 0


def test_bench_times_each_search_agent_where_it_applies() -> None:
    """`bench.agents` measures OpenSpiel's MCTS only where nothing is hidden and the
    information-set MCTS in every game, a count of decisions each."""
    from bench.agents import decisions_per_second

    for name in ("nomonhan", "rattenkrieg"):
        game = get_game(name)
        got = decisions_per_second(name, 1, 2, "ismcts")
        assert not isinstance(got, str) and got[1] == 1 and got[0] > 0
        spiel = decisions_per_second(name, 1, 2, "mcts")
        assert isinstance(spiel, str) != game.perfect_information


def _reference_simulate(self: ISMCTSAgent, st: Any, root: Any, rng: random.Random) -> None:
    """The descent as first written: the side to move and its legal actions asked of every
    determinization, the root's included (the plain reference of the seat's shortcut)."""
    from kernel.chance import sample as draw_chance
    from tools.agents.ismcts import _Node

    game, me = st.game, st.side
    state = st.sample(rng)
    node, path, expanded = root, [], False
    while not expanded:
        side = game.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
            continue
        legal = game.legal_actions(state)
        if not legal:
            break
        fresh = [a for a in legal if a not in node.children]
        for a in legal:
            if a in node.children:
                node.children[a].avail += 1
        if fresh:
            action = fresh[rng.randrange(len(fresh))]
            child = node.children[action] = _Node()
            expanded = True
        else:
            action, child = self._select(node, legal)
        path.append((child, side))
        state = game.apply(state, action)
        node = child
    value = self._rollout(game, state, me, rng)
    for child, side in path:
        child.visits += 1
        child.total += value if side == me else -value


@pytest.mark.parametrize("name", ["nomonhan", *HIDDEN_GAMES])
def test_the_root_shortcut_chooses_as_the_reference(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taking the root's legal actions from the seat changes no choice: the same seed, the same
    action as the descent that asks every determinization."""
    game = get_game(name)
    agent = ISMCTSAgent(simulations=size(16, 40))
    found = _decisions(name, size(3, 8))
    ours = [
        agent.choose(seat(game, s, str(game.to_move(s)), game.legal_actions(s)), random.Random(i))
        for i, s in enumerate(found)
    ]
    monkeypatch.setattr(ISMCTSAgent, "_simulate", _reference_simulate)
    plain = [
        agent.choose(seat(game, s, str(game.to_move(s)), game.legal_actions(s)), random.Random(i))
        for i, s in enumerate(found)
    ]
    assert found and ours == plain


def test_snc_draws_keep_static_units_at_home() -> None:
    """SNC-2.2.1.8, SNC-3.1.4, SNC-9.1.1: a static unit set up on the map never moves, so in
    every draw it is in its set-up hex or in the dead pile, never left off the map, the two
    Japanese garrisons set up at the start included (they are not in the pool, SNC-9.1.3)."""
    game = get_game("snc1937")
    setup = game.rules.tables.data.setup.at_start  # type: ignore[attr-defined]
    spec = game.rules.tables.spec  # type: ignore[attr-defined]
    homes = {u: h for a in setup for u, h in a.place.items() if spec[u].is_static}
    strict, fast = resampler(game), sampler(game)
    checked = 0
    for i, s in enumerate(_history_states("snc1937", 3, size(120, 400))):
        if game.to_move(s) is None:
            break
        for side in game.sides:
            seen = game.observe(s, side)
            draw = fast(seen, side)
            rng = random.Random(i)
            for drawn in (strict(seen, side, random.Random(i)), draw(rng), draw(rng)):
                where = dict(drawn.where)
                for u, home in homes.items():
                    assert u in drawn.dead or where.get(u) == home, (i, side, u)
                checked += 1
    assert checked > 0


WEAK_SEED = 9
"""A seeded SNC game in which, by step 500, a draw that ignored SNC-10.4.1.8 would leave a
struck attack too weak for its die (found by searching seeds 0 to 39)."""


def _battles_on_draws(seeds: Sequence[int], steps: int, draws: int) -> int:
    """Every SNC state of seeded games where a land attack has struck and its die is still to
    come: the odds of each fast draw of each side are worked out (what the roll will ask; a
    draw play could not reach may refuse). Returns the draws weighed."""
    from specs.snc1937.bots.resample import STRUCK
    from specs.snc1937.rules.tables import battle

    game = get_game("snc1937")
    tables = game.rules.tables  # type: ignore[attr-defined]
    fast = sampler(game)
    weighed = 0
    for seed in seeds:
        for i, s in enumerate(_history_states("snc1937", seed, steps)):
            if s.step not in STRUCK or s.combat is None or s.combat.landing:
                continue
            for side in game.sides:
                draw = fast(game.observe(s, side), side)
                rng = random.Random(f"{seed}/{i}")
                for _ in range(draws):
                    drawn = draw(rng)
                    battle(tables, drawn, drawn.combat)
                    weighed += 1
    return weighed


def test_snc_draws_keep_a_struck_attack_strong_enough() -> None:
    """SNC-10.4.1.8: attackers that struck had a strength above 0, so a draw never makes them
    too weak for the die to be rolled (unseen attackers drawn reduced)."""
    assert _battles_on_draws((WEAK_SEED, *range(size(2, 12))), size(520, 800), 8) > 0


def test_a_draw_too_weak_to_roll_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sabotage: without `strong_enough`, some draw's odds cannot be worked out."""
    import specs.snc1937.bots.resample as snc
    import specs.snc1937.bots.sample_fast as snc_fast
    from kernel.errors import IllegalAction

    for module in (snc, snc_fast):
        monkeypatch.setattr(module, "strong_enough", lambda t, s: True)
    with pytest.raises(IllegalAction, match=r"SNC-10\.4\.1\.8"):
        _battles_on_draws((WEAK_SEED,), 520, 8)
