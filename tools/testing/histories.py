"""Hidden information over whole histories: two games that differ only in what one side cannot
see must show that side the same thing at every step.

A check of one position at a time misses leaks through the order of events (which step placed
which hidden piece). This kit builds a pair of whole games, a `History` and its `twin`, that
differ only by a renaming of hidden identities (cards, pieces, units: `rename`), replays both in
lockstep and compares everything the blind side is shown after each step (`seen`):

- its view (`kernel.views.view`: the observation, and its legal actions when it is to move);
- its line of the service's log (`tools.service.logview.entries`: the narration, headline and
  events of its own steps, and who acted for the others');
- OpenSpiel's information-state string, observation string and observation tensor of its
  player after every id the adapter applies (sub-decisions included), when the game has an
  OpenSpiel codec.

The pair is compared while the renamed identities stay hidden from the blind side in both runs
(`still_hidden`, a predicate on the whole state written from the rules text, not from the
game's own observation): once one of them is shown (a card judged face up, a unit revealed by
combat) the two runs may rightly differ. A twin step the rules refuse ends the comparison too;
under `strict` such a refusal is itself a leak (the blind side could tell the two runs apart,
since one of them cannot happen), which is how a set-up forced into a fixed order shows.

Pure: no test framework, bounded by the history's length; the caller chooses the pairs.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import attrs

from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput
from kernel.game import CHANCE
from kernel.playout import play
from kernel.roles import AssembledGame
from kernel.variants import Variant
from kernel.views import view
from tools.service import logview

Game = AssembledGame[Any, Any]
Shown = tuple[str, str, tuple[float, ...]]
"""OpenSpiel's information-state string, observation string and observation tensor."""
Hidden = Callable[[Any], bool]
"""(whole state) -> True while every renamed identity is still hidden from the blind side."""


@attrs.frozen
class History:
    """A whole game: where it starts and every action after (chance outcomes included)."""

    start: Any
    actions: tuple[Any, ...]


@attrs.frozen
class Difference:
    """The first thing the blind side is shown that differs between the two runs."""

    step: int
    """0 is the start; step k is after the k-th action."""
    part: str
    left: Any
    right: Any

    def __str__(self) -> str:
        return f"step {self.step}, {self.part}: {self.left!r} != {self.right!r}"


@attrs.frozen
class Report:
    """What the comparison of a pair found."""

    compared: int
    """Steps whose views were compared (the start included)."""
    leak: Difference | None
    refused: int | None = None
    """The step the twin's rules refused (not strict: the comparison stops there)."""
    reason: str = "leak"
    """Why the comparison stopped: "leak", "end", "shown" (an identity no longer hidden) or
    "refused"."""


# --- building the twin ---------------------------------------------------------------------------


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple):
        items = tuple(_renamed(v, names) for v in value)
        if items == value:
            return value  # a hex or any other tuple that names nothing renamed stays itself
        return type(value)(*items) if hasattr(value, "_fields") else items
    if isinstance(value, frozenset):
        return frozenset(_renamed(v, names) for v in value)
    if attrs.has(type(value)):
        return rename(value, names)
    return value


def rename(action: Any, names: Mapping[str, str]) -> Any:
    """`action` with every identity renamed by `names` (a permutation, such as a swap): every
    string field, and the strings inside its tuples, sets and nested records."""
    if not attrs.has(type(action)):
        return action
    changes = {
        f.name: _renamed(getattr(action, f.name), names)
        for f in attrs.fields(type(action))
        if f.init
    }
    return attrs.evolve(action, **changes)


def swap(a: str, b: str) -> dict[str, str]:
    """The permutation exchanging two identities."""
    return {a: b, b: a}


def twin(history: History, names: Mapping[str, str], start: Any | None = None) -> History:
    """The same observable choices with the hidden identities renamed: every action renamed by
    `names`, from `start` (the history's own start when the renaming does not touch it)."""
    return History(
        history.start if start is None else start,
        tuple(rename(a, names) for a in history.actions),
    )


# --- what the blind side is shown ----------------------------------------------------------------


def _log_line(game: Game, side: str, before: Any, action: Any, after: Any) -> dict[str, Any]:
    """The service's log entry of one step, as `side` reads it."""
    states = {0: before, 1: after}
    steps: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({}, {}),
        (game.action_to_json(action), {}),
    ]
    (entry,) = logview.entries(game, steps, side, lambda ply, _doc: states[ply])
    return {k: v for k, v in entry.items() if k != "ply"}


def seen(game: Game, side: str, before: Any, action: Any, after: Any) -> dict[str, Any]:
    """All `side` is shown after a step (before the first, `action` is None): its view and its
    line of the log."""
    shown: dict[str, Any] = {"view": view(game, after, side)}
    if action is not None:
        shown["log"] = _log_line(game, side, before, action, after)
    return shown


class _Spiel:
    """One run through OpenSpiel's adapter: the blind player's strings and tensor after every
    id applied."""

    def __init__(self, game: Game, variant: Variant, start: Any, side: str) -> None:
        from tools.registry import get_package
        from tools.spiel import adapter

        codecs = get_package(game.name).spiel
        if codecs is None:
            raise ValueError(f"{game.name} has no OpenSpiel codec")
        specs = codecs(game)  # one per preset; another variant takes the first one's codec
        spec = next((s for s in specs if s.variant == variant), replace(specs[0], variant=variant))
        starting = copy.copy(game)
        starting.initial_state = lambda _variant: start
        key = f"{spec.short_name}_history_{next(_KEYS)}"
        adapter.add_spec(replace(spec, short_name=key, game=starting))
        self.spec = spec
        self.state = adapter.WargameGame(key).new_initial_state()
        self.player = game.sides.index(side)

    def shown(self) -> Shown:
        p, st = self.player, self.state
        return (
            st.information_state_string(p),
            st.observation_string(p),
            tuple(st.observation_tensor(p)),
        )

    def step(self, game: Game, before: Any, action: Any) -> list[Shown]:
        codec = self.spec.codec
        ids = (codec.chance_id(action),) if game.to_move(before) == CHANCE else codec.tokens(action)
        out = []
        for i in ids:
            self.state.apply_action(i)
            out.append(self.shown())
        return out


_KEYS = itertools.count()


class _Run:
    """One of the two games, replayed a step at a time."""

    def __init__(
        self, game: Game, side: str, history: History, hidden: Hidden, spiel: Variant | None
    ) -> None:
        self.game, self.side, self.history, self.hidden = game, side, history, hidden
        self.state = history.start
        self.spiel = None if spiel is None else _Spiel(game, spiel, history.start, side)

    def first(self) -> dict[str, Any]:
        shown = seen(self.game, self.side, None, None, self.state)
        if self.spiel is not None:
            shown["spiel"] = [self.spiel.shown()]
        return shown

    def advance(self, k: int) -> Any:
        """Apply action k: the new state, or None when the rules refuse it here."""
        g, s, a = self.game, self.state, self.history.actions[k]
        if g.to_move(s) is None:
            return None
        if g.to_move(s) == CHANCE and all(a != x for x, _ in g.chance_outcomes(s)):
            return None
        try:  # the rules refuse what they forbid (`Game.apply`)
            return g.apply(s, a)
        except IllegalAction:
            return None

    def shown(self, k: int, after: Any) -> dict[str, Any]:
        before, self.state = self.state, after
        out = seen(self.game, self.side, before, self.history.actions[k], after)
        if self.spiel is not None:
            out["spiel"] = self.spiel.step(self.game, before, self.history.actions[k])
        return out


def _difference(step: int, a: Mapping[str, Any], b: Mapping[str, Any]) -> Difference | None:
    for part in a:
        if a[part] != b[part]:
            return Difference(step, part, a[part], b[part])
    return None


def compare(
    game: Game,
    side: str,
    history: History,
    other: History,
    hidden: Hidden,
    *,
    spiel: Variant | None = None,
    strict: bool = False,
) -> Report:
    """Replay `history` and its twin `other` in lockstep and compare all `side` is shown after
    each step, while `hidden` holds in both runs. `spiel`, the variant of a preset with an
    OpenSpiel codec, adds the adapter's strings and tensors. `strict`: a twin step refused while
    the identities are hidden is a leak."""
    if len(other.actions) != len(history.actions):
        raise ValueError("a twin has as many steps as its history")
    a = _Run(game, side, history, hidden, spiel)
    try:
        game.check_position(other.start)
    except (ImpossiblePosition, InvalidInput):
        return _refused(0, strict, None)
    b = _Run(game, side, other, hidden, spiel)
    if not (hidden(a.state) and hidden(b.state)):
        return Report(0, None, reason="shown")
    leak = _difference(0, a.first(), b.first())
    if leak is not None:
        return Report(1, leak)
    for k in range(len(history.actions)):
        left = a.advance(k)
        if left is None:
            raise ValueError(f"step {k + 1} of the history is not legal")
        if not hidden(left):
            return Report(k + 1, None, reason="shown")
        right = b.advance(k)
        if right is None:
            what = Difference(k + 1, "refused", history.actions[k], other.actions[k])
            return _refused(k + 1, strict, what)
        if not hidden(right):
            return Report(k + 1, None, reason="shown")
        leak = _difference(k + 1, a.shown(k, left), b.shown(k, right))
        if leak is not None:
            return Report(k + 2, leak)
    return Report(len(history.actions) + 1, None, reason="end")


def _refused(step: int, strict: bool, what: Difference | None) -> Report:
    """The twin cannot be played from `step` on: a leak under `strict`, else the end."""
    if strict:
        return Report(step, what or Difference(step, "refused", "the start", None), step, "leak")
    return Report(step, None, step, "refused")


def play_history(
    game: Game, variant: Variant, rng: Any, steps: int, *, start: Any | None = None
) -> History:
    """A seeded game of at most `steps` actions from `start` (the variant's initial state), the
    game's own playout agents choosing (`kernel.playout.play`)."""
    s = game.initial_state(variant) if start is None else start
    return History(s, tuple(play(game, s, rng, max_steps=steps).actions))


def states(game: Game, history: History) -> Sequence[Any]:
    """Every state of `history`, the start first."""
    out = [history.start]
    for a in history.actions:
        out.append(game.apply(out[-1], a))
    return out
