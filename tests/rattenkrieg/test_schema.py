"""The published JSON Schemas (`wargame schema rattenkrieg state|action|log|view`) against the
documents the rules produce, and against the codec: every state, action, view and log of seeded
games validates (Draft 2020-12, `jsonschema`), and on mutated documents the schema and the
strict decoding agree both ways.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kernel.chance import sample
from kernel.errors import InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.views import SCHEMA_KINDS, schema, view
from specs.rattenkrieg.rules.actions import Action
from tests.rattenkrieg.positions import CATALOGUE, GAME

Json = Any
FREE_FORM = ("control", "options", "points")
"""Objects whose keys are data (Areas, options, sides): their entries are not fields."""


@functools.cache
def validator(kind: str) -> Draft202012Validator:
    body = schema(GAME, kind)
    Draft202012Validator.check_schema(body)
    return Draft202012Validator(body)


@functools.cache
def games() -> tuple[tuple[str, int, tuple[Any, ...], tuple[Action, ...]], ...]:
    """Seeded games of every preset: (preset, seed, states, actions)."""
    out = []
    for preset in sorted(CATALOGUE.presets):
        for seed in range(2):
            rng = random.Random(seed)
            s = GAME.initial_state(GAME.presets()[preset])
            states, actions = [s], []
            while GAME.to_move(s) is not None:
                side = GAME.to_move(s)
                if side == CHANCE:
                    action = sample(GAME.chance_outcomes(s), rng)
                else:
                    action = rng.choice(GAME.legal_actions(s))
                s = GAME.apply(s, action)
                states.append(s)
                actions.append(action)
            out.append((preset, seed, tuple(states), tuple(actions)))
    return tuple(out)


def _log(preset: str, seed: int, states: tuple[Any, ...], actions: tuple[Action, ...]) -> Json:
    final = states[-1]
    outcome = GAME.outcome(final)
    return {
        "format": "wargame-kernel/log",
        "version": 2,
        "game": "rattenkrieg",
        "variant": final.variant.to_json(),
        "agent": {"name": "random", "seed": seed},
        "actions": [GAME.action_to_json(a) for a in actions],
        "final_state": GAME.state_to_json(final),
        "result": None if outcome is None else outcome.to_json(),
        "stop": "ended",
    }


def _errors(kind: str, doc: Json) -> list[str]:
    return [e.message for e in validator(kind).iter_errors(doc)][:3]


def test_the_schemas_are_draft_2020_12_from_the_wire_records() -> None:
    for kind in SCHEMA_KINDS:
        body = schema(GAME, kind)
        assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        validator(kind)
    cards = schema(GAME, "state")["$defs"]["HandsRecord"]["properties"]["GE"]
    assert cards["maxItems"] == 4 and cards["uniqueItems"] and len(cards["items"]["enum"]) == 52


@pytest.mark.parametrize("index", range(4))
def test_every_document_of_seeded_games_validates(index: int) -> None:
    """Every action, every 3rd state, every 10th view (both sides) and the log of seeded games
    of every preset validate against their schema."""
    preset, seed, states, actions = games()[index]
    for s in states[::3]:
        assert not _errors("state", GAME.state_to_json(s))
    for a in actions:
        assert not _errors("action", GAME.action_to_json(a))
    for s in states[::10]:
        for side in GAME.sides:
            assert not _errors("view", view(GAME, s, side))
    log = _log(preset, seed, states, actions)
    assert not _errors("log", json.loads(json.dumps(log)))


# --- the schema and the codec agree -----------------------------------------------------------


def _paths(doc: Json, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Json]]:
    """Every node of a document with its path."""
    yield path, doc
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _paths(value, (*path, i))


def _set(doc: Json, path: tuple[Any, ...], value: Json) -> Json:
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def _other_type(value: Json) -> Json:
    """A value of a JSON type the field never takes (booleans are not numbers, numbers not
    strings, null not a list ...)."""
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 12345
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return 2.5


def malformed(doc: Json, rng: random.Random) -> Iterator[Json]:
    """Mutants no schema-conforming document is: a value of another type, a field removed, an
    unknown field, a number out of its bound, a card that is not one of the 52."""
    nodes = list(_paths(doc))
    for path, value in rng.sample(nodes[1:], min(12, len(nodes) - 1)):
        yield _set(doc, path, _other_type(value))
    records = [
        (p, v) for p, v in nodes if isinstance(v, dict) and v and (not p or p[-1] not in FREE_FORM)
    ]
    for path, value in rng.sample(records, min(4, len(records))):
        key = rng.choice(sorted(value))
        gone = copy.deepcopy(value)
        del gone[key]
        yield _set(doc, path, gone) if path else gone
        extra = {**copy.deepcopy(value), "zz_unknown": 1}
        yield _set(doc, path, extra) if path else extra
    for path, value in nodes:
        if path and path[-1] in ("turn", "raises", "passes", "payments"):
            yield _set(doc, path, 10**9)
            yield _set(doc, path, -1)
        if path and path[-1] == "card" and isinstance(value, str):
            yield _set(doc, path, "1S")


def plausible(doc: Json, others: list[Json], rng: random.Random) -> Iterator[Json]:
    """Mutants of the right shape: a field given the value it has in another document (same
    path), which the schema accepts and the codec accepts or refuses as impossible."""
    nodes = [
        (p, v)
        for p, v in _paths(doc)
        if p and not isinstance(p[-1], int) and p[0] not in ("variant", "units")
    ]
    for path, _ in rng.sample(nodes, min(12, len(nodes))):
        other = rng.choice(others)
        try:
            value = functools.reduce(lambda node, key: node[key], path, other)
        except (KeyError, IndexError, TypeError):
            continue
        yield _set(doc, path, copy.deepcopy(value))


def _codec_refuses_the_shape(doc: Json) -> bool:
    try:
        GAME.state_from_json(doc)
    except InvalidInput:
        return True
    except WargameError:
        return False
    return False


def test_schema_and_codec_agree_on_mutated_states() -> None:
    """Both ways: a mutant the state schema refuses is refused by the codec as invalid input,
    and a mutant the codec refuses as invalid input is refused by the schema; mutants of the
    right shape pass the schema and are accepted or refused only as impossible positions."""
    rng = random.Random(11)
    states = [GAME.state_to_json(s) for _, _, ss, _ in games() for s in ss[::40]]
    checked = 0
    for doc in rng.sample(states, 25):
        for mutant in [*malformed(doc, rng), *plausible(doc, states, rng)]:
            schema_ok = validator("state").is_valid(mutant)
            assert schema_ok != _codec_refuses_the_shape(mutant), (
                _errors("state", mutant),
                json.dumps(mutant)[:300],
            )
            checked += 1
    assert checked > 500


def test_schema_and_codec_agree_on_mutated_actions() -> None:
    """Both ways, for actions: the schema refuses exactly what `action_from_json` refuses."""
    rng = random.Random(12)
    actions = [GAME.action_to_json(a) for _, _, _, acts in games() for a in acts]
    kinds = {a["type"]: a for a in actions}
    checked = 0
    for doc in [*kinds.values(), *rng.sample(actions, 40)]:
        mutants = [*malformed(doc, rng), {**doc, "type": "fly"}, {**doc, "type": None}]
        if doc.get("cards"):
            mutants.append({**doc, "cards": [*doc["cards"], doc["cards"][0]]})
        for mutant in mutants:
            schema_ok = validator("action").is_valid(mutant)
            try:
                GAME.action_from_json(mutant)
                codec_ok = True
            except InvalidInput:
                codec_ok = False
            assert schema_ok == codec_ok, (mutant, _errors("action", mutant))
            checked += 1
    assert checked > 200


def test_what_the_schema_cannot_know_the_codec_refuses() -> None:
    """The schema knows ids only as ASCII ids: unknown units and Areas of the data file, units
    out of the data's order and a variant whose preset and readings disagree pass the schema
    and are refused by the codec as invalid input, naming the path."""
    doc = GAME.state_to_json(games()[0][2][-1])
    cases = [
        (_set(doc, ("units", 0, "id"), "XX-UNKNOWN"), "units[0].id"),
        (_set(doc, ("units", 0, "area"), "atlantis"), "units[0].area"),
        (_set(doc, ("variant", "options", "ace"), "fourteen"), "variant.options.ace"),
    ]
    for mutant, field in cases:
        assert validator("state").is_valid(mutant)
        with pytest.raises(InvalidInput) as err:
            GAME.state_from_json(mutant)
        assert err.value.field == field
