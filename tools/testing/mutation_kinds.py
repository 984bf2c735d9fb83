"""The kinds of impossible position each game is held to (`tools.testing.mutation_positions`
says what they are for): each takes a real position and its JSON and puts one field outside the
domain the rules give it, reading the game's own tables through its rules object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from kernel.hexes import Hex, hex_distance, hex_name, parse_hex
from tools.testing.mutation import Chooser, pick
from tools.testing.mutation_json import as_json


@attrs.frozen
class Impossible:
    """A position put out of its domain: the kind, the JSON, the field the refusal must name
    (a prefix: `units[` matches `units[3].loc`), and whether the rules make it unreachable."""

    kind: str
    doc: dict[str, Any]
    field: str
    detail: str
    expect_refused: bool = True


Maker = Callable[[Any, Any, dict[str, Any], Chooser], Impossible | None]
"""(rules object, state, its JSON, chooser) -> an impossible position, or None where the
position offers nothing to break this way."""


def _copy(doc: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = as_json(doc)
    return out


# --- Shumshu ---------------------------------------------------------------------------------


def _shu_paramushir_in_setup(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SHU-SETUP.2: during the set-up a Paramushir unit is put on a hex of Shumshu."""
    if doc["stage"] != "setup":
        return None
    b = r.board
    idx = [
        i
        for i, u in enumerate(doc["units"])
        if b.unit(u["id"]).side == "JP" and b.unit(u["id"]).setup != "shumshu"
    ]
    if not idx:
        return None
    i = pick(c, idx)
    h = pick(c, b.hexes)
    out = _copy(doc)
    out["units"][i].update(loc="map", hex=hex_name(h))
    return Impossible(
        "shumshu-paramushir-unit-in-setup",
        out,
        f"units[{i}].loc",
        f"{doc['units'][i]['id']} on {hex_name(h)} during the set-up",
    )


def _shu_too_many_arrivals(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SHU-REINF.2: one Japanese unit more from Paramushir than the AM turns brought."""
    if doc["stage"] in ("setup", "over"):
        return None
    b = r.board
    turn, side, stage = doc["turn"], doc["side"], doc["stage"]
    allowed = turn // 2 + int(turn % 2 == 1 and side == "JP" and stage != "reinforce")
    from_paramushir = [
        i
        for i, u in enumerate(doc["units"])
        if b.unit(u["id"]).side == "JP" and b.unit(u["id"]).setup != "shumshu"
    ]
    come = [i for i in from_paramushir if doc["units"][i]["loc"] != "pool"]
    waiting = [i for i in from_paramushir if doc["units"][i]["loc"] == "pool"]
    need = allowed + 1 - len(come)
    if need > len(waiting) or need < 1:
        return None
    russian = {u["hex"] for u in doc["units"] if u["hex"] and b.unit(u["id"]).side == "RU"}
    free = [h for h in b.hexes if hex_name(h) not in russian]
    if not free:
        return None
    h = hex_name(b.data.hex33) if hex_name(b.data.hex33) not in russian else hex_name(pick(c, free))
    out = _copy(doc)
    for i in waiting[:need]:
        out["units"][i].update(loc="map", hex=h)
    return Impossible(
        "shumshu-arrivals-beyond-the-turns",
        out,
        "units[",
        f"{len(come) + need} Japanese units from Paramushir by turn {turn}, at most {allowed}",
    )


def _shu_discovered_decoy(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SHU-COMBAT.6: a decoy on the map shown face up, as if discovered and left there."""
    if doc["stage"] == "setup":
        return None
    b = r.board
    idx = [
        i
        for i, u in enumerate(doc["units"])
        if b.unit(u["id"]).is_decoy and u["loc"] in ("map", "removed")
    ]
    if not idx:
        return None
    i = pick(c, idx)
    out = _copy(doc)
    unit = out["units"][i]
    if unit["loc"] == "removed":
        friendly = [u["hex"] for u in doc["units"] if u["hex"] and b.unit(u["id"]).side == "JP"]
        if not friendly:
            return None
        unit.update(loc="map", hex=pick(c, friendly), recover=0)
    unit["revealed"] = True
    return Impossible(
        "shumshu-discovered-decoy-on-the-map",
        out,
        f"units[{i}].revealed",
        f"{unit['id']} face up on {unit['hex']}",
    )


def _shu_face_up_in_pool(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SHU-COMBAT.5: a Japanese unit still on Paramushir (or still to set up) shown face up,
    though it has been in no combat."""
    b = r.board
    idx = [
        i for i, u in enumerate(doc["units"]) if b.unit(u["id"]).side == "JP" and u["loc"] == "pool"
    ]
    if not idx:
        return None
    i = pick(c, idx)
    out = _copy(doc)
    out["units"][i]["revealed"] = True
    return Impossible(
        "shumshu-face-up-on-paramushir",
        out,
        f"units[{i}].revealed",
        f"{doc['units'][i]['id']} face up off the map",
    )


# --- SNC -------------------------------------------------------------------------------------


def _snc_plain(doc: dict[str, Any]) -> bool:
    """No move, combat, stacking check or game end under way: one field changed shows alone."""
    return (
        doc["combat"] is None
        and not doc["moving"]
        and not doc["checked"]
        and doc["step"] == "main"
        and doc["phase"] != "over"
    )


def _snc_static_moved(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-2.2.1.8: a static unit on the map moved to an empty neighbouring hex."""
    if not _snc_plain(doc):
        return None
    t = r.tables
    occupied = {parse_hex(w["hex"]) for w in doc["where"]}
    choices = []
    for i, w in enumerate(doc["where"]):
        if not t.spec[w["unit"]].is_static:
            continue
        for n in t.board.neighbors(parse_hex(w["hex"])):
            if n not in occupied and t.board.enterable(n) and not t.board.is_neutral(n):
                if t.spec[w["unit"]].side == "JP" and t.board.is_city(n):
                    continue  # a pool garrison may stand in any city
                choices.append((i, n))
    if not choices:
        return None
    i, n = pick(c, choices)
    out = _copy(doc)
    out["where"][i]["hex"] = hex_name(n)
    return Impossible(
        "snc-static-unit-moved",
        out,
        f"where[{i}].hex",
        f"static {doc['where'][i]['unit']} from {doc['where'][i]['hex']} to {hex_name(n)}",
    )


def _snc_attackers(doc: dict[str, Any], t: Any, test: Callable[[Any], bool]) -> list[str]:
    attacking = set(doc["combat"]["attackers"])
    return sorted(
        w["unit"] for w in doc["where"] if w["unit"] not in attacking and test(t.spec[w["unit"]])
    )


def _snc_static_attacker(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-10.2.1: a static unit of the attacking side joins the combat's attackers."""
    if doc["combat"] is None or doc["phase"] == "over":
        return None
    t = r.tables
    side = doc["side"]
    units = _snc_attackers(doc, t, lambda sp: sp.is_static and sp.side == side)
    if not units:
        return None
    u = pick(c, units)
    out = _copy(doc)
    out["combat"]["attackers"].append(u)
    return Impossible("snc-static-attacker", out, "combat.attackers", f"static {u} attacks")


def _snc_enemy_attacker(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-10.0.3: a unit of the side not attacking is among the attackers."""
    if doc["combat"] is None or doc["phase"] == "over":
        return None
    t = r.tables
    side = doc["side"]
    units = _snc_attackers(doc, t, lambda sp: sp.side != side and not sp.is_static)
    if not units:
        return None
    u = pick(c, units)
    out = _copy(doc)
    out["combat"]["attackers"].append(u)
    return Impossible(
        "snc-attacker-of-the-other-side", out, "combat.attackers", f"{u} attacks for {side}"
    )


def _snc_early_box(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-8.0.4: a reinforcement waits in a TRT box before its counter's GT."""
    t = r.tables
    choices = [
        (i, t.record[e["unit"]].gt)
        for i, e in enumerate(doc["trt"])
        if e["unit"] in t.record and t.record[e["unit"]].gt >= 2
    ]
    if not choices:
        return None
    i, gt = pick(c, choices)
    box = 1 + c.below(gt - 1)
    out = _copy(doc)
    out["trt"][i]["gt"] = box
    return Impossible(
        "snc-reinforcement-before-its-gt",
        out,
        f"trt[{i}].gt",
        f"{doc['trt'][i]['unit']} of GT {gt} in box {box}",
    )


_SNC_STEPS_NOT_IN: Final[dict[tuple[str, str], tuple[str, ...]]] = {
    ("declare", "CH"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("declare", "JP"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("ops1", "CH"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("ops1", "JP"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("ops2", "CH"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("ops2", "JP"): ("interdict", "interdict_roll", "replace", "air_defence"),
    ("reinf", "CH"): ("replace",),
    ("reinf", "JP"): ("interdict", "interdict_roll", "air_defence"),
}
"""Steps that no phase of the key's has (SNC-5.1.1): interdiction is the Chinese Reinforcement
Phase's (SNC-11.2.1, SNC-11.2.2, SNC-11.3.3), replacements the Japanese one's (SNC-8.3.4)."""


def _snc_foreign_step(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-5.1.1: the step is one the phase does not have (`declare` with `interdict`)."""
    steps = _SNC_STEPS_NOT_IN.get((doc["phase"], doc["side"]))
    if not steps or not _snc_plain(doc) or doc["roll"] or doc["replacements"]:
        return None
    step = pick(c, steps)
    out = _copy(doc)
    out["step"] = step
    return Impossible("snc-step-not-of-the-phase", out, "step", f"{doc['phase']} with step {step}")


def _snc_overstacked_check(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-6.0.2: units of the same side moved into a hex the last stacking check covered,
    past the limits (twelve units: more than five Japanese, or three Chinese DE)."""
    if not doc["checked"] or doc["step"] == "stack" or doc["phase"] == "over":
        return None
    if doc["moving"] or doc["combat"] is not None:
        return None
    t = r.tables
    k = c.below(len(doc["checked"]))
    target = doc["checked"][k]
    here = [w["unit"] for w in doc["where"] if w["hex"] == target]
    side = t.spec[here[0]].side
    checked = set(doc["checked"])
    donors = [
        i
        for i, w in enumerate(doc["where"])
        if w["hex"] not in checked
        and t.spec[w["unit"]].side == side
        and not t.spec[w["unit"]].is_static
        and w["unit"] not in doc["topped"]
    ]
    count = 12 - len(here)
    if len(donors) < count:
        return None
    out = _copy(doc)
    for i in donors[:count]:
        out["where"][i]["hex"] = target
    return Impossible(
        "snc-over-the-limits-after-a-check",
        out,
        f"checked[{k}]",
        f"{target} holds 12 {side} units after the check that covered it",
    )


def _snc_movable_elsewhere(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-8.2.2: a Chinese unit free to move as a method-(a) arrival outside the Chinese
    Reinforcement Phase (found by the campaign that followed the issue)."""
    if doc["phase"] == "reinf" or not _snc_plain(doc):
        return None
    t = r.tables
    chinese = sorted(
        w["unit"]
        for w in doc["where"]
        if t.spec[w["unit"]].side == "CH" and not t.spec[w["unit"]].is_static
    )
    if not chinese:
        return None
    u = pick(c, chinese)
    out = _copy(doc)
    out["movable"] = sorted({*doc["movable"], u})
    return Impossible("snc-movable-outside-its-phase", out, "movable", f"{u} in {doc['phase']}")


def _snc_marker_twice(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-11.1.3: a fire support marker kind added twice to one combat (found by the campaign
    that followed the issue, as a state its schema refuses)."""
    combat = doc["combat"]
    if combat is None or doc["phase"] == "over" or not 0 < len(combat["support_a"]) < 4:
        return None  # five markers, or two in defence, are the wire's to refuse
    out = _copy(doc)
    out["combat"]["support_a"].append(pick(c, combat["support_a"]))
    added = out["combat"]["support_a"]
    return Impossible("snc-marker-kind-twice", out, "combat.support_a", f"{added}")


def _snc_set_up_garrison_nowhere(
    r: Any, s: Any, doc: dict[str, Any], c: Chooser
) -> Impossible | None:
    """SNC-9.1.2: a Japanese garrison set up on the map (SNC-13.24, SNC-13.25), on it or
    eliminated, taken off to nowhere, as if it were in the pool of SNC-9.1.3."""
    t = r.tables
    set_up = {u for a in t.data.setup.at_start for u in a.place if u in t.jp_garrisons}
    found = [("where", i, w["unit"]) for i, w in enumerate(doc["where"]) if w["unit"] in set_up]
    found += [("dead", i, u) for i, u in enumerate(doc["dead"]) if u in set_up]
    if not found:
        return None
    field, i, u = pick(c, found)
    out = _copy(doc)
    del out[field][i]
    for name in ("on_top", "topped"):
        out[name] = [x for x in out[name] if x != u]
    return Impossible("snc-set-up-garrison-nowhere", out, "where", f"{u} taken off the {field}")


_SNC_STRUCK = frozenset({"support_a", "air_ask", "air_roll", "support_d", "roll"})
"""The steps of a combat after its strike and before its die (SNC-11.1.1 to SNC-11.3.2,
SNC-10.5.0.1)."""


def _snc_weak_attack(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """SNC-10.4.1.8: an attack that has struck (before its die) whose one attacker, moved next
    to the target across a creek (1/2) or river (1/3), has an adjusted strength below 1, which
    rounds down to 0. Land attacks only: a landing's strength is SNC-8.4.0.5's."""
    combat = doc["combat"]
    if combat is None or combat["landing"] or combat["overrun"] or doc["step"] not in _SNC_STRUCK:
        return None
    t = r.tables
    side = doc["side"]
    target = parse_hex(combat["target"])
    control = set(doc["jp_control"])
    held = {w["hex"]: t.spec[w["unit"]].side for w in doc["where"]}
    busy = {*doc["moving"], *doc["on_top"], *doc["topped"]}
    hexes = []
    for n in t.board.neighbors(target):
        name = hex_name(n)
        fraction = t.data.tec.attack_across.get(t.board.side_kind(n, target) or "")
        friendly = held.get(name, side) == side and (name in control) == (side == "JP")
        if fraction is not None and t.board.enterable(n) and friendly:
            hexes.append((name, fraction))
    choices = []
    for i, w in enumerate(doc["where"]):
        spec = t.spec[w["unit"]]
        if spec.side != side or spec.is_static or w["unit"] in busy:
            continue
        reduced = w["unit"] in doc["reduced"] and spec.reduced is not None
        cf = spec.reduced if reduced else spec.cf
        choices += [(i, name) for name, fraction in hexes if cf * fraction < 1]
    if not choices:
        return None
    i, name = pick(c, choices)
    out = _copy(doc)
    u = out["where"][i]["unit"]
    out["where"][i]["hex"] = name
    out["combat"]["attackers"] = [u]
    out["done"] = sorted({*doc["done"], u}, key=t.order.__getitem__)
    return Impossible(
        "snc-attack-too-weak-to-resolve",
        out,
        "combat.attackers",
        f"{u} alone from {name} on {combat['target']} in step {doc['step']}",
    )


# --- Nomonhan --------------------------------------------------------------------------------


def _nom_pending_apart(r: Any, s: Any, doc: dict[str, Any], c: Chooser) -> Impossible | None:
    """NOM-9.8: a unit of a pending combat moved to an empty hex two or more hexes from every
    enemy unit. Unreachable where advances move participants only (AMB-NOM-19); under
    `advance_units=any_friendly` an advance may have carried it there."""
    if not doc["pending"] or doc["stage"] == "over":
        return None
    b = r.board
    k = c.below(len(doc["pending"]))
    combat = doc["pending"][k]
    role = pick(c, ("attackers", "defenders"))
    uid = pick(c, combat[role])
    i = next(j for j, u in enumerate(doc["units"]) if u["id"] == uid)
    side = b.side_of[uid]
    enemies = [parse_hex(u["hex"]) for u in doc["units"] if u["hex"] and b.side_of[u["id"]] != side]
    occupied = {u["hex"] for u in doc["units"] if u["hex"]}
    far: list[Hex] = sorted(
        h
        for h in b.map.hexes
        if hex_name(h) not in occupied and all(hex_distance(h, e) >= 3 for e in enemies)
    )
    if not far:
        return None
    h = pick(c, far)
    out = _copy(doc)
    out["units"][i]["hex"] = hex_name(h)
    participants = doc["variant"]["options"]["advance_units"] == "participants"
    return Impossible(
        "nomonhan-pending-combat-out-of-contact",
        out,
        f"pending[{k}]",
        f"{uid} of pending[{k}] moved to {hex_name(h)}",
        expect_refused=participants,
    )


KINDS: Final[dict[str, tuple[tuple[str, Maker], ...]]] = {
    "shumshu": (
        ("shumshu-paramushir-unit-in-setup", _shu_paramushir_in_setup),
        ("shumshu-arrivals-beyond-the-turns", _shu_too_many_arrivals),
        ("shumshu-discovered-decoy-on-the-map", _shu_discovered_decoy),
        ("shumshu-face-up-on-paramushir", _shu_face_up_in_pool),
    ),
    "snc1937": (
        ("snc-static-unit-moved", _snc_static_moved),
        ("snc-static-attacker", _snc_static_attacker),
        ("snc-attacker-of-the-other-side", _snc_enemy_attacker),
        ("snc-reinforcement-before-its-gt", _snc_early_box),
        ("snc-step-not-of-the-phase", _snc_foreign_step),
        ("snc-over-the-limits-after-a-check", _snc_overstacked_check),
        ("snc-movable-outside-its-phase", _snc_movable_elsewhere),
        ("snc-marker-kind-twice", _snc_marker_twice),
        ("snc-set-up-garrison-nowhere", _snc_set_up_garrison_nowhere),
        ("snc-attack-too-weak-to-resolve", _snc_weak_attack),
    ),
    "nomonhan": (("nomonhan-pending-combat-out-of-contact", _nom_pending_apart),),
}
"""The kinds of each game, by name."""
