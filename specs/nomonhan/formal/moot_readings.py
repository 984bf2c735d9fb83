"""Reading pairs of Nomonhan that cannot differ under a preset, proved over the game's data
(`reading_proofs`, offered to the ambiguity explorer by the game: `game.Nomonhan`).

Each proof enumerates every input the option's reading is asked about under the variants
handed in and compares both readings' answers there; where the other options of the preset
leave an input out of play, the proof says which option does and checks it over the data. A
single difference, or an input the preset does not rule out, makes the proof fail (None), so
a preset whose other readings let the two part ways gets no proof.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kernel.variants import Variant
from specs.nomonhan.rules.board import Board, across_bridge, carries_zoc
from specs.nomonhan.rules.movement import demolish_problem
from specs.nomonhan.rules.strength import can_attack

Proof = Callable[[Variant, Variant], str | None]


def artillery_self_support(game: Any, va: Variant, vb: Variant) -> str | None:
    """artillery_self_support (found here; NOM-9.17, NOM-9.20): the reading decides only for
    a combat the Artillery attacks in (`declare.support_problem`, `combat_query`). Under
    artillery_rules=ja (AMB-NOM-15) the Artillery never attacks (NOM-9.20, `can_attack`): no
    combat has it among its attackers (`declare.front` leaves it out, and a declaration naming
    it is refused, NOM-9.20), so both readings allow the same supports. Under
    artillery_rules=generic it attacks, and the proof fails."""
    b: Board = game.board
    artillery = [u for u in b.data.units if u.type == "artillery"]
    if not artillery or any(can_attack(v, u) for u in artillery for v in (va, vb)):
        return None
    return (
        "proved by the game over its data: the reading decides only where the Artillery "
        "attacks in the combat it supports, and under artillery_rules=ja it never attacks: "
        f"each of the {len(artillery)} Artillery units of the data is barred from attack under "
        "both readings (NOM-9.17, NOM-9.20, AMB-NOM-15)"
    )


def demolition_effect(game: Any, va: Variant, vb: Variant) -> str | None:
    """demolition_effect (AMB-NOM-17; NOM-OPT.5, NOM-7.4, NOM-9.22): the reading is asked
    only of a blown pontoon hexside (`board.carries_zoc`), and the pontoon is blown only by
    the Demolish action, which demolition=off refuses in every position (NOM-OPT.1: the first
    test of `demolish_problem`, before any fact of the position). So every hexside is read
    with the bridge standing: over every pair of adjacent map hexes, both readings give the
    same ZOC (NOM-7.4) and the same bridge bonus (NOM-9.22). Under a preset with demolition
    on, the blown bridge is reachable and the proof fails."""
    b: Board = game.board
    for v in (va, vb):
        if not v.is_("demolition", "off"):
            return None
        problem = demolish_problem(b, game.initial_state(v))
        if problem is None or problem[0] != "NOM-OPT.1":
            return None
    pairs = [(h, n) for h in sorted(b.map.hexes) for n in b.neighbors(h)]
    for h, n in pairs:
        if carries_zoc(b, va, False, h, n) != carries_zoc(b, vb, False, h, n):
            return None
        if across_bridge(b, va, False, h, n) != across_bridge(b, vb, False, h, n):
            return None
    return (
        "proved by the game over its data: the pontoon is never blown under demolition=off "
        "(NOM-OPT.1, the Demolish action refused in every position), and with it standing all "
        f"{len(pairs)} hexsides between adjacent map hexes carry the same ZOC and the same "
        "bridge bonus under both readings (NOM-7.4, NOM-9.22, AMB-NOM-17)"
    )


def disturbed_combats(game: Any, va: Variant, vb: Variant) -> str | None:
    """disturbed_combats (AMB-NOM-19; NOM-9.8, NOM-9.6): the reading is asked when a declared
    combat is taken up (`resolve.start_combat`) and decides only for a unit of it no longer in
    contact with an opposing unit of it. A declaration puts each attacker in contact with a
    defender of its combat and each defender in an attacker's ZOC (NOM-9.6,
    `declare.combat_problems`), each unit in one combat at most (NOM-9.4, NOM-9.5). Before
    the combat is taken up, only the units of the earlier combats move or leave: their
    losers retreat or lose steps (NOM-9.24), and with advance_units=participants
    (AMB-NOM-21 ii, NOM-9.34) only their own units advance; the pontoon stands
    (demolition=off, NOM-OPT.1), so ZOC does not change. Contact is read from the attacker's
    hex at the declaration and from each unit's own hex at the resolution: over every pair
    of adjacent map hexes the two agree (a hexside carries ZOC both ways). So every unit of
    the combat is still in contact, and both readings resolve it as declared. With
    advance_units=any_friendly another unit may advance out of contact, and the proof
    fails."""
    b: Board = game.board
    for v in (va, vb):
        if not (v.is_("advance_units", "participants") and v.is_("demolition", "off")):
            return None
    pairs = [(h, n) for h in sorted(b.map.hexes) for n in b.neighbors(h)]
    for h, n in pairs:
        for v in (va, vb):
            if carries_zoc(b, v, False, h, n) != carries_zoc(b, v, False, n, h):
                return None
    return (
        "proved by the game over its data: a declared combat's units are all in contact "
        "(NOM-9.6) and none of them moves or leaves before it is taken up, since each unit "
        "fights in one combat (NOM-9.4, NOM-9.5), only an earlier combat's own units retreat "
        "(NOM-9.24) and advance (advance_units=participants, NOM-9.34) and the pontoon stands "
        f"(demolition=off); and all {len(pairs)} hexsides between adjacent map hexes carry "
        "ZOC both ways alike under both readings, so no unit is out of contact when its "
        "combat is resolved (AMB-NOM-19)"
    )


def reading_proofs(game: Any) -> Mapping[str, Proof]:
    """The option -> proof mapping the explorer asks for (`solvers.checking.game_proofs`),
    each bound to `game` (the rules: their board and set-up)."""

    def bound(proof: Callable[[Any, Variant, Variant], str | None]) -> Proof:
        return lambda va, vb: proof(game, va, vb)

    return {
        "artillery_self_support": bound(artillery_self_support),
        "demolition_effect": bound(demolition_effect),
        "disturbed_combats": bound(disturbed_combats),
    }
