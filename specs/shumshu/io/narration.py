"""Readable Shumshu play logs: one line per action, headlines, and what an action caused.

A log names units by their ids, the names actions use in JSON. It is the referee's log: it
names face-down Japanese pieces that move and fight, which a side's view does not. The set-up
is the exception: a placement's line says where a face-down piece went, never which piece
(SHU-SETUP.1, SHU-COMBAT.5), so the set-up's lines are the same whichever piece went where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from specs.shumshu.rules import actions as A
from specs.shumshu.rules import landing
from specs.shumshu.rules.odds import odds, outcome, worst_roll
from specs.shumshu.rules.state import Fight, Loc, ShumshuState, Stage

if TYPE_CHECKING:
    from specs.shumshu.rules.reader import ShumshuRules

_TYPES = {
    A.Place: "place",
    A.Form: "form",
    A.LandAt: "land_at",
    A.Embark: "embark",
    A.Strike: "strike",
    A.AirRoll: "air_roll",
    A.Replace: "replace",
    A.Reinforce: "reinforce",
    A.ReturnDecoy: "return_decoy",
    A.Move: "move",
    A.Join: "join",
    A.Resolve: "resolve",
    A.Defend: "defend",
    A.Hold: "hold",
    A.Commit: "commit",
    A.Roll: "roll",
    A.Retreat: "retreat",
    A.Advance: "advance",
    A.Done: "done",
}


def action_type(action: A.Action) -> str:
    return _TYPES[type(action)]


def half(s: ShumshuState) -> str:
    return "AM" if s.is_am else "PM"


def stage_text(s: ShumshuState) -> str:
    return f"turn {s.turn} ({half(s)}), {s.side} player-turn, stage {s.stage.value}"


def headline(s: ShumshuState) -> str:
    """The turn, then the player-turn: a log prints the lines that changed."""
    turn = f"== Turn {s.turn} ({half(s)}) =="
    if s.stage is Stage.OVER:
        return f"{turn}\n-- Game over --"
    if s.stage is Stage.SETUP:
        return f"{turn}\n-- Japanese set-up (SHU-SETUP.1) --"
    who = "Russian" if s.side == "RU" else "Japanese"
    return f"{turn}\n-- {who} player-turn (SHU-SEQ.1) --"


def describe(game: ShumshuRules, s: ShumshuState, action: A.Action) -> str:
    who = game.to_move(s)
    b = game.board
    match action:
        case A.Place(_, h):
            # SHU-COMBAT.5: the piece goes down face down; the line, shown to both sides, says
            # where, never which piece (the state keeps it)
            return f"JP: sets up a face-down piece in {h} (SHU-SETUP.1, SHU-COMBAT.5)"
        case A.Form(r):
            return f"RU: forms {r} (SHU-RGT.1)"
        case A.LandAt(h):
            return f"RU: will land at {h} (SHU-LAND.1)"
        case A.Embark(u):
            return f"RU: embarks {u}"
        case A.Strike(yes):
            return "JP: the Ki-43 strikes at shipping (SHU-AIR.2)" if yes else "JP: no air strike"
        case A.AirRoll(face, sunk):
            load = next((x for x in landing.loads(s) if x and x[0] == sunk), ())
            tail = f", sinking {' and '.join(load or (str(sunk),))}" if sunk else ""
            return f"chance: the Ki-43 rolls {face}{tail}"
        case A.Replace(u):
            return f"RU: replaces {u} at the beachhead (SHU-REPL.1)"
        case A.Reinforce(u, h):
            return f"JP: {u} arrives at {h} (SHU-REINF.2)"
        case A.ReturnDecoy(u, h):
            return f"JP: {u} returns to {h} (SHU-COMBAT.6)"
        case A.Move(u, to):
            return f"{who}: {u} moves {s.piece(u).hex} -> {to}"
        case A.Join(u, h):
            return f"{who}: {u} ({s.piece(u).hex}) attacks {h}"
        case A.Resolve(h):
            return f"{who}: resolves the attack on {h}"
        case A.Defend(units):
            return f"{who}: defends with {', '.join(units)} (SHU-STACK.3)"
        case A.Hold(yes):
            return f"{who}: {'declares No Retreat!' if yes else 'no No Retreat!'}"
        case A.Commit(press, air, banzai):
            what = [w for w, on in (("pressed", press), ("Ki-43", air), ("Banzai!", banzai)) if on]
            return f"{who}: attacks {' + '.join(what) if what else 'plainly'}"
        case A.Roll(face):
            fight = s.fight
            if fight is None:
                return f"chance: rolls {face}"
            if fight.landing and worst_roll(b, s, fight, face):
                return f"chance: rolls {face}, the worst roll: {fight.attackers[0]} is lost at sea"
            if fight.landing and not fight.defenders:
                return f"chance: rolls {face}: {fight.attackers[0]} lands in {fight.hex}"
            o = odds(b, s, fight)
            read = outcome(b, s, fight, face, o)
            col = b.data.crt.columns[read.column]
            return f"chance: rolls {face} at {col} ({o.attack}:{o.defence}) -> {read.result}"
        case A.Retreat(u, to):
            return f"{who}: {u} goes {s.piece(u).hex} -> {to}"
        case A.Advance(u, to):
            return f"{who}: {u} advances to {to} (SHU-COMBAT.13)"
        case A.Done() if s.stage is Stage.DECOY:
            return "JP: keeps the decoys due back off the map (SHU-COMBAT.6)"
        case A.Done():
            return f"{who}: done ({s.stage.value})"


_LOSS = {"DE": "SHU-CRT.3", "DR": "SHU-CRT.4", "DW": "SHU-CRT.5", "AE": "SHU-CRT.8"}
_HIT = {"DR": "SHU-CRT.4", "DW": "SHU-CRT.5", "D": "SHU-CRT.6", "AD": "SHU-CRT.7"}


def _result(
    game: ShumshuRules, before: ShumshuState, action: A.Action, after: ShumshuState
) -> tuple[Fight | None, str]:
    """The combat an action resolved and its result ("lost": a lander's worst roll)."""
    fight = before.fight
    if isinstance(action, A.Roll) and fight is not None:
        if fight.landing and worst_roll(game.board, before, fight, action.face):
            return fight, "lost"
        return fight, outcome(game.board, before, fight, action.face).result
    for f in (after.fight, fight):
        if f is not None and f.result:
            return f, f.result
    return fight, ""


def _why(game: ShumshuRules, fight: Fight | None, result: str, unit: str, lost: bool) -> str:
    """The clause that eliminated (`lost`) or disrupted `unit` in `fight` with `result`."""
    if fight is None or not result:
        return "SHU-CRT.3" if lost else "SHU-CRT.6"
    spec = game.board.unit(unit)
    attacker = unit in fight.attackers or spec.regiment in fight.attackers
    if result == "lost":
        return "SHU-LAND.3"
    if fight.landing and attacker and not lost:
        return "SHU-LAND.7"  # a failed lander waits disrupted in a sea box (AMB-SHU-4)
    if attacker:
        if fight.banzai and result in ("D", "AD", "AE"):
            return "SHU-BANZAI.2"
        if not lost and spec.regiment in fight.attackers:
            return "SHU-RGT.2"
        return _LOSS.get(result, "SHU-CRT.8") if lost else "SHU-CRT.7"
    if lost:
        return "SHU-LAND.8" if result == "DR" and fight.hold else _LOSS.get(result, "SHU-CRT.3")
    if spec.regiment is not None and result == "DR":
        return "SHU-RGT.2"
    return "SHU-LAND.8" if result == "DW" and fight.hold else _HIT.get(result, "SHU-CRT.6")


def events(
    game: ShumshuRules, before: ShumshuState, action: A.Action, after: ShumshuState
) -> list[str]:
    """Eliminations, disruptions, capabilities lost, beachheads and the end, by clause."""
    out: list[str] = []
    fight, result = _result(game, before, action, after)
    for old, new in zip(before.units, after.units, strict=True):
        if old.loc is not Loc.GONE and new.loc is Loc.GONE:
            why = "SHU-AIR.2" if isinstance(action, A.AirRoll) else None
            out.append(f"{new.id} is eliminated ({why or _why(game, fight, result, new.id, True)})")
        if old.loc is not Loc.SUNK and new.loc is Loc.SUNK:
            out.append(f"{new.id} is sunk and lost for good (SHU-AIR.2)")
        if new.loc is Loc.REMOVED and old.loc is not Loc.REMOVED:
            out.append(f"{new.id} is discovered as a decoy (SHU-COMBAT.6)")
        if new.disrupted and not old.disrupted:
            out.append(f"{new.id} is disrupted ({_why(game, fight, result, new.id, False)})")
        if old.disrupted and not new.disrupted and new.loc is Loc.MAP:
            side = game.board.side_of[new.id]
            out.append(
                f"{new.id} recovers ({'SHU-DISRUPT.3' if side == 'JP' else 'SHU-DISRUPT.4'})"
            )
    if after.ships < before.ships:
        out.append(f"a landing capability is lost: {after.ships} left (SHU-LAND.3)")
    if before.air and not after.air:
        out.append("the Ki-43 is shot down (SHU-AIR.3)")
    if after.beachhead != before.beachhead:
        if after.beachhead is None:
            out.append("the beachhead is lost (SHU-LAND.10)")
        else:
            out.append(f"the beachhead is {after.beachhead} (SHU-LAND.1)")
    if after.result is not None and before.result is None:
        out.append(f"{after.result.reason} ({after.result.clause})")
    return out


class ShumshuNarration:
    """The narration role (`kernel.roles.Narration`), built from the rules."""

    def __init__(self, rules: ShumshuRules) -> None:
        self.rules = rules

    def describe(self, s: ShumshuState, action: A.Action) -> str:
        return describe(self.rules, s, action)

    def headline(self, s: ShumshuState) -> str:
        return headline(s)

    def events(self, before: ShumshuState, action: A.Action, after: ShumshuState) -> list[str]:
        return events(self.rules, before, action, after)
