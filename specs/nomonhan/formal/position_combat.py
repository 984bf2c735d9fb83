"""The position check's view of combats: those pending and the one under way.

Part of `position.check_position` (see there): each check returns a `Breach` naming the JSON
path and the clauses, or None. The invariants run before these, so a combat under way is known
to be at a combat stage, with its loser from the damage on (NOM-P-STAGE-RECORDS).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from kernel.hexes import Hex
from specs.nomonhan.formal.invariants import Breach
from specs.nomonhan.rules.board import Board, carries_zoc
from specs.nomonhan.rules.declare import any_contact, canonical, v_fixed_order
from specs.nomonhan.rules.resolve import advance_choices, loser_units
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage, UnitState, other
from specs.nomonhan.rules.strength import can_attack, combat_dice, ja_artillery


def combats(state: NomonhanState) -> Iterator[tuple[str, Combat]]:
    """Every combat of a position, pending or under way, with its JSON path."""
    for i, c in enumerate(state.pending):
        yield f"pending[{i}]", c
    if state.current is not None:
        yield "current.combat", state.current.combat


def combat_sides(board: Board, state: NomonhanState) -> Breach | None:
    """Every combat (pending or under way) pits units of the side whose Combat Phase it is
    against the other side's (NOM-9.1), attackers that may attack (NOM-9.20), each unit in one
    combat only (NOM-9.4, NOM-9.5), listed in the counter list's order (NOM-9.8), one defender
    each where combats have one (NOM-9.7, AMB-NOM-9); a pending combat's units are on the map
    (NOM-9.8: nothing happens to them before their combat)."""
    v = state.variant
    attacker = state.phasing
    order = {s.id: i for i, s in enumerate(board.data.units)}
    seen: dict[str, str] = {}
    for path, c in combats(state):
        for role, units, side in (
            ("attackers", c.attackers, attacker),
            ("defenders", c.defenders, other(attacker)),
        ):
            if not units:
                return Breach(f"{path}.{role}", ("NOM-9.7",), "a combat has both sides")
            for k, uid in enumerate(units):
                where = f"{path}.{role}[{k}]"
                if board.side_of[uid] != side:
                    return Breach(
                        where,
                        ("NOM-9.1",),
                        f"{uid} is not {side}'s: in this phase {attacker} attacks and "
                        f"{other(attacker)} defends",
                    )
                if uid in seen:
                    return Breach(
                        where,
                        ("NOM-9.4", "NOM-9.5"),
                        f"{uid} is also in {seen[uid]}: a unit fights one combat per phase",
                    )
                seen[uid] = path
                if role == "attackers" and not can_attack(v, board.data.unit(uid)):
                    return Breach(where, ("NOM-9.20",), f"{uid} never attacks (artillery_rules=ja)")
                if path != "current.combat" and state.unit(uid).hex is None:
                    return Breach(
                        where,
                        ("NOM-9.8",),
                        f"{uid} is not on the map: a pending combat's units were declared on "
                        "the map, and only the combat being resolved takes damage",
                    )
            if list(units) != sorted(units, key=order.__getitem__):
                return Breach(
                    f"{path}.{role}", ("NOM-9.8",), "a combat lists its units in data order"
                )
        if v.is_("combat_grouping", "one_defender") and len(c.defenders) != 1:
            return Breach(
                f"{path}.defenders",
                ("NOM-9.7",),
                "each combat has exactly one defender in this variant (AMB-NOM-9)",
            )
    if not v_fixed_order(state) and state.pending != canonical(board, state, state.pending):
        return Breach(
            "pending",
            ("NOM-9.8",),
            "combats resolved in an order chosen later are listed in canonical order (AMB-NOM-11)",
        )
    if state.stage == Stage.PICK and v_fixed_order(state):
        return Breach(
            "stage",
            ("NOM-9.8",),
            "the order of resolution was fixed at the declaration (resolution_order="
            "fixed_in_advance): no combat is picked",
        )
    return None


def support(board: Board, state: NomonhanState) -> Breach | None:
    """The Artillery supports one Soviet attack (NOM-9.17) and is then marked used until its
    period ends: the Combat Phase, or the turn by reading (NOM-9.19, AMB-NOM-14)."""
    supported = [path for path, c in combats(state) if c.support]
    if supported and state.phasing != "SU":
        return Breach(
            f"{supported[0]}.support",
            ("NOM-9.17",),
            "the Artillery supports Soviet attacks only",
        )
    if len(supported) > 1:
        return Breach(
            f"{supported[1]}.support", ("NOM-9.17",), "the Artillery supports one attack only"
        )
    art = board.data.artillery
    if art is not None:
        for path, c in combats(state):
            if (
                c.support
                and art.id in c.attackers
                and state.variant.is_("artillery_self_support", "other_combats")
            ):
                return Breach(
                    f"{path}.support",
                    ("NOM-9.17",),
                    "the Artillery supports only an attack it is not part of "
                    "(artillery_self_support=other_combats)",
                )
    if supported and not state.artillery_used:
        return Breach(
            "artillery_used",
            ("NOM-9.19",),
            f"{supported[0]} is supported, so the Artillery is marked as used",
        )
    if not state.artillery_used:
        return None
    if state.stage == Stage.END_ROLL and state.current is None:
        return Breach(
            "artillery_used",
            ("NOM-9.19",),
            "the Artillery is flipped back when the turn ends, before the end-of-turn roll",
        )
    if state.variant.is_("artillery_frequency", "per_turn"):
        su_fought = (
            state.phase != Phase.IP_MOVEMENT or state.nip_moved_this_turn
            if state.initiative == "SU"
            else state.nip_moved_this_turn
        )
        if not su_fought:
            return Breach(
                "artillery_used",
                ("NOM-9.19",),
                "the Soviets have had no Combat Phase this turn, so the Artillery is unused",
            )
        return None
    if state.phase.is_movement or state.phasing != "SU" or state.stage == Stage.DECLARE:
        return Breach(
            "artillery_used",
            ("NOM-9.17", "NOM-9.19"),
            "the Artillery is marked as used only from a Soviet declaration to the end of that "
            "Combat Phase (artillery_frequency=per_combat_phase)",
        )
    return None


def declare(board: Board, state: NomonhanState) -> Breach | None:
    """A Combat Phase with no enemy unit in any attacker's ZOC has nothing to declare and ends
    at once (NOM-9.6, NOM-5.1)."""
    if state.stage == Stage.DECLARE and not any_contact(board, state):
        return Breach(
            "stage",
            ("NOM-9.6", "NOM-5.1"),
            f"no {state.phasing} unit is in contact with an enemy unit, so the Combat Phase has "
            "nothing to declare and ends at once",
        )
    return None


def current(board: Board, state: NomonhanState) -> Breach | None:
    """The combat under way: its start hexes are its participants' when it began, in contact
    (NOM-9.6, AMB-NOM-19); nothing moved before the damage; damage and advance points within
    the winner's dice (NOM-9.9, NOM-9.12, NOM-9.29); a damage stage has damage left and a unit
    to take it (NOM-9.24); an advance stage follows emptied hexes and has a hex to enter
    (NOM-9.29, NOM-9.30)."""
    cur = state.current
    if cur is None:
        return None
    c = cur.combat
    start = dict(cur.start_hexes)
    breach = _start_hexes(board, state, start)
    if breach is not None:
        return breach
    if cur.loser is None:  # at the roll: nothing has happened yet
        return _before_roll(state, start)
    loser_ids = c.defenders if cur.loser != state.phasing else c.attackers
    winner_ids = c.attackers if cur.loser != state.phasing else c.defenders
    breach = _moves_after_roll(board, state, loser_ids, winner_ids, start)
    if breach is None:
        breach = _damage_and_advance_points(board, state, start)
    if breach is not None:
        return breach
    if state.stage == Stage.ADVANCE:
        return _advance(board, state, loser_ids, start)
    return _before_advance(state)


def _start_hexes(board: Board, state: NomonhanState, start: dict[str, Hex]) -> Breach | None:
    """The start hexes are the participants', distinct hexes of the map, and by reading each
    participant began in contact with an enemy unit of the combat (NOM-9.6, NOM-9.29,
    AMB-NOM-19)."""
    cur = state.current
    assert cur is not None
    v = state.variant
    c = cur.combat
    participants = c.attackers + c.defenders
    if set(start) != set(participants):
        return Breach(
            "current.start_hexes",
            ("NOM-9.29",),
            "the start hexes are those of the combat's participants, every one of them",
        )
    hexes = list(start.values())
    if len(set(hexes)) != len(hexes) or not all(board.on_map(h) for h in hexes):
        return Breach(
            "current.start_hexes",
            ("NOM-8.6", "NOM-2.4"),
            "the participants began the combat in distinct hexes of the map",
        )
    contact = v.is_("disturbed_combats", "drop_out_of_contact") or v.is_(
        "advance_units", "participants"
    )
    if contact:
        for uid in participants:
            foes = c.defenders if uid in c.attackers else c.attackers
            if not any(_touch(board, state, start[uid], start[f]) for f in foes):
                return Breach(
                    f"current.start_hexes.{uid}",
                    ("NOM-9.6", "NOM-9.8"),
                    f"{uid} began the combat in no contact with an enemy unit of it (units out of "
                    "contact drop out, AMB-NOM-19, or were never disturbed)",
                )
    return None


def _before_roll(state: NomonhanState, start: dict[str, Hex]) -> Breach | None:
    """At the roll nothing has happened yet: no damage, advance or retreat, and every
    participant is where the combat began (NOM-9.9, NOM-9.29)."""
    cur = state.current
    assert cur is not None
    if (cur.damage_left, cur.damage_done, cur.advance_left) != (0, 0, 0) or cur.retreated:
        return Breach(
            "current", ("NOM-9.9",), "before the roll there is no damage, advance or retreat"
        )
    for uid in cur.combat.attackers + cur.combat.defenders:
        if state.unit(uid).hex != start[uid]:
            return Breach(
                f"current.start_hexes.{uid}",
                ("NOM-9.29",),
                f"{uid} is not where the combat began, and nothing has moved yet",
            )
    return None


def _moves_after_roll(
    board: Board,
    state: NomonhanState,
    loser_ids: tuple[str, ...],
    winner_ids: tuple[str, ...],
    start: dict[str, Hex],
) -> Breach | None:
    """After the roll only the loser's units retreat, each for a damage point done and never
    the JA Artillery (NOM-9.24, NOM-9.28); the winner's stay put until the advance
    (NOM-9.29)."""
    cur = state.current
    assert cur is not None
    v = state.variant
    for k, uid in enumerate(sorted(cur.retreated)):
        if uid not in loser_ids or ja_artillery(v, board.data.unit(uid)):
            return Breach(
                f"current.retreated[{k}]",
                ("NOM-9.24", "NOM-9.28"),
                f"{uid} cannot have retreated: only the losing side's units retreat, never the "
                "JA Artillery",
            )
    if len(cur.retreated) > cur.damage_done:
        return Breach(
            "current.retreated", ("NOM-9.24",), "each retreat takes one damage point done"
        )
    for uid in loser_ids:
        h = state.unit(uid).hex
        if uid not in cur.retreated and h is not None and h != start[uid]:
            return Breach(
                f"units[{_index(board, uid)}].hex",
                ("NOM-9.24",),
                f"{uid} left its hex in this combat without retreating",
            )
    if state.stage != Stage.ADVANCE:
        for uid in winner_ids:
            if state.unit(uid).hex != start[uid]:
                return Breach(
                    f"units[{_index(board, uid)}].hex",
                    ("NOM-9.29",),
                    f"{uid} has left its hex before the advance after combat",
                )
    return None


def _damage_and_advance_points(
    board: Board, state: NomonhanState, start: dict[str, Hex]
) -> Breach | None:
    """The damage is the hit difference, 1 to the winner's dice (NOM-9.9, NOM-9.12); the
    advance points are at most what the reading allows (NOM-9.29, AMB-NOM-8)."""
    cur = state.current
    assert cur is not None
    v = state.variant
    total = cur.damage_left + cur.damage_done
    dice = _winner_dice(board, state, start)
    if not 1 <= total <= dice:
        return Breach(
            "current.damage_left",
            ("NOM-9.9", "NOM-9.12"),
            f"the damage of a combat with a loser is the hit difference, 1 to the winner's "
            f"{dice} dice, not {total}",
        )
    limit = total if v.is_("advance_points", "hit_difference") else cur.damage_done
    if cur.advance_left > limit:
        return Breach(
            "current.advance_left",
            ("NOM-9.29",),
            f"the advance points are at most {limit} (advance_points="
            f"{v.reading('advance_points')}, AMB-NOM-8)",
        )
    return None


def _before_advance(state: NomonhanState) -> Breach | None:
    """Before the advance: no advance points yet, and a damage stage has a damage point left
    and a losing unit on the map to take it (NOM-9.24, NOM-9.29)."""
    cur = state.current
    assert cur is not None
    if cur.advance_left:
        return Breach("current.advance_left", ("NOM-9.29",), "advance points come after damage")
    if state.stage == Stage.DAMAGE and (cur.damage_left == 0 or not loser_units(state)):
        return Breach(
            "current.damage_left",
            ("NOM-9.24",),
            "a damage stage has a damage point left and a losing unit on the map to take it",
        )
    return None


def _advance(
    board: Board, state: NomonhanState, loser_ids: tuple[str, ...], start: dict[str, Hex]
) -> Breach | None:
    cur = state.current
    assert cur is not None
    v = state.variant
    if cur.damage_left and loser_units(state):
        return Breach(
            "current.damage_left",
            ("NOM-9.24", "NOM-9.29"),
            "the advance comes once the damage is all taken, or no losing unit is left to take it",
        )
    left = [state.unit(u).hex != start[u] for u in loser_ids]
    emptied = all(left) if v.is_("advance_trigger", "all_hexes") else any(left)
    if not emptied:
        return Breach(
            "stage",
            ("NOM-9.29",),
            f"no advance: the losing units have not left their hexes (advance_trigger="
            f"{v.reading('advance_trigger')}, AMB-NOM-21)",
        )
    if cur.advance_left == 0 or not advance_choices(board, state):
        return Breach(
            "current.advance_left",
            ("NOM-9.30",),
            "an advance stage has an advance point left and a hex to advance into",
        )
    return None


def _winner_dice(board: Board, state: NomonhanState, start: dict[str, Hex]) -> int:
    """The dice the combat's winner rolled: its units did not change (only the loser takes
    damage), and the bridge bonus follows the hexes where the combat began (NOM-9.9, NOM-9.17,
    NOM-9.22)."""
    cur = state.current
    assert cur is not None
    at_start = tuple(
        UnitState(u.id, start[u.id], u.steps) if u.id in start else u for u in state.units
    )
    att, dfn = combat_dice(board, attrs.evolve(state, units=at_start), cur.combat)
    return att if cur.loser != state.phasing else dfn


def _touch(board: Board, state: NomonhanState, a: Hex, b: Hex) -> bool:
    return b in board.neighbors(a) and carries_zoc(board, state.variant, state.demolished, a, b)


def _index(board: Board, uid: str) -> int:
    return next(i for i, s in enumerate(board.data.units) if s.id == uid)
