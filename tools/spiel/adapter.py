"""The generic adapter from a kernel game to a Python OpenSpiel game.

One adapter (`WargameGame`, `WargameState`) plays any `kernel.game.Game` through a
per-game `ActionCodec`, which gives the game a FIXED range of integer action ids:

- every player action is a sequence of ids (its *tokens*): one id for an atomic action (a
  move), several for a compound choice (a Nomonhan declaration: "attacker U", "defender U",
  "support", "close combat", ..., then "commit"). The adapter builds, from the kernel's
  `legal_actions` (which enumerate full choices), the token sequence of every legal action; at
  each sub-step the legal ids are exactly the next tokens of the sequences that extend the
  pending prefix (a codec whose compound choices are too many to list, such as a choice of
  cards from a hand, walks them lazily instead: a `legal_tree` method), and the kernel
  action is applied when a prefix is a whole sequence. So every
  legal compound choice, and only those, can be built. Sequences are prefix-free (atomic ids
  and sub-decision ids are disjoint, and a compound sequence ends with its commit id).
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

Each game's codec is in its own module of this package; `tools.spiel` registers them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.spiel_codec import LegalTree, Spec, table_tree

_SPECS: dict[str, Spec] = {}


def _spec(key: str) -> Spec:
    return _SPECS[key]


def add_spec(spec: Spec) -> None:
    """Make `spec` known to the adapter under its short name (see `tools.spiel.register`)."""
    _SPECS[spec.short_name] = spec


class _Unknown:
    """Not asked yet (None is an answer: the game is over)."""


_UNKNOWN = _Unknown()


class _Node:
    """A kernel state inside an OpenSpiel state. OpenSpiel clones a Python state by deep-copying
    its attributes and serializes it by pickling them: a node is immutable, so a copy is the
    node itself, and it pickles as the kernel's state JSON (read back through the kernel's
    strict `state_from_json`). Its legal tree is cached on it, never pickled."""

    __slots__ = ("_legal", "_side", "key", "state")

    def __init__(self, key: str, state: Any) -> None:
        self.key = key
        self.state = state
        self._legal: LegalTree | None = None
        self._side: str | _Unknown | None = _UNKNOWN

    def side(self) -> str | None:
        """The kernel's side to move (None once the game is over), asked of it once."""
        side = self._side
        if isinstance(side, _Unknown):
            side = self._side = _spec(self.key).game.to_move(self.state)
        return side

    def to_json_text(self) -> str:
        return json.dumps(_spec(self.key).game.state_to_json(self.state), sort_keys=True)

    def __reduce__(self) -> tuple[Callable[[str, str], _Node], tuple[str, str]]:
        return (_node_from_json, (self.key, self.to_json_text()))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def legal(self) -> LegalTree:
        """The legal token sequences of the side to move: the codec's own tree when it walks
        them lazily (`legal_tree`), else the table of every legal action's tokens."""
        if self._legal is None:
            spec = _spec(self.key)
            lazy = getattr(spec.codec, "legal_tree", None)
            if lazy is not None:
                self._legal = lazy(spec.game, self.state)
            else:
                self._legal = table_tree(spec.codec, spec.game.legal_actions(self.state))
        return self._legal


def _node_from_json(key: str, text: str) -> _Node:
    return _Node(key, _spec(key).game.state_from_json(json.loads(text)))


class WargameState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a kernel state and a pending prefix of sub-decisions."""

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
        cap on decisions; "no_action" when the side to move has no legal action. OpenSpiel asks
        it at every `is_terminal`, `current_player` and `returns`: the side to move and the
        legal tree are kept on the node, so only the first asking costs a kernel call."""
        node = self._node
        side = node.side()
        if side is None:
            return "rules"
        if self._decisions >= self._cap:
            return "cap"
        if side != CHANCE and not node.legal().next_ids(()):
            return "no_action"
        return None

    def is_truncated(self) -> bool:
        return self.end_reason() in ("cap", "no_action")

    # --- OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.end_reason() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        side = self._node.side()
        if side == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self._kgame().sides.index(side)

    def is_terminal(self) -> bool:
        return self.end_reason() is not None

    def _legal_actions(self, player: int) -> list[int]:
        return self._node.legal().next_ids(self._prefix)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        codec = _spec(self._node.key).codec
        outs = self._kgame().chance_outcomes(self._node.state)
        return sorted((codec.chance_id(a), float(p)) for a, p in outs)

    def _apply_action(self, action: int) -> None:
        spec = _spec(self._node.key)
        g = spec.game
        if self._node.side() == CHANCE:
            for a, _ in g.chance_outcomes(self._node.state):
                if spec.codec.chance_id(a) == action:
                    self._node = _Node(self._node.key, g.apply(self._node.state, a))
                    return
            raise ValueError(f"{action} is not a chance outcome here")
        prefix = (*self._prefix, action)
        legal = self._node.legal()
        if action not in legal.next_ids(self._prefix):
            raise ValueError(f"{action} does not extend {self._prefix} to a legal action")
        self._decisions += 1
        full = legal.action_at(prefix)
        if full is None:
            self._prefix = prefix
            return
        self._prefix = ()
        self._node = _Node(self._node.key, g.apply(self._node.state, full))

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
