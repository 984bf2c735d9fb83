"""What a mutant must be: refused naming a field or clauses, or exactly what it says.

`check_state_mutant`, `check_action_mutant` and `check_log_mutant` hold a game to its strict
input contract (issue 11); a position that is accepted must also pass the position check with
every successor (`check_closure`). A failure is a `MutantFailure` whose `kind` says which
promise broke.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final, TypeVar

from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from tools.testing.conformance_corpus import LogCodec
from tools.testing.mutation import Mutant
from tools.testing.mutation_json import as_json, json_equal, json_nodes, json_path, json_short

S = TypeVar("S")
A = TypeVar("A")


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
