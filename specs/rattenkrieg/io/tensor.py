"""Rattenkrieg's observation tensor for its OpenSpiel games (`specs.rattenkrieg.spiel`): the
layout of one side's observation (`observe`) as a flat vector, and the 52 cards in the reading
order the action ids share. It is apart from the action ids of `spiel.RattenkriegCodec`, which
takes it as a base, so that each module keeps one job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args

from specs.rattenkrieg.io import wire
from specs.rattenkrieg.io.wire import MAX_STEPS
from specs.rattenkrieg.rules.cards import MAX_HAND, RANKS, SUITS
from specs.rattenkrieg.rules.state import Stage

if TYPE_CHECKING:
    import numpy as np

CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 cards in their reading order (`cards.sort_cards`), so ascending ids are that order."""

_TURNS = 6  # RKS-4.1.2
# the observation's vocabularies, read from its wire record (one place to change them)
_PHASES = get_args(wire.PhaseName)
_STAGES = tuple(s.value for s in Stage)
_SIDES = get_args(wire.Side)
_EFFECTS = get_args(wire.Effect)
_COMBAT_EFFECTS = get_args(wire.CombatEffect)
_CAUSES = get_args(wire.Cause)
_COMBAT_STEPS = get_args(wire.StepName)
_MAX_EFFECTS = 4  # two cards of each (RKS-9.1.1, RKS-9.1.2): the wire's bound
_MAX_RAISES = 51  # RKS-8.6.1: one card each


class ObservationTensor:
    """The observation tensor of `spiel.RattenkriegCodec`, which sets the units, the Areas and
    the cards it reads and the discard's first ids (the pending prefix)."""

    units: list[str]
    unit_ix: dict[str, int]
    areas: list[str]
    area_ix: dict[str, int]
    stalingrad: list[str]
    card_ix: dict[str, int]
    sub_first: int
    commit_first: int

    def _unit_or_none(self, unit: str | None) -> int:
        return 0 if unit is None else 1 + self.unit_ix[unit]

    def _layout(self) -> None:
        """The tensor's parts, each read from one field of `observe` (one-hot values, multi-hot
        card sets, counts scaled by 52). Left out: the variant, fixed by the game's name, and
        the result's wording; the draws queue is its next draw and the count of each kind,
        and the spent combat cards are a set, their order not being used by the rules."""
        u, a, c, s = len(self.units), len(self.areas), len(CARDS), len(self.stalingrad)
        self.draw_slots = 3 * u + 2  # steps (U), hand (2 sides), bombardment (U), air (U)
        placed = 1 + 2 + (c + 1) + (1 + u) + 1  # present, side, card or face down, origin, open
        parts = [
            ("turn", _TURNS),
            ("phase", len(_PHASES)),
            ("stage", len(_STAGES)),
            ("player", 2),
            ("side", 2),
            ("to_move", 3),  # GE, SU, chance; none when the game is over
            ("control", s * 3),  # none, GE, SU
            ("discards", c),
            ("discard_count", 1),
            ("removed", c),
            ("removed_count", 1),
            ("eliminated", u * (1 + _TURNS)),
            ("passes", 2),
            ("acting", u),
            ("acted", 2),  # acted, recruited
            ("effects", len(_EFFECTS) * (_MAX_EFFECTS + 1)),
            ("pending", 1 + a + (1 + u) + 2),
            ("damage", 1 + u + len(_CAUSES)),
            ("draw_next", self.draw_slots),
            ("draw_counts", self.draw_slots),
            ("pick", 1 + 1 + u),
            ("result", 3),  # over, GE wins, SU wins
            ("unit_area", u * (a + 1)),  # last column: off the map
            ("unit_steps", u * (MAX_STEPS + 1)),
            ("unit_flags", u * 2),  # flipped, isolated
            ("unit_cards", u * c),
            ("hand", c),
            ("hand_counts", 2 * (MAX_HAND + 1)),
            ("deck_count", 1),
            ("exposed", c),  # AMB-RKS-7: step cards both players saw
            ("combat", 1 + a + u + (1 + u) + len(_COMBAT_STEPS) + len(_CAUSES)),
            ("attack", placed),
            ("defence", placed),
            ("spent", c + 4),  # cards seen, then per side: count, face down
            ("combat_more", (1 + u) + 3 + 1 + len(_COMBAT_EFFECTS) * (_MAX_EFFECTS + 1) + 1),
            ("combat_end", 3 + 1 + u),  # loser (none, GE, SU), isolation, staying
            ("prefix", c),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in parts:
            self.offsets[name] = at
            at += size
        self.observation_size = at

    def _draw_slot(self, kind: str, who: str) -> int:
        u = len(self.units)
        if kind == "hand":
            return u + _SIDES.index(who)
        return {"steps": 0, "bombardment": u + 2, "air_support": 2 * u + 2}[kind] + self.unit_ix[
            who
        ]

    def _placed(self, p: Mapping[str, Any] | None, out: np.ndarray[Any, Any], at: int) -> None:
        if p is None:
            return
        c = len(CARDS)
        out[at] = 1
        out[at + 1 + _SIDES.index(p["side"])] = 1
        out[at + 3 + (c if p["card"] == "face-down" else self.card_ix[p["card"]])] = 1
        at += 3 + c + 1
        out[at + (0 if p["origin"] == "hand" else 1 + self.unit_ix[p["origin"]])] = 1
        out[at + 1 + len(self.units)] = 1 if p["open"] else 0

    def _counts(
        self, names: Sequence[str], kinds: Sequence[str], out: np.ndarray[Any, Any], at: int
    ) -> None:
        """One-hot counts 0.._MAX_EFFECTS of each kind in `names`."""
        for k, kind in enumerate(kinds):
            n = min(sum(1 for x in names if x == kind), _MAX_EFFECTS)
            out[at + k * (_MAX_EFFECTS + 1) + n] = 1

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        o, obs = self.offsets, observation
        u, a, c = len(self.units), len(self.areas), len(CARDS)
        out[o["turn"] + obs["turn"] - 1] = 1
        out[o["phase"] + _PHASES.index(obs["phase"])] = 1
        out[o["stage"] + _STAGES.index(obs["stage"])] = 1
        out[o["player"] + _SIDES.index(obs["player"])] = 1
        out[o["side"] + _SIDES.index(obs["side"])] = 1
        if obs["to_move"] is not None:
            out[o["to_move"] + (*_SIDES, "chance").index(obs["to_move"])] = 1
        for k, area in enumerate(self.stalingrad):
            owner = obs["control"][area]
            out[o["control"] + 3 * k + (0 if owner is None else 1 + _SIDES.index(owner))] = 1
        for x in obs["discards"]:
            out[o["discards"] + self.card_ix[x]] = 1
        out[o["discard_count"]] = obs["discard_count"] / c
        for x in obs["removed"]:
            out[o["removed"] + self.card_ix[x]] = 1
        out[o["removed_count"]] = obs["removed_count"] / c
        for unit, turn in obs["eliminated"]:
            at = o["eliminated"] + self.unit_ix[unit] * (1 + _TURNS)
            out[at] = 1
            out[at + turn] = 1
        out[o["passes"] + obs["passes"]] = 1
        if obs["acting"] is not None:
            out[o["acting"] + self.unit_ix[obs["acting"]]] = 1
        out[o["acted"]] = 1 if obs["acted"] else 0
        out[o["acted"] + 1] = 1 if obs["recruited"] else 0
        self._counts(obs["effects"], _EFFECTS, out, o["effects"])
        pending = obs["pending"]
        if pending is not None:
            at = o["pending"]
            out[at] = 1
            out[at + 1 + self.area_ix[pending["to"]]] = 1
            out[at + 1 + a + self._unit_or_none(pending["escort"])] = 1
            out[at + 1 + a + 1 + u + pending["payments"] - 1] = 1
        damage = obs["damage"]
        if damage is not None:
            out[o["damage"]] = 1
            out[o["damage"] + 1 + self.unit_ix[damage["unit"]]] = 1
            out[o["damage"] + 1 + u + _CAUSES.index(damage["cause"])] = 1
        for k, d in enumerate(obs["draws"]):
            slot = self._draw_slot(d["kind"], d["who"])
            if k == 0:
                out[o["draw_next"] + slot] = 1
            out[o["draw_counts"] + slot] += 1 / c
        pick = obs["pick"]
        if pick is not None:
            out[o["pick"]] = 1
            if pick["kind"] == "sniper":
                out[o["pick"] + 1] = 1
            else:
                out[o["pick"] + 2 + self.unit_ix[pick["who"]]] = 1
        res = obs["result"]
        if res is not None:
            out[o["result"]] = 1
            if res["winner"] is not None:
                out[o["result"] + 1 + _SIDES.index(res["winner"])] = 1
        for unit in obs["units"]:
            i = self.unit_ix[unit["id"]]
            col = a if unit["area"] is None else self.area_ix[unit["area"]]
            out[o["unit_area"] + i * (a + 1) + col] = 1
            out[o["unit_steps"] + i * (MAX_STEPS + 1) + unit["steps"]] = 1
            out[o["unit_flags"] + 2 * i] = 1 if unit["flipped"] else 0
            out[o["unit_flags"] + 2 * i + 1] = 1 if unit["isolated"] else 0
            for x in unit["cards"]:
                out[o["unit_cards"] + i * c + self.card_ix[x]] = 1
        for x in obs["hand"]:
            out[o["hand"] + self.card_ix[x]] = 1
        for k, side in enumerate(_SIDES):
            out[o["hand_counts"] + k * (MAX_HAND + 1) + obs["hand_counts"][side]] = 1
        out[o["deck_count"]] = obs["deck_count"] / c
        for x in obs["exposed"]:
            out[o["exposed"] + self.card_ix[x]] = 1
        if obs["combat"] is not None:
            self._combat(obs["combat"], out)
        for token in prefix:
            if not self.sub_first <= token < self.commit_first:
                raise AssertionError(f"a pending id {token} that is not a discarded card")
            out[o["prefix"] + token - self.sub_first] = 1

    def _combat(self, cb: Mapping[str, Any], out: np.ndarray[Any, Any]) -> None:
        o = self.offsets
        u, a, c = len(self.units), len(self.areas), len(CARDS)
        at = o["combat"]
        out[at] = 1
        out[at + 1 + self.area_ix[cb["area"]]] = 1
        out[at + 1 + a + self.unit_ix[cb["attacker"]]] = 1
        out[at + 1 + a + u + self._unit_or_none(cb["defender"])] = 1
        out[at + 1 + a + u + 1 + u + _COMBAT_STEPS.index(cb["step"])] = 1
        out[at + 1 + a + u + 1 + u + len(_COMBAT_STEPS) + _CAUSES.index(cb["cause"])] = 1
        self._placed(cb["attack"], out, o["attack"])
        self._placed(cb["defence"], out, o["defence"])
        for p in cb["spent"]:
            k = _SIDES.index(p["side"])
            out[o["spent"] + c + 2 * k] += 1 / c
            if p["card"] == "face-down":
                out[o["spent"] + c + 2 * k + 1] += 1 / c
            else:
                out[o["spent"] + self.card_ix[p["card"]]] = 1
        at = o["combat_more"]
        out[at + self._unit_or_none(cb["support"])] = 1
        at += 1 + u
        out[at + (0 if cb["raiser"] is None else 1 + _SIDES.index(cb["raiser"]))] = 1
        at += 3
        out[at] = cb["raises"] / _MAX_RAISES
        at += 1
        self._counts(cb["effects"], _COMBAT_EFFECTS, out, at)
        at += len(_COMBAT_EFFECTS) * (_MAX_EFFECTS + 1)
        out[at] = 1 if cb["refight"] else 0
        at = o["combat_end"]
        out[at + (0 if cb["loser"] is None else 1 + _SIDES.index(cb["loser"]))] = 1
        out[at + 3] = 1 if cb["isolation"] is not None else 0
        for x in cb["staying"]:
            out[at + 4 + self.unit_ix[x]] = 1
