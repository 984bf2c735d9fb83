"""The published JSON Schemas (`wargame schema nomonhan state|action|log|view`) and the codec
agree: every state, action and log of 100 seeded games validates against its schema (Draft
2020-12, the `jsonschema` library), and on mutants of real documents (a field removed, an unknown
field added, a boolean for an integer, an integer out of range, a non-ASCII id) the schema
rejects exactly what the codec refuses as input.
"""

from __future__ import annotations

import copy
import functools
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.playout import Playout, play
from kernel.variants import Variant
from kernel.views import schema, view
from specs.nomonhan.data.variants import CATALOGUE, PRESETS
from specs.nomonhan.formal.symbolic_tables import Tables
from specs.nomonhan.io import wire
from specs.nomonhan.rules.state import NomonhanState, Stage
from tests.nomonhan.positions import GAME
from tests.sizes import size
from tools.game_logs import make_log

GAMES = size(20, 100)  # tests.sizes: 100 in make bench
Path = tuple[str | int, ...]


@functools.cache
def validator(kind: str) -> Draft202012Validator:
    doc = schema(GAME, kind)
    Draft202012Validator.check_schema(doc)
    return Draft202012Validator(doc)


def test_schemas_are_draft_2020_12_from_the_wire_types() -> None:
    """Each schema is a valid Draft 2020-12 schema generated from `wire`: the state names
    every option of the catalogue with its readings, and the presets match the catalogue."""
    for kind in ("state", "action", "log", "view"):
        assert schema(GAME, kind)["$schema"].endswith("2020-12/schema")
    state = schema(GAME, "state")
    options = state["$defs"]["Options"]
    assert set(options["required"]) == {o.name for o in CATALOGUE.options}
    for o in CATALOGUE.options:
        assert set(options["properties"][o.name]["enum"]) == {r.name for r in o.readings}
    assert set(typing.get_args(wire.PresetName)) == set(PRESETS)


def test_nom_9_9_wire_bounds_cover_the_counters() -> None:
    """NOM-9.9, NOM-2.5, NOM-4.5: the wire's dice bound covers every combat the counters allow
    (the symbolic model's bound on any hit difference), its unit count is the data's, and its
    points bound covers every score."""
    for preset in PRESETS:
        assert Tables(GAME.rules.data, GAME.presets()[preset]).max_damage() <= wire.MAX_DICE
    assert len(GAME.rules.data.units) == wire.UNITS
    assert max(u.full_steps for u in GAME.rules.data.units) <= wire.MAX_STEPS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_document_of_seeded_play_validates(preset: str) -> None:
    """Every state, action and log of the seeded games (GAMES, shared by the presets) validates, and
    so does every side's view of the final position."""
    variant = GAME.presets()[preset]
    for seed in range(GAMES // len(PRESETS)):
        states, result = _played(variant, seed)
        for state in states:
            _valid("state", GAME.state_to_json(state))
        for action in result.actions:
            _valid("action", GAME.action_to_json(action))
        _valid("log", make_log(GAME, variant, seed, result).to_json())
        for side in GAME.sides:
            _valid("view", view(GAME, result.final, side))


def _played(variant: Variant, seed: int) -> tuple[list[NomonhanState], Playout[Any, Any]]:
    """Every position of one seeded game, and the playout."""
    states = [GAME.initial_state(variant)]
    result = play(GAME, states[0], random.Random(seed), on_step=lambda b, a, n: states.append(n))
    return states, result


def _valid(kind: str, doc: Any) -> None:
    errors = list(validator(kind).iter_errors(doc))
    assert not errors, f"{kind}: {errors[0].message} at {list(errors[0].absolute_path)}"


# --- mutants -------------------------------------------------------------------------------


def _samples() -> list[dict[str, Any]]:
    """A real state of every stage, under both presets."""
    out: dict[tuple[str, Stage], dict[str, Any]] = {}
    for preset in sorted(PRESETS):
        for seed in range(12):
            states, _ = _played(GAME.presets()[preset], seed)
            for s in states:
                if (preset, s.stage) not in out or (s.moved and s.stage == Stage.MOVE):
                    out[preset, s.stage] = GAME.state_to_json(s)
    return list(out.values())


def _actions() -> list[dict[str, Any]]:
    """A real action of every type (a declaration with combats, a loss of each form)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for seed in range(12):
        result = play(GAME, GAME.initial_state(GAME.presets()["en"]), random.Random(seed))
        for a in result.actions:
            doc = GAME.action_to_json(a)
            out.setdefault((doc["type"], "step" if "step" in doc else ""), doc)
    return list(out.values())


def _paths(doc: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*path, i))


def _set(doc: Any, path: Path, value: Any) -> Any:
    out = copy.deepcopy(doc)
    target: Any = out
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    return out


def _mutants(doc: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Each mutant of `doc`, named by kind and path."""
    for path, value in _paths(doc):
        where = ".".join(map(str, path))
        maps = path[-1:] == ("start_hexes",)  # a map of unit ids, not a record's fields
        if isinstance(value, dict):
            for key in list(value):
                if not maps:
                    removed = copy.deepcopy(doc)
                    target: Any = removed
                    for p in path:
                        target = target[p]
                    del target[key]
                    yield f"removed {where}.{key}", removed
                renamed = {("ü" + k if k == key else k): v for k, v in value.items()}
                yield f"non-ASCII key {where}.{key}", _set(doc, path, renamed) if path else renamed
            yield (
                f"unknown field in {where}",
                _set(doc, path, {**value, "zz_unknown": 1}) if path else {**value, "zz_unknown": 1},
            )
        elif isinstance(value, bool):
            yield f"int for bool at {where}", _set(doc, path, int(value))
        elif isinstance(value, int):
            yield f"bool at {where}", _set(doc, path, value > 0)
            yield f"too low at {where}", _set(doc, path, -1)
            yield f"too high at {where}", _set(doc, path, 10**6)
        elif isinstance(value, str):
            yield f"non-ASCII at {where}", _set(doc, path, value[:-1] + "\u0665")


def _agree(kind: str, mutant: Any, name: str) -> None:
    schema_ok = validator(kind).is_valid(mutant)
    try:
        if kind == "state":
            GAME.state_from_json(mutant)
        else:
            GAME.action_from_json(mutant)
    except InvalidInput as exc:
        assert exc.field, name
        assert not schema_ok, f"{name}: the codec refuses ({exc.message}), the schema accepts"
        return
    except ImpossiblePosition as exc:
        assert schema_ok, f"{name}: the schema rejects a well-formed position"
        assert exc.field and exc.clauses, name
        return
    assert schema_ok, f"{name}: the codec reads it, the schema rejects it"


def test_state_schema_and_codec_agree_on_mutants() -> None:
    """Every mutant the schema rejects the codec refuses as InvalidInput naming a field, and
    every mutant the codec refuses as input the schema rejects; what both accept is a position
    the codec reads or refuses as impossible (naming the clause)."""
    count = 0
    for doc in _samples():
        assert validator("state").is_valid(doc)
        for name, mutant in _mutants(doc):
            _agree("state", mutant, name)
            count += 1
    assert count > 2000


def test_action_schema_and_codec_agree_on_mutants() -> None:
    docs = _actions()
    assert {d["type"] for d in docs} >= {"move", "declare", "roll", "loss", "end_phase"}
    for doc in docs:
        assert validator("action").is_valid(doc)
        for name, mutant in _mutants(doc):
            _agree("action", mutant, name)


def test_loss_has_exactly_one_form_in_schema_and_codec() -> None:
    """NOM-9.24: a loss is a step loss or a retreat, never both or neither, and `"step":
    false` is no step loss; schema and codec agree."""
    for doc in (
        {"type": "loss", "unit": "SU-9"},
        {"type": "loss", "unit": "SU-9", "step": True, "retreat_to": "0303"},
        {"type": "loss", "unit": "SU-9", "step": False},
    ):
        assert not validator("action").is_valid(doc)
        with pytest.raises(InvalidInput):
            GAME.action_from_json(doc)
