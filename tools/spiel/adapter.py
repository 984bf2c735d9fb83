"""The generic adapter from a kernel game to a Python OpenSpiel game.

One adapter (`WargameGame`, `WargameState`) plays any `kernel.game.Game` through a
per-game `ActionCodec`, which gives the game a FIXED range of integer action ids:

- every player action is a sequence of ids (its *tokens*): one id for an atomic action (a
  move), several for a compound choice (a Nomonhan declaration: "attacker U", "defender U",
  "support", "close combat", ..., then "commit"). At each sub-step the legal ids are exactly
  the next tokens of the legal sequences that extend the pending prefix, and the kernel action
  is applied when a prefix is a whole sequence; so every legal compound choice, and only
  those, can be built. Sequences are prefix-free (atomic ids and sub-decision ids are
  disjoint, and a compound sequence ends with its commit id). In a perfect-information game a
  sub-decision with one option is taken with the choice before it, never asked
  (`WargameState.step` says why not in the others). The sequences are walked in a
  `tools.spiel.tree.ChoiceTree` built from the kernel's own legal-action list as far as it is
  read: the kernel's lazy parts (`kernel.choices.Mapped`, the SNC's `MoveList`) as groups whose
  ids come from their items and whose actions are built only when chosen (the codec's
  `part_groups`), built actions by their class (`atomic_ids`), and a choice too large to list
  (a discard from a hand) by the codec's own walk (`lazy_tree`).
- chance outcomes have their own id range (`max_chance_outcomes`) and the kernel's exact
  Fractions as floats.

The OpenSpiel state holds the kernel state (pickled as the kernel's state JSON, so `serialize`
is that JSON plus the pending prefix and the move count) and no solver object. Observation
strings and tensors are built from `game.observe(state, side)` only (and the pending prefix,
which the side to move chose, and every side sees in a perfect-information game).

A game ends as the rules end it, or at a declared cap on the number of player decisions
(sub-decisions included; parameter `max_game_length`), or where the side to move has no legal
action (a gap in the rules): both are reported (`WargameState.end_reason`, `str(state)`) as
truncations with returns 0 for every side, never as a result of the rules.

Returns: +1 for the winner, -1 for the loser, 0 each for a draw (`Outcome.winner` None) or a
truncation: the kernel's `Outcome` has a winner or none, and the points it carries decide that
winner inside the rules (NOM-4.4), so the game is zero-sum on win/draw/loss.

What the kernel says of a state (the side to move, the player, the legal tree, the chance
outcomes) is asked once and kept on its node, so that OpenSpiel's repeated questions within one
step cost no kernel call; `legal_actions` and `is_chance_node` answer Python callers directly
(OpenSpiel's C++ ones, which reach `_legal_actions`, give the same). `python -m bench.spiel`
measures the adapter's cost per kernel step.

Each game's codec is in its own module of `specs`; `tools.spiel` registers them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.spiel_codec import ActionCodec, LegalTree, Spec
from tools.spiel.tree import ChoiceTree

_SPECS: dict[str, Spec] = {}


def _spec(key: str) -> Spec:
    return _SPECS[key]


def add_spec(spec: Spec) -> None:
    """Make `spec` known to the adapter under its short name (see `tools.spiel.register`)."""
    _SPECS[spec.short_name] = spec


class _Unknown:
    """Not asked yet (None is an answer: the game is over)."""


_UNKNOWN = _Unknown()
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


class _Node:
    """A kernel state inside an OpenSpiel state. OpenSpiel clones a Python state by deep-copying
    its attributes and serializes it by pickling them: a node is immutable, so a copy is the
    node itself, and it pickles as the kernel's state JSON (read back through the kernel's
    strict `state_from_json`). What the kernel says of its state (the side to move, the legal
    tree, the chance outcomes) is asked once and kept on it, never pickled."""

    __slots__ = ("_chance", "_side", "kept_player", "kept_tree", "key", "spec", "state")

    def __init__(self, key: str, state: Any) -> None:
        self.key = key
        self.spec = _SPECS[key]
        self.state = state
        # `player()` once asked and `legal()` once built, read directly on the hottest paths
        # (OpenSpiel asks for the player four times a step); set only by those two
        self.kept_player: int | None = None
        self.kept_tree: LegalTree | None = None
        self._side: str | _Unknown | None = _UNKNOWN
        self._chance: list[tuple[int, float, Any]] | None = None

    def player(self) -> int:
        """OpenSpiel's player here with no prefix pending and the cap not reached: terminal
        when the rules ended the game or the side to move has no legal action (a gap in the
        rules), else chance or the side's index."""
        player = self.kept_player
        if player is None:
            side = self.side()
            if side is None:
                player = _TERMINAL
            elif side == CHANCE:
                player = _CHANCE
            elif not self.ids(()):
                player = _TERMINAL
            else:
                player = self.spec.game.sides.index(side)
            self.kept_player = player
        return player

    def side(self) -> str | None:
        """The kernel's side to move (None once the game is over), asked of it once."""
        side = self._side
        if isinstance(side, _Unknown):
            side = self._side = self.spec.game.to_move(self.state)
        return side

    def to_json_text(self) -> str:
        return json.dumps(self.spec.game.state_to_json(self.state), sort_keys=True)

    def __reduce__(self) -> tuple[Callable[[str, str], _Node], tuple[str, str]]:
        return (_node_from_json, (self.key, self.to_json_text()))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def ids(self, prefix: tuple[int, ...]) -> list[int]:
        """The ids extending `prefix` (kept on the legal tree's node where it keeps them: not
        to be changed)."""
        tree = self.legal()
        if type(tree) is ChoiceTree:
            return tree.sorted_ids(prefix)
        return tree.next_ids(prefix)

    def legal(self) -> LegalTree:
        """The legal token sequences of the side to move (`legal_tree`)."""
        tree = self.kept_tree
        if tree is None:
            spec = self.spec
            tree = self.kept_tree = legal_tree(spec.codec, spec.game.legal_actions(self.state))
        return tree

    def chance(self) -> list[tuple[int, float, Any]]:
        """The chance outcomes as (id, probability, kernel action), by id."""
        if self._chance is None:
            spec = self.spec
            outs = spec.game.chance_outcomes(self.state)
            chance_id = spec.codec.chance_id
            self._chance = sorted(
                ((chance_id(a), p.numerator / p.denominator, a) for a, p in outs), key=_first
            )
        return self._chance


def legal_tree(codec: ActionCodec, legal: Sequence[Any]) -> LegalTree:
    """The legal sequences of `legal` (a state's legal actions): the codec's own walk where it
    has one for this list (`lazy_tree`, a choice of cards from a hand: too many to list), else
    a `ChoiceTree` that builds ids and actions only as far as it is walked."""
    own = getattr(codec, "lazy_tree", None)
    tree: LegalTree | None = own(legal) if own is not None else None
    return tree if tree is not None else ChoiceTree(codec, legal)


def continued(node: _Node, prefix: tuple[int, ...]) -> tuple[tuple[int, ...], Any | None]:
    """`prefix` extended by every forced id after it (while one id alone extends it), and the
    kernel action where that makes it whole (None where a choice is left)."""
    ids = node.ids(prefix)
    while len(ids) == 1:
        prefix = (*prefix, ids[0])
        full = node.legal().action_at(prefix)
        if full is not None:
            return prefix, full
        ids = node.ids(prefix)
    return prefix, None


def _first(item: tuple[int, float, Any]) -> int:
    return item[0]


def _node_from_json(key: str, text: str) -> _Node:
    return _Node(key, _spec(key).game.state_from_json(json.loads(text)))


class WargameState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a kernel state and a pending prefix of sub-decisions.

    OpenSpiel asks the player several times per step (`is_terminal`, `legal_actions`,
    `apply_action` each ask it): the node keeps it, with the legal tree (which keeps the ids
    at each prefix), so the end of play is worked out once per kernel state. The state itself
    holds nothing more than what it pickles."""

    def __init__(self, game: WargameGame) -> None:
        super().__init__(game)
        spec = _spec(game.key)
        self._node = _Node(game.key, spec.game.initial_state(spec.variant))
        self._prefix: tuple[int, ...] = ()
        self._decisions = 0
        self._cap: int = game.cap
        self._recall = _Recall()

    # --- the kernel's view -------------------------------------------------------------------
    @property
    def kernel_state(self) -> Any:
        return self._node.state

    @property
    def prefix(self) -> tuple[int, ...]:
        return self._prefix

    def _kgame(self) -> AssembledGame[Any, Any]:
        return _spec(self._node.key).game

    def end_reason(self) -> str | None:
        """None while play goes on; "rules" when the rules ended the game; "cap" at the declared
        cap on decisions; "no_action" when the side to move has no legal action."""
        if self._node.side() is None:
            return "rules"
        if self._decisions >= self._cap:
            return "cap"
        if self._node.player() == _TERMINAL:
            return "no_action"
        return None

    def is_truncated(self) -> bool:
        return self.end_reason() in ("cap", "no_action")

    def _legal_ids(self) -> list[int]:
        """The ids extending the pending prefix (kept on the tree's node: not copied)."""
        return self._node.ids(self._prefix)

    # --- OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self._decisions >= self._cap:
            return _TERMINAL
        player = self._node.kept_player
        return player if player is not None else self._node.player()

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._legal_ids()  # OpenSpiel copies it into a vector

    # What OpenSpiel's own `legal_actions` and `is_chance_node` answer, from Python without the
    # round trip through C++ (which asks the player back three times and copies the list twice):
    # a Python bot calls them at every step. C++ callers still reach `_legal_actions`.
    def legal_actions(self, player: int | None = None) -> list[int]:
        current = self.current_player()
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return [i for i, _, _ in self._node.chance()]
        if player is not None and player != current:
            return []
        return list(self._legal_ids())

    def is_chance_node(self) -> bool:
        return self.current_player() == _CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, p, _ in self._node.chance()]

    def _apply_action(self, action: int) -> None:
        node = self._node
        if node.side() == CHANCE:
            for i, _, a in node.chance():
                if i == action:
                    self._node = _Node(node.key, node.spec.game.apply(node.state, a))
                    return
            raise ValueError(f"{action} is not a chance outcome here")
        prefix, full = self.step(action)
        if full is None:
            self._prefix = prefix
        else:
            self._prefix = ()
            self._node = _Node(node.key, node.spec.game.apply(node.state, full))
        self._decisions += 1

    def step(self, action: int) -> tuple[tuple[int, ...], Any | None]:
        """Where the side's choice of `action` leads, the state left as it is: the prefix it
        makes, and the kernel action where that is whole (else None). In a perfect-information
        game a forced sub-decision (one id alone extends the prefix) is taken with the choice
        before it: it is not a decision, and no side can learn anything from it being asked or
        not. In a hidden-information game each is asked: how many steps a side takes shows in
        the other side's information state, and whether a sub-decision is forced may depend on
        what that side does not see (issue 31)."""
        node = self._node
        prefix = (*self._prefix, action)
        full = node.legal().action_at(prefix)
        if full is None:
            if action not in node.ids(self._prefix):
                raise ValueError(f"{action} does not extend {self._prefix} to a legal action")
            if node.spec.game.perfect_information:
                return continued(node, prefix)
        return prefix, full

    def _action_to_string(self, player: int, action: int) -> str:
        codec = _spec(self._node.key).codec
        if player == pyspiel.PlayerId.CHANCE:
            return codec.chance_string(action)
        return codec.token_string(action)

    def returns(self) -> list[float]:
        g = self._kgame()
        zero = [0.0] * len(g.sides)
        if self.end_reason() != "rules":
            return zero
        out = g.outcome(self._node.state)
        if out is None or out.winner is None:
            return zero
        return [1.0 if s == out.winner else -1.0 for s in g.sides]

    def serialize_json(self) -> str:
        """The kernel's state JSON, the pending prefix and the decisions made (what pickling
        this state's attributes holds)."""
        return json.dumps(
            {
                "state": json.loads(self._node.to_json_text()),
                "prefix": list(self._prefix),
                "decisions": self._decisions,
            },
            sort_keys=True,
        )

    def __str__(self) -> str:
        reason = self.end_reason()
        status = {None: "playing", "rules": "ended by the rules"}.get(
            reason, f"TRUNCATED ({reason}, {self._decisions}/{self._cap} decisions)"
        )
        return f"{self.serialize_json()}\n{status}"


class _Recall:
    """A state's perfect-recall lines per player, so that an information-state string asked at
    every step costs one new line, not a replay of the whole game (which made a simulation cost
    grow with the cube of its length). A copy carries them (a clone continues the same game); a
    pickle does not (they are rebuilt by one replay when a read-back state is asked)."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Recall:
        copy = _Recall()
        copy.lines = {p: list(lines) for p, lines in self.lines.items()}
        return copy

    def __reduce__(self) -> tuple[type[_Recall], tuple[()]]:
        return (_Recall, ())


class WargameObserver:
    """OpenSpiel's PyObserver interface over `game.observe`."""

    def __init__(self, key: str, perfect_recall: bool) -> None:
        spec = _spec(key)
        self.key = key
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor: np.ndarray[Any, Any] | None = None  # no information-state tensor
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            self.tensor = np.zeros(spec.codec.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def _visible_prefix(self, state: WargameState, player: int) -> tuple[int, ...]:
        """The pending sub-decisions: its own to the side choosing them, and everyone's in a
        perfect-information game."""
        g = _spec(self.key).game
        if g.perfect_information or player == state.current_player():
            return state.prefix
        return ()

    def set_from(self, state: WargameState, player: int) -> None:
        if self.tensor is None:
            return
        spec = _spec(self.key)
        self.tensor.fill(0)
        obs = spec.game.observe(state.kernel_state, spec.game.sides[player])
        spec.codec.observation_tensor(obs, self._visible_prefix(state, player), self.tensor)

    def string_from(self, state: WargameState, player: int) -> str:
        spec = _spec(self.key)
        g = spec.game
        if self.perfect_recall:
            return self._info_state(state, player)
        obs = g.observe(state.kernel_state, g.sides[player])
        prefix = self._visible_prefix(state, player)
        return json.dumps({"observation": obs, "prefix": list(prefix)}, sort_keys=True)

    def _info_state(self, state: WargameState, player: int) -> str:
        """Perfect recall. With perfect information every step is public: the history of ids
        and the current observation. Otherwise: the player's observation after every step of
        the history (replayed from the start), and its own choices."""
        plain = WargameObserver(self.key, perfect_recall=False)
        if _spec(self.key).game.perfect_information:
            hist = ",".join(str(a) for a in state.history())
            return f"history={hist}\n{plain.string_from(state, player)}"
        history = state.full_history()
        lines = state._recall.lines.get(player)
        if lines is not None and len(lines) == len(history):  # one step behind: add it
            item = history[-1]
            mine = f"me {item.action}" if item.player == player else "-"
            lines.append(f"{mine} {plain.string_from(state, player)}")
        elif lines is None or len(lines) != len(history) + 1:
            replay = state.get_game().new_initial_state()
            lines = [plain.string_from(replay, player)]
            for item in history:
                mine = f"me {item.action}" if item.player == player else "-"
                replay.apply_action(item.action)
                lines.append(f"{mine} {plain.string_from(replay, player)}")
        state._recall.lines[player] = lines
        return "\n".join(lines)


class WargameGame(pyspiel.Game):  # type: ignore[misc]
    """A kernel game as a Python OpenSpiel game."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None) -> None:
        spec = _spec(key)
        params = dict(params or {})
        self.key = key
        self.cap = int(params.get("max_game_length", spec.max_game_length))
        super().__init__(game_type(spec), game_info(spec, self.cap), params)

    def new_initial_state(self) -> WargameState:
        return WargameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> WargameObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return WargameObserver(self.key, recall)


def game_type(spec: Spec) -> Any:
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            info.PERFECT_INFORMATION
            if spec.game.perfect_information
            else info.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(spec.game.sides),
        min_num_players=len(spec.game.sides),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"max_game_length": spec.max_game_length},
    )


def game_info(spec: Spec, cap: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=spec.codec.num_distinct_actions,
        max_chance_outcomes=spec.codec.max_chance_outcomes,
        num_players=len(spec.game.sides),
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=cap,
    )
