"""Shanghai-Nanking Campaign 1937 as OpenSpiel games: `python_wargame_snc1937_<preset>`, one
name per preset (as for Nomonhan: each name one fixed ruleset, loaded without parameters).

The SNC hides things (SNC-6.3.1: of an enemy stack only its top unit and its size are seen),
so the games are of imperfect information; dice are explicit chance nodes (1/6 each).
"""

from __future__ import annotations

import functools
import operator
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from kernel.choices import Mapped
from kernel.hexes import Hex, hex_name
from kernel.spiel_codec import IdRanges, Spec, preset_specs
from kernel.spiel_trie import Leaf, Trie, const

MAX_GAME_LENGTH = 10000
"""The declared cap on player decisions (sub-decisions included). The rules end play after
GT 12 at the latest (SNC-5.2.2), but they do not bound the decisions inside a GT: a Move phase
goes hex by hex (SNC-9.0.10), units may be put on top between moves (AMB-SNC-40), and a group's
move is built here unit by unit. Uniformly random play over the ids ends by the rules well
within it: 79 to 2,915 decisions over 30 seeded games of each preset; the cap is more than
three times the longest."""

ORDERS = ("move_fight", "fight_move", "move_move", "fight_fight")  # SNC-5.3.1
KINDS = ("air", "artillery", "naval_gunfire", "amphibious")  # SNC-11.1.1
TO_MOVE = ("CH", "JP", "chance", None)
PHASES = ("declare", "ops1", "reinf", "ops2", "victory", "over")
STEPS = (
    "main", "join", "support_a", "air_ask", "air_roll", "support_d", "roll", "loss_d",
    "retreat", "loss_a", "advance", "stack", "elite_roll", "replace", "air_defence",
    "interdict_roll", "interdict", "reinf_move", "advance_on", "group",
)  # fmt: skip
OVERRUN_NEXT = ("", "again", "repeat", "owed")  # SNC-9.6.7, SNC-9.6.8, SNC-9.6.2
AFTER_STACK = ("", "main", "phase")  # where play goes after a stacking check (SNC-6.0.4)
TURNS = 12  # SNC-5.0.1
BOXES = 13  # a TRT box up to GT 12, and 13: delayed past the end (SNC-8.0.2)
MAX_ROLL = 64
MAX_MP = 16  # half-MP (SNC-9.0.1)
TREES_KEPT = 16

ATOMIC = (
    "declare", "attack", "overrun", "join", "strike", "support", "intercept", "loss", "advance",
    "delay", "replace", "remove", "eliminate", "top", "done",
)  # fmt: skip
HEADS = ("move", "land", "place", "retreat", "advance_on")
"""A compound action's first id: its kind and its first unit."""


class SNCCodec:
    """The SNC's ids (U = the units in the data's order, H = the map hexes in hex order).

    Atomic player ids, in this order: declare (4 phase orders, SNC-5.3.1), attack target (H),
    overrun target (H, SNC-9.6.1: by the group under way, or opened for a group of one hex that
    joins next), join (U: an attacker, SNC-10.0.5, a unit of the overrun group, SNC-9.6.2, or a
    unit opening or joining a group that moves together, SNC-9.0.10, whose first hex is then a
    move of the group's units, as below),
    strike, support kind (4), intercept no/yes, loss (U), advance (U), delay (U), replace (U),
    remove (U), eliminate (U), top (U), done.

    Compound actions are sub-decisions: a head naming the kind and the first unit (move, land,
    place, retreat, advance on: U each), `with` (U) for each further unit of a group in its
    order (a stack's move, SNC-9.0.8; a landing group, SNC-8.4.0.1), then the commit id, which
    names the hex: `to` (H), or `by rail to` (H) for a Chinese reinforcement placed by rail
    (SNC-8.2.4). Commit ids end every compound sequence and appear nowhere else, and atomic ids
    begin none, so the sequences are prefix-free.

    Chance ids: die face f -> f - 1 (every SNC die is one d6)."""

    def __init__(self, game: Any) -> None:
        self.units: list[str] = [u.id for u in game.data.units]
        self.unit_ix = {u: i for i, u in enumerate(self.units)}
        self.hexes: list[Hex] = sorted(game.board.map.hexes)
        self.hex_ix = {h: i for i, h in enumerate(self.hexes)}
        self.cols = max(h.col for h in self.hexes)
        self.rows = max(h.row for h in self.hexes)
        u, h = len(self.units), len(self.hexes)
        sizes = {"declare": len(ORDERS), "attack": h, "overrun": h, "strike": 1}
        sizes |= {"support": len(KINDS)}
        sizes |= {"intercept": 2, "done": 1, "to": h, "rail_to": h}
        names = (*ATOMIC, *HEADS, "with", "to", "rail_to")
        self.ids = IdRanges((name, sizes.get(name, u)) for name in names)
        self.base, self.ranges = self.ids.base, self.ids.ranges
        self.num_distinct_actions = self.ids.total
        self.max_chance_outcomes = 6
        self.sub_first = self.base[HEADS[0]]
        self.commit_first = self.base["to"]
        self._heads = {k: {x: self.base[k] + i for i, x in enumerate(self.units)} for k in HEADS}
        self._with = {x: self.base["with"] + i for i, x in enumerate(self.units)}.__getitem__
        self.atomic_ids = self._make_atomic_ids()
        self._compound = self._make_compound()
        from specs.snc1937.rules import actions as A
        from specs.snc1937.rules.movement_steps import MoveList
        from specs.snc1937.rules.reinforcement_steps import _place_action

        self._roll, self._move_list, self._place_action = A.Roll, MoveList, _place_action
        self._trees: OrderedDict[Any, Trie] = OrderedDict()
        self._layout()

    # --- ids -----------------------------------------------------------------------------------
    def _group(self, head: str, units: Sequence[str], commit: int) -> tuple[int, ...]:
        first = self._heads[head][units[0]]
        if len(units) == 1:
            return (first, commit)
        return (first, *map(self._with, units[1:]), commit)

    def tokens(self, action: Any) -> tuple[int, ...]:
        atomic = self.atomic_ids.get(type(action))
        if atomic is not None:
            return (atomic(action),)
        encode = self._compound.get(type(action))
        if encode is None:
            raise TypeError(f"not an SNC player action: {action!r}")
        return encode(action)

    def _make_atomic_ids(self) -> dict[type, Callable[[Any], int]]:
        """The id of each atomic action, by its class (a dispatch on the class: the adapter
        encodes every legal action of a plain list)."""
        from specs.snc1937.rules import actions as A

        b, ux, hx = self.base, self.unit_ix, self.hex_ix

        def unit(kind: str) -> Callable[[Any], int]:
            first = b[kind]
            return lambda a: first + ux[a.unit]

        return {
            A.Declare: lambda a: b["declare"] + ORDERS.index(a.order.value),
            A.Attack: lambda a: b["attack"] + hx[a.target],
            A.Overrun: lambda a: b["overrun"] + hx[a.target],
            A.Strike: lambda a: b["strike"],
            A.Support: lambda a: b["support"] + KINDS.index(a.kind),
            A.Intercept: lambda a: b["intercept"] + int(a.yes),
            A.Done: lambda a: b["done"],
            A.Join: unit("join"),
            A.Loss: unit("loss"),
            A.Advance: unit("advance"),
            A.Delay: unit("delay"),
            A.Replace: unit("replace"),
            A.Remove: unit("remove"),
            A.Eliminate: unit("eliminate"),
            A.Top: unit("top"),
        }

    def _make_compound(self) -> dict[type, Callable[[Any], tuple[int, ...]]]:
        """The id sequence of each compound action, by its class: a head, `with` ids, then
        the commit naming the hex."""
        from specs.snc1937.rules import actions as A

        b, ux, hx = self.base, self.unit_ix, self.hex_ix
        to = b["to"]

        def place(a: Any) -> tuple[int, ...]:
            commit = b["rail_to" if a.rail else "to"] + hx[a.hex]
            return (b["place"] + ux[a.unit], commit)

        return {
            A.Move: lambda a: self._group("move", a.units, to + hx[a.to]),
            A.Land: lambda a: self._group("land", a.units, to + hx[a.hex]),
            A.Place: place,
            A.Retreat: lambda a: (b["retreat"] + ux[a.unit], to + hx[a.to]),
            A.AdvanceOn: lambda a: (b["advance_on"] + ux[a.unit], to + hx[a.to]),
        }

    def part_groups(self, part: Sequence[Any]) -> tuple[list[Any] | _MoveGroups, int] | None:
        """The kernel's lazy parts as groups (`tools.spiel.tree`), so that an action is built
        only when chosen: a Move phase's `MoveList` (each group of units with its first
        hexes, SNC-9.0.8, under its first unit's head id, then its other actions one by one),
        and a reinforcement's arrivals (`Mapped` places of one unit, SNC-8.2.x). Any other
        part: None (encoded one by one)."""
        if type(part) is self._move_list:
            return _MoveGroups(self, part), part.moves
        if type(part) is not Mapped:  # before reading `make`: a miss raises inside getattr
            return None
        make = part.make
        if (
            type(make) is functools.partial
            and make.func is self._place_action
            and len(make.args) == 1
            and not make.keywords
        ):
            place = (self.base["place"] + self.unit_ix[make.args[0]],)
            return [(place, part.items, self._place_ids, 0)], len(part)
        return None

    def _dest_ids(self, dests: Sequence[Hex]) -> list[int]:
        """A group's commit ids: the first hex of its move (SNC-9.0.8)."""
        to, hx = self.base["to"], self.hex_ix
        return [to + hx[d] for d in dests]

    def _place_ids(self, places: Sequence[tuple[Hex, bool]]) -> list[int]:
        """A reinforcement's commit ids: its hex, by rail or not (SNC-8.2.4)."""
        to, rail_to, hx = self.base["to"], self.base["rail_to"], self.hex_ix
        return [(rail_to if rail else to) + hx[h] for h, rail in places]

    def chance_id(self, action: Any) -> int:
        if type(action) is self._roll:
            return int(action.face) - 1
        raise TypeError(f"not an SNC chance action: {action!r}")

    def chance_string(self, token: int) -> str:
        return f"die {token + 1}"

    def token_string(self, token: int) -> str:
        return self._name(*self.ids.find(token))

    def _name(self, kind: str, k: int) -> str:
        match kind:
            case "declare":
                return f"declare {ORDERS[k]}"
            case "attack" | "overrun":
                return f"{kind} {hex_name(self.hexes[k])}"
            case "support":
                return f"support {KINDS[k]}"
            case "intercept":
                return f"intercept {('no', 'yes')[k]}"
            case "strike" | "done":
                return kind
            case "to":
                return f"commit: to {hex_name(self.hexes[k])}"
            case "rail_to":
                return f"commit: by rail to {hex_name(self.hexes[k])}"
            case "with":
                return f"with {self.units[k]}"
        if kind in HEADS:
            return f"{kind.replace('_', ' ')}: {self.units[k]}"
        return f"{kind} {self.units[k]}"

    # --- the legal sequences -------------------------------------------------------------------
    def legal_tree(self, game: Any, state: Any) -> Trie:
        """The legal sequences as a trie, for the play service's sub-decisions
        (`tools.service.choices`; the OpenSpiel adapter walks the kernel's lists itself through
        `part_groups`). A Move phase's moves (the kernel's lazy `MoveList`) are entered group
        by group and built only when chosen. The last few tries are kept by kernel state
        (immutable, hashed once): each request of the service asks again."""
        cached = self._trees.pop(state, None)
        if cached is None:
            cached = self._build(game, state)
        self._trees[state] = cached
        while len(self._trees) > TREES_KEPT:
            self._trees.popitem(last=False)
        return cached

    def _build(self, game: Any, state: Any) -> Trie:
        from specs.snc1937.rules import actions as A
        from specs.snc1937.rules.movement_steps import MoveList

        trie = Trie()
        actions = game.legal_actions(state)
        rest: Sequence[Any] = actions
        if isinstance(actions, MoveList):
            to = self.base["to"]
            for units, dests in actions.groups:
                head = self._group("move", units, 0)[:-1]
                for d in dests:
                    trie.add((*head, to + self.hex_ix[d]), Leaf(_move(A.Move, units, d)))
            rest = actions.tail
        for action in rest:
            trie.add(self.tokens(action), Leaf(const(action)))
        return trie

    # --- the observation tensor ----------------------------------------------------------------
    def _layout(self) -> None:
        u, h = len(self.units), len(self.hexes)
        self.unit_fields = (
            "seen", "rank", "dead", "reduced", "done", "arrived", "movable", "topped", "elite",
            "moving", "attacker", "defender", "second_unit", "prefix", "culled",
        )  # fmt: skip
        self.unit_width = len(self.unit_fields) + self.cols + self.rows + BOXES
        self.hex_fields = (
            "count_CH", "count_JP", "jp_control", "attacked", "stack_hexes", "overrun_hexes",
            "checked", "target", "second", "overrun_target",
        )  # fmt: skip
        parts = [
            ("to_move", len(TO_MOVE)),
            ("turn", TURNS),
            ("player", 2),
            ("phase", len(PHASES)),
            ("step", len(STEPS)),
            ("order", len(ORDERS) + 1),
            ("used", 2 * len(KINDS)),
            ("flags", 3),  # jp_support_ops1, ch_air, ch_air_used
            ("replacements", 3),
            ("mp", MAX_MP + 1),
            ("roll", MAX_ROLL + 1),
            ("overrun_next", len(OVERRUN_NEXT)),
            ("after_stack", len(AFTER_STACK)),
            ("result", 3),  # over, CH wins, JP wins
            ("combat", 7 + 2 * len(KINDS) + 7 + 2),
            ("prefix_head", len(HEADS)),
            ("units", u * self.unit_width),
            ("hexes", h * len(self.hex_fields)),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in parts:
            self.offsets[name] = at
            at += size
        self.observation_size = at
        # precomputed positions: the tensor is written at every step of a game
        self._name_ix = {hex_name(h): i for i, h in enumerate(self.hexes)}
        self._unit_at = {
            x: self.offsets["units"] + i * self.unit_width for i, x in enumerate(self.units)
        }
        self._unit_field = {f: k for k, f in enumerate(self.unit_fields)}
        self._hex_field = {f: k for k, f in enumerate(self.hex_fields)}

    def _hex(self, name: str) -> int:
        return self._name_ix[name]

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        """Everything `observe` gives (but the preset's variant, fixed per game): one-hots for
        small fields, a position (1 = first) for an order that matters (a stack's units top
        first, a group's units, the attackers), counts as numbers."""
        o, obs = self.offsets, observation
        out[o["to_move"] + TO_MOVE.index(obs["to_move"])] = 1
        out[o["turn"] + obs["turn"] - 1] = 1
        out[o["player"] + ("CH", "JP").index(obs["player"])] = 1
        out[o["phase"] + PHASES.index(obs["phase"])] = 1
        out[o["step"] + STEPS.index(obs["step"])] = 1
        order = obs["order"]
        out[o["order"] + (len(ORDERS) if order is None else ORDERS.index(order))] = 1
        for marker in obs["used"]:
            side, kind = marker.split(":")
            out[o["used"] + ("CH", "JP").index(side) * len(KINDS) + KINDS.index(kind)] += 1
        for k, flag in enumerate(("jp_support_ops1", "ch_air", "ch_air_used")):
            out[o["flags"] + k] = 1 if obs[flag] else 0
        out[o["replacements"] + obs["replacements"]] = 1
        out[o["mp"] + obs["mp"]] = 1
        out[o["roll"] + obs["roll"]] = 1
        out[o["overrun_next"] + OVERRUN_NEXT.index(obs["overrun_next"])] = 1
        out[o["after_stack"] + AFTER_STACK.index(obs["after_stack"])] = 1
        res = obs["result"]
        if res is not None:
            out[o["result"]] = 1
            if res["winner"] is not None:
                out[o["result"] + 1 + ("CH", "JP").index(res["winner"])] = 1
        self._units(obs, out)
        self._hexes(obs, out)
        self._combat(obs["combat"], out)
        self._prefix(prefix, out)

    def _unit(self, unit: str, field: str) -> int:
        return self._unit_at[unit] + self._unit_field[field]

    def _units(self, obs: Mapping[str, Any], out: np.ndarray[Any, Any]) -> None:
        nf = len(self.unit_fields)
        for stack in obs["stacks"]:
            h = self._hex(stack["hex"])
            col, row = self.hexes[h]
            for k, unit in enumerate(stack["units"]):  # top first (SNC-6.3.1)
                at = self._unit_at[unit]
                out[at] = 1  # seen
                out[at + 1] = k + 1  # rank
                at += nf
                out[at + col - 1] = 1
                out[at + self.cols + row - 1] = 1
        for k, record in enumerate(obs["culled"]):  # off the map now: its hex in the same slots
            col, row = self.hexes[self._hex(record["hex"])]
            out[self._unit(record["unit"], "culled")] = k + 1
            at = self._unit_at[record["unit"]] + nf
            out[at + col - 1] = 1
            out[at + self.cols + row - 1] = 1
        for record in obs["trt"]:
            at = self._unit_at[record["unit"]] + nf + self.cols + self.rows
            out[at + record["gt"] - 1] = 1
        for field in ("dead", "reduced", "done", "arrived", "movable", "topped"):
            for unit in obs[field]:
                out[self._unit(unit, field)] = 1
        for field in ("elite", "moving"):
            for k, unit in enumerate(obs[field]):
                out[self._unit(unit, field)] = k + 1

    def _hexes(self, obs: Mapping[str, Any], out: np.ndarray[Any, Any]) -> None:
        nf, base = len(self.hex_fields), self.offsets["hexes"]

        def put(name: str, field: str, value: float = 1) -> None:
            out[base + self._name_ix[name] * nf + self._hex_field[field]] = value

        for stack in obs["stacks"]:
            put(stack["hex"], f"count_{stack['side']}", stack["count"])
        for field in ("jp_control", "attacked", "overrun_hexes"):
            for name in obs[field]:
                put(name, field)
        for field in ("stack_hexes", "checked"):  # in their order
            for k, name in enumerate(obs[field]):
                put(name, field, k + 1)
        if obs["overrun_target"] is not None:
            put(obs["overrun_target"], "overrun_target")
        c = obs["combat"]
        if c is not None:
            put(c["target"], "target")
            if c["second"] is not None:
                put(c["second"], "second")

    def _combat(self, c: Mapping[str, Any] | None, out: np.ndarray[Any, Any]) -> None:
        if c is None:
            return
        at = self.offsets["combat"]
        out[at] = 1
        for k, field in enumerate(("landing", "won", "overrun")):
            out[at + 1 + k] = 1 if c[field] else 0
        out[at + 4] = c["aborted"]
        out[at + 5] = c["loss_a"]
        out[at + 6] = c["loss_d"]
        at += 7
        for kind in c["support_a"]:
            out[at + KINDS.index(kind)] += 1
        for kind in c["support_d"]:
            out[at + len(KINDS) + KINDS.index(kind)] += 1
        at += 2 * len(KINDS)
        out[at + c["face"]] = 1
        at += 7
        out[at] = 1 if c["second"] is not None else 0
        out[at + 1] = 1 if c["second_unit"] is not None else 0
        for field in ("attackers", "defenders"):
            for k, unit in enumerate(c[field]):
                out[self._unit(unit, field[:-1])] = k + 1
        if c["second_unit"] is not None:
            out[self._unit(c["second_unit"], "second_unit")] = 1

    def _prefix(self, prefix: tuple[int, ...], out: np.ndarray[Any, Any]) -> None:
        """A pending prefix is a head then `with` ids: its kind, and its units in order."""
        if not prefix:
            return
        head = self.token_string(prefix[0]).split(":")[0].replace(" ", "_")
        out[self.offsets["prefix_head"] + HEADS.index(head)] = 1
        for k, token in enumerate(prefix):
            unit = (token - self.sub_first) % len(self.units)
            if k > 0 and not self.base["with"] <= token < self.commit_first:
                raise AssertionError(f"a prefix {prefix} that is no group")
            out[self._unit(self.units[unit], "prefix")] = k + 1


class _MoveGroups:
    """A Move phase's groups (`MoveList.groups`) by their first unit's head id, for
    `tools.spiel.tree` (`HeadedGroups`): the root lists one id per group, and only the groups
    of the unit a walk enters are made into id prefixes."""

    __slots__ = ("codec", "part")

    def __init__(self, codec: SNCCodec, part: Any) -> None:
        self.codec, self.part = codec, part

    def first_ids(self) -> Iterable[int]:
        # read in C (`map`): a Move phase's root lists every movable unit's head
        firsts = map(_first, map(_first, self.part.groups))  # each group's first unit
        return map(self.codec._heads["move"].__getitem__, firsts)

    def starting_with(self, token: int) -> list[tuple[Any, ...]]:
        codec, part = self.codec, self.part
        unit = codec.units[token - codec.base["move"]]
        more, dest_ids = codec._with, codec._dest_ids
        return [
            ((token, *map(more, units[1:])), dests, dest_ids, start)
            for (units, dests), start in zip(part.groups, part.starts, strict=True)
            if units[0] == unit
        ]


_first = operator.itemgetter(0)


def _move(make: Any, units: tuple[str, ...], to: Hex) -> Callable[[], Any]:
    return lambda: make(units, to)


def specs(game: Any) -> list[Spec]:
    """One game per preset of `game` (the assembled game; the codec reads its rules)."""
    return preset_specs(game, SNCCodec(game.rules), lambda variant: MAX_GAME_LENGTH)
