"""SHU-P-NO-LEAK's parts: the Russian observation written over the symbolic model
(specs.shumshu.formal.noleak) is `observe(state, "RU")` on real positions, its face-up ghosts
change as the rules' pieces do, and a planted leak is refuted with a pair of witness games that
the rules replay (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-DISRUPT.5, AMB-SHU-21); pairs of
steps are proved within a fixed resource limit, given the lemmas of
specs.shumshu.formal.noleak_lemmas (tests/shumshu/test_no_leak_lemmas.py) and the bridges of
specs.shumshu.formal.noleak_bridges, the face-down counts asked piece by piece and whether
pieces stand on a hex once one has moved, or once a stage has discovered decoys, read over the
counts before. The schemas of PROVED are proved so (at full size); for those of OPEN some
question still exhausts the limit (each runs on through the end of a combat, of the combat
phase or of a player-turn, and the stage it ends in is not settled: which combat comes next,
its defenders, the next player-turn's first decision), so the property is not declared to
`wargame verify`."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.game import CHANCE
from solvers.checking import noninterference as ni
from solvers.checking import refinement
from solvers.checking.noninterference_bridges import derive_in
from solvers.checking.noninterference_pair import Pair
from solvers.checking.noninterference_search import search
from solvers.checking.system import evaluate, schema_named
from solvers.checking.terms import Frame, Ops
from solvers.checking.verdicts import Trace
from specs.shumshu.formal import noleak, noleak_lemmas
from specs.shumshu.formal.verification import Link, symbolic_model
from specs.shumshu.rules.state import RU
from tests.sizes import FULL
from tools.registry import get_game

GAME = get_game("shumshu")
PRESET = "draft"
STEPS = 400  # steps of a playout checked (a whole game is about a hundred)
RLIMIT = 60_000_000  # the lemmas' proof and one pair of No Retreat! declarations


@functools.cache
def link() -> Link:
    model = symbolic_model(GAME.presets()[PRESET])
    assert model is not None
    return model


def projected(state: Any) -> dict[str, int | bool]:
    """The extended model's view of a concrete state: the model's and the ghosts'."""
    m = link().model
    return {**link().project(state), **noleak.project_face_up(m, state)}


def playout(seed: int) -> Iterator[tuple[Any, Any, Any]]:
    """The steps (before, action, after) of a seeded random game."""
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.presets()[PRESET])
    for _ in range(STEPS):
        side = GAME.to_move(state)
        if side is None:
            return
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            options = list(GAME.legal_actions(state))
        action = rng.choice(options)
        after = GAME.apply(state, action)
        yield state, action, after
        state = after


def step_of(before: Any, action: Any, after: Any) -> tuple[str, dict[str, int | bool]]:
    """The extended model's schema and choices for a concrete step (the ghost choices read
    off the state after it)."""
    name, choice = link().schema_of(before, action)
    return name, {**choice, **noleak.keep_choices(link().model, after)}


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_the_model_observation_is_observe_on_playout_positions(seed: int) -> None:
    """SHU-COMBAT.5, SHU-SETUP.1: at every position of a game, the observation encoded in the
    model equals the one read off `observe(state, "RU")`, and every step of the extended
    model (its face-up ghosts included, SHU-DISRUPT.5, AMB-SHU-21) is the rules' step."""
    m = link().model
    system, view = noleak.extended(m), noleak.RussianView(m)
    checked = 0
    for before, action, after in playout(seed):
        mine = ni.observation(system, view, projected(before))
        assert mine == noleak.from_observation(m, GAME.observe(before, RU))
        name, choice = step_of(before, action, after)
        ev = evaluate(system, projected(before), schema_named(system, name), choice)
        assert not ev.failed, [g.clause for g in ev.failed]
        assert ev.after == projected(after), name
        checked += 1
    assert checked > 20


def test_face_down_pieces_are_counted_not_named() -> None:
    """SHU-SETUP.1, SHU-COMBAT.5: after the first placement the Russians see one piece on
    its hex and nothing of which it is; the model's observation says the same."""
    m = link().model
    system, view = noleak.extended(m), noleak.RussianView(m)
    state = GAME.initial_state(GAME.presets()[PRESET])
    first = next(iter(GAME.legal_actions(state)))
    after = GAME.apply(state, first)
    seen = ni.observation(system, view, projected(after))
    placed = [k for k, v in seen.items() if k.startswith("face_down.") and v]
    assert len(placed) == 1 and seen[placed[0]] == 1
    assert all(seen[f"hidden.{uid}"] for uid in ("JP-TK1", "JP-DC1", "JP-IB1"))
    assert seen["at.JP-TK1"] == -1


class Planted(noleak.RussianView):
    """A planted leak: the observation also shows where the first tank stands."""

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        m = self.m
        return {"tank": s.i(m.at[m.t.ids.index("JP-TK1")]), **super().observe(o, s)}


def model_paths(games: int) -> list[Trace]:
    """Seeded games as paths of the extended model."""
    out = []
    for seed in range(games):
        steps = list(playout(seed))[:12]
        states = (projected(steps[0][0]), *(projected(a) for _, _, a in steps))
        out.append(Trace(states, tuple(step_of(*s) for s in steps)))
    return out


def test_a_planted_leak_fails_with_two_witness_games() -> None:
    """A model whose observation shows the hidden tank's hex: the proof fails with a pair of
    steps, and two games of the rules, alike to the Russians up to their last step, show it
    in different hexes."""
    m = link().model
    system, leaky = noleak.extended(m), Planted(m)
    verdict = ni.prove(system, leaky, lemmas=noleak.statement(m).lemmas)
    assert verdict.status == "refuted" and verdict.pair is not None
    assert "tank" in verdict.pair.differs
    schemas = (verdict.pair.first.steps[0][0], verdict.pair.second.steps[0][0])
    games = ni.reachable_pair(system, leaky, schemas, model_paths(2))
    assert games is not None
    names = {v.name for v in link().system.variables}
    logs = []
    for game in games:
        base = Trace(
            tuple({k: v for k, v in s.items() if k in names} for s in game.states),
            tuple(
                (n, {k: v for k, v in c.items() if not k.startswith("g_")}) for n, c in game.steps
            ),
        )
        logs.append(refinement.replayed(GAME, link(), PRESET, base))
    finals = []
    for actions in logs:
        state = GAME.initial_state(GAME.presets()[PRESET])
        views = [GAME.observe(state, RU)]
        for a in actions:
            state = GAME.apply(state, a)
            views.append(GAME.observe(state, RU))
        finals.append((views, state))
    (views1, end1), (views2, end2) = finals
    assert views1 == views2  # the Russians see the same two games
    assert end1.piece("JP-TK1").hex != end2.piece("JP-TK1").hex  # which the planted view tells


# without the bridges the pair needs between 30M and 60M here, and more in some runs (Z3's
# search depends on the terms made before it in the process): a margin of about 4x
HOLD_RLIMIT = 250_000_000


def test_a_no_retreat_declaration_is_proved_not_to_leak_within_a_fixed_rlimit() -> None:
    """SHU-LAND.8, SHU-COMBAT.5: two declarations of No Retreat! from states the Russians
    cannot tell apart (the lemmas holding in both) lead to states they cannot tell apart;
    asked within a fixed resource limit, never a time."""
    m = link().model
    statement = noleak.statement(m)
    system = noleak.extended(m)
    verdict = ni.prove(
        system, statement.observer, lemmas=statement.lemmas, rlimit=HOLD_RLIMIT, only=("hold",)
    )
    assert verdict.status == "proved", verdict.detail
    assert "1 pairs of schemas" in verdict.detail


SETTLE_RLIMIT = 5_000_000  # each component of a placement asked alone


def test_a_placement_is_settled_component_by_component() -> None:
    """SHU-SETUP.1: two placements the Russians see alike (a hex, a counter from Paramushir)
    leave the hidden tank's own components masked alike, while the planted view's tank hex
    differs: `settled` tells a component proved equal from one that leaks, asked alone within
    a fixed resource limit."""
    m = link().model
    system = noleak.extended(m)
    lemmas = noleak.statement(m).lemmas
    asked = ("tank", "at.JP-TK1", "hidden.JP-TK1", "rev.JP-TK1")
    seen = ni.settled(
        system, Planted(m), "place", lemmas=lemmas, rlimit=SETTLE_RLIMIT, components=asked
    )
    assert seen == {
        "tank": "differs",
        "at.JP-TK1": "equal",
        "hidden.JP-TK1": "equal",
        "rev.JP-TK1": "equal",
    }


def test_forming_shows_no_moved_mark_given_the_russian_stages_lemma() -> None:
    """SHU-RGT.1, SHU-SEQ.1, SHU-COMBAT.6: without the lemma that forming is the Russian
    player-turn's, two states alike to the Russians, in the forming stage of a Japanese
    player-turn, may differ in which face-down piece is marked moved, and a landing that
    discovers a decoy shows its mark; with the lemma (no game reaches such states) the decoy's
    moved mark is proved equal after forming."""
    m = link().model
    system, view = noleak.extended(m), noleak.RussianView(m)
    lemmas = noleak.statement(m).lemmas
    without = tuple(lem for lem in lemmas if lem.name != noleak_lemmas.russian_stages(m).name)
    assert len(without) == len(lemmas) - 1
    asked = ("mv.JP-DC1",)
    loose = ni.settled(system, view, "form", lemmas=without, rlimit=SETTLE_RLIMIT, components=asked)
    tight = ni.settled(system, view, "form", lemmas=lemmas, rlimit=SETTLE_RLIMIT, components=asked)
    assert loose == {"mv.JP-DC1": "differs"}
    assert tight == {"mv.JP-DC1": "equal"}


BRIDGE_RLIMIT = 20_000_000  # each hex the named hex may be, asked alone


@pytest.mark.skipif(not FULL, reason="every hex of each bridge: make bench (WARGAME_FULL=1)")
def test_the_japanese_counts_on_named_hexes_follow_from_equal_observations() -> None:
    """SHU-LAND.1, AMB-SHU-7, SHU-LAND.2, SHU-COMBAT.6, SHU-STACK.3, SHU-SETUP.1: how many
    Japanese pieces stand on the beachhead, on the hex the Russians sail for, on the combat's
    hex (what decides whether the beachhead is lost, a landing opposed, the defenders within
    the limit) and on each map hex (where a decoy may come back) is equal in two states the
    Russians cannot tell apart, the face-down ones counted on the hex; derived hex by hex
    within a fixed resource limit (from equal observations alone) before any pair of steps
    assumes it."""
    m = link().model
    statement = noleak.statement(m)
    system, view = noleak.extended(m), statement.observer
    cells = len(m.t.cells)
    assert [b.split for b in statement.bridges] == ["beach", "sail_hex", "fhex", *[None] * cells]
    assert ni.derive(system, view, bridges=statement.bridges, rlimit=BRIDGE_RLIMIT) is None


def test_a_claim_the_russians_do_not_see_is_no_bridge() -> None:
    """SHU-SETUP.1, SHU-COMBAT.5: the hex of the first tank, face down, does not follow from
    equal Russian observations: the bridge is refused, so the prover never assumes it."""
    m = link().model
    statement = noleak.statement(m)
    system, view = noleak.extended(m), statement.observer
    tank = m.t.ids.index("JP-TK1")
    hidden = ni.Bridge("the first tank's hex", lambda o, s: s.i(m.at[tank]), "beach")
    refused = ni.derive(system, view, bridges=(hidden,), rlimit=BRIDGE_RLIMIT)
    assert refused == hidden.name


PARTS_RLIMIT = 20_000_000  # each question: a chunk of components, or one part of a count
PROVED = (
    "place",
    "form",
    "form_done",
    "embark",
    "sail_done",
    "strike",
    "air_roll",
    "replace",
    "replace_done",
    "reinforce",
    "reinforce_done",
    "return_decoy",
    "move",
    "move_done_attack",
    "join",
    "defend",
    "hold",
    "commit",
    "land_at",
    "resolve",
)
"""The schemas whose pairs of steps are proved not to leak, the counts asked in parts and
read over the counts before a move or before a stage moves pieces (decoys discovered)."""
OPEN = (
    "roll_landing",
    "roll_combat",
    "move_done_quiet",
    "declare_done",
    "retreat",
    "advance",
    "advance_done",
)
"""The schemas some question of which exhausts PARTS_RLIMIT: SHU-P-NO-LEAK stays unproved,
and undeclared to `wargame verify`, while any is left."""


def test_every_schema_is_either_proved_or_open() -> None:
    """The two lists above name every schema of the model once: no schema is left out of
    the account of what is proved."""
    names = [sc.name for sc in noleak.extended(link().model).schemas]
    assert sorted(names) == sorted((*PROVED, *OPEN))


@functools.cache
def _parts() -> tuple[Any, ni.NoLeak]:
    m = link().model
    return noleak.extended(m), noleak.statement(m)


@pytest.mark.skipif(not FULL, reason="the bridges derived: make bench (WARGAME_FULL=1)")
def test_the_bridges_follow_from_equal_observations() -> None:
    """SHU-P-NO-LEAK in parts, first part: each bridge (the Japanese pieces on the beachhead,
    the landing and the combat hex, and on each map hex) follows from equal observations, each
    question within its resource limit (what `ni.prove` derives before any pair assumes it)."""
    system, statement = _parts()
    assert (
        derive_in(Pair(system, statement.observer, named=False), statement.bridges, PARTS_RLIMIT)
        is None
    )


@pytest.mark.skipif(not FULL, reason="every proved schema in parts: make bench (WARGAME_FULL=1)")
@pytest.mark.parametrize("schema", PROVED)
def test_the_proved_schemas_do_not_leak_counts_asked_in_parts(schema: str) -> None:
    """SHU-SETUP.1, SHU-COMBAT.5, SHU-COMBAT.6, SHU-DISRUPT.5, SHU-LAND.2, SHU-MOVE.1,
    SHU-REPL.1, SHU-REINF.2, SHU-RGT.1, AMB-SHU-7: SHU-P-NO-LEAK in parts, one schema a test:
    every pair of steps whose first is `schema`, with equal observable parts from states the
    Russians cannot tell apart (the lemmas, proved inductive by `test_no_leak_lemmas`, and the
    bridges, derived by the test above, assumed), leads to states they cannot tell apart; the
    face-down counts asked piece by piece and read over the counts before a move, each
    question within a fixed resource limit (what `ni.prove(only=PROVED)` asks, schema by
    schema, so that a limit hit names its schema)."""
    system, statement = _parts()
    assert statement.pieces is not None
    pair, asked = search(
        Pair(system, statement.observer),
        statement.lemmas,
        PARTS_RLIMIT,
        (schema,),
        statement.bridges,
        statement.pieces,
        statement.eager,
    )
    assert pair is None, pair
    assert asked > 0
