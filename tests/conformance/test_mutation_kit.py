"""The mutation kit itself: its edits do what they say, it finds nothing wrong with a strict
game (the toy with a strict codec), and it finds each weakness planted into that game, so a
passing mutation suite means something."""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from kernel.codec import dump_json
from kernel.errors import InvalidInput
from tests.conformance.strict_toy import StrictToy
from tests.toy.doubles import assembled
from tests.toy.rules.actions import Add, ToyAction
from tests.toy.rules.state import ToyState
from tools.testing.conformance_corpus import Corpus, build_corpus
from tools.testing.conformance_mutants import (
    MutantFailure,
    check_action_mutant,
    check_state_mutant,
)
from tools.testing.mutation import MUTATION_OPS, ListChooser, Mutant, RandomChooser, mutate
from tools.testing.mutation_json import Pool, json_path

DOC: dict[str, Any] = {
    "hex": "0505",
    "turn": 3,
    "open": False,
    "units": [{"id": "A-1", "hex": "0101"}, {"id": "B-2", "hex": "0202"}],
    "current": None,
}
OTHER: dict[str, Any] = {
    "hex": "0707",
    "turn": 5,
    "open": True,
    "units": [{"id": "A-1", "hex": "0303"}, {"id": "B-2", "hex": "0404"}],
    "current": {"attacker": "A-1", "defender": "B-2"},
}
POOL = Pool([DOC, OTHER])


def edits_of(op: str, tries: int = 500) -> list[Mutant]:
    """Mutants of DOC made by one kind of edit, over many choices."""
    chooser = RandomChooser(random.Random(0))
    return [mutate(DOC, POOL, chooser, ops=(op,)) for _ in range(tries)]


@pytest.mark.parametrize("op", MUTATION_OPS)
def test_every_kind_of_edit_changes_the_document_and_keeps_the_original(op: str) -> None:
    before = repr(DOC)
    mutants = edits_of(op)
    assert mutants, f"{op} never applies"
    assert all(dump_json(m.doc) != dump_json(DOC) for m in mutants)
    assert all(m.edits and {e.op for e in m.edits} == {op} for m in mutants)
    assert repr(DOC) == before, "the original document was changed"


def test_edits_cover_the_cases_issue_11_names() -> None:
    docs = [m.doc for op in MUTATION_OPS for m in edits_of(op)]
    hexes = [d.get("hex") for d in docs if isinstance(d, dict)]
    turns = [dump_json(d.get("turn")) for d in docs if isinstance(d, dict) and "turn" in d]
    assert "٠٥٠٥" in hexes, "Arabic-Indic digits for a hex"
    assert {"-1", "0", str(10**12), str(2**63)} <= set(turns), "integers at and beyond bounds"
    assert {"true", '"3"', "null", "[3]", "{}"} <= set(turns), "other types for an integer"
    assert "0707" in hexes, "another valid value of the same place"
    assert any(isinstance(d, dict) and d.get("current") == OTHER["current"] for d in docs), (
        "a record copied from another document"
    )
    swapped = [
        d
        for d in docs
        if isinstance(d, dict)
        and isinstance(d.get("units"), list)
        and [u.get("id") for u in d["units"] if isinstance(u, dict)] == ["B-2", "A-1"]
    ]
    assert swapped, "two units' ids swapped"
    assert any(isinstance(d, dict) and "unknown" in d for d in docs), "an unknown field"
    assert any(isinstance(d, dict) and "turn" not in d for d in docs), "a deleted field"


def test_a_list_chooser_replays_its_choices_and_then_takes_the_first() -> None:
    chooser = ListChooser([7, 5])
    assert [chooser.below(4), chooser.below(4), chooser.below(4)] == [3, 1, 0]
    assert json_path(("units", 3, "hex")) == "units[3].hex"


# --- the strict toy passes; each planted weakness is found -------------------------------------


@functools.cache
def toy_corpus(game_type: type[StrictToy] = StrictToy) -> Corpus[Any, Any]:
    return build_corpus(assembled(game_type()), seeds=(0, 1, 2))


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(index=st.integers(0, 10**6), choices=st.lists(st.integers(0, 2**20), max_size=24))
def test_a_strict_game_passes_the_state_and_action_checks(index: int, choices: list[int]) -> None:
    c = toy_corpus()
    chooser = ListChooser(choices)
    state_mutant = mutate(c.state_docs[index % len(c.state_docs)], c.state_pool, chooser)
    note(state_mutant.describe())
    check_state_mutant(c.game, state_mutant)
    at, action = c.moves[index % len(c.moves)]
    action_mutant = mutate(action, c.action_pool, chooser)
    note(action_mutant.describe())
    check_action_mutant(c.game, c.states[at], action_mutant)


def failure_kinds(whole: StrictToy, tries: int = 3000) -> set[str]:
    """The kinds of failure the kit finds in `whole` over seeded mutants of the toy's corpus."""
    game = assembled(whole)
    c = attrs.evolve(toy_corpus(), game=game)
    chooser = RandomChooser(random.Random(1))
    kinds = set()
    for i in range(tries):
        try:
            if i % 2:
                at, action = c.moves[chooser.below(len(c.moves))]
                check_action_mutant(game, c.states[at], mutate(action, c.action_pool, chooser))
            else:
                doc = c.state_docs[chooser.below(len(c.state_docs))]
                check_state_mutant(game, mutate(doc, c.state_pool, chooser))
        except MutantFailure as exc:
            kinds.add(exc.kind)
    return kinds


def test_the_strict_toy_is_clean_over_many_seeded_mutants() -> None:
    assert failure_kinds(StrictToy()) == set()


class IgnoresUnknownFields(StrictToy):
    def state_from_json(self, data: Any) -> ToyState:
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k in self.wire.state.__struct_fields__}
        return super().state_from_json(data)


class SkipsThePositionCheck(StrictToy):
    def state_from_json(self, data: Any) -> ToyState:
        check = self.check_position
        self.check_position = lambda state: None  # type: ignore[method-assign]
        try:
            return super().state_from_json(data)
        finally:
            self.check_position = check  # type: ignore[method-assign]


class CheckTooStrict(StrictToy):
    """Refuses totals the rules reach by adding 2 after a coin."""

    def check_position(self, state: ToyState) -> None:
        super().check_position(state)
        if state.total > 6 and state.result is None:
            raise InvalidInput("too high", field="total")


class AppliesAnyAddition(StrictToy):
    def action_from_json(self, data: Any) -> ToyAction:
        if isinstance(data, dict) and set(data) == {"type", "amount"} and data["type"] == "add":
            amount = data["amount"]
            if type(amount) is int:
                return Add(amount)
        return super().action_from_json(data)

    def apply(self, state: ToyState, action: ToyAction) -> ToyState:
        if isinstance(action, Add) and not state.coin and state.result is None:
            other = "B" if state.side == "A" else "A"
            return attrs.evolve(state, total=state.total + action.amount, side=other, coin=True)
        return super().apply(state, action)


class CrashesOnBadSides(StrictToy):
    def state_from_json(self, data: Any) -> ToyState:
        if isinstance(data, dict) and data.get("side") not in ("A", "B"):
            raise KeyError(data.get("side"))
        return super().state_from_json(data)


class RefusesNamingNothing(StrictToy):
    def state_from_json(self, data: Any) -> ToyState:
        try:
            return super().state_from_json(data)
        except InvalidInput as exc:
            raise InvalidInput(exc.message) from None


@pytest.mark.parametrize(
    ("planted", "kind"),
    [
        (IgnoresUnknownFields, "inexact"),
        (SkipsThePositionCheck, "impossible"),
        (CheckTooStrict, "closure"),
        (AppliesAnyAddition, "unlisted_applied"),
        (CrashesOnBadSides, "crash"),
        (RefusesNamingNothing, "unnamed_refusal"),
    ],
)
def test_each_planted_weakness_is_found(planted: type[StrictToy], kind: str) -> None:
    assert kind in failure_kinds(planted())


def test_impossible_positions_are_made_and_an_accepted_one_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kinds of `tools.testing.mutation_positions` make positions out of their domain from
    real ones; `refusal_problem` passes them while the game refuses them at their field, and
    reports one the game accepts (the Shumshu decoy check taken out)."""
    from specs.shumshu.formal import position
    from tools.registry import get_game
    from tools.testing.mutation_json import as_json
    from tools.testing.mutation_positions import (
        make_impossible,
        playout_positions,
        refusal_problem,
    )

    game = get_game("shumshu")
    kind = "shumshu-discovered-decoy-on-the-map"
    chooser = RandomChooser(random.Random(0))
    made = [
        m
        for s in playout_positions(game, game.presets()["draft"], 0, 200)
        if (m := make_impossible(game, s, as_json(game.state_to_json(s)), chooser, [kind]))
    ]
    assert made and all(m.kind == kind and m.expect_refused for m in made)
    assert [refusal_problem(game, m) for m in made] == [None] * len(made)
    weakened = tuple(i for i in position.INVARIANTS if i.id != "SHU-I-DECOY-FACE")
    monkeypatch.setattr(position, "INVARIANTS", weakened)
    problems = [refusal_problem(game, m) for m in made]
    assert None not in problems  # accepted, or refused for another field than its own
    assert any(p.startswith("accepted, though impossible") for p in problems if p is not None)
