"""The components of RKS-P-NO-LEAK's observation (`noleak.View.observe`) read off a side's
observation record (`io.observation.observe`): what tests/rattenkrieg/test_no_leak_proof.py
holds equal to the model's own observation on playout positions. Every value is read from the
record alone, by the same numbering the projection uses (`symbolic_projection`,
`symbolic_combat.project`), so an observation over the model that reads more than the record
shows would differ here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from specs.rattenkrieg.formal import noleak
from specs.rattenkrieg.formal.symbolic import Model
from specs.rattenkrieg.formal.symbolic_combat import STEPS, slot, stay
from specs.rattenkrieg.formal.symbolic_state import (
    BOMBARDED,
    CONTROLLERS,
    DRAW_KINDS,
    EVENT_KINDS,
    EVENT_SIDE,
    FIGHTS,
    PHASES,
    SNIPER_PICK,
    STAGES,
    STEP_PICK,
    STRAY_PICK,
    WINNERS,
    at,
    ceff,
    ctl,
    eff,
    elim,
    eturn,
    flip,
    hand,
    iso,
    steps,
)
from specs.rattenkrieg.rules.state import GE, HAND, SIDES, Phase, Stage, Step

Record = Mapping[str, Any]


def _events(effects: list[str], kind: str) -> int:
    """How many of `effects` are of `kind` (as `symbolic_projection` counts them)."""
    if kind in EVENT_SIDE:
        return effects.count(kind)
    return sum(1 for e in effects if e not in EVENT_SIDE)


def _unit(m: Model, uid: str | None) -> int:
    return 0 if uid is None else m.unit_number[uid]


def _records(m: Model, view: Record) -> dict[str, Any]:
    """The Turn, phase, stage, player, acting unit and its flags, the result, the waiting
    move, the damage, the queued draws and the pick (`public_fields`)."""
    pending, damage, pick, result = view["pending"], view["damage"], view["pick"], view["result"]
    draws = view["draws"]
    head = draws[0] if draws else None
    who = 0
    if head is not None:
        who = CONTROLLERS[head["who"]] if head["kind"] == "hand" else m.unit_number[head["who"]]
    kind, pwho = 0, 0
    if pick is not None:
        kind = STRAY_PICK
        if pick["kind"] == "step" and pick["who"] in m.unit_number:
            kind, pwho = STEP_PICK, m.unit_number[pick["who"]]
        if pick["kind"] == "sniper" and pick["who"] == GE:
            kind = SNIPER_PICK
    return {
        "turn": view["turn"],
        "phase": PHASES.index(Phase(view["phase"])),
        "stage": STAGES.index(Stage(view["stage"])),
        "player": CONTROLLERS[view["player"]],
        "acting": _unit(m, view["acting"]),
        "acted": view["acted"],
        "recruited": view["recruited"],
        "passes": view["passes"] > 0,
        "won": 0 if result is None else WINNERS[result["winner"]],
        "deck": view["deck_count"],
        "pending": pending is not None,
        "pto": 0 if pending is None else m.areas[pending["to"]],
        "escort": 0 if pending is None else _unit(m, pending["escort"]),
        "payments": 0 if pending is None else pending["payments"],
        "dunit": 0 if damage is None else m.unit_number[damage["unit"]],
        "dcombat": damage is not None and damage["cause"] == "combat",
        "dair": damage is not None and damage["cause"] == "air_support",
        "ndraws": len(draws),
        "dkind": 0 if head is None else DRAW_KINDS.index(head["kind"]) + 1,
        "dwho": who,
        "pick": kind,
        "pwho": pwho,
    }


def _combat(m: Model, view: Record) -> dict[str, Any]:
    """The combat record: its cause, sides, units, Area, round, raises, loser, isolation,
    staying units, events, and each card on the table as side, origin and openness."""
    c = view["combat"]
    out: dict[str, Any] = {
        "fight": 0 if c is None else FIGHTS.get(c["cause"], BOMBARDED),
        "attacker": 0 if c is None else CONTROLLERS[m.side[c["attacker"]]],
        "refight": c is not None and c["refight"],
        "cunit": 0 if c is None else m.unit_number[c["attacker"]],
        "cdef": 0 if c is None else _unit(m, c["defender"]),
        "csup": 0 if c is None else _unit(m, c["support"]),
        "carea": 0 if c is None else m.areas[c["area"]],
        "cstep": 0 if c is None else STEPS[Step(c["step"])],
        "craiser": 0 if c is None else CONTROLLERS[c["raiser"]],
        "craises": 0 if c is None else c["raises"],
        "cspent": 0 if c is None else len(c["spent"]),
        "closer": 0 if c is None else CONTROLLERS[c["loser"]],
        "ciso": c is not None and c["isolation"] is not None,
        "cair": c is not None and c["cause"] == "air_support",
    }
    staying = set(() if c is None else c["staying"])
    for u in m.units:
        out[stay(u)] = u in staying
    cards: tuple[Any, Any, Any] = (None, None, None)
    if c is not None:
        cards = (c["attack"], c["defence"], c["spent"][0] if c["spent"] else None)
    for x, p in zip(("atk", "dfc", "sp0"), cards, strict=True):
        out[slot(x, "on")] = p is not None
        out[slot(x, "side")] = 0 if p is None else CONTROLLERS[p["side"]]
        out[slot(x, "from")] = 0 if p is None or p["origin"] == HAND else m.unit_number[p["origin"]]
        out[slot(x, "open")] = p is not None and p["open"]
    in_combat = [] if c is None else c["effects"]
    for k in EVENT_KINDS:
        out[ceff(k)] = _events(in_combat, k)
    return out


def from_observation(m: Model, view: Record) -> dict[str, Any]:
    """The components of `noleak.View.observe`, read off the side's observation record."""
    out = {**_records(m, view), **_combat(m, view)}
    for side in SIDES:
        out[hand(side)] = view["hand_counts"][side]
    for a in m.stalingrad:
        out[ctl(a)] = CONTROLLERS[view["control"][a]]
    for k in EVENT_KINDS:
        out[eff(k)] = _events(view["effects"], k)
    records = [uid for uid, _ in view["eliminated"]]
    when = {uid: turn for uid, turn in view["eliminated"]}
    for u in view["units"]:
        uid = u["id"]
        out[at(uid)] = 0 if u["area"] is None else m.areas[u["area"]]
        out[steps(uid)] = u["steps"]
        out[elim(uid)] = records.count(uid)
        out[eturn(uid)] = when.get(uid, 0)
        out[flip(uid)] = u["flipped"]
        out[iso(uid)] = u["isolated"]
    discards, removed, shown = set(view["discards"]), set(view["removed"]), set(view["exposed"])
    for c in m.cards:
        out[noleak.discarded_face_up(c)] = c in discards
        out[noleak.removed_face_up(c)] = c in removed
        out[noleak.exposed(c)] = c in shown
    out[noleak.DISCARDS] = view["discard_count"]
    out[noleak.REMOVED] = view["removed_count"]
    return out
