"""The conformance suite every game must pass, in the manner of OpenSpiel's and pgx's shared
API tests. Each check raises AssertionError with a message naming the game and the step.

The mutation suite (issue 11) holds every game to its strict input contract: `build_corpus`
gathers real positions, actions and logs from seeded playouts of every preset, the mutation
engine (`tools.testing.mutation.mutate`) edits them generically over the JSON, and
`check_state_mutant`, `check_action_mutant` and `check_log_mutant` require each mutant to be
refused naming a field or clauses, or to mean exactly what it says (re-encoded, it is the
mutant) and, for a position, to pass the position check with every successor
(`check_closure`). A failure is a `MutantFailure` whose `kind` says which promise broke.
This module holds the per-position and playout checks; the corpus is
`tools.testing.conformance_corpus`, the mutant checks `tools.testing.conformance_mutants`.

tests/conformance runs these over every registered game and preset; tools/testing/fuzz.py runs
the same mutations through the `wargame` command at scale.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, TypeVar

from kernel.chance import sample
from kernel.codec import dump_json
from kernel.errors import IllegalAction, InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.playout import play, replay
from kernel.roles import AssembledGame
from kernel.variants import Variant

S = TypeVar("S")
A = TypeVar("A")


def check_step(game: AssembledGame[S, A], state: S) -> None:
    """At one position: probabilities, legal actions, codec round trips, hashing."""
    side = game.to_move(state)
    if side == CHANCE:
        outcomes = game.chance_outcomes(state)
        total = sum((p for _, p in outcomes), Fraction(0))
        assert total == 1, f"{game.name}: chance probabilities sum to {total}"
        assert all(p > 0 for _, p in outcomes), f"{game.name}: a chance outcome has p <= 0"
        assert not game.legal_actions(state), f"{game.name}: CHANCE to move but player actions"
        actions = [a for a, _ in outcomes]
    elif side is None:
        assert game.outcome(state) is not None, f"{game.name}: game over without an outcome"
        actions = []
    else:
        actions = list(game.legal_actions(state))
        assert len(set(actions)) == len(actions), f"{game.name}: duplicate legal actions"
    encoded = game.state_to_json(state)
    again = game.state_from_json(encoded)
    assert again == state, f"{game.name}: state JSON round trip changed the state"
    assert hash(again) == hash(state), f"{game.name}: equal states hash differently"
    assert dump_json(game.state_to_json(again)) == dump_json(encoded)
    for action in actions:
        a_json = game.action_to_json(action)
        assert game.action_from_json(a_json) == action, f"{game.name}: action round trip {a_json}"
        after = game.apply(state, action)  # every legal action applies
        # and changes the game: a step that leaves it as it was could be taken for ever
        assert after != state, f"{game.name}: the legal action {a_json} leaves the state as it was"


def check_illegal(game: AssembledGame[S, A], state: S, rng: random.Random, tries: int = 20) -> None:
    """Actions altered to unknown units or hexes are refused with clause IDs or a field."""
    side = game.to_move(state)
    if side is None or side == CHANCE:
        return
    legal = set(game.legal_actions(state))
    for action in list(legal)[:tries]:
        for mutated in _mutations(game.action_to_json(action), rng):
            try:
                candidate = game.action_from_json(mutated)
            except InvalidInput as exc:
                assert exc.field, f"{game.name}: InvalidInput without a field for {mutated}"
                continue
            if candidate in legal:
                continue
            try:
                game.apply(state, candidate)
            except IllegalAction as exc:
                assert exc.clauses, f"{game.name}: IllegalAction without clauses for {mutated}"
            except WargameError as exc:
                assert exc.clauses or exc.field, f"{game.name}: error names nothing: {mutated}"
            else:
                raise AssertionError(f"{game.name}: unlisted action applied: {mutated}")


def _mutations(action: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, str):
            for replacement in ("XX-UNKNOWN", "9999", "0000", f"{rng.randrange(10000):04d}"):
                out.append({**action, key: replacement})
        elif isinstance(value, bool):
            out.append({**action, key: not value})
        elif isinstance(value, int):
            out.append({**action, key: value + 1})
            out.append({**action, key: -1})
    return out


def check_playout(
    game: AssembledGame[S, A], variant: Variant, seed: int, max_steps: int = 5000, every: int = 1
) -> None:
    """A seeded random playout where every `every`-th position (from step `seed % every`, so
    seeds cover different steps) passes `check_step` and `check_illegal`, and replaying the
    whole action log reproduces the final state exactly. `every=1` checks each position;
    a game of a thousand steps with fifty actions a step is sampled in tests and checked
    whole by `python -m bench.conformance`."""
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    rng = random.Random(seed)
    start = game.initial_state(variant)
    check_rng = random.Random(seed + 1)
    step = 0

    def on_step(before: S, action: A, after: S) -> None:
        nonlocal step
        step += 1
        if (step - 1) % every != seed % every:
            return
        check_step(game, before)
        check_illegal(game, before, check_rng, tries=3)

    result = play(game, start, rng, max_steps=max_steps, on_step=on_step)
    check_step(game, result.final)
    assert replay(game, start, list(result.actions)) == result.final, "replay differs"
    assert result.stop in ("ended", "no_action", "step_limit")


def sample_state(game: AssembledGame[S, A], variant: Variant, seed: int, steps: int) -> S:
    """A position reached by `steps` random steps (or the end) from the set-up."""
    rng = random.Random(seed)
    state = game.initial_state(variant)
    for _ in range(steps):
        side = game.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            legal = list(game.legal_actions(state))
            if not legal:
                break
            action = rng.choice(legal)
        state = game.apply(state, action)
    return state
