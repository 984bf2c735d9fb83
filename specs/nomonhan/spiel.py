"""Nomonhan as OpenSpiel games: `python_wargame_nomonhan_ja` and `python_wargame_nomonhan_en`,
one name per preset rather than one game with a `preset` parameter, so each name is one fixed
ruleset with its own GameType and `pyspiel.load_game(name)` needs no parameter to mean one thing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args

import numpy as np

from kernel.hexes import Hex, hex_name
from kernel.spiel_codec import IdRanges, Spec, preset_specs
from specs.nomonhan.io import wire

MAX_GAME_LENGTH = 5000
"""The declared cap on player decisions (sub-decisions included). Neither Nomonhan preset has a
bound in its rules: a turn's four-phase cycle repeats until the initiative changes (NOM-5.2,
NOM-6.2), and EN has no last turn (AMB-NOM-4). Random play ends well within it (JA 78-428, EN
135-831 decisions over 20 seeded games)."""


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
        self.ids = IdRanges(sizes)
        self.base, self.ranges = self.ids.base, self.ids.ranges
        self.num_distinct_actions = at = self.ids.total
        self.max_chance_outcomes = self.dice * self.dice + 6
        self.sub_first = self.base["attacker"]
        self.sub_count = at - self.sub_first
        # the longest prefix: each unit once, and per combat (at most U // 2: one attacker
        # and one defender each) `support` and `close`
        self.max_prefix = u + 2 * (u // 2)
        self.atomic_ids = self._make_atomic_ids()
        from specs.nomonhan.rules import actions as A

        self._roll, self._end_roll, self._declare = A.Roll, A.EndRoll, A.Declare
        self._layout()

    # --- ids -----------------------------------------------------------------------------------
    def tokens(self, action: Any) -> tuple[int, ...]:
        atomic = self.atomic_ids.get(type(action))
        if atomic is not None:
            return (atomic(action),)
        if type(action) is self._declare:
            return self._declaration(action)
        raise TypeError(f"not a Nomonhan player action: {action!r}")

    def _declaration(self, action: Any) -> tuple[int, ...]:
        b, ux = self.base, self.unit_ix
        out: list[int] = []
        for c in action.combats:
            out += [b["attacker"] + ux[x] for x in c.attackers]
            out += [b["defender"] + ux[x] for x in c.defenders]
            if c.support:
                out.append(b["support"])
            out.append(b["close"])
        out.append(b["commit"])
        return tuple(out)

    def _make_atomic_ids(self) -> dict[type, Callable[[Any], int]]:
        """The id of each atomic action, by its class: a dispatch on the class (the adapter
        encodes every legal action of every state it reaches)."""
        from specs.nomonhan.rules import actions as A

        b, H, ux, hx = self.base, len(self.hexes), self.unit_ix, self.hex_ix
        F, fx = len(self.flags), self.flag_ix

        def pair(kind: str) -> Callable[[Any], int]:
            first = b[kind]
            return lambda a: first + ux[a.unit] * H + hx[a.to]

        def loss(a: Any) -> int:
            if a.retreat_to is None:
                return b["step"] + ux[a.unit]
            return b["retreat"] + ux[a.unit] * H + hx[a.retreat_to]

        return {
            A.Move: pair("move"),
            A.Enter: lambda a: b["enter"] + (ux[a.unit] * F + fx[a.at]) * H + hx[a.to],
            A.Loss: loss,
            A.Advance: pair("advance"),
            A.Resolve: lambda a: b["resolve"] + a.index,
            A.Demolish: lambda a: b["demolish"],
            A.EndPhase: lambda a: b["end_phase"],
            A.EndAdvance: lambda a: b["end_advance"],
        }

    def chance_id(self, action: Any) -> int:
        if type(action) is self._roll:
            return action.attacker_hits * self.dice + action.defender_hits
        if type(action) is self._end_roll:
            return self.dice * self.dice + action.face - 1
        raise TypeError(f"not a Nomonhan chance action: {action!r}")

    def chance_string(self, token: int) -> str:
        if token < self.dice * self.dice:
            return f"roll attacker {token // self.dice} hits, defender {token % self.dice} hits"
        return f"end-of-turn die {token - self.dice * self.dice + 1}"

    def token_string(self, token: int) -> str:
        return self._name(*self.ids.find(token))

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
    _STAGES = get_args(wire.StageName)  # the observation's vocabularies, from its wire record
    _PHASES = get_args(wire.PhaseName)
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


def specs(game: Any) -> list[Spec]:
    """One game per preset of `game` (the assembled game; the codec reads its rules)."""
    return preset_specs(game, NomonhanCodec(game.rules), lambda variant: MAX_GAME_LENGTH)
