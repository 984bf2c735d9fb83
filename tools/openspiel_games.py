"""The kernel's games as Python OpenSpiel games (`pyspiel.register_game`).

One generic adapter (`WargameGame`, `WargameState`) plays any `kernel.game.Game` through a
per-game `ActionCodec`, which gives the game a FIXED range of integer action ids:

- every player action is a sequence of ids (its *tokens*): one id for an atomic action (a
  move), several for a compound choice (a Nomonhan declaration: "attacker U", "defender U",
  "support", "close combat", ..., then "commit"). The adapter builds, from the kernel's
  `legal_actions` (which enumerate full choices), the token sequence of every legal action; at
  each sub-step the legal ids are exactly the next tokens of the sequences that extend the
  pending prefix, and the kernel action is applied when a prefix is a whole sequence. So every
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

Registered: `python_wargame_nomonhan_ja` and `python_wargame_nomonhan_en`, one name per preset
rather than one game with a `preset` parameter, so each name is one fixed ruleset with its own
GameType and `pyspiel.load_game(name)` needs no parameter to mean one thing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyspiel

from kernel.game import CHANCE, Game
from kernel.hexes import Hex, hex_name
from kernel.variants import Variant

DEFAULT_MAX_GAME_LENGTH = 5000
"""The declared cap on player decisions (sub-decisions included). Neither Nomonhan preset has a
bound in its rules: a turn's four-phase cycle repeats until the initiative changes (NOM-5.2,
NOM-6.2), and EN has no last turn (AMB-NOM-4). Random play ends well within it (JA 78-428, EN
135-831 decisions over 20 seeded games)."""


class ActionCodec(Protocol):
    """A game's fixed action-id range and the decomposition of its actions into ids."""

    num_distinct_actions: int
    """Player ids are in [0, num_distinct_actions)."""
    max_chance_outcomes: int
    """Chance ids are in [0, max_chance_outcomes)."""
    observation_size: int

    def tokens(self, action: Any) -> tuple[int, ...]:
        """The ids that build a player action: one for an atomic action, or sub-decisions
        ending with a commit id for a compound one."""
        ...

    def chance_id(self, action: Any) -> int: ...

    def token_string(self, token: int) -> str:
        """A readable name for a player id (unique per id)."""
        ...

    def chance_string(self, token: int) -> str: ...

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        """Write the observation (`game.observe` of one side) and the visible pending prefix
        into `out` (zeroed, `observation_size` floats)."""
        ...


@dataclass(frozen=True)
class Spec:
    """One registered game: the kernel game, the ruleset, the codec."""

    short_name: str
    long_name: str
    game: Game[Any, Any]
    variant: Variant
    codec: ActionCodec


_SPECS: dict[str, Spec] = {}


def _spec(key: str) -> Spec:
    return _SPECS[key]


class _Node:
    """A kernel state inside an OpenSpiel state. OpenSpiel clones a Python state by deep-copying
    its attributes and serializes it by pickling them: a node is immutable, so a copy is the
    node itself, and it pickles as the kernel's state JSON (read back through the kernel's
    strict `state_from_json`). The legal token sequences are cached on it, never pickled."""

    __slots__ = ("_legal", "key", "state")

    def __init__(self, key: str, state: Any) -> None:
        self.key = key
        self.state = state
        self._legal: dict[tuple[int, ...], Any] | None = None

    def to_json_text(self) -> str:
        return json.dumps(_spec(self.key).game.state_to_json(self.state), sort_keys=True)

    def __reduce__(self) -> tuple[Callable[[str, str], _Node], tuple[str, str]]:
        return (_node_from_json, (self.key, self.to_json_text()))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def legal(self) -> dict[tuple[int, ...], Any]:
        """Token sequence -> kernel action, for every legal action of the side to move."""
        if self._legal is None:
            spec = _spec(self.key)
            table: dict[tuple[int, ...], Any] = {}
            for action in spec.game.legal_actions(self.state):
                seq = spec.codec.tokens(action)
                if seq in table:
                    raise AssertionError(f"two legal actions encode as {seq}")
                table[seq] = action
            self._legal = table
        return self._legal


def _node_from_json(key: str, text: str) -> _Node:
    return _Node(key, _spec(key).game.state_from_json(json.loads(text)))


def next_tokens(sequences: Sequence[tuple[int, ...]], prefix: tuple[int, ...]) -> list[int]:
    """The ids that extend `prefix` towards some sequence, ascending."""
    n = len(prefix)
    return sorted({s[n] for s in sequences if len(s) > n and s[:n] == prefix})


class WargameState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a kernel state and a pending prefix of sub-decisions."""

    def __init__(self, game: WargameGame) -> None:
        super().__init__(game)
        spec = _spec(game.key)
        self._node = _Node(game.key, spec.game.initial_state(spec.variant))
        self._prefix: tuple[int, ...] = ()
        self._decisions = 0
        self._cap: int = game.cap

    # --- the kernel's view -------------------------------------------------------------------
    @property
    def kernel_state(self) -> Any:
        return self._node.state

    @property
    def prefix(self) -> tuple[int, ...]:
        return self._prefix

    def _kgame(self) -> Game[Any, Any]:
        return _spec(self._node.key).game

    def end_reason(self) -> str | None:
        """None while play goes on; "rules" when the rules ended the game; "cap" at the declared
        cap on decisions; "no_action" when the side to move has no legal action."""
        g = self._kgame()
        side = g.to_move(self._node.state)
        if side is None:
            return "rules"
        if self._decisions >= self._cap:
            return "cap"
        if side != CHANCE and not self._node.legal():
            return "no_action"
        return None

    def is_truncated(self) -> bool:
        return self.end_reason() in ("cap", "no_action")

    # --- OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.end_reason() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        side = self._kgame().to_move(self._node.state)
        if side == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self._kgame().sides.index(side)

    def is_terminal(self) -> bool:
        return self.end_reason() is not None

    def _legal_actions(self, player: int) -> list[int]:
        return next_tokens(list(self._node.legal()), self._prefix)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        codec = _spec(self._node.key).codec
        outs = self._kgame().chance_outcomes(self._node.state)
        return sorted((codec.chance_id(a), float(p)) for a, p in outs)

    def _apply_action(self, action: int) -> None:
        spec = _spec(self._node.key)
        g = spec.game
        if g.to_move(self._node.state) == CHANCE:
            for a, _ in g.chance_outcomes(self._node.state):
                if spec.codec.chance_id(a) == action:
                    self._node = _Node(self._node.key, g.apply(self._node.state, a))
                    return
            raise ValueError(f"{action} is not a chance outcome here")
        prefix = (*self._prefix, action)
        legal = self._node.legal()
        if action not in next_tokens(list(legal), self._prefix):
            raise ValueError(f"{action} does not extend {self._prefix} to a legal action")
        self._decisions += 1
        full = legal.get(prefix)
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
        game = state.get_game()
        replay = game.new_initial_state()
        lines = [plain.string_from(replay, player)]
        for item in state.full_history():
            mine = f"me {item.action}" if item.player == player else "-"
            replay.apply_action(item.action)
            lines.append(f"{mine} {plain.string_from(replay, player)}")
        return "\n".join(lines)


class WargameGame(pyspiel.Game):  # type: ignore[misc]
    """A kernel game as a Python OpenSpiel game."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None) -> None:
        spec = _spec(key)
        params = dict(params or {})
        self.key = key
        self.cap = int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))
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
        parameter_specification={"max_game_length": DEFAULT_MAX_GAME_LENGTH},
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


# --- Nomonhan ------------------------------------------------------------------------------------


class NomonhanCodec:
    """Nomonhan's ids (U = 9 units in counter order, H = 72 map hexes in hex order, F = the
    flag hexes of both sides in hex order):

    player ids, in this order: move (U*H), enter (U*F*H), step loss (U), retreat loss (U*H),
    advance (U*H), resolve combat i (9), demolish, end phase, end advance, then the
    declaration's sub-decisions: attacker U (U), defender U (U), support, close combat,
    commit. A declaration is: for each combat in order, its attackers, its defenders,
    `support` when the Artillery supports it, `close`; then `commit` (no combat: `commit`).

    chance ids: roll (a, d) -> a * 16 + d (0..255, hits 0..15 each, `wire.MAX_DICE`), end-of-
    turn die face f -> 256 + f - 1."""

    def __init__(self, game: Any) -> None:
        from specs.nomonhan import wire

        b = game.board
        self.units: list[str] = [u.id for u in b.data.units]
        self.unit_ix = {u: i for i, u in enumerate(self.units)}
        self.hexes: list[Hex] = sorted(b.map.hexes)
        self.hex_ix = {h: i for i, h in enumerate(self.hexes)}
        self.flags: list[Hex] = sorted(h for hs in b.map.flags.values() for h in hs)
        self.flag_ix = {h: i for i, h in enumerate(self.flags)}
        u, h, f = len(self.units), len(self.hexes), len(self.flags)
        self.max_combats = wire.UNITS
        self.dice = wire.MAX_DICE + 1
        sizes = [
            ("move", u * h),
            ("enter", u * f * h),
            ("step", u),
            ("retreat", u * h),
            ("advance", u * h),
            ("resolve", self.max_combats),
            ("demolish", 1),
            ("end_phase", 1),
            ("end_advance", 1),
            ("attacker", u),
            ("defender", u),
            ("support", 1),
            ("close", 1),
            ("commit", 1),
        ]
        self.base: dict[str, int] = {}
        self.ranges: list[tuple[str, int, int]] = []
        at = 0
        for name, size in sizes:
            self.base[name] = at
            self.ranges.append((name, at, size))
            at += size
        self.num_distinct_actions = at
        self.max_chance_outcomes = self.dice * self.dice + 6
        self.sub_first = self.base["attacker"]
        self.sub_count = at - self.sub_first
        # the longest prefix: each unit once, and per combat (at most U // 2: one attacker
        # and one defender each) `support` and `close`
        self.max_prefix = u + 2 * (u // 2)
        self._layout()

    # --- ids -----------------------------------------------------------------------------------
    def tokens(self, action: Any) -> tuple[int, ...]:
        from specs.nomonhan import actions as A

        b, H, ux, hx = self.base, len(self.hexes), self.unit_ix, self.hex_ix
        match action:
            case A.Move(unit, to):
                return (b["move"] + ux[unit] * H + hx[to],)
            case A.Enter(unit, at, to):
                return (b["enter"] + (ux[unit] * len(self.flags) + self.flag_ix[at]) * H + hx[to],)
            case A.Loss(unit, None):
                return (b["step"] + ux[unit],)
            case A.Loss(unit, to):
                assert to is not None
                return (b["retreat"] + ux[unit] * H + hx[to],)
            case A.Advance(unit, to):
                return (b["advance"] + ux[unit] * H + hx[to],)
            case A.Resolve(index):
                return (b["resolve"] + index,)
            case A.Demolish():
                return (b["demolish"],)
            case A.EndPhase():
                return (b["end_phase"],)
            case A.EndAdvance():
                return (b["end_advance"],)
            case A.Declare(combats):
                out: list[int] = []
                for c in combats:
                    out += [b["attacker"] + ux[x] for x in c.attackers]
                    out += [b["defender"] + ux[x] for x in c.defenders]
                    if c.support:
                        out.append(b["support"])
                    out.append(b["close"])
                out.append(b["commit"])
                return tuple(out)
        raise TypeError(f"not a Nomonhan player action: {action!r}")

    def chance_id(self, action: Any) -> int:
        from specs.nomonhan import actions as A

        match action:
            case A.Roll(a, d):
                return a * self.dice + d
            case A.EndRoll(face):
                return self.dice * self.dice + face - 1
        raise TypeError(f"not a Nomonhan chance action: {action!r}")

    def chance_string(self, token: int) -> str:
        if token < self.dice * self.dice:
            return f"roll attacker {token // self.dice} hits, defender {token % self.dice} hits"
        return f"end-of-turn die {token - self.dice * self.dice + 1}"

    def token_string(self, token: int) -> str:
        for name, start, size in self.ranges:
            if start <= token < start + size:
                return self._name(name, token - start)
        raise ValueError(f"no Nomonhan action id {token}")

    def _name(self, kind: str, k: int) -> str:
        H, F = len(self.hexes), len(self.flags)
        match kind:
            case "move" | "retreat" | "advance":
                return f"{kind} {self.units[k // H]} to {hex_name(self.hexes[k % H])}"
            case "enter":
                unit, rest = divmod(k, F * H)
                at, to = divmod(rest, H)
                return (
                    f"enter {self.units[unit]} at {hex_name(self.flags[at])} "
                    f"to {hex_name(self.hexes[to])}"
                )
            case "step":
                return f"step loss {self.units[k]}"
            case "resolve":
                return f"resolve combat {k}"
            case "attacker" | "defender":
                return f"declare: {kind} {self.units[k]}"
            case "support" | "close" | "commit":
                return f"declare: {kind}"
        return kind.replace("_", " ")

    # --- the observation tensor ----------------------------------------------------------------
    _STAGES = ("move", "declare", "pick", "roll", "damage", "advance", "end_roll", "over")
    _PHASES = ("ip_movement", "ip_combat", "nip_movement", "nip_combat")
    _FLAGS = ("demolished", "artillery_used", "nip_moved_this_turn", "turn_ending", "end_rolled")
    _TURNS = 9  # one-hot turns 1..8, and "after 8" (EN has no last turn)

    def _layout(self) -> None:
        u, h = len(self.units), len(self.hexes)
        combat = 2 * u + 1
        parts = [
            ("unit_hex", u * (h + 1)),  # one-hot per unit, last column: off the map
            ("unit_steps", u * 3),
            ("moved", u),
            ("withdrawn", u),
            ("turn", self._TURNS),
            ("initiative", 2),
            ("phase", len(self._PHASES)),
            ("stage", len(self._STAGES)),
            ("flags", len(self._FLAGS)),
            ("pending", self.max_combats * (combat + 1)),
            ("current", 1 + combat + 2 + 3 * self.dice + u * (h + 1) + u),
            ("points", 2),
            ("result", 3),  # over, JP wins, SU wins
            ("prefix", self.max_prefix * self.sub_count),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in parts:
            self.offsets[name] = at
            at += size
        self.observation_size = at

    def _combat(self, c: Mapping[str, Any], out: np.ndarray[Any, Any], at: int) -> None:
        u = len(self.units)
        for x in c["attackers"]:
            out[at + self.unit_ix[x]] = 1
        for x in c["defenders"]:
            out[at + u + self.unit_ix[x]] = 1
        out[at + 2 * u] = 1 if c["support"] else 0

    def _hex_col(self, name: str | None) -> int:
        if name is None:
            return len(self.hexes)
        return self.hex_ix[Hex(int(name[:2]), int(name[2:]))]

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        o, obs = self.offsets, observation
        u, h = len(self.units), len(self.hexes)
        sides = ("JP", "SU")
        for unit in obs["units"]:
            i = self.unit_ix[unit["id"]]
            out[o["unit_hex"] + i * (h + 1) + self._hex_col(unit["hex"])] = 1
            out[o["unit_steps"] + i * 3 + unit["steps"]] = 1
        for x in obs["moved"]:
            out[o["moved"] + self.unit_ix[x]] = 1
        for x in obs["withdrawn"]:
            out[o["withdrawn"] + self.unit_ix[x]] = 1
        out[o["turn"] + min(obs["turn"], self._TURNS) - 1] = 1
        out[o["initiative"] + sides.index(obs["initiative"])] = 1
        out[o["phase"] + self._PHASES.index(obs["phase"])] = 1
        out[o["stage"] + self._STAGES.index(obs["stage"])] = 1
        for k, flag in enumerate(self._FLAGS):
            out[o["flags"] + k] = 1 if obs[flag] else 0
        width = 2 * u + 2
        for k, c in enumerate(obs["pending"]):
            out[o["pending"] + k * width] = 1
            self._combat(c, out, o["pending"] + k * width + 1)
        cur = obs["current"]
        if cur is not None:
            at = o["current"]
            out[at] = 1
            self._combat(cur["combat"], out, at + 1)
            at += 1 + 2 * u + 1
            if cur["loser"] is not None:
                out[at + sides.index(cur["loser"])] = 1
            at += 2
            for k, field in enumerate(("damage_left", "damage_done", "advance_left")):
                out[at + k * self.dice + cur[field]] = 1
            at += 3 * self.dice
            for unit, name in cur["start_hexes"].items():
                out[at + self.unit_ix[unit] * (h + 1) + self._hex_col(name)] = 1
            at += u * (h + 1)
            for x in cur["retreated"]:
                out[at + self.unit_ix[x]] = 1
        out[o["points"]] = obs["points"]["JP"] / 36
        out[o["points"] + 1] = obs["points"]["SU"] / 36
        res = obs["result"]
        if res is not None:
            out[o["result"]] = 1
            if res["winner"] is not None:
                out[o["result"] + 1 + sides.index(res["winner"])] = 1
        if len(prefix) > self.max_prefix:
            raise AssertionError(f"a declaration prefix longer than {self.max_prefix}")
        for k, token in enumerate(prefix):
            out[o["prefix"] + k * self.sub_count + token - self.sub_first] = 1


# --- registration --------------------------------------------------------------------------------


def specs() -> list[Spec]:
    """The games this module registers."""
    if not _SPECS:
        from specs.nomonhan import Nomonhan

        nomonhan = Nomonhan()
        codec = NomonhanCodec(nomonhan)
        for preset, variant in sorted(nomonhan.presets().items()):
            name = f"python_wargame_nomonhan_{preset}"
            long = f"Python wargame kernel: {nomonhan.title} ({preset.upper()} preset)"
            _SPECS[name] = Spec(name, long, nomonhan, variant, codec)
    return list(_SPECS.values())


def _creator(key: str) -> type[WargameGame]:
    """A subclass of `WargameGame` bound to `key`. OpenSpiel keeps the creator until the C++
    registry is destroyed, after the interpreter has finalized: a class (kept alive by its own
    reference cycles) outlives that, where a closure would be freed without the GIL and abort
    the process at exit."""

    def init(self: WargameGame, params: Mapping[str, Any] | None = None) -> None:
        WargameGame.__init__(self, key, params)

    return type(f"WargameGame_{key}", (WargameGame,), {"__init__": init})


def register() -> list[str]:
    """Register every game with OpenSpiel (once); returns their short names."""
    known = set(pyspiel.registered_names())
    names = []
    for spec in specs():
        if spec.short_name not in known:
            pyspiel.register_game(game_type(spec), _creator(spec.short_name))
        names.append(spec.short_name)
    return names


GAMES = register()
"""The short names registered on import."""
