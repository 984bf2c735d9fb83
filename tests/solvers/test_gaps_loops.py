"""The gap search: every distinct loop is kept, each with the clauses its own actions cite
(not a fixed per-game list) and a log that replays to the repeated position; a reading with no
legal action is looked for at each witness and one action past it; a dead clause is found
unnamed."""

from __future__ import annotations

import random
from typing import Any

import attrs

from kernel.clauses import clause_ids
from kernel.game import CHANCE
from kernel.playout import play
from kernel.roles import AssembledGame
from solvers.checking.differences import Difference, Finding, Witness
from solvers.checking.gaps import Gap, model_stuck, no_action_and_endless, stuck_readings
from solvers.checking.unreached import settle_unreached, unreached_clauses
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.rules.actions import Add
from tools.registry import get_game


def _replayed(game: AssembledGame[Any, Any], preset: str, gap: Gap) -> list[tuple[Any, Any, Any]]:
    """(before, action, after) for every action of the gap's log."""
    state = game.initial_state(game.presets()[preset])
    steps = []
    for data in gap.log:
        action = game.action_from_json(data)
        after = game.apply(state, action)
        steps.append((state, action, after))
        state = after
    assert game.state_to_json(state) == gap.state
    return steps


def test_a_loop_whose_actions_cite_nothing_falls_back_to_the_games_clauses() -> None:
    """The toy's passive play passes for ever; its actions cite no clause, so the loop names
    the game's nontermination clause."""
    toy = TOY_PACKAGE.assemble()
    [loop] = [
        g
        for g in no_action_and_endless(toy, "plain", games=2, max_steps=100)
        if g.kind == "endless"
    ]
    assert loop.clauses == ("TOY-PASS",)
    assert "(pass)" in loop.message


def test_rks_every_distinct_loop_is_kept_with_the_clauses_its_actions_cite() -> None:
    """RKS-7.2.1, RKS-8.12.4: Rattenkrieg's seeded play finds more than one loop; each is kept,
    each replays to its repeated position, and a loop whose actions cite clauses names exactly
    those (the clauses of the actions between the two visits of the position)."""
    game = get_game("rattenkrieg")
    loops = [
        g
        for g in no_action_and_endless(game, "standard", games=8, max_steps=1500)
        if g.kind == "endless"
    ]
    assert len(loops) >= 2
    assert len({(g.clauses, g.message) for g in loops}) == len(loops)
    for loop in loops:
        steps = _replayed(game, "standard", loop)
        first = int(loop.message.split("after action ")[1].split(" ")[0])
        cited = {
            c
            for before, action, after in steps[first:]
            for text in (game.describe(before, action), *game.events(before, action, after))
            for c in clause_ids(text)
        }
        assert set(loop.clauses) == (cited or set(game.nontermination_clauses))
    assert any(set(g.clauses) != set(game.nontermination_clauses) for g in loops)


def test_a_position_one_action_past_a_witness_where_a_reading_is_stuck_is_found() -> None:
    """A witness log may stop one action short of the position where a reading leaves the side
    to move without a legal action: the toy's witness at total 2, a coin to toss, is one chance
    outcome (heads) away from total 3, where `gap=stuck_at_3` has no action. The gap is found
    there, with a log that reaches it under that reading, and only under that reading."""
    toy = TOY_PACKAGE.assemble()
    cat = toy.catalogue
    plain = toy.initial_state(cat.preset("plain"))
    log = (toy.action_to_json(Add(2)),)
    state = toy.apply(plain, Add(2))
    assert toy.to_move(state) == CHANCE and state.total == 2
    witness = Witness(log, toy.state_to_json(state), Difference("setup", (), ()), 0, "test")
    finding = Finding(
        "gap", ("TOY-1",), None, "none", "stuck_at_3", "plain", "differ", witness, "", 0.0
    )
    [gap] = stuck_readings(toy, [finding])
    assert gap.reading == ("gap", "stuck_at_3") and "one action past" in gap.message
    assert len(gap.log) == 2 and "TOY-1" in gap.clauses
    replayed = toy.initial_state(gap.variant(toy))
    for data in gap.log:
        replayed = toy.apply(replayed, toy.action_from_json(data))
    assert toy.to_move(replayed) == "B" and not toy.legal_actions(replayed)
    assert stuck_readings(toy, [finding], successors=0) == []  # the witness itself is not stuck


def test_a_planted_dead_clause_is_found_without_being_named() -> None:
    """The toy's `_overflow` cites TOY-9.1 and nothing calls it: seeded play of every preset
    leaves it unreached, and the gap search lists it without being told of it; TOY-1.1, cited
    by the listing every step runs, is reached."""
    toy = TOY_PACKAGE.assemble()

    def games() -> None:
        for variant in toy.presets().values():
            for seed in range(3):
                play(toy, toy.initial_state(variant), random.Random(seed), max_steps=200)

    unreached = unreached_clauses(toy, games)
    assert "TOY-9.1" in unreached
    # the function that cites TOY-9.2 runs after every toss; the branch that applies it never
    assert "TOY-9.2" in unreached
    assert "TOY-1.1" not in unreached
    assert all(c.startswith("TOY-") for c in unreached)  # the toy's own index only


def test_restarts_branch_from_played_positions_with_logs_that_replay() -> None:
    """Random restarts (`restarts`) branch off a game at positions it passed through: every
    gap they report carries the whole log from the set-up (the game's prefix, then the
    branch), which replays to the reported position, and a loop's log returns to the
    position the message names (NOM-5.2)."""
    game = get_game("nomonhan")
    plain = no_action_and_endless(game, "en", games=2, max_steps=300)
    gaps = no_action_and_endless(game, "en", games=2, max_steps=300, restarts=3)
    assert {(g.kind, g.clauses) for g in plain} <= {(g.kind, g.clauses) for g in gaps}
    assert any(g.kind == "endless" for g in gaps)
    for gap in gaps:
        states = [game.initial_state(game.presets()["en"])]
        for data in gap.log:
            states.append(game.apply(states[-1], game.action_from_json(data)))
        assert game.state_to_json(states[-1]) == gap.state
        if gap.kind == "endless":
            first = int(gap.message.split("after action ")[1].split()[0])
            assert states[first] == states[-1], gap.message


def test_nom_9_3_a_model_query_finds_a_stuck_position_two_actions_in() -> None:
    """NOM-9.3, NOM-9.4, NOM-9.7 under AMB-NOM-9 (b): Z3 over the model asks for a state
    where no action is enabled whatever its choices and the game is not over. Two actions in
    (a Japanese unit moves next to two Soviet units, the phase ends) one defender per combat
    leaves no legal declaration; the rules agree, and the clauses are the position's core.
    Under the preset's own reading no such state is within the same depth."""
    from specs.nomonhan.formal import verification as nom_verification

    game = get_game("nomonhan")
    reading = ("combat_grouping", "one_defender")
    [gap] = model_stuck(
        game, nom_verification.symbolic_model, [("ja", reading)], budget=None, max_depth=2
    )
    assert gap.kind == "no_action" and gap.reading == reading and len(gap.log) == 2
    state = game.initial_state(gap.variant(game))
    for data in gap.log:
        state = game.apply(state, game.action_from_json(data))
    assert game.to_move(state) == "JP" and not game.legal_actions(state)
    assert set(gap.clauses) == {"NOM-9.3", "NOM-9.4", "NOM-9.7"}
    assert (
        model_stuck(game, nom_verification.symbolic_model, [("ja", None)], budget=None, max_depth=2)
        == []
    )


def test_an_abstraction_reaching_a_clause_is_no_proof_that_the_rules_do() -> None:
    """RKS-9.5.1 over Rattenkrieg's abstraction (`exact` False): a step citing it is possible
    in the model's set-up already, which the rules' set-up is not; the clause stays a
    candidate that says so, never "reached" with an empty log."""
    from specs.rattenkrieg.formal import verification as rks_verification

    game = get_game("rattenkrieg")
    out = settle_unreached(game, ["RKS-9.5.1"], rks_verification.symbolic_model, None, depth=2)
    assert {u.verdict for u in out} == {"candidate"}, out
    assert all("abstraction" in u.detail and not u.log for u in out)


def test_a_passed_deadline_stops_the_gap_search_after_its_first_game() -> None:
    """explore's slack bounds the gap search by a deadline: once it has passed, no new game
    or restart starts, but the first game is always played (what a test would bound by
    counts, explore bounds by its budget)."""
    toy = TOY_PACKAGE.assemble()
    late = no_action_and_endless(toy, "gapped", games=8, max_steps=100, restarts=3, deadline=0.0)
    first = no_action_and_endless(toy, "gapped", games=1, max_steps=100)
    assert [attrs.evolve(g, seconds=0.0) for g in late] == [
        attrs.evolve(g, seconds=0.0) for g in first
    ]
