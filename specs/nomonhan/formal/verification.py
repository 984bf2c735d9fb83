"""Nomonhan's verification entry points (`solvers.checking.verification.SpecVerification`), and how
its
symbolic model speaks about the Python rules: the projection of a concrete state onto the
model's variables, and the schema and choices of each concrete action.

The refinement check (`solvers.checking.refinement`) holds the two together on real playouts; the
prover
(`solvers.checking.prover`) proves the properties of `specs.nomonhan.formal.properties` over the
model.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from kernel.hexes import Hex
from kernel.properties import Property
from kernel.variants import Variant
from solvers.checking.prover import Formal
from specs.nomonhan.data.loader import DATA_FILE, load_data
from specs.nomonhan.formal import properties as props
from specs.nomonhan.formal import statements
from specs.nomonhan.formal.symbolic import DRAW, OVER, SIDE_CODE, STAGE_NAMES
from specs.nomonhan.formal.symbolic_play import Model
from specs.nomonhan.formal.symbolic_tables import UnsupportedReading
from specs.nomonhan.rules.actions import (
    Action,
    Advance,
    Declare,
    Demolish,
    EndAdvance,
    EndPhase,
    EndRoll,
    Enter,
    Loss,
    Move,
    Resolve,
    Roll,
)
from specs.nomonhan.rules.state import NomonhanState, Stage
from specs.nomonhan.rules.strength import full_steps

STAGE_CODE = {Stage(name): i for i, name in enumerate(STAGE_NAMES)}

VARIABLE_CLAUSES = {
    "turn": ("NOM-6.2", "NOM-6.6"),
    "jp_ini": ("NOM-6.4", "NOM-6.5"),
    "phase": ("NOM-5.1", "NOM-5.2", "NOM-5.3"),
    "stage": ("NOM-5.1", "NOM-9.8"),
    "pos": ("NOM-8.1", "NOM-9.24", "NOM-9.30"),
    "steps": ("NOM-9.24", "NOM-9.27"),
    "moved": ("NOM-8.1",),
    "pend": ("NOM-9.8", "NOM-6.3"),
    "psup": ("NOM-9.17",),
    "cur": ("NOM-9.8", "NOM-6.3"),
    "start": ("NOM-9.29",),
    "demolished": ("NOM-OPT.5",),
    "art_used": ("NOM-9.17", "NOM-9.19"),
    "nip_moved": ("NOM-8.8",),
    "changed": ("NOM-6.2",),
    "csup": ("NOM-9.17",),
    "loser": ("NOM-9.12",),
    "dmg_left": ("NOM-9.12", "NOM-9.24"),
    "dmg_total": ("NOM-9.12",),
    "adv_left": ("NOM-9.29", "NOM-9.30"),
    "pts": ("NOM-4.5", "NOM-4.6"),
    "winner": ("NOM-4.1", "NOM-4.2", "NOM-4.3", "NOM-4.4"),
}
"""The clauses that say how each model variable (or family, before the dot) changes."""


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
        self._formal = statements.formal(self.model)

    def formal(self) -> Mapping[str, Formal]:
        return self._formal

    def clauses_of(self, variable: str) -> tuple[str, ...]:
        return VARIABLE_CLAUSES.get(variable.partition(".")[0], ())

    def hex(self, h: Hex | None) -> int:
        return 0 if h is None else self.t.index[h]

    def project(self, state: NomonhanState) -> dict[str, int | bool]:
        """The model's view of `state` (see symbolic.py for what it leaves out)."""
        m, t = self.model, self.t
        out: dict[str, int | bool] = {
            "turn": state.turn,
            "jp_ini": state.initiative == "JP",
            "phase": int(state.phase),
            "stage": STAGE_CODE[state.stage],
            "demolished": state.demolished,
            "art_used": state.artillery_used,
            "nip_moved": state.nip_moved_this_turn,
            "changed": state.turn_ending,
        }
        for u, unit in enumerate(state.units):
            out[m.pos[u]] = self.hex(unit.hex)
            out[m.steps[u]] = unit.steps
            out[m.moved[u]] = unit.id in state.moved
            out[m.pend[u]] = 0
            out[m.psup[u]] = False
            out[m.cur[u]] = False
            out[m.start[u]] = 0
        for c in state.pending:
            lead = self._unit[c.attackers[0]]
            for uid in c.attackers + c.defenders:
                out[m.pend[self._unit[uid]]] = lead + 1
            out[m.psup[lead]] = c.support
        res = state.current
        out.update(csup=False, loser=0, dmg_left=0, dmg_total=0, adv_left=0)
        if res is not None:
            for uid in res.combat.attackers + res.combat.defenders:
                out[m.cur[self._unit[uid]]] = True
            for uid, h in res.start_hexes:
                out[m.start[self._unit[uid]]] = self.hex(h)
            out["csup"] = res.combat.support
            out["loser"] = 0 if res.loser is None else SIDE_CODE[res.loser]
            out["dmg_left"] = res.damage_left
            out["dmg_total"] = res.damage_left + res.damage_done
            out["adv_left"] = res.advance_left
        pts = {"JP": 0, "SU": 0}
        for u, unit in enumerate(state.units):
            spec = t.specs[u]
            enemy = "SU" if spec.side == "JP" else "JP"
            pts[enemy] += t.weight(u) * (full_steps(state.variant, spec) - unit.steps)
        out["pts.JP"], out["pts.SU"] = pts["JP"], pts["SU"]
        winner = 0
        if state.stage == Stage.OVER and state.result is not None:
            w = state.result.winner
            winner = DRAW if w is None else SIDE_CODE[w]
        out["winner"] = winner
        assert out["stage"] != OVER or winner != 0
        return out

    def schema_of(self, state: NomonhanState, action: Action) -> tuple[str, dict[str, int | bool]]:
        """The schema a concrete action is an instance of, and its choices."""
        u = self._unit
        match action:
            case Move(unit, to):
                return "move", {"unit": u[unit], "to": self.hex(to)}
            case Enter(unit, at, to):
                return "enter", {"unit": u[unit], "at": self.hex(at), "to": self.hex(to)}
            case Demolish():
                return "demolish", {}
            case EndPhase():
                return "end_phase", {}
            case Declare(combats):
                choice: dict[str, int | bool] = {}
                for c in combats:
                    lead = min(u[a] for a in c.attackers)
                    for uid in c.attackers + c.defenders:
                        choice[f"grp.{uid}"] = lead + 1
                    choice[f"sup.{self.t.ids[lead]}"] = c.support
                return "declare", choice
            case Resolve(index):
                lead = min(u[a] for a in state.pending[index].attackers)
                return "resolve", {"unit": lead}
            case Roll(a, d):
                return "roll", {"diff": a - d}
            case Loss(unit, None):
                return "step_loss", {"unit": u[unit]}
            case Loss(unit, to):
                return "retreat", {"unit": u[unit], "to": self.hex(to)}
            case Advance(unit, to):
                return "advance", {"unit": u[unit], "to": self.hex(to)}
            case EndAdvance():
                return "end_advance", {}
            case EndRoll(face):
                ends = face in self.t.end_roll.get(state.turn, frozenset())
                return ("end_roll_ends" if ends else "end_roll_goes_on"), {}
        raise TypeError(f"not a Nomonhan action: {action!r}")
