"""Replay proves provenance: a seeded agent's log is re-derived step by step from its seed, so an
edited game is refused even when it is legal and ends in the logged state; a log from outside
is checked for legality only, and the replay says so (issue 11, item 6)."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kernel.errors import InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from tests.toy import PACKAGE as TOY_PACKAGE
from tools import game_logs, playlog, verify
from tools.cli import commands as cli
from tools.registry import get_game

GAMES = ("nomonhan", "rattenkrieg")
SEEDS = range(6)


def seeded_log(game: AssembledGame[Any, Any], seed: int, max_steps: int = 20_000) -> dict[str, Any]:
    """The log `wargame play GAME --seed N --log F` writes."""
    variant = game.catalogue.variant(None)
    result = playlog.play_narrated(game, variant, seed, None, max_steps=max_steps)
    return game_logs.make_log(game, variant, seed, result).to_json()


def replay(game: AssembledGame[Any, Any], data: Any) -> Any:
    """Read and replay a log, as `wargame play --replay` does (raises on refusal)."""
    return playlog.replay_log(game, game_logs.read_log(game, data), None)


def refusal(game: AssembledGame[Any, Any], data: Any) -> WargameError:
    with pytest.raises(WargameError) as err:
        replay(game, data)
    return err.value


def steps(game: AssembledGame[Any, Any], data: dict[str, Any]) -> Iterator[tuple[int, Any, Any]]:
    """Each logged step: its index, the state before it and the action (decoded)."""
    state = game.initial_state(game_logs.read_log(game, data).variant)
    for i, raw in enumerate(data["actions"]):
        action = game.action_from_json(raw)
        yield i, state, action
        state = game.apply(state, action)


def alternatives(game: AssembledGame[Any, Any], state: Any, action: Any) -> list[Any]:
    """The other actions the rules allow where `action` was played (chance outcomes too)."""
    if game.to_move(state) == CHANCE:
        options = [a for a, _ in game.chance_outcomes(state)]
    else:
        options = list(game.legal_actions(state))
    return [a for a in options if a != action]


def spread(indices: list[int], n: int = 3) -> list[int]:
    """Up to `n` indices from the start, middle and end of a list."""
    if len(indices) <= n:
        return indices
    return sorted({indices[0], indices[len(indices) // 2], indices[-1]})


def external(data: dict[str, Any]) -> dict[str, Any]:
    """The same log, as if an outside agent had played it."""
    return {**data, "agent": {"name": "external", "seed": None}}


# --- every seeded log replays ------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_seeded_log_replays(name: str, seed: int) -> None:
    game = get_game(name)
    data = seeded_log(game, seed)
    assert data["version"] == 2 and data["agent"] == {"name": "random", "seed": seed}
    result = replay(game, data)
    again = game_logs.make_log(game, game.catalogue.variant(None), seed, result).to_json()
    assert again == data


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_log_cut_at_a_step_limit_replays(name: str) -> None:
    """`wargame play --max-steps N` stops early; its log is still the seeded agent's game."""
    game = get_game(name)
    data = seeded_log(game, 3, max_steps=40)
    assert data["stop"] == "step_limit" and len(data["actions"]) == 40
    replay(game, data)


# --- edited seeded logs are refused ------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_another_legal_action_is_refused_at_its_step(name: str, seed: int) -> None:
    game = get_game(name)
    data = seeded_log(game, seed)
    choices = [
        (i, other)
        for i, state, action in steps(game, data)
        if game.to_move(state) != CHANCE
        for other in alternatives(game, state, action)[:1]
    ]
    assert choices
    chosen = spread([i for i, _ in choices])
    for i, other in (c for c in choices if c[0] in chosen):
        edited = copy.deepcopy(data)
        edited["actions"][i] = game.action_to_json(other)
        err = refusal(game, edited)
        assert isinstance(err, playlog.ReplayMismatch), err.to_json()
        assert err.field == f"actions[{i}]" and "seed" in err.message


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_another_chance_outcome_is_refused_at_its_step(name: str, seed: int) -> None:
    game = get_game(name)
    data = seeded_log(game, seed)
    draws = [
        (i, other)
        for i, state, action in steps(game, data)
        if game.to_move(state) == CHANCE
        for other in alternatives(game, state, action)[:1]
    ]
    assert draws
    chosen = spread([i for i, _ in draws])
    for i, other in (d for d in draws if d[0] in chosen):
        edited = copy.deepcopy(data)
        edited["actions"][i] = game.action_to_json(other)
        err = refusal(game, edited)
        assert isinstance(err, playlog.ReplayMismatch), err.to_json()
        assert err.field == f"actions[{i}]" and "chance outcome" in err.message


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_a_deleted_action_is_refused(name: str, seed: int) -> None:
    """Where the next action is legal in its place, the replay names the step it moved to."""
    game = get_game(name)
    data = seeded_log(game, seed)
    logged = list(steps(game, data))
    fits = []
    for (i, state, action), (_, _, after) in itertools.pairwise(logged):
        if after != action:
            try:
                game.apply(state, after)
            except WargameError:
                continue
            fits.append(i)
    assert fits
    for i in spread(fits):
        edited = copy.deepcopy(data)
        del edited["actions"][i]
        err = refusal(game, edited)
        assert isinstance(err, playlog.ReplayMismatch), err.to_json()
        assert err.field == f"actions[{i}]"
    edited = copy.deepcopy(data)
    edited["actions"].pop()  # the last: every action is the agent's, but the end is not
    assert isinstance(refusal(game, edited), playlog.ReplayMismatch)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_a_changed_seed_is_refused(name: str, seed: int) -> None:
    game = get_game(name)
    data = seeded_log(game, seed)
    edited = {**data, "agent": {"name": "random", "seed": seed + 100}}
    err = refusal(game, edited)
    assert isinstance(err, playlog.ReplayMismatch), err.to_json()
    assert err.field is not None and err.field.startswith("actions[")
    assert f"seed {seed + 100}" in err.message


def same_end_edits(
    game: AssembledGame[Any, Any], data: dict[str, Any]
) -> Iterator[tuple[int, Any]]:
    """Edits that the rules cannot see: another chance outcome or another action at step i that
    leads to the very same position, so the edited log is legal and ends as logged."""
    for i, state, action in steps(game, data):
        after = game.apply(state, action)
        for other in alternatives(game, state, action):
            try:
                if game.apply(state, other) == after:
                    yield i, other
            except WargameError:
                continue


def test_edits_the_rules_cannot_see_are_refused_unless_the_log_is_external() -> None:
    """The edits replay used to accept (issue 11: 45 of 817): legal, and ending in the logged
    state, such as another roll of a Nomonhan combat with the same difference of hits (only the
    difference is damage, NOM-9.12). A seeded log so edited is refused at the edited step;
    the same edit in an external log is accepted, since legality is all it can be checked for."""
    game = get_game("nomonhan")
    found = 0
    for seed in SEEDS:
        data = seeded_log(game, seed)
        for i, other in list(same_end_edits(game, data))[:3]:
            edited = copy.deepcopy(data)
            edited["actions"][i] = game.action_to_json(other)
            err = refusal(game, edited)
            assert isinstance(err, playlog.ReplayMismatch) and err.field == f"actions[{i}]"
            replay(game, external(edited))  # legal and ends as logged: accepted
            found += 1
    assert found


# --- external logs -----------------------------------------------------------------------------


def test_external_log_with_legal_edits_is_accepted_with_the_notice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Nomonhan's moves in one phase are independent: two swapped moves are another legal game
    to the same position. As an external log it is accepted, and the output says how little was
    checked; as the seeded agent's log it is refused (exit 1) at the first swapped step."""
    game = get_game("nomonhan")
    for seed in SEEDS:
        data = seeded_log(game, seed)
        for i, _, action in steps(game, data):
            nxt = data["actions"][i + 1] if i + 1 < len(data["actions"]) else None
            if nxt is None or action == game.action_from_json(nxt):
                continue
            edited = copy.deepcopy(data)
            edited["actions"][i], edited["actions"][i + 1] = nxt, data["actions"][i]
            try:
                replay(game, external(edited))
            except WargameError:
                continue
            path = tmp_path / "swapped.json"
            path.write_text(json.dumps(external(edited)), encoding="utf-8")
            assert cli.main(["play", "nomonhan", "--replay", str(path), "--quiet"]) == 0
            out = capsys.readouterr().out.splitlines()
            assert out[0].endswith("· agent external")
            assert out[1] == playlog.LEGALITY_ONLY
            assert out[-1].startswith("result: ")
            path.write_text(json.dumps(edited), encoding="utf-8")
            assert cli.main(["play", "nomonhan", "--replay", str(path), "--quiet"]) == 1
            err = json.loads(capsys.readouterr().err)
            assert err["error"] == "replay_mismatch" and err["field"] == f"actions[{i}]"
            return
    pytest.fail("no swap of two actions gives another legal game in six seeded games")


def test_seeded_replay_prints_no_notice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert cli.main(["play", "nomonhan", "--seed", "2", "--log", str(path), "--quiet"]) == 0
    played = capsys.readouterr().out
    assert cli.main(["play", "nomonhan", "--replay", str(path), "--quiet"]) == 0
    replayed = capsys.readouterr().out
    assert replayed == played and playlog.LEGALITY_ONLY not in replayed


def test_explorer_witness_logs_are_external() -> None:
    """A position log (a witness a search built) records the external agent."""
    game = TOY_PACKAGE.assemble()
    data = seeded_log(game, 1)
    final = data["final_state"]
    log = playlog.position_log(game, game.catalogue.variant(None), data["actions"], final)
    assert log.to_json()["agent"] == {"name": "external", "seed": None}


@pytest.mark.parametrize("seed", [None, 4])
def test_verify_witnesses_record_who_found_them(tmp_path: Path, seed: int | None) -> None:
    """`wargame verify`: a witness cut from a seeded playout is that seed's random agent's, and
    its replay proves it; one a solver built is external."""
    game = TOY_PACKAGE.assemble()
    played = seeded_log(game, 4)
    actions = [game.action_from_json(a) for a in played["actions"][:3]]
    row = verify.Row("toy", "plain", "TOY-P", (), "", "holds", "refuted", "", "", 0.0)
    witness = verify._with_witness(game, "plain", row, actions, tmp_path, seed).witness
    assert witness is not None
    named = "external" if seed is None else "random"
    assert witness["agent"] == {"name": named, "seed": seed}
    assert replay(game, witness).stop == "position"
    if seed is not None:
        edited = copy.deepcopy(witness)
        edited["agent"]["seed"] = 5
        assert isinstance(refusal(game, edited), playlog.ReplayMismatch)


# --- the agent record --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "field"),
    [
        ({"name": "random", "seed": None}, "agent.seed"),
        ({"name": "external", "seed": 3}, "agent.seed"),
        ({"name": "minimax", "seed": 3}, "agent.name"),
        ({"name": "random", "seed": -1}, "agent.seed"),
        ({"name": "random", "seed": True}, "agent.seed"),
        ({"name": "random"}, "agent.seed"),
        ({"name": "random", "seed": 1, "depth": 2}, "agent.depth"),
    ],
)
def test_a_malformed_agent_is_invalid_input(agent: dict[str, Any], field: str) -> None:
    game = TOY_PACKAGE.assemble()
    data = {**seeded_log(game, 1), "agent": agent}
    with pytest.raises(InvalidInput) as err:
        game_logs.read_log(game, data)
    assert err.value.field == field


def test_a_version_1_log_is_refused_with_a_reason() -> None:
    game = TOY_PACKAGE.assemble()
    data = seeded_log(game, 1)
    old = {k: v for k, v in data.items() if k != "agent"} | {"version": 1, "seed": 1}
    with pytest.raises(InvalidInput) as err:
        game_logs.read_log(game, old)
    assert err.value.field == "version" and "agent" in err.value.message


def test_the_variant_of_a_log_names_every_option() -> None:
    game = TOY_PACKAGE.assemble()
    data = seeded_log(game, 1)
    partial = copy.deepcopy(data)
    del partial["variant"]["options"]["coin_name"]
    with pytest.raises(InvalidInput) as err:
        game_logs.read_log(game, partial)
    assert err.value.field == "variant.options.coin_name"
    wrong = copy.deepcopy(data)
    wrong["variant"]["options"]["gap"] = "stuck_at_3"  # not what preset "plain" reads
    with pytest.raises(InvalidInput) as err:
        game_logs.read_log(game, wrong)
    assert err.value.field == "variant.preset"


# --- the toy game: every edit, exhaustively ----------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_toy_every_single_edit_of_a_seeded_log_is_refused(seed: int) -> None:
    """Every other legal action, every other coin and every deletion, at every step."""
    game = TOY_PACKAGE.assemble()
    data = seeded_log(game, seed)
    replay(game, data)
    for i, state, action in steps(game, data):
        for other in alternatives(game, state, action):
            edited = copy.deepcopy(data)
            edited["actions"][i] = game.action_to_json(other)
            err = refusal(game, edited)
            assert isinstance(err, playlog.ReplayMismatch) and err.field == f"actions[{i}]"
        edited = copy.deepcopy(data)
        del edited["actions"][i]
        refusal(game, edited)
