"""Two readings compared where an option takes effect: at each position of the run's corpus
(`solvers.checking.corpus`) where the rules asked for the option's reading, the position read
under both readings, what each allows there and where each allowed action leads. A difference
is then confirmed by following the corpus game's log from the set-up under both readings
(`side_by_side.along`), so the witness is a log legal under both, from the set-up, to a
position where they part.

Where no corpus position asked for the option (a situation random play rarely makes), play is
steered toward the places in the rules' code that ask for it (`steered`). The order of these
searches for a pair, with the search toward a game's own situation among them, is
`solvers.checking.near`'s.

Limits are counts (positions looked at, actions tried at each, positions the steered search
evaluates); a wall-clock `deadline` may stop each as well.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.approach import option_places
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.differences import (
    Difference,
    Json,
    Witness,
    after_action,
    compare,
    rebind,
)
from solvers.checking.side_by_side import along
from solvers.checking.steer import Reached, steer
from solvers.checking.unreached import game_sources
from solvers.checking.witness_replay import replay

FOUND_BY = "corpus play"
STEERED = "steered play"
FROM_POSITION = "guided play from a corpus position"
POSITIONS = "corpus positions"  # the cap of positions looked at was reached
TRIED = 6
"""Actions tried under both readings at each corpus position besides the corpus game's own (a
seeded sample when more are legal): each costs two applications and a comparison, and a long
game has many positions, so the search goes wide over positions rather than deep at one."""
AROUND_PER = 5
"""Positions the search around corpus positions may expand per position the steered search
may evaluate (one count, `nodes`, scales both: each expands children the other does not)."""
ALONG = 200
"""The longest corpus log followed position by position when the plain replay of it does not
show the difference (the readings part another way before it)."""


@attrs.frozen
class FromCorpus:
    """What the corpus search found: a witness (or None), the positions where the option was
    asked and how many of them were looked at, and the limit that ended it ("" when it looked
    at every one or found a witness; "corpus positions"; "budget")."""

    witness: Witness | None
    asked: int
    looked: int
    limit: str


def from_corpus(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    positions: int = 400,
    tried: int = TRIED,
    deadline: float | None = None,
) -> FromCorpus:
    """The earliest difference between readings `va` and `vb` at a corpus position of
    `preset` where the rules asked for `option`, at most `positions` positions looked at
    (each once: a position met again in another game is skipped), `tried` actions at each."""
    where = list(corpus.where(option, preset))
    seen: set[int] = set()
    looked = 0
    for g, p in where:
        if looked >= positions:
            return FromCorpus(None, len(where), looked, POSITIONS)
        if deadline is not None and time.perf_counter() > deadline:
            return FromCorpus(None, len(where), looked, BUDGET)
        key = _key(p.state)
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        looked += 1
        taken = g.actions[p.step] if p.step < len(g.actions) else None
        diff = _differs_here(game, p.state, va, vb, taken, random.Random(p.step), tried)
        if diff is None:
            continue
        found = _confirmed(game, va, vb, g.actions[: p.step], diff)
        if found is not None:
            return FromCorpus(found, len(where), looked, "")
    return FromCorpus(None, len(where), looked, "")


@attrs.frozen
class Steered:
    """What the steered search found for a pair: a witness (or None), the positions it
    evaluated, those where the rules asked for the option, the best approach level seen, and
    the limit that ended it."""

    witness: Witness | None
    evaluated: int
    asked: int
    best: int
    limit: str
    places: int  # the places in the rules' code that ask for the option


def steered(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    nodes: int = 120,
    deadline: float | None = None,
) -> Steered:
    """Play steered from the corpus positions toward the places where the rules ask for
    `option`'s reading (`solvers.checking.steer`), the readings compared at each position
    where they do; at most `nodes` positions evaluated."""
    files = game_sources(game)
    places = option_places(files, option)
    if not places:
        return Steered(None, 0, 0, 1_000, "", 0)
    witness: list[Witness] = []

    def differs(here: Reached) -> bool:
        diff = _differs_here(
            game, here.state, va, vb, None, random.Random(len(here.actions)), TRIED
        )
        if diff is not None:
            found = _confirmed(game, va, vb, here.actions, diff)
            if found is not None:
                witness.append(attrs.evolve(found, found_by=STEERED))
        return bool(witness)

    s = steer(
        game,
        corpus,
        preset,
        places,
        files,
        nodes=nodes,
        enough=nodes,
        deadline=deadline,
        stop=differs,
    )
    w = witness[0] if witness else None
    return Steered(w, s.evaluated, len(s.reached), s.best, "" if w else s.limit, len(places))


Start = tuple[Any, Any, list[Json]]
"""Where guided play may start: the positions under A and B and the log from the set-up."""


def corpus_starts(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
) -> Callable[[int], Start | None]:
    """The i-th start for guided play among the corpus positions of `preset` where the rules
    asked for `option` (spread over them by a fixed stride; None when there is none, or one
    reading's position check refuses it)."""
    where = list(corpus.where(option, preset))

    def start(i: int) -> Start | None:
        if not where:
            return None
        g, p = where[(i * 97) % len(where)]
        try:
            a = p.state if getattr(p.state, "variant", None) == va else rebind(game, p.state, va)
            b = rebind(game, p.state, vb)
        except WargameError:
            return None
        return a, b, [game.action_to_json(x) for x in g.actions[: p.step]]

    return start


def confirmed(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, w: Witness
) -> Witness | None:
    """A witness of guided play from a corpus position, replayed from the set-up under both
    readings (the corpus log to the position need not be legal under B)."""
    found = replay(game, va, vb, w.log, w.difference)
    return None if found is None else attrs.evolve(found, found_by=FROM_POSITION)


def _confirmed(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    actions: Sequence[Any],
    diff: Difference,
) -> Witness | None:
    """The corpus game's log to the position, followed from the set-up under both readings:
    the witness of `diff` there (or of the same kind of difference earlier on the way), or,
    when the readings part another way before it, the first difference on the way (a short
    log only: following a long one position by position costs more than a pair's share)."""
    log = [game.action_to_json(x) for x in actions]
    found = replay(game, va, vb, log, diff)
    if found is not None:
        return attrs.evolve(found, found_by=FOUND_BY)
    if len(actions) <= ALONG:
        return along(game, va, vb, actions, FOUND_BY)
    return None


def _key(state: Any) -> int | None:
    """A hash of the position, to skip one met again (None: the state is not hashable)."""
    try:
        return hash(state)
    except TypeError:
        return None


def _differs_here(
    game: AssembledGame[Any, Any],
    state: Any,
    va: Variant,
    vb: Variant,
    taken: Any,
    rng: random.Random,
    tried: int,
) -> Difference | None:
    """Whether the position, read under each reading, differs: in what may be done there, or
    in where an action allowed leads: `taken` (the corpus game's own action there, under which
    the rules asked for the option; None: none) and a seeded sample of `tried` others. A
    position that one reading's position check refuses is passed over (it is no position of
    that reading)."""
    try:
        a = state if getattr(state, "variant", None) == va else rebind(game, state, va)
        b = rebind(game, state, vb)
    except WargameError:
        return None
    diff = compare(game, a, b)
    if diff is not None:
        return diff
    side = game.to_move(a)
    moves: list[Any] = []
    if side == CHANCE:
        moves = [x for x, _ in game.chance_outcomes(a)]
    elif side is not None:
        moves = list(game.legal_actions(a))
    others = [x for x in moves if x != taken]
    chosen = rng.sample(others, min(tried, len(others)))
    if taken is not None and len(others) < len(moves):
        chosen.insert(0, taken)
    for action in chosen:
        try:
            diff = after_action(game, action, game.apply(a, action), game.apply(b, action))
        except WargameError:
            return Difference("actions", (), (), "an action allowed by both is refused by one")
        if diff is not None:
            return diff
    return None
