"""Postcard Shumshu as OpenSpiel games: `python_wargame_shumshu_<preset>`, one name per preset
(the rules ship one, `draft`), so each name is one fixed ruleset with its own GameType.

Shumshu hides things (face-down Japanese pieces and decoys, SHU-COMBAT.5, SHU-COMBAT.6), so the
game is declared with imperfect information; every observation comes from `game.observe`.
"""

from __future__ import annotations

import functools
import operator
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, get_args

import numpy as np

from kernel.choices import Mapped
from kernel.hexes import Hex, hex_name
from kernel.spiel_codec import IdRanges, LegalTree, Spec, preset_specs, table_tree
from specs.shumshu.io import wire
from specs.shumshu.rules import combat, landing

DEFENDER_LIMIT = max(combat.DEFENDER_LIMIT.values())
"""The most units that defend a hex (SHU-STACK.3: 3 Russian, 4 Japanese): the longest pending
prefix of a defence."""
MAX_LANDERS = landing.MAX_LANDERS
"""The most units in one landing (SHU-LAND.2)."""


def max_game_length(game: Any, variant: Any) -> int:
    """A bound on player decisions (sub-decisions included) that no play of the rules exceeds,
    from the data and the ruleset: the game lasts a fixed number of half-days (SHU-SEQ.2,
    AMB-SHU-2), and in a player-turn every step is bounded by the units:

    - set-up: one placement per Japanese Shumshu piece (SHU-SETUP.1);
    - Russian: each regiment forms at most once, then done (SHU-RGT.1); a landing hex, at
      most three embarkations, done (SHU-LAND.1, SHU-LAND.2); the air strike decision
      (SHU-AIR.2); a replacement or done (SHU-REPL.1);
    - Japanese: a reinforcement or done (SHU-REINF.2); each decoy returns at most once,
      and the rest may be kept off with one done (SHU-COMBAT.6, `decoy_return_compulsory`);
    - both: each unit moves at most once, then done (SHU-MOVE.1); each joins at most one
      attack, then done (SHU-COMBAT.1); each combat (at most one per attacker, and one per
      lander) is picked once, takes at most `DEFENDER_LIMIT` defenders and a commit, No
      Retreat!, the attacker's commit, one rout or withdrawal per enemy unit in the hex
      (SHU-CRT.4, SHU-CRT.5), and one advance per attacker then done (SHU-COMBAT.13).

    The cap is thus never reached by play under the rules; a smaller `max_game_length`
    parameter truncates."""
    from specs.shumshu.rules import ending

    units = game.board.data.units
    ru = sum(1 for u in units if u.side == "RU")
    jp = sum(1 for u in units if u.side == "JP")
    regiments = sum(1 for u in units if u.is_regiment)
    decoys = sum(1 for u in units if u.is_decoy)
    setup = sum(1 for u in units if u.setup == "shumshu")

    def combats(attackers: int, enemies: int) -> int:
        # pick, defenders and their commit, No Retreat!, commit, retreats, advance done
        per = 1 + (DEFENDER_LIMIT + 1) + 1 + 1 + enemies + 1
        return attackers * per + attackers  # plus one advance per attacker

    russian = (
        (regiments + 1)
        + (1 + MAX_LANDERS + 1)
        + 1
        + MAX_LANDERS * ((DEFENDER_LIMIT + 1) + 1 + 1 + jp)
        + 1
        + (ru + 1)
        + (ru + 1)
        + combats(ru, jp)
    )
    keep_off = 1 if variant.is_("decoy_return_compulsory", "optional") else 0
    japanese = 1 + decoys + keep_off + (jp + 1) + (jp + 1) + combats(jp, ru)
    return int(setup + ending.game_length(variant) * (russian + japanese))


# the observation's vocabularies, read from its wire record (one place to change them)
_LOCS = get_args(wire.LocName)
_STAGES = get_args(wire.StageName)
_RESULTS = get_args(wire.ResultName)
_SIDES = get_args(wire.Side)
_MAX_TURN = 8  # the longest game_length (AMB-SHU-2)
_MAX_RECOVER = 2 * (_MAX_TURN + 1)  # a player-turn number (SHU-DISRUPT.3, SHU-DISRUPT.4)
_COMMITS = tuple((p, a, z) for p in (False, True) for a in (False, True) for z in (False, True))


class ShumshuCodec:
    """Shumshu's ids (U = the counters in data order, H = the island hexes in hex order):

    player ids, in this order: place, reinforce, return decoy, move, join, retreat, advance
    (U*H each: unit and hex), form, embark, replace (U each), land at, resolve (H each),
    strike no/yes, hold no/yes, commit (8: press, air, Banzai!), done; then a defence's
    sub-decisions: defender U (U), commit the defence. A defence (SHU-STACK.3) is its units
    in data order, then `defend`; every other action is one id (a declaration is already
    built by the kernel one `Join` at a time, SHU-COMBAT.1).

    chance ids: a die face f (SHU-CRT.1) -> f - 1; the Ki-43's die f with the unit sunk
    (SHU-AIR.2), by index in U or U for none -> 6 + (f - 1) * (U + 1) + index."""

    def __init__(self, game: Any) -> None:
        b = game.board
        self.units: list[str] = [u.id for u in b.data.units]
        self.unit_ix = {u: i for i, u in enumerate(self.units)}
        self.hexes: list[Hex] = sorted(b.hexes)
        self.hex_ix = {h: i for i, h in enumerate(self.hexes)}
        self.name_ix = {hex_name(h): i for i, h in enumerate(self.hexes)}
        u, h = len(self.units), len(self.hexes)
        self.side_units = {side: sum(1 for x in b.data.units if x.side == side) for side in _SIDES}
        sizes = [
            ("place", u * h),
            ("reinforce", u * h),
            ("return_decoy", u * h),
            ("move", u * h),
            ("join", u * h),
            ("retreat", u * h),
            ("advance", u * h),
            ("form", u),
            ("embark", u),
            ("replace", u),
            ("land_at", h),
            ("resolve", h),
            ("strike", 2),
            ("hold", 2),
            ("commit", len(_COMMITS)),
            ("done", 1),
            ("defender", u),
            ("defend", 1),
        ]
        self.ids = IdRanges(sizes)
        self.base, self.ranges = self.ids.base, self.ids.ranges
        self.num_distinct_actions = self.ids.total
        self.sub_first = self.base["defender"]
        self.die = 6
        self.max_chance_outcomes = self.die + self.die * (u + 1)
        self._trees: OrderedDict[Any, LegalTree] = OrderedDict()
        from specs.shumshu.rules import actions

        self._A = actions
        self.atomic_ids = self._make_atomic_ids()
        self._lazy_kinds: dict[Any, str] = {actions.Place: "place", actions.Move: "move"}
        self._layout()

    TREES = 4096
    """How many states' legal trees `legal_tree` keeps."""

    def legal_tree(self, game: Any, state: Any) -> LegalTree:
        """The table of every legal action's ids (`table_tree`), kept for the `TREES` states
        used last: the play service's sub-decisions (`tools.service.choices`) ask again at
        every request (the OpenSpiel adapter walks the kernel's lists itself, `part_groups`).
        A state's legal actions are a function of the state alone (states are immutable and
        hashable)."""
        tree = self._trees.get(state)
        if tree is None:
            tree = table_tree(self, game.legal_actions(state))
            self._trees[state] = tree
            if len(self._trees) > self.TREES:
                self._trees.popitem(last=False)
        else:
            self._trees.move_to_end(state)
        return tree

    # --- ids -----------------------------------------------------------------------------------
    def tokens(self, action: Any) -> tuple[int, ...]:
        atomic = self.atomic_ids.get(type(action))
        if atomic is not None:
            return (atomic(action),)
        if type(action) is self._A.Defend:
            # SHU-STACK.3: the defenders, in data order (one sequence per set), then commit
            b = self.base
            ordered = sorted(self.unit_ix[x] for x in action.units)
            return (*(b["defender"] + i for i in ordered), b["defend"])
        raise TypeError(f"not a Shumshu player action: {action!r}")

    def _make_atomic_ids(self) -> dict[type, Callable[[Any], int]]:
        """The id of every action but a defence, by its class (a dispatch on the class: the
        adapter encodes every legal action of every state it reaches)."""
        A = self._A
        b, H, ux, hx = self.base, len(self.hexes), self.unit_ix, self.hex_ix

        def pair(kind: str, field: str) -> Callable[[Any], int]:
            first = b[kind]
            get = operator.attrgetter(field)
            return lambda a: first + ux[a.unit] * H + hx[get(a)]

        def unit(kind: str, field: str = "unit") -> Callable[[Any], int]:
            first = b[kind]
            get = operator.attrgetter(field)
            return lambda a: first + ux[get(a)]

        return {
            A.Place: pair("place", "hex"),
            A.Reinforce: pair("reinforce", "hex"),
            A.ReturnDecoy: pair("return_decoy", "hex"),
            A.Move: pair("move", "to"),
            A.Join: pair("join", "hex"),
            A.Retreat: pair("retreat", "to"),
            A.Advance: pair("advance", "to"),
            A.Form: unit("form", "regiment"),
            A.Embark: unit("embark"),
            A.Replace: unit("replace"),
            A.LandAt: lambda a: b["land_at"] + hx[a.hex],
            A.Resolve: lambda a: b["resolve"] + hx[a.hex],
            A.Strike: lambda a: b["strike"] + int(a.yes),
            A.Hold: lambda a: b["hold"] + int(a.yes),
            A.Commit: lambda a: b["commit"] + _COMMITS.index((a.press, a.air, a.banzai)),
            A.Done: lambda a: b["done"],
        }

    def part_groups(self, part: Sequence[Any]) -> tuple[list[Any], int] | None:
        """A unit's placings (SHU-SETUP.1) or moves (SHU-MOVE.1), the kernel's lazy `Mapped`
        over hexes, as one group (`tools.spiel.tree`): their ids come from the hexes, and
        only the chosen action is built. Any other part: None (encoded one by one)."""
        if type(part) is not Mapped:  # before reading `make`: a miss raises inside getattr
            return None
        make = part.make
        if not isinstance(make, functools.partial):
            return None
        kind = self._lazy_kinds.get(make.func)
        if kind is None or len(make.args) != 1 or make.keywords:
            return None
        first = self.base[kind] + self.unit_ix[make.args[0]] * len(self.hexes)
        ids = functools.partial(_hex_ids, first, self.hex_ix)
        return [((), part.items, ids, 0)], len(part)

    def chance_id(self, action: Any) -> int:
        A = self._A
        if type(action) is A.Roll:
            return int(action.face) - 1
        if type(action) is A.AirRoll:
            index = len(self.units) if action.sunk is None else self.unit_ix[action.sunk]
            return int(self.die + (action.face - 1) * (len(self.units) + 1) + index)
        raise TypeError(f"not a Shumshu chance action: {action!r}")

    def chance_string(self, token: int) -> str:
        if token < self.die:
            return f"die {token + 1}"
        face, index = divmod(token - self.die, len(self.units) + 1)
        sunk = "nothing sunk" if index == len(self.units) else f"sinks {self.units[index]}"
        return f"Ki-43 die {face + 1}, {sunk}"

    def token_string(self, token: int) -> str:
        return self._name(*self.ids.find(token))

    def _name(self, kind: str, k: int) -> str:
        H = len(self.hexes)
        label = kind.replace("_", " ")
        match kind:
            case "place" | "reinforce" | "return_decoy" | "move" | "join" | "retreat" | "advance":
                return f"{label} {self.units[k // H]} {hex_name(self.hexes[k % H])}"
            case "form" | "embark" | "replace":
                return f"{label} {self.units[k]}"
            case "land_at" | "resolve":
                return f"{label} {hex_name(self.hexes[k])}"
            case "strike" | "hold":
                return f"{label} {'yes' if k else 'no'}"
            case "commit":
                press, air, banzai = _COMMITS[k]
                return f"commit press={press} air={air} banzai={banzai}"
            case "defender":
                return f"defence: {self.units[k]}"
            case "defend":
                return "defence: commit"
        return label

    # --- the observation tensor ----------------------------------------------------------------
    def _layout(self) -> None:
        u, h = len(self.units), len(self.hexes)
        slots = max(self.side_units.values())  # a combat has an attacker (SHU-COMBAT.1)
        group = u + 1  # unit bits and a count of face-down ("hidden") ones
        per_unit = 1 + len(_LOCS) + (h + 1) + 1 + (_MAX_RECOVER + 1) + 1
        parts = [
            ("side", 2),
            ("to_move", 3),  # RU, JP, chance (none when over)
            ("turn", _MAX_TURN),
            ("player", 2),
            ("stage", len(_STAGES)),
            ("ships", 4),
            ("air", 3),  # flies, used, AT guns arrived
            ("air_turn", _MAX_TURN + 1),
            ("beachhead", h + 1),
            ("replaced", _MAX_TURN + 1),
            ("units", u * per_unit),
            ("face_down", h),
            ("paramushir", 1),
            ("moved", group),
            ("acted", u),
            ("sail", 1 + (h + 1) + MAX_LANDERS * u + 3),
            ("pending", slots * (1 + h + group)),
            ("fight", 1 + h + group + 1 + group + 4 + 7 + len(_RESULTS) + group + h + 1 + group),
            ("taken", 2),
            ("result", 5),  # over, winner RU or JP, points RU and JP (SHU-WIN.1 to SHU-WIN.3)
            ("prefix", u),
        ]
        self.slots = slots
        self.per_unit = per_unit
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in parts:
            self.offsets[name] = at
            at += size
        self.observation_size = at

    def _hex_col(self, name: str | None) -> int:
        """A hex's column, the last one (H) for none."""
        return len(self.hexes) if name is None else self.name_ix[name]

    def _group(self, names: list[str], out: np.ndarray[Any, Any], at: int) -> int:
        """Unit bits, then the count of face-down units; returns the next offset."""
        for x in names:
            if x == "hidden":
                out[at + len(self.units)] += 1
            else:
                out[at + self.unit_ix[x]] = 1
        return at + len(self.units) + 1

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        o, obs = self.offsets, observation
        u, h = len(self.units), len(self.hexes)
        out[o["side"] + _SIDES.index(obs["side"])] = 1
        if obs["to_move"] is not None:
            out[o["to_move"] + (*_SIDES, "chance").index(obs["to_move"])] = 1
        out[o["turn"] + obs["turn"] - 1] = 1
        out[o["player"] + _SIDES.index(obs["player"])] = 1
        out[o["stage"] + _STAGES.index(obs["stage"])] = 1
        out[o["ships"] + obs["ships"]] = 1
        out[o["air"] : o["air"] + 3] = [obs["air"], obs["air_used"], obs["at_arrived"]]
        out[o["air_turn"] + obs["air_turn"]] = 1
        out[o["beachhead"] + self._hex_col(obs["beachhead"])] = 1
        out[o["replaced"] + obs["replaced"]] = 1
        for piece in obs["units"]:
            at = o["units"] + self.unit_ix[piece["id"]] * self.per_unit
            out[at] = 1  # identified
            out[at + 1 + _LOCS.index(piece["loc"])] = 1
            at += 1 + len(_LOCS)
            out[at + self._hex_col(piece["hex"])] = 1
            at += h + 1
            out[at] = piece["disrupted"]
            out[at + 1 + piece["recover"]] = 1
            out[at + 2 + _MAX_RECOVER] = piece["revealed"]
        for name, count in obs["face_down"].items():
            out[o["face_down"] + self.name_ix[name]] = count
        out[o["paramushir"]] = obs["paramushir"]
        self._group(obs["moved"], out, o["moved"])
        out[o["moved"] + u] = obs["moved_face_down"]
        for x in obs["acted"]:
            out[o["acted"] + self.unit_ix[x]] = 1
        sail = obs["sail"]
        if sail is not None:
            at = o["sail"]
            out[at] = 1
            out[at + 1 + self._hex_col(sail["hex"])] = 1
            at += 2 + h
            for k, x in enumerate(sail["party"]):
                out[at + k * u + self.unit_ix[x]] = 1
            at += MAX_LANDERS * u
            out[at : at + 3] = [sail["sailed"], sail["lost_ship"], sail["landed"]]
        width = 1 + h + u + 1
        if len(obs["pending"]) > self.slots:
            raise AssertionError(f"more than {self.slots} declared attacks")
        for k, c in enumerate(obs["pending"]):
            at = o["pending"] + k * width
            out[at] = 1
            out[at + 1 + self.name_ix[c["hex"]]] = 1
            self._group(c["attackers"], out, at + 1 + h)
        fight = obs["fight"]
        if fight is not None:
            at = o["fight"]
            out[at] = 1
            out[at + 1 + self.name_ix[fight["hex"]]] = 1
            at = self._group(fight["attackers"], out, at + 1 + h)
            out[at] = fight["landing"]
            at = self._group(fight["defenders"], out, at + 1)
            flags = [fight["hold"], fight["press"], fight["air"], fight["banzai"]]
            out[at : at + 4] = flags
            out[at + 4 + fight["face"]] = 1
            at += 4 + 7
            out[at + _RESULTS.index(fight["result"])] = 1
            at = self._group(fight["retreating"], out, at + len(_RESULTS))
            out[at + self._hex_col(fight["first_to"])] = 1
            self._group(fight["winners"], out, at + h + 1)
        for star in obs["taken"]:
            out[o["taken"] + int(star) - 1] = 1
        res = obs["result"]
        if res is not None:
            out[o["result"]] = 1
            if res["winner"] is not None:
                out[o["result"] + 1 + _SIDES.index(res["winner"])] = 1
            for k, side in enumerate(_SIDES):
                out[o["result"] + 3 + k] = res["points"].get(side, 0)
        if len(prefix) > DEFENDER_LIMIT:
            raise AssertionError(f"a defence prefix longer than {DEFENDER_LIMIT}")
        for token in prefix:
            out[o["prefix"] + token - self.sub_first] = 1  # defenders, in data order


def _hex_ids(first: int, hex_ix: Mapping[Hex, int], hexes: Sequence[Hex]) -> list[int]:
    """One unit's (unit, hex) ids, computed when the walk reaches them."""
    return [first + hex_ix[h] for h in hexes]


def specs(game: Any) -> list[Spec]:
    """One game per preset of `game` (the assembled game; the codec reads its rules)."""
    return preset_specs(
        game, ShumshuCodec(game.rules), functools.partial(max_game_length, game.rules)
    )
