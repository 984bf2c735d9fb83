"""The conformance suite every game must pass, in the manner of OpenSpiel's and pgx's shared
API tests. Each check raises AssertionError with a message naming the game and the step.

The mutation suite (issue 11) holds every game to its strict input contract: `build_corpus`
gathers real positions, actions and logs from seeded playouts of every preset, the mutation
engine (`tools.testing.mutation.mutate`) edits them generically over the JSON, and
`check_state_mutant`, `check_action_mutant` and `check_log_mutant` require each mutant to be
refused naming a field or clauses, or to mean exactly what it says (re-encoded, it is the
mutant) and, for a position, to pass the position check with every successor
(`check_closure`). A failure is a `MutantFailure` whose `kind` says which promise broke.

tests/conformance runs these over every registered game and preset; tools/testing/fuzz.py runs
the same mutations through the `wargame` command at scale.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Final, Generic, TypeVar

import attrs

from kernel.chance import sample
from kernel.codec import dump_json
from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.playout import DEFAULT_MAX_STEPS, play, replay
from kernel.roles import AssembledGame
from kernel.variants import Variant
from tools.testing.mutation import (
    Mutant,
    Pool,
    as_json,
    json_equal,
    json_nodes,
    json_path,
    json_short,
)

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
        game.apply(state, action)  # every legal action applies


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


# --- the corpus of real documents --------------------------------------------------------------
#
# The checks below take real positions, actions and logs (from seeded playouts of every preset),
# mutated (`tools.testing.mutation`), and hold the game to its strict input contract: a mutant is
# either refused (InvalidInput / ImpossiblePosition naming a field or clauses) or it means
# exactly what it says (its re-encoding is the mutant itself) and is a position the rules can go
# on from (`check_position`, and so does every successor).


@attrs.frozen
class LogCodec:
    """How logs are played, read and replayed. The log format belongs to a tool
    (`tools.playlog`), which the kernel does not import, so the tool supplies these."""

    play: Callable[[Variant, int, int], dict[str, Any]]
    """The log of a game played by the seeded agent: (variant, seed, max_steps) -> log JSON."""
    replay: Callable[[Any], Any]
    """Read a log, replay and check it (raising a WargameError when refused); return the log
    re-encoded from what was read."""
    reproduce: Callable[[Any], list[Any] | None]
    """The actions (JSON) the log's seeded agent plays from its variant and seed, as many as the
    log has; None when the log names no seeded agent (it is checked for legality only)."""
    external: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """The same game logged as played by an external agent (a person, a client), if the
    format tells them apart."""


@attrs.frozen
class Corpus(Generic[S, A]):
    """Real documents of one game: the positions of seeded playouts of every preset, actions
    (legal ones and chance outcomes) of those positions, and logs of seeded games; with the
    pools of values met at each place, the material of every mutation."""

    game: AssembledGame[S, A]
    states: tuple[S, ...]
    state_docs: tuple[dict[str, Any], ...]
    moves: tuple[tuple[int, dict[str, Any]], ...]
    """(index in `states`, the JSON of an action or chance outcome of that position)."""
    logs: tuple[dict[str, Any], ...]
    state_pool: Pool
    action_pool: Pool
    log_pool: Pool


def build_corpus(
    game: AssembledGame[S, A],
    *,
    seeds: Sequence[int] = (0, 1),
    max_steps: int = 600,
    actions_per_state: int = 6,
    logs: LogCodec | None = None,
    log_lengths: Sequence[int] = (0, 7, 30, 120),
) -> Corpus[S, A]:
    """Every position met by seeded playouts of every preset (at most `max_steps` steps each),
    up to `actions_per_state` actions of each, and, given a LogCodec, the logs of seeded games
    cut at each of `log_lengths` steps and played to the end (some also as an external
    agent's)."""
    rng = random.Random(0)
    states: dict[S, None] = {}
    for preset in sorted(game.presets()):
        variant = game.presets()[preset]
        for seed in seeds:
            start = game.initial_state(variant)
            states[start] = None

            def keep(before: S, action: A, after: S) -> None:
                states[after] = None

            play(game, start, random.Random(seed), max_steps=max_steps, on_step=keep)
    ordered = tuple(states)
    moves: list[tuple[int, dict[str, Any]]] = []
    for i, state in enumerate(ordered):
        if game.to_move(state) == CHANCE:
            choices = [a for a, _ in game.chance_outcomes(state)]
        elif game.to_move(state) is None:
            choices = []
        else:
            choices = list(game.legal_actions(state))
        for action in rng.sample(choices, min(actions_per_state, len(choices))):
            moves.append((i, as_json(game.action_to_json(action))))
    log_docs: list[dict[str, Any]] = []
    if logs is not None:
        for preset in sorted(game.presets()):
            for seed in seeds:
                for n, length in enumerate((*log_lengths, DEFAULT_MAX_STEPS)):
                    log = as_json(logs.play(game.presets()[preset], seed, length))
                    log_docs.append(log)
                    if logs.external is not None and n % 2:
                        log_docs.append(as_json(logs.external(log)))
    docs = tuple(as_json(game.state_to_json(s)) for s in ordered)
    return Corpus(
        game=game,
        states=ordered,
        state_docs=docs,
        moves=tuple(moves),
        logs=tuple(log_docs),
        state_pool=Pool(docs),
        action_pool=Pool(m for _, m in moves),
        log_pool=Pool(log_docs),
    )


# --- what a mutant must be: refused with a reason, or exactly what it says ---------------------

REFUSED: Final = "refused"
ACCEPTED: Final = "accepted"
APPLIED: Final = "applied"
ILLEGAL: Final = "illegal"

FAILURE_KINDS: Final = (
    "crash",
    "unnamed_refusal",
    "wrong_refusal",
    "inexact",
    "impossible",
    "closure",
    "unlisted_applied",
    "seeded_log_edited",
)
"""How a game can break the input contract, for `MutantFailure.kind`: an exception that is not
a WargameError; a refusal naming neither field nor clause, or of the wrong kind; an accepted
input read back as something else; an accepted position that fails the position check or
cannot be played from; a legal action leading to a position the codec refuses; an action
applied that is not listed; a seeded agent's log accepted with actions that agent would not
play."""


class MutantFailure(AssertionError):
    """A mutant handled against the contract; `kind` (one of FAILURE_KINDS) groups them."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _fail(
    game: AssembledGame[Any, Any], what: str, mutant: Mutant | None, problem: str, kind: str
) -> MutantFailure:
    edit = f" ({mutant.describe()})" if mutant is not None and mutant.edits else ""
    return MutantFailure(f"{game.name}: {what}{edit}: {problem}", kind)


def _refused(
    game: AssembledGame[Any, Any],
    what: str,
    mutant: Mutant,
    exc: WargameError,
    kinds: tuple[type, ...],
) -> str:
    if not isinstance(exc, kinds):
        names = "/".join(k.__name__ for k in kinds)
        raise _fail(
            game, what, mutant, f"refused as {exc.kind}, not {names}: {exc}", "wrong_refusal"
        )
    if not (exc.field or exc.clauses):
        raise _fail(
            game, what, mutant, f"refused naming no field or clause: {exc}", "unnamed_refusal"
        )
    return REFUSED


def _crash(
    game: AssembledGame[Any, Any], what: str, mutant: Mutant | None, exc: Exception
) -> MutantFailure:
    problem = f"raised {type(exc).__name__}: {exc} (not a WargameError)"
    return _fail(game, what, mutant, problem, "crash")


def position_problem(game: AssembledGame[S, A], state: S) -> str | None:
    """Why the codec would refuse a position, or None: `check_position` (when the game has
    it) and the state's own JSON read back to the same state."""
    try:
        check = getattr(game, "check_position", None)
        if check is not None:
            check(state)
        again = game.state_from_json(game.state_to_json(state))
    except WargameError as exc:
        return f"{exc.kind} at {exc.field or '-'} {list(exc.clauses)}: {exc.message}"
    if again != state:
        return "its JSON reads back as another state"
    return None


def check_closure(
    game: AssembledGame[S, A],
    state: S,
    *,
    max_successors: int | None = None,
    mutant: Mutant | None = None,
    what: str = "accepted position",
) -> None:
    """An accepted position is one play can go on from: it passes the position check, its
    legal actions or chance outcomes can be listed, each applies, and each successor passes
    the position check too (the rules never lead from an accepted position to one the codec
    refuses). `max_successors` bounds the successors tried (evenly spread) when given."""
    try:
        problem = position_problem(game, state)
        if problem is not None:
            raise _fail(game, what, mutant, f"fails the position check: {problem}", "impossible")
        side = game.to_move(state)
        if side is None:
            if game.outcome(state) is None:
                raise _fail(game, what, mutant, "play is over without an outcome", "impossible")
            return
        if side == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            total = sum((p for _, p in outcomes), Fraction(0))
            if total != 1 or any(p <= 0 for _, p in outcomes):
                problem = f"chance probabilities sum to {total}"
                raise _fail(game, what, mutant, problem, "impossible")
            actions = [a for a, _ in outcomes]
        else:
            actions = list(game.legal_actions(state))
    except WargameError as exc:
        problem = f"play cannot go on from it: {exc.kind}: {exc}"
        raise _fail(game, what, mutant, problem, "impossible") from exc
    except AssertionError:
        raise
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if max_successors is not None and len(actions) > max_successors:
        step = len(actions) / max_successors
        actions = [actions[int(i * step)] for i in range(max_successors)]
    for action in actions:
        try:
            after = game.apply(state, action)
            problem = position_problem(game, after)
        except WargameError as exc:
            problem = f"the listed action {game.action_to_json(action)} is refused: {exc}"
            raise _fail(game, what, mutant, problem, "impossible") from exc
        except Exception as exc:
            raise _crash(game, what, mutant, exc) from exc
        if problem is not None:
            problem = (
                f"the rules lead by {json_short(game.action_to_json(action))} to a position the "
                f"codec refuses: {problem}"
            )
            raise _fail(game, what, mutant, problem, "closure")


def check_state_mutant(
    game: AssembledGame[S, A], mutant: Mutant, *, max_successors: int | None = None
) -> str:
    """A mutated state is refused (InvalidInput / ImpossiblePosition naming a field or
    clauses), or it reads as a state whose JSON is the mutant exactly and from which play goes
    on (`check_closure`). Returns REFUSED or ACCEPTED; raises MutantFailure."""
    what = "state mutant"
    try:
        state = game.state_from_json(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (InvalidInput, ImpossiblePosition))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    try:
        again = game.state_to_json(state)
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not json_equal(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    check_closure(
        game, state, max_successors=max_successors, mutant=mutant, what=f"accepted {what}"
    )
    return ACCEPTED


def check_action_mutant(game: AssembledGame[S, A], state: S, mutant: Mutant) -> str:
    """A mutated action is refused (InvalidInput naming a field), or it reads as an action
    whose JSON is the mutant exactly, which `apply` then either refuses (IllegalAction with
    clauses, or InvalidInput naming a field) or applies, only if it is listed, to a position
    that passes the position check. Returns REFUSED, ILLEGAL or APPLIED; raises
    MutantFailure."""
    what = "action mutant"
    try:
        action = game.action_from_json(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (InvalidInput, ImpossiblePosition))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    try:
        again = game.action_to_json(action)
        side = game.to_move(state)
        listed = (
            [a for a, _ in game.chance_outcomes(state)]
            if side == CHANCE
            else list(game.legal_actions(state))
        )
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not json_equal(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    try:
        after = game.apply(state, action)
    except IllegalAction as exc:
        if not exc.clauses:
            problem = f"refused naming no clause: {exc}"
            raise _fail(game, what, mutant, problem, "unnamed_refusal") from exc
        return ILLEGAL
    except InvalidInput as exc:
        if not exc.field:
            problem = f"refused naming no field: {exc}"
            raise _fail(game, what, mutant, problem, "unnamed_refusal") from exc
        return ILLEGAL
    except WargameError as exc:
        problem = f"refused as {exc.kind}: {exc}"
        raise _fail(game, what, mutant, problem, "wrong_refusal") from exc
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if action not in listed:
        raise _fail(game, what, mutant, "applied, though not a listed action", "unlisted_applied")
    refusal = position_problem(game, after)
    if refusal is not None:
        problem = f"applied, to a position the codec refuses: {refusal}"
        raise _fail(game, what, mutant, problem, "closure")
    return APPLIED


def check_log_mutant(game: AssembledGame[Any, Any], mutant: Mutant, logs: LogCodec) -> str:
    """A mutated log is refused (a WargameError naming a field or clauses), or it replays, its
    re-encoding is the mutant exactly, and, when it names a seeded agent, its actions are the
    ones that agent plays. Returns REFUSED or ACCEPTED; raises MutantFailure."""
    what = "log mutant"
    try:
        again = logs.replay(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (WargameError,))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not json_equal(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    try:
        seeded = logs.reproduce(mutant.doc)
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if seeded is not None and not json_equal(seeded, mutant.doc.get("actions")):
        problem = "it names a seeded agent, which would not have played these actions"
        raise _fail(game, f"accepted {what}", mutant, problem, "seeded_log_edited")
    return ACCEPTED


def _difference(sent: Any, read: Any) -> str:
    """Where a document read back differs from what was sent (the first few places)."""
    sent_nodes = {json_path(p): v for p, v in json_nodes(as_json(sent))}
    read_nodes = {json_path(p): v for p, v in json_nodes(as_json(read))}
    places = []
    for place in sorted(set(sent_nodes) | set(read_nodes)):
        a, b = sent_nodes.get(place, _ABSENT), read_nodes.get(place, _ABSENT)
        if a is _ABSENT or b is _ABSENT:
            if _parent_path(place) in sent_nodes and _parent_path(place) in read_nodes:
                places.append((place, a, b))
        elif not (isinstance(a, dict | list) and isinstance(b, dict | list)) and not json_equal(
            a, b
        ):
            places.append((place, a, b))
    shown = ", ".join(f"{p or '$'}: sent {_shown(a)}, read {_shown(b)}" for p, a, b in places[:4])
    more = f" and {len(places) - 4} more" if len(places) > 4 else ""
    return f"accepted but read back differently ({shown or 'the shapes differ'}{more})"


_ABSENT: Final = object()


def _shown(value: Any) -> str:
    return "nothing" if value is _ABSENT else json_short(value, 40)


def _parent_path(place: str) -> str:
    """`units[3].hex` -> `units[3]`, `units[3]` -> `units`, `turn` -> ``."""
    cut = max(place.rfind("."), place.rfind("["))
    return place[: max(cut, 0)]
