"""The ambiguity explorer: where two readings of a rule part ways (the gap search is in
`solvers.checking.gaps`).

Works on any game through the kernel contract (solvers never import specs).

`differential`: for an option, play the same game under two readings side by side from the
setup. At each position compare what each reading allows (the side to move, the legal
actions, the chance outcomes and their probabilities, the result); then take one action both
allow and compare the positions it leads to. The first difference is a witness: a position
reachable from the setup, with the action log that reaches it under both readings. Guided
play runs many seeded games within its limits and keeps the shortest witness. When the
reachable positions can be enumerated in full (small games), the same comparison over all of
them is a proof that the readings never differ; otherwise the verdict is unknown, with the
limit that was hit. Where the spec has a symbolic model that encodes both readings, Z3 over
that model (`solvers.checking.explore_model`) comes before guided play: it finds the shortest path
to a difference, realised as actions of the rules and checked there, or proves that the
model's transitions are the same under both readings. Before any of these, a game may
prove a pair the same itself, by an exhaustive enumeration of the reading's inputs over its
data (`solvers.checking.game_proofs`): the pair is then equivalent with that proof as detail.

Guided play from the set-up rarely gets far into a long game within a pair's budget. A run's
corpus (`solvers.checking.corpus`: seeded games of every preset, played once and shared by
every pair) gives positions deep in the game where the rules asked for the option's reading;
the readings are compared there first (`solvers.checking.from_corpus`), then with every
action tried a few steps around those positions (`solvers.checking.around`: the choices that
led there made otherwise); where the game states the situation in which the readings' inputs
differ (`reading_situations()` on its rules: `solvers.checking.situations`), play is steered
toward it by the game's own measure and the readings compared at and around the positions it
reaches (`solvers.checking.situated`) before that; and where no corpus position asked for
it, play is steered toward the places in the rules' code that ask (`solvers.checking.steer`,
scored by the approach level of the rules' own conditions). Where all of these find the
positions the same, each side's observation is compared under both readings at the corpus
positions where building it asks for the option (`solvers.checking.observed`: a reading that
changes only what a side is shown). A witness found so is the corpus game's log to the
position, replayed under both readings from the set-up. None of these ever makes a pair
equivalent: only a proof does. A reading the catalogue lists but the rules do not implement
(`Reading.unplayed`) is never searched: its pair is listed `unplayed`, with the reason
(`solvers.checking.unplayed`).

Limits. Every search has deterministic limits, which give the same verdict on any machine
under any load: the exhaustive search a number of positions (`exhaustive_cap`), Z3 a depth of
bounded model checking (`depth`) and a resource limit per check (`rlimit`), guided play a
number of games (`games`) of at most `max_steps` steps, the corpus search a number of
positions (`corpus_positions`), the steered search a number of positions evaluated
(`steer_nodes`), the search toward a situation a number of positions evaluated
(`situation_nodes`, `TOWARD_PER` x `steer_nodes` unless given). A wall-clock `budget` per reading
pair may bound them as well (what `wargame explore --budget` sets); each search then stops at
whichever limit comes first. `budget=None` uses the deterministic limits only, which is what
a test that asks for a witness or a proof must do. A finding names the limits its searches
hit (`Finding.limit`), and its detail says where each stopped.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.playout import Agent, random_agent
from kernel.roles import AssembledGame
from kernel.variants import Option, Variant, consultations
from solvers.checking.bounded_search import BUDGET, MODEL_RLIMIT
from solvers.checking.corpus import Corpus
from solvers.checking.differences import Finding, Witness
from solvers.checking.from_corpus import Start, confirmed, corpus_starts
from solvers.checking.game_proofs import game_proof
from solvers.checking.model_search import ModelOutcome, ModelSource, model_search, prepare_models
from solvers.checking.near import Near, near
from solvers.checking.readings import named as named
from solvers.checking.readings import reading_pairs as reading_pairs
from solvers.checking.readings import reading_variant as reading_variant
from solvers.checking.side_by_side import exhaustive, walk
from solvers.checking.situations import reading_situations
from solvers.checking.unplayed import unplayed_findings

GAMES = "games"  # guided play played all its games


@attrs.frozen
class _Played:
    """What guided play found: the shortest witness, the games played, how often the rules
    asked for each option's reading meanwhile, and the limit that ended it ("games",
    "budget", or empty when it stopped with a witness in hand after enough games)."""

    best: Witness | None
    games: int
    asked: Counter[str]
    limit: str


TOWARD_PER = 2
"""Positions the search toward an option's situation evaluates per steered position
(`steer_nodes`), unless `situation_nodes` is given: one count scales both (a second round's
longer share scales it)."""

ENOUGH_GAMES = 40
"""Guided play stops once it has a witness and has played this many games."""


def _guided(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    games: int,
    deadline: float | None,
    max_steps: int,
    agents: Sequence[Agent[Any, Any]],
    option: str | None = None,
    starts: Callable[[int], Start | None] | None = None,
    confirm: Callable[[Witness], Witness | None] | None = None,
) -> _Played:
    """Seeded games under both readings, at most `games` of them, none started (nor a step
    taken) past the wall-clock `deadline` if any. With `starts`, every other game starts at
    a corpus position where the rules asked for the option (`starts(k)` for the k-th), and
    its witness counts only once `confirm` has replayed it from the set-up."""
    best: Witness | None = None
    played = 0
    limit = GAMES
    with consultations() as asked:
        while played < games:
            if deadline is not None and time.perf_counter() > deadline:
                limit = BUDGET
                break
            agent = agents[played % len(agents)]
            start = starts(played // 2) if starts is not None and played % 2 else None
            rng = random.Random(played)
            w = walk(game, va, vb, rng, max_steps, agent, option, 64, deadline, start)
            if w is not None and start is not None and confirm is not None:
                w = confirm(w)
            played += 1
            if w is not None and (
                best is None or (len(w.log), w.units) < (len(best.log), best.units)
            ):
                best = w
            if best is not None and played >= ENOUGH_GAMES:
                limit = ""
                break
        else:
            if deadline is not None and time.perf_counter() > deadline:
                limit = BUDGET  # the last game was cut short
    return _Played(best, played, asked, limit)


def _said(limit: str, games: int, budget: float | None) -> str:
    """What ended guided play, in words."""
    if limit == BUDGET:
        return f"the wall-clock budget of {budget:g} s ran out"
    if limit == GAMES:
        return f"the limit of {games} games was reached"
    return f"a witness was in hand after {ENOUGH_GAMES} games"


def differential(
    game: AssembledGame[Any, Any],
    option: Option,
    *,
    preset: str | None = None,
    budget: float | None = 3.0,
    games: int = 1_000,
    max_steps: int = 600,
    exhaustive_cap: int = 2_000,
    depth: int = 24,
    rlimit: int = MODEL_RLIMIT,
    agents: Sequence[Agent[Any, Any]] = (random_agent,),
    models: ModelSource | None = None,
    corpus: Corpus | None = None,
    corpus_positions: int = 400,
    steer_nodes: int = 120,
    only: tuple[str, str] | None = None,
    model_share: float = 0.5,
    situation_nodes: int | None = None,
) -> list[Finding]:
    """One finding per reading pair of `option` (the preset's reading against each other;
    with `only`, that pair alone: what a second round with a run's unused time asks), and,
    without `only`, one `unplayed` finding per reading the rules do not implement.

    In order: the game's own proof (`solvers.checking.game_proofs`), exhaustive search
    (small games: a proof either way), Z3 over the symbolic model
    when `models` gives one for both readings (`solvers.checking.explore_model`: the shortest
    reachable witness, realised and checked against the rules, or a proof on the model), then
    the corpus search when the run has a `corpus` (`solvers.checking.from_corpus`: the
    readings compared at the corpus positions where the rules asked for the option, at most
    `corpus_positions` of them; then, where the game states the option's situation, at and
    around the positions play steered toward it reaches, at most `situation_nodes` positions
    evaluated: `solvers.checking.situated`; where no corpus position asked for the option,
    play steered toward where the rules ask for it, at most `steer_nodes` positions
    evaluated: `solvers.checking.steer`), then guided
    play. A proof on the model is only reported as
    such when guided play finds no difference either: the model abstracts some things (who
    chooses, dice probabilities), and a difference there is still a difference.

    Limits (see the module docstring): the exhaustive search compares at most
    `exhaustive_cap` positions; Z3 searches paths of at most `depth` steps, each check
    within `rlimit`; guided play plays at most `games` games of at most `max_steps` steps.
    `budget` (seconds, or None for none) bounds each pair's wall time as well: the
    exhaustive search has its first eighth (it settles small games; a large one outgrows any
    share); Z3 has `model_share` (half, unless told) of what is then left (a check in
    progress stops at its end too, `smt.wall_clock`; building the model is not cut short);
    the corpus search has a third of what is left after Z3 (a sixth where the game states
    the option's situation), the situation search three quarters of what is then left, the
    steered search (only where no
    corpus position asked for the option) half of what is left after that, guided play the
    rest (every other game from a corpus position where the rules asked for the option), to
    the end of the budget, and its last game ends at once. The
    preset's own model, which every pair compares against, is built before the first pair's
    clock starts (`prepare_models`)."""
    cat = game.catalogue
    preset = preset or cat.default_preset
    base = cat.preset(preset)
    if models is not None:  # shared by every pair of the preset: built before their clocks
        prepare_models(game, models, [preset])
    searches = _Searches(
        budget,
        games,
        max_steps,
        exhaustive_cap,
        depth,
        rlimit,
        agents,
        models,
        corpus,
        corpus_positions,
        steer_nodes,
        model_share=model_share,
        situation_nodes=TOWARD_PER * steer_nodes if situation_nodes is None else situation_nodes,
    )
    found = [
        _pair(game, option, preset, ra, rb, searches)
        for ra, rb in reading_pairs(option, base.reading(option.name))
        if only is None or (ra, rb) == only
    ]
    # readings the rules do not implement: listed, never searched (`solvers.checking.unplayed`)
    return found + ([] if only is not None else unplayed_findings(cat, option, preset))


@attrs.frozen
class _Searches:
    """`differential`'s limits (see the module docstring), agents and symbolic models."""

    budget: float | None
    games: int
    max_steps: int
    exhaustive_cap: int
    depth: int
    rlimit: int
    agents: Sequence[Agent[Any, Any]]
    models: ModelSource | None
    corpus: Corpus | None = None
    corpus_positions: int = 400
    steer_nodes: int = 120
    start: float = 0.0  # when the pair's clock started (time.perf_counter)
    model_share: float = 0.5  # Z3's share of the budget left after the exhaustive search
    situation_nodes: int = 0  # positions the search toward the option's situation evaluates


def _pair(
    game: AssembledGame[Any, Any],
    option: Option,
    preset: str,
    ra: str,
    rb: str,
    searches: _Searches,
) -> Finding:
    """The finding for readings `ra` and `rb` of `option` under `preset` (`pair`, filled in
    with what settles it): the game's own proof if it offers one
    (`solvers.checking.game_proofs`), the exhaustive search, then, when it settles nothing,
    the searches beyond it (`_beyond_exhaustive`)."""
    cat = game.catalogue
    start = time.perf_counter()
    deadline = None if searches.budget is None else start + searches.budget / 8
    va = reading_variant(cat, preset, option.name, ra)
    vb = reading_variant(cat, preset, option.name, rb)
    pair = Finding(option.name, option.clauses, option.ambiguity, ra, rb, preset, "", None, "", 0)
    # The game's own proof over its data (`solvers.checking.game_proofs`), when it offers one.
    proof = game_proof(game, option.name, va, vb)
    if proof is not None:
        seconds = time.perf_counter() - start
        return attrs.evolve(pair, verdict="equivalent", detail=proof, seconds=seconds)
    # Small games: every reachable position compared is a proof either way.
    verdict, best, n, hit = exhaustive(game, va, vb, searches.exhaustive_cap, deadline)
    if verdict == "equivalent":
        detail = f"proved: every one of the {n} reachable positions compared"
    elif verdict == "differ":
        detail = f"exhaustive search, {n} positions"
    else:
        return _beyond_exhaustive(game, pair, va, vb, searches, start, (n, hit))
    seconds = time.perf_counter() - start
    return attrs.evolve(pair, verdict=verdict, witness=best, detail=detail, seconds=seconds)


def _beyond_exhaustive(
    game: AssembledGame[Any, Any],
    pair: Finding,
    va: Variant,
    vb: Variant,
    searches: _Searches,
    start: float,
    exhausted: tuple[int, str],
) -> Finding:
    """The finding of `pair` (readings `va` and `vb`) when the exhaustive search settled
    nothing (`exhausted`: the positions it compared and the limit it hit): Z3 over the
    symbolic model, with half of the budget left, then, unless it realised a witness, the
    corpus and steered searches (`_near`), then guided play to the end of the budget (which
    began at `start`)."""
    budget = searches.budget
    n, hit = exhausted
    if hit == BUDGET:
        searched = (
            f"its eighth of the wall-clock budget of {budget:g} s ran out after {n} "
            "positions of the exhaustive search"
        )
    else:
        searched = f"the reachable positions exceed the exhaustive cap of {searches.exhaustive_cap}"
    limits = [hit]
    model: ModelOutcome | None = None
    if searches.models is not None:
        left = None if budget is None else max(0.0, start + budget - time.perf_counter())
        share = None if left is None else left * searches.model_share
        model = model_search(game, searches.models, va, vb, share, searches.depth, searches.rlimit)
        limits.append(model.limit)
    if model is not None and model.witness is not None:
        best: Witness | None = model.witness
        verdict, detail, moot = "differ", model.note, False
    else:
        found = _near(game, pair, va, vb, attrs.evolve(searches, start=start))
        if found is not None and found.witness is not None:
            return attrs.evolve(
                pair,
                verdict="differ",
                witness=found.witness,
                detail=found.said + ("" if model is None else f"; {model.note}"),
                seconds=time.perf_counter() - start,
                limit=", ".join(dict.fromkeys(x for x in limits if x)),
                z3_depth=-1 if model is None else model.depth,
            )
        if found is not None:
            limits.extend(found.limits)
            searched += "; " + found.said
        until = None if budget is None else start + budget
        corpus = searches.corpus
        g = _guided(
            game,
            va,
            vb,
            searches.games,
            until,
            searches.max_steps,
            searches.agents,
            pair.option,
            None
            if corpus is None
            else corpus_starts(game, corpus, va, vb, pair.option, pair.preset),
            functools.partial(confirmed, game, va, vb),
        )
        limits.append(g.limit)
        verdict, detail, moot = _after_play(g, model, pair, searches, searched)
        best = g.best
    return attrs.evolve(
        pair,
        verdict=verdict,
        witness=best,
        detail=detail,
        seconds=time.perf_counter() - start,
        limit=", ".join(dict.fromkeys(x for x in limits if x)),
        z3_depth=-1 if model is None else model.depth,
        moot=moot,
    )


def _near(
    game: AssembledGame[Any, Any],
    pair: Finding,
    va: Variant,
    vb: Variant,
    searches: _Searches,
) -> Near | None:
    """The corpus search for `pair` with a third of the budget left, then the steered search
    with half of what is left after it (None: the run has no corpus)."""
    if searches.corpus is None:
        return None
    return near(
        game,
        searches.corpus,
        va,
        vb,
        pair.option,
        pair.preset,
        positions=searches.corpus_positions,
        nodes=searches.steer_nodes,
        until=None if searches.budget is None else searches.start + searches.budget,
        situation=reading_situations(game).get(pair.option),
        situation_nodes=searches.situation_nodes,
    )


def _after_play(
    g: _Played, model: ModelOutcome | None, pair: Finding, searches: _Searches, searched: str
) -> tuple[str, str, bool]:
    """The verdict once guided play has run, its detail, and whether the pair is moot: a
    witness of play differs; a proof on the model with no difference in play is equivalent
    (moot when the rules never asked for the option's reading); anything else is unknown
    (`searched`: where the exhaustive search stopped)."""
    played = (
        f"{g.games} guided games (up to {searches.max_steps} steps each, until "
        f"{_said(g.limit, searches.games, searches.budget)})"
    )
    asked = g.asked[pair.option]
    if g.best is None and not asked:
        played += (
            ", in which the rules never asked for this option's reading (the "
            "situation it governs did not arise)"
        )
    elif g.best is None:
        played += f", in which the rules asked for its reading {asked} times"
    notes = [] if model is None else [model.note]
    if g.best is not None:
        notes.insert(0, f"shortest of the witnesses in {played}")
        if model is not None and model.equivalent:
            notes.append(
                "the difference lies in what the model abstracts (who chooses, dice probabilities)"
            )
        return "differ", "; ".join(notes), False
    if model is not None and model.equivalent:
        notes.append(f"and no difference in {played}")
        moot = bool(g.games and not asked)
        if moot:
            notes.insert(0, f"moot under {pair.preset}: the rules never ask for it")
        return "equivalent", "; ".join(notes), moot
    notes.insert(0, f"no difference in {played}; {searched}")
    return "unknown", "; ".join(notes), False
