"""What the Russians see of Shumshu, written once over the symbolic model, and the proof that
nothing hidden leaks into it (SHU-P-NO-LEAK; SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1,
SHU-DISRUPT.5).

The model leaves out whether a Japanese piece is face up (no rule of the encoded readings
reads it, `symbolic`); the observation does read it, so it is added as a ghost per Japanese
piece (`rev.<id>`, `solvers.checking.ghosts`), changed as the rules change it: revealed on
joining an attack (SHU-COMBAT.5, `reveal=in_combat`), on defending (SHU-COMBAT.5), when
disrupted (SHU-DISRUPT.5) and when a decoy is discovered (SHU-COMBAT.6); hidden again on
recovery (`rehide=on_recovery`, AMB-SHU-21 ii) and when a decoy comes back; eliminated face up
or as it was (`eliminated_face`).

The Russian observation (`RussianView.observe`) is `io.observation.observe(state, "RU")` over
the model: every Russian piece and every public variable as it is; a Japanese piece the
Russians can identify as it is; a face-down one (on the map, on Paramushir, or eliminated face
down) only in counts: per hex, on Paramushir, moved, per declared attack and in the combat
under way. `from_observation` reads the same components off `observe`'s record, and the test
holds the two equal on playout positions (tests/shumshu/test_no_leak_proof.py).

The observable part of a step (`RussianView.label`) is the action as the Russians see it across
the table: its kind and choices, with the unit of a Japanese action masked while that unit is
face down (where it stands is seen: a counter leaves its hex). Defenders are named: they are
revealed by taking the defence (SHU-COMBAT.5), which is the rules' own disclosure. So are the
pieces a step turns face up without a choice naming them (the defenders of a hex within the
limit, a decoy discovered in an attacked hex, a piece disrupted or joining an attack:
SHU-COMBAT.5, SHU-COMBAT.6, SHU-DISRUPT.5): which counter is turned over depends on what lay
face down, and that is what the rules disclose, so the step shows which pieces it turns face
up; everything else about them is compared in the states after.

The relation is not inductive on equal observations alone: `noleak_lemmas` holds the
single-state lemmas it assumes in both states, each proved an inductive invariant first. The
bridges (`bridges`) spell out consequences of equal observations that the steps' stages read
(how many Japanese pieces stand on the beachhead, on the hex the Russians sail for, on the
combat's hex, on each map hex), each derived before it is assumed. The counts of face-down
pieces are asked in parts (`Pieces`: the Japanese pieces, named by the unit choice), so two
steps that move different face-down pieces are compared one piece at a time; whether Japanese
pieces stand on a hex once the acting piece has moved (a decoy's way back, SHU-COMBAT.6; an
arrival on the beachhead, AMB-SHU-7) is read over the counts before the step, where the label
shows the hex the piece leaves (`acting_at`) and the one it enters; both steps' guards are
assumed from the start (`eager`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from kernel.hexes import hex_name
from solvers.checking.ghosts import Ghosts, WithGhosts
from solvers.checking.noninterference import Label, NoLeak, Pieces
from solvers.checking.prover import Lemma
from solvers.checking.system import BoolVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.noleak_bridges import bridges
from specs.shumshu.formal.symbolic import RES, ST
from specs.shumshu.formal.symbolic_combat_actions import defend_choice
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.symbolic_schema import (
    AIRC,
    BANZAI,
    FACE,
    HEX,
    PRESS,
    SUNK,
    UNIT,
    YES,
)
from specs.shumshu.rules.state import JP, RU, Stage

DEFEND = defend_choice("")  # the prefix of a defender's choice
HIDDEN = "hidden"  # io.observation.HIDDEN: a face-down piece in a list of units
PUBLIC = (
    "turn",
    "ru",
    "stage",
    "ships",
    "air",
    "air_used",
    "at_arrived",
    "beach",
    "replaced",
    "sail",
    "sail_hex",
    "sailed",
    "lost",
    "landed",
    "fhex",
    "landing",
    "hold",
    "press",
    "fair",
    "banzai",
    "result",
    "winner",
)
"""The model's variables both sides see as they are."""
FIGHT_LISTS = ("fatt", "fdef", "retr", "win")
"""Per-unit flags of the combat under way, each a list of units in the observation."""
ACTION_CHOICES = (UNIT, HEX, FACE, SUNK, YES, PRESS, AIRC, BANZAI)
"""The choices that are part of an action; the others are certificates the model's guard checks
(counts per hexside, a matching), no part of what is done."""


def rev(uid: str) -> str:
    return f"rev.{uid}"


def keep(uid: str) -> str:
    """The ghost choice: a piece face up when the Japanese player-turn ends stays face up."""
    return f"g_keep.{uid}"


class FaceUp:
    """The ghost `rev.<id>` per Japanese piece: face up (`revealed` of the rules' piece)."""

    def __init__(self, m: Model) -> None:
        self.m = m
        t = m.t
        self.jp = t.of_side[JP]
        self.variables: tuple[Var, ...] = tuple(BoolVar(rev(t.ids[u])) for u in self.jp)
        self.choices: tuple[Var, ...] = tuple(BoolVar(keep(t.ids[u])) for u in self.jp)
        v = t.v
        self.face_up = v.is_("eliminated_face", "face_up")
        self.in_combat = v.is_("reveal", "in_combat")
        self.rehide = v.is_("rehide", "on_recovery")

    def initial(self) -> dict[str, int | bool]:
        return {v.name: False for v in self.variables}

    def settled(self, o: Ops[Any, Any], after: Frame[Any, Any], u: int) -> Any:
        """Where a piece disrupted and recovered within one step can be when the step ends:
        on the map, undisrupted, its recovery turn cleared and out of every combat list (the
        end of a player-turn clears them, `end_player_turn`). Only such a piece may go face
        down by the ghost choice."""
        m = self.m
        return o.all(
            [
                m.on_map(o, after, u),
                o.not_(m.disrupted(o, after, u)),
                o.eq(after.i(m.rec[u]), 0),
                o.eq(after.i(m.pend[u]), 0),
                *(o.not_(after.b(getattr(m, f)[u])) for f in FIGHT_LISTS),
            ]
        )

    def update(
        self,
        o: Ops[Any, Any],
        schema: Schema,
        s: Frame[Any, Any],
        c: Frame[Any, Any],
        after: Frame[Any, Any],
    ) -> Mapping[str, Any]:
        """Each piece's `revealed` after the step, as the rules set it (module docstring).

        A piece disrupted by a result and recovered when the same step ends the Japanese
        player-turn (`jp_recovery=own_turn_end`) is face down again, though neither state
        shows the disruption: where the step ends that turn, a piece face up before and not
        disrupted after stays face up or not by the ghost choice `keep`."""
        m, t = self.m, self.m.t
        out: dict[str, Any] = {}
        ends = o.all(
            [o.not_(s.b("ru")), o.any([after.b("ru"), o.eq(after.i("stage"), ST[Stage.OVER])])]
        )
        for u in self.jp:
            uid = t.ids[u]
            was = s.b(rev(uid))
            at0, at1 = s.i(m.at[u]), after.i(m.at[u])
            dis0, dis1 = m.disrupted(o, s, u), m.disrupted(o, after, u)
            chosen = o.eq(c.i(UNIT), u) if UNIT in c.ints else o.lit(False)
            recovered = o.all([dis0, o.not_(dis1)])  # AMB-SHU-21 ii: face down again
            value = o.bite(recovered, o.all([was, o.lit(not self.rehide)]), was)
            defends = o.all([after.b(m.fdef[u]), o.not_(s.b(m.fdef[u]))])
            value = o.bite(defends, o.lit(True), value)  # SHU-COMBAT.5: chosen to defend
            if self.rehide and u in m.dis:  # AMB-SHU-21 ii: maybe disrupted and recovered
                value = o.bite(
                    o.all([ends, self.settled(o, after, u)]), o.all([value, c.b(keep(uid))]), value
                )
            value = o.bite(o.all([dis1, o.not_(dis0)]), o.lit(True), value)  # SHU-DISRUPT.5
            gone = o.all([o.eq(at1, t.GONE), o.not_(o.eq(at0, t.GONE))])
            shown = o.any([o.lit(self.face_up), was, dis0])
            value = o.bite(gone, shown, value)  # eliminated: `eliminated_face`
            removed = o.all([o.eq(at1, t.REMOVED), o.not_(o.eq(at0, t.REMOVED))])
            value = o.bite(removed, o.lit(True), value)  # SHU-COMBAT.6: a decoy discovered
            if schema.name == "join" and self.in_combat:
                value = o.bite(chosen, o.lit(True), value)  # SHU-COMBAT.5
            if schema.name == "defend" and defend_choice(uid) in c.bools:
                value = o.bite(c.b(defend_choice(uid)), o.lit(True), value)  # SHU-COMBAT.5
            if schema.name == "return_decoy":
                value = o.bite(chosen, o.lit(False), value)  # comes back face down
            out[rev(uid)] = value
        return out


class RussianView:
    """The Russian observation and the observable part of a step, over the extended model."""

    side = RU

    def __init__(self, m: Model) -> None:
        self.m = m
        t = m.t
        self.jp = t.of_side[JP]
        self.ru = t.of_side[RU]

    def hidden(self, o: Ops[Any, Any], s: Frame[Any, Any], u: int) -> Any:
        """A Japanese piece the Russians cannot identify (`rules.units.hidden`)."""
        m, t = self.m, self.m.t
        at = s.i(m.at[u])
        up = s.b(rev(t.ids[u]))
        on_map = m.on_map(o, s, u)
        return o.any(
            [
                o.all([on_map, o.not_(up), o.not_(m.disrupted(o, s, u))]),
                o.all([o.eq(at, t.GONE), o.not_(up)]),
                o.eq(at, 0),
            ]
        )

    def _unit_vars(self, u: int) -> list[tuple[str, str, bool]]:
        """(component, variable, Boolean) for each variable of unit `u`."""
        m, t = self.m, self.m.t
        uid = t.ids[u]
        out = [("at", m.at[u], False), ("rec", m.rec[u], False), ("mv", m.mv[u], True)]
        if u in m.dis:
            out.append(("dis", m.dis[u], True))
        out += [("pend", m.pend[u], False)]
        out += [(f, getattr(m, f)[u], True) for f in FIGHT_LISTS]
        if u in m.act:
            out += [("act", m.act[u], True), ("party", m.party[u], True)]
        if t.side[u] == JP:
            out.append(("rev", rev(uid), True))
        return out

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        m, t = self.m, self.m.t
        out: dict[str, Any] = {}
        for name in PUBLIC:
            out[name] = s.b(name) if name in s.bools else s.i(name)
        hid = {u: self.hidden(o, s, u) for u in self.jp}
        for u in t.units:
            uid = t.ids[u]
            masked = hid.get(u)
            if masked is not None:
                out[f"hidden.{uid}"] = masked
            for comp, var, is_bool in self._unit_vars(u):
                value = s.b(var) if is_bool else s.i(var)
                if masked is not None:
                    value = (
                        o.bite(masked, o.lit(False), value) if is_bool else o.ite(masked, -1, value)
                    )
                out[f"{comp}.{uid}"] = value
        for h in t.cells:
            out[f"face_down.{h}"] = o.count(o.all([hid[u], m.at_hex(o, s, u, h)]) for u in self.jp)
            out[f"pending_face_down.{h}"] = o.count(
                o.all([hid[u], o.eq(s.i(m.pend[u]), h)]) for u in self.jp
            )
        out["paramushir"] = o.count(o.eq(s.i(m.at[u]), 0) for u in self.jp)
        out["moved_face_down"] = o.count(o.all([hid[u], s.b(m.mv[u])]) for u in self.jp)
        for f in FIGHT_LISTS:
            names = getattr(m, f)
            out[f"{f}_face_down"] = o.count(o.all([hid[u], s.b(names[u])]) for u in self.jp)
        return out

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> Label:
        """The schema and its choices, a Japanese unit masked while face down, with the hex it
        stands on; the certificates some schemas carry (counts per hexside, a matching) are
        no part of the action and are left out."""
        m, t = self.m, self.m.t
        terms: list[Any] = []
        for v in schema.choices:
            if v.name not in ACTION_CHOICES and not v.name.startswith(DEFEND):
                continue
            if v.name == UNIT:
                unit = c.i(UNIT)
                masked = o.any(o.all([o.eq(unit, u), self.hidden(o, s, u)]) for u in self.jp)
                terms.append(o.ite(masked, -1, unit))
                terms.append(acting_at(m, o, s, c))
                continue
            terms.append(c.b(v.name) if isinstance(v, BoolVar) else c.i(v.name))
        for u in self.jp:  # whether a piece seen face up goes face down: seen across the table
            name = keep(t.ids[u])
            if name in c.bools:
                terms.append(o.bite(self.hidden(o, s, u), o.lit(False), c.b(name)))
        after = schema.effect(o, s, c)
        for u in self.jp:  # the rules' own disclosure: which pieces the step turns face up
            terms.append(o.all([self.hidden(o, s, u), o.not_(self.hidden(o, after, u))]))
        return schema.name, tuple(terms)


def acting_at(m: Model, o: Ops[Any, Any], s: Frame[Any, Any], c: Frame[Any, Any]) -> Any:
    """Where the unit a step names stands before it: seen across the table, a counter leaves
    its hex."""
    return o.add(o.ite(o.eq(c.i(UNIT), u), s.i(m.at[u]), 0) for u in m.t.units)


@functools.cache
def extended(m: Model) -> WithGhosts:
    """The model with its face-up ghosts (one per model: the prover caches its formulas per
    system)."""
    ghosts: Ghosts = FaceUp(m)
    return WithGhosts(m, ghosts)


def waiting_face_down(m: Model) -> Lemma:
    """A Japanese piece on Paramushir (or not yet set up) is face down and undisrupted
    (SHU-SETUP.1, SHU-REINF.1: pieces come from there face down)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        t = m.t
        return o.all(
            o.implies(
                o.eq(s.i(m.at[u]), 0),
                o.all([o.not_(s.b(rev(t.ids[u]))), o.not_(m.disrupted(o, s, u))]),
            )
            for u in t.of_side[JP]
        )

    return Lemma("Japanese pieces off the map wait face down", holds)


def paramushir_waits(m: Model) -> Lemma:
    """During set-up every Paramushir piece is still there (SHU-SETUP.1, SHU-REINF.1)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        setup = o.eq(s.i("stage"), ST[Stage.SETUP])
        return o.implies(setup, o.all(o.eq(s.i(m.at[u]), 0) for u in m.t.paramushir))

    return Lemma("Paramushir pieces wait during set-up", holds)


def statement(m: Model) -> NoLeak:
    """SHU-P-NO-LEAK over the model with its face-up ghosts, assuming `noleak_lemmas` (and
    the two lemmas above) in both states and `noleak_bridges`, the face-down counts asked in
    parts, read over the counts before a move or before a stage moves pieces (decoys
    discovered on the map's hexes). Not yet among the properties `wargame verify` proves:
    some schemas' pairs of steps exhaust the solver's resource limit (listed, with those
    proved, in tests/shumshu/test_no_leak_proof.py, where a planted leak is refuted)."""
    from specs.shumshu.formal.noleak_lemmas import lemmas  # they read this module's ghosts

    return NoLeak(
        RussianView(m),
        extended(m),
        (waiting_face_down(m), paramushir_waits(m), *lemmas(m)),
        bridges(m),
        Pieces(
            tuple(m.t.of_side[JP]),
            UNIT,
            tuple(m.at[u] for u in m.t.of_side[JP]),
            functools.partial(acting_at, m),
            tuple(m.t.cells),
        ),
        eager=True,
    )


def keep_choices(m: Model, after: Any) -> dict[str, int | bool]:
    """The ghost choices of a concrete step, read off the state after it."""
    t = m.t
    return {keep(t.ids[u]): bool(after.units[u].revealed) for u in t.of_side[JP]}


def project_face_up(m: Model, state: Any) -> dict[str, int | bool]:
    """The ghosts' values in a concrete state (the pieces' `revealed`)."""
    t = m.t
    return {rev(t.ids[u]): bool(state.units[u].revealed) for u in t.of_side[JP]}


def from_observation(m: Model, view: Mapping[str, Any]) -> dict[str, Any]:
    """The components of `RussianView.observe`, read off `io.observation.observe`'s Russian
    record: what the test holds equal to the model's own observation."""
    t = m.t
    hexes = {hex_name(h): t.index[h] for h in t.hexes}

    def where(loc: str, h: str | None) -> int:
        if loc == "map":
            assert h is not None
            return hexes[h]
        return 0 if loc == "pool" else t.loc_code[loc]

    sail, fight = view["sail"], view["fight"]
    result = view["result"]
    winner = {"SHU-WIN.1": 1, "SHU-WIN.2": 2, "SHU-WIN.3": 3}
    out: dict[str, Any] = {
        "turn": view["turn"],
        "ru": view["player"] == RU,
        "stage": ST[Stage(view["stage"])],
        "ships": view["ships"],
        "air": view["air"],
        "air_used": view["air_used"],
        "at_arrived": view["at_arrived"],
        "beach": hexes[view["beachhead"]] if view["beachhead"] else 0,
        "replaced": view["replaced"],
        "sail": sail is not None,
        "sail_hex": hexes[sail["hex"]] if sail and sail["hex"] else 0,
        "sailed": bool(sail and sail["sailed"]),
        "lost": bool(sail and sail["lost_ship"]),
        "landed": bool(sail and sail["landed"]),
        "fhex": hexes[fight["hex"]] if fight else 0,
        "landing": bool(fight and fight["landing"]),
        "hold": bool(fight and fight["hold"]),
        "press": bool(fight and fight["press"]),
        "fair": bool(fight and fight["air"]),
        "banzai": bool(fight and fight["banzai"]),
        "result": RES[fight["result"] or ""] if fight else 0,
        "winner": winner[result["clause"]] if result else 0,
    }
    seen = {u["id"]: u for u in view["units"]}
    pending = {a: hexes[c["hex"]] for c in view["pending"] for a in c["attackers"]}
    lists = ("attackers", "defenders", "retreating", "winners")
    in_fight = {
        f: set(fight[k]) if fight else set() for f, k in zip(FIGHT_LISTS, lists, strict=True)
    }
    moved, acted = set(view["moved"]), set(view["acted"])
    party = set(sail["party"]) if sail else set()
    view_m = RussianView(m)
    for u in t.units:
        uid = t.ids[u]
        p = seen.get(uid)
        if t.side[u] == JP:
            out[f"hidden.{uid}"] = p is None
        values: dict[str, Any] = {}
        if p is not None:
            values = {
                "at": where(p["loc"], p["hex"]),
                "rec": p["recover"],
                "mv": uid in moved,
                "dis": p["disrupted"],
                "pend": pending.get(uid, 0),
                "act": uid in acted,
                "party": uid in party,
                "rev": p["revealed"],
                **{f: uid in in_fight[f] for f in FIGHT_LISTS},
            }
        for comp, _, is_bool in view_m._unit_vars(u):
            out[f"{comp}.{uid}"] = values[comp] if p is not None else (False if is_bool else -1)
    face_down = {hexes[h]: n for h, n in view["face_down"].items()}
    hidden_pending: dict[int, int] = {}
    for c in view["pending"]:
        hidden_pending[hexes[c["hex"]]] = c["attackers"].count(HIDDEN)
    for h in t.cells:
        out[f"face_down.{h}"] = face_down.get(h, 0)
        out[f"pending_face_down.{h}"] = hidden_pending.get(h, 0)
    out["paramushir"] = view["paramushir"]
    out["moved_face_down"] = view["moved_face_down"]
    for f, k in zip(FIGHT_LISTS, lists, strict=True):
        out[f"{f}_face_down"] = fight[k].count(HIDDEN) if fight else 0
    return out
