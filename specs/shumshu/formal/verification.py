"""Shumshu's verification entry points (`solvers.checking.verification.SpecVerification`), and how
its
symbolic model speaks about the Python rules: the projection of a concrete state onto the
model's variables, and the schema and choices of each concrete action.

The refinement check (`solvers.checking.refinement`, tests/shumshu/test_refinement.py) holds the two
together on real playouts in both directions; the prover (`solvers.checking.prover`) proves the
properties of `specs.shumshu.formal.properties` over the model.

Two actions carry a witness the model's guard asks for: a `Join` (a legal declaration that
extends it) and the `Done` that ends movement (a legal declaration that attacks, or the
certificate that none does, `symbolic_declare`). The declarations come from the rules' own
solver (`combat_query`), the certificate from a maximum matching computed here; either way the
model's guard checks them, so a wrong one is a refinement failure, not a silent pass.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from kernel.hexes import Hex
from kernel.properties import Property
from kernel.variants import Variant
from solvers.checking.prover import Formal
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE
from solvers.queries.assignments import first as first_assignment
from specs.shumshu.data.loader import DATA_FILE, load_data
from specs.shumshu.formal import properties as props
from specs.shumshu.formal.symbolic import JAPANESE, MARGINAL, RES, ST, STRATEGIC, UnsupportedReading
from specs.shumshu.formal.symbolic_combat_actions import defend_choice
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.symbolic_schema import AIRC, BANZAI, FACE, HEX, PRESS, SUNK, UNIT, YES
from specs.shumshu.rules.actions import (
    Action,
    Advance,
    AirRoll,
    Commit,
    Defend,
    Done,
    Embark,
    Form,
    Hold,
    Join,
    LandAt,
    Move,
    Place,
    Reinforce,
    Replace,
    Resolve,
    Retreat,
    ReturnDecoy,
    Roll,
    Strike,
)
from specs.shumshu.rules.combat_query import combat_problem, join_ok, to_declaration
from specs.shumshu.rules.declare import Pair, front, pairs_of
from specs.shumshu.rules.state import RU, Loc, ShumshuState, Stage

VARIABLE_CLAUSES = {
    "turn": ("SHU-SEQ.2",),
    "ru": ("SHU-SEQ.1",),
    "stage": ("SHU-SEQ.1",),
    "ships": ("SHU-LAND.3", "SHU-LAND.4", "SHU-AIR.2"),
    "air": ("SHU-AIR.3",),
    "air_used": ("SHU-AIR.1", "SHU-AIR.2"),
    "at_arrived": ("SHU-TANK.2",),
    "beach": ("SHU-LAND.1", "SHU-LAND.10"),
    "replaced": ("SHU-REPL.1",),
    "sail": ("SHU-LAND.1", "SHU-REINF.3"),
    "sail_hex": ("SHU-LAND.1",),
    "sailed": ("SHU-LAND.2",),
    "lost": ("SHU-LAND.4",),
    "landed": ("SHU-LAND.1",),
    "fhex": ("SHU-COMBAT.1",),
    "landing": ("SHU-LAND.2",),
    "hold": ("SHU-LAND.8",),
    "press": ("SHU-PRESS.1",),
    "fair": ("SHU-AIR.1",),
    "banzai": ("SHU-BANZAI.1",),
    "result": ("SHU-CRT.1", "SHU-CRT.2"),
    "winner": ("SHU-WIN.1", "SHU-WIN.2", "SHU-WIN.3"),
    "at": ("SHU-MOVE.1", "SHU-CRT.3", "SHU-CRT.4", "SHU-COMBAT.13", "SHU-LAND.7"),
    "dis": ("SHU-CRT.6", "SHU-DISRUPT.3", "SHU-DISRUPT.4"),
    "rec": ("SHU-DISRUPT.3", "SHU-DISRUPT.4", "SHU-COMBAT.6"),
    "mv": ("SHU-MOVE.1",),
    "act": ("SHU-SEQ.1",),
    "party": ("SHU-LAND.2", "SHU-REINF.3"),
    "pend": ("SHU-COMBAT.1",),
    "fatt": ("SHU-COMBAT.1",),
    "fdef": ("SHU-STACK.3",),
    "retr": ("SHU-CRT.4", "SHU-CRT.5"),
    "win": ("SHU-COMBAT.13",),
}
"""The clauses that say how each model variable (or family, before the dot) changes."""

WINNER = {"SHU-WIN.1": MARGINAL, "SHU-WIN.2": STRATEGIC, "SHU-WIN.3": JAPANESE}
DONE_AT = {
    Stage.FORM: "form_done",
    Stage.SAIL: "sail_done",
    Stage.REPLACE: "replace_done",
    Stage.REINFORCE: "reinforce_done",
    Stage.DECLARE: "declare_done",
    Stage.ADVANCE: "advance_done",
}


def properties() -> tuple[Property, ...]:
    return props.properties()


@functools.cache
def symbolic_model(variant: Variant) -> Link | None:
    """The model of `variant`, or None when it uses a reading the model does not encode."""
    try:
        return Link(variant)
    except UnsupportedReading:
        return None


class Link:
    """The model of one variant with its formal statements, projection and action mapping
    (`solvers.checking.verification.SymbolicModel`)."""

    exact = True  # the rules' steps in both directions (solvers.checking.refinement (a) and (b))

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.model = Model(variant, load_data(DATA_FILE))
        self.system = self.model
        self.t = self.model.t
        self._unit = {uid: i for i, uid in enumerate(self.t.ids)}
        self._formal: dict[str, Formal] | None = None

    def formal(self) -> Mapping[str, Formal]:
        if self._formal is None:
            self._formal = props.formal(self.model)
        return self._formal

    def clauses_of(self, variable: str) -> tuple[str, ...]:
        return VARIABLE_CLAUSES.get(variable.partition(".")[0], ())

    def hex(self, h: Hex | None) -> int:
        return 0 if h is None else self.t.index[h]

    def where(self, loc: Loc, h: Hex | None) -> int:
        if loc is Loc.MAP:
            return self.hex(h)
        if loc is Loc.POOL:
            return 0
        return self.t.loc_code[loc.value]

    def project(self, state: ShumshuState) -> dict[str, int | bool]:
        """The model's view of `state` (see symbolic.py for what it leaves out)."""
        m = self.model
        sail, fight = state.sail, state.fight
        out: dict[str, int | bool] = {
            "turn": state.turn,
            "ru": state.side == RU,
            "stage": ST[state.stage],
            "ships": state.ships,
            "air": state.air,
            "air_used": state.air_used,
            "at_arrived": state.at_arrived,
            "beach": self.hex(state.beachhead),
            "replaced": state.replaced,
            "sail": sail is not None,
            "sail_hex": self.hex(sail.hex) if sail is not None else 0,
            "sailed": sail is not None and sail.sailed,
            "lost": sail is not None and sail.lost_ship,
            "landed": sail is not None and sail.landed,
            "fhex": self.hex(fight.hex) if fight is not None else 0,
            "landing": fight is not None and fight.landing,
            "hold": fight is not None and fight.hold,
            "press": fight is not None and fight.press,
            "fair": fight is not None and fight.air,
            "banzai": fight is not None and fight.banzai,
            "result": RES[fight.result] if fight is not None else 0,
            "winner": WINNER[state.result.clause] if state.result is not None else 0,
        }
        pending = {a: c.hex for c in state.pending for a in c.attackers}
        for u, p in enumerate(state.units):
            out[m.at[u]] = self.where(p.loc, p.hex)
            out[m.rec[u]] = p.recover
            out[m.mv[u]] = p.id in state.moved
            out[m.pend[u]] = self.hex(pending.get(p.id))
            out[m.fatt[u]] = fight is not None and p.id in fight.attackers
            out[m.fdef[u]] = fight is not None and p.id in fight.defenders
            out[m.retr[u]] = fight is not None and p.id in fight.retreating
            out[m.win[u]] = fight is not None and p.id in fight.winners
            if u in m.dis:
                out[m.dis[u]] = p.disrupted
            if u in m.act:
                out[m.act[u]] = p.id in state.acted
                out[m.party[u]] = sail is not None and p.id in sail.party
        return out

    def schema_of(self, state: ShumshuState, action: Action) -> tuple[str, dict[str, int | bool]]:
        """The schema a concrete action is an instance of, and its choices."""
        u = self._unit
        stage = state.stage
        match action:
            case Place(unit, h):
                return "place", {UNIT: u[unit], HEX: self.hex(h)}
            case Form(r):
                return "form", {UNIT: u[r]}
            case LandAt(h):
                return "land_at", {HEX: self.hex(h)}
            case Embark(unit):
                return "embark", {UNIT: u[unit]}
            case Strike(yes):
                return "strike", {YES: yes}
            case AirRoll(face, sunk):
                return "air_roll", {FACE: face, SUNK: 0 if sunk is None else u[sunk] + 1}
            case Roll(face):
                landing = state.fight is not None and state.fight.landing
                return ("roll_landing" if landing else "roll_combat"), {FACE: face}
            case Replace(unit):
                return "replace", {UNIT: u[unit]}
            case Reinforce(unit, h):
                return "reinforce", {UNIT: u[unit], HEX: self.hex(h)}
            case ReturnDecoy(unit, h):
                return "return_decoy", {UNIT: u[unit], HEX: self.hex(h)}
            case Move(unit, h):
                return "move", {UNIT: u[unit], HEX: self.hex(h)}
            case Join(unit, h):
                pairs = (*pairs_of(state.pending), (unit, h))
                return "join", {UNIT: u[unit], HEX: self.hex(h), **self.counts(state, pairs)}
            case Resolve(h):
                return "resolve", {HEX: self.hex(h)}
            case Defend(units):
                ids = [self.t.ids[v] for v in self.t.real]
                return "defend", {defend_choice(x): x in units for x in ids}
            case Hold(yes):
                return "hold", {YES: yes}
            case Commit(press, air, banzai):
                return "commit", {PRESS: press, AIRC: air, BANZAI: banzai}
            case Retreat(unit, h):
                return "retreat", {UNIT: u[unit], HEX: self.hex(h)}
            case Advance(unit, h):
                return "advance", {UNIT: u[unit], HEX: self.hex(h)}
            case Done() if stage is Stage.MOVE:
                first = self.first_attack(state)
                if first is not None:
                    return "move_done_attack", self.counts(state, (first,))
                return "move_done_quiet", self.certificate(state)
            case Done() if stage in DONE_AT:
                return DONE_AT[stage], {}
        raise TypeError(f"not a Shumshu action here: {action!r}")

    def first_attack(self, state: ShumshuState) -> Pair | None:
        """The first attack some legal declaration makes (sequence.declare_step), or None."""
        b = self.t.board
        f = front(b, state)
        for a in f.attackers:
            for h in f.contacts[a]:
                if join_ok(b, state, (), a, h):
                    return (a, h)
        return None

    def counts(self, state: ShumshuState, pairs: Sequence[Pair]) -> dict[str, int | bool]:
        """The witness of a `Join` or of attacks to come: the counts per hexside of a legal
        declaration extending `pairs`, as the rules' solver finds it (combat_query)."""
        b = self.t.board
        f = front(b, state)
        last = max(f.attackers.index(a) for a, _ in pairs)
        chosen = dict(pairs)
        idle = frozenset(a for a in f.attackers[: last + 1] if a not in chosen)
        found = first_assignment(combat_problem(b, state, pairs, idle))
        names = self.model.decl.count_vars
        out: dict[str, int | bool] = {n: 0 for n in names.values()}
        if found is None:
            return out
        for a, h in to_declaration(b, found):
            e = (self.hex(state.piece(a).hex), self.hex(h))
            out[names[e]] = int(out[names[e]]) + 1
        return out

    def certificate(self, state: ShumshuState) -> dict[str, int | bool]:
        """The certificate that no legal declaration attacks (`symbolic_declare`): a maximum
        matching of attacking hexes' units to obliged hexes, and the hexes reached from the
        obliged hexes it leaves unattacked, with their path lengths."""
        m = self.model
        d = m.decl
        t = self.t
        values = concrete_frame(m.variables, self.project(state))
        o = CONCRETE
        n = {x: int(d.attackers(o, values, x)) for x in t.cells}
        src = {x: bool(d.source(o, values, x)) for x in t.cells}
        tgt = {h: bool(d.obliged(o, values, h)) for h in t.cells}
        edges = [(x, h) for x, h in t.edges if src[x] and tgt[h]]
        match: dict[int, int] = {}  # target -> source
        load = dict.fromkeys(t.cells, 0)

        def augment(h: int, seen: set[int]) -> bool:
            for x, y in edges:
                if y != h or x in seen:
                    continue
                seen.add(x)
                if load[x] < n[x]:
                    match[h] = x
                    load[x] += 1
                    return True
                for other, owner in list(match.items()):
                    if owner == x and augment_from(other, seen):
                        match[h] = x
                        load[x] += 1
                        return True
            return False

        def augment_from(h: int, seen: set[int]) -> bool:
            """Move target `h` to another source, freeing a unit of its own."""
            old = match.pop(h)
            load[old] -= 1
            if augment(h, seen):
                return True
            match[h] = old
            load[old] += 1
            return False

        for h in sorted(x for x in t.cells if tgt[x]):
            augment(h, set())
        level_t: dict[int, int] = {h: 0 for h in t.cells if tgt[h] and h not in match}
        level_s: dict[int, int] = {}
        frontier = sorted(level_t)
        step = 0
        while frontier:
            step += 1
            sources = sorted({x for x, y in edges if y in frontier and x not in level_s})
            for x in sources:
                level_s[x] = 2 * step - 1
            targets = sorted({h for h, x in match.items() if x in sources and h not in level_t})
            for h in targets:
                level_t[h] = 2 * step
            frontier = targets
        out: dict[str, int | bool] = {}
        for e, v in d.match_vars.items():
            out[v] = match.get(e[1]) == e[0]
        for x, v in d.source_vars.items():
            out[v] = x in level_s
        for h, v in d.target_vars.items():
            out[v] = h in level_t
        for x, v in d.source_level.items():
            out[v] = level_s.get(x, 0)
        for h, v in d.target_level.items():
            out[v] = level_t.get(h, 0)
        return out
