"""Combat declarations: who attacks whom, together, with what support (NOM-9.2 to NOM-9.8).

`declaration_problems` is the definition of a legal declaration: it lists every broken
obligation with its clause. `legal_declarations` enumerates the same set by backtracking; it is
the plain-Python oracle the Z3 generator is held against. Tests check that the two agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import attrs

from kernel.hexes import Hex, hex_distance
from specs.nomonhan.rules.board import Board, carries_zoc
from specs.nomonhan.rules.state import Combat, NomonhanState
from specs.nomonhan.rules.strength import can_attack

MAX_ARTILLERY_RANGE = 3  # NOM-9.17, NOM-9.21


@attrs.frozen
class Front:
    """The units of a Combat Phase and who is in contact with whom."""

    attacker_side: str
    attackers: tuple[str, ...]  # units that may attack (on map, NOM-9.20 applied)
    defenders: tuple[str, ...]
    contacts: dict[str, frozenset[str]]  # attacker -> defenders in its ZOC (NOM-9.6)
    obliged: frozenset[str]  # attackers that must attack (NOM-9.2, less NOM-9.13)
    must_defend: frozenset[str]  # defenders that must be attacked (NOM-9.3)
    order: dict[str, int]


def front(board: Board, state: NomonhanState) -> Front:
    v = state.variant
    data = board.data
    side = state.phasing
    order = {u.id: i for i, u in enumerate(data.units)}
    on_map = [u for u in state.units if u.hex is not None]
    # NOM-9.1: the phasing side attacks, the other side defends
    attacker_units = [u for u in on_map if data.unit(u.id).side == side]
    defenders = tuple(u.id for u in on_map if data.unit(u.id).side != side)

    def contact(a_hex: Hex | None, d_id: str) -> bool:
        d_hex = state.unit(d_id).hex
        assert a_hex is not None and d_hex is not None
        # NOM-9.6: an attacker fights only enemy units in its ZOC (adjacent, not over a river)
        return d_hex in board.neighbors(a_hex) and carries_zoc(
            board, v, state.demolished, a_hex, d_hex
        )

    zoc_of = {u.id: frozenset(d for d in defenders if contact(u.hex, d)) for u in attacker_units}
    attackers = tuple(u.id for u in attacker_units if can_attack(v, data.unit(u.id)))
    contacts = {a: zoc_of[a] for a in attackers}
    obliged = frozenset(  # NOM-9.2: units in an EZOC must attack; NOM-9.13: not from a hill
        a
        for a in attackers
        if contacts[a] and not board.is_hill(state.unit(a).hex)  # type: ignore[arg-type]
    )
    must: set[str] = set()
    if v.is_("must_be_attacked", "required"):
        sources = obliged if v.is_("must_be_attacked_scope", "obliged_attackers") else zoc_of
        for a in sources:
            must |= zoc_of[a]
    return Front(side, attackers, defenders, contacts, obliged, frozenset(must), order)


def _connected(f: Front, attackers: Sequence[str], defenders: Sequence[str]) -> bool:
    nodes = set(attackers) | set(defenders)
    start = attackers[0]
    seen = {start}
    stack = [start]
    dset = set(defenders)
    while stack:
        n = stack.pop()
        if n in f.contacts:
            nxt = f.contacts[n] & dset
        else:
            nxt = frozenset(a for a in attackers if n in f.contacts[a])
        for m in nxt:
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return seen == nodes


def combat_problems(
    board: Board, state: NomonhanState, f: Front, c: Combat
) -> list[tuple[str, str]]:
    """What is wrong with one combat on its own (contact and grouping)."""
    v = state.variant
    out = []
    if not c.attackers or not c.defenders:
        out.append(("NOM-9.7", "a combat needs at least one attacker and one defender"))
        return out
    for a in c.attackers:
        if a not in f.contacts:
            out.append(
                (
                    "NOM-9.20" if a in _all_side(board, state, f.attacker_side) else "NOM-9.1",
                    f"{board.data.unit(a).name} cannot attack in this phase",
                )
            )
        elif not (f.contacts[a] & set(c.defenders)):
            out.append(
                (
                    "NOM-9.6",
                    f"{board.data.unit(a).name} is not in contact with any "
                    "defender of its combat (adjacent, not across a river without a bridge)",
                )
            )
    for d in c.defenders:
        if d not in f.defenders:
            out.append(("NOM-9.1", f"{board.data.unit(d).name} is not a defending unit on the map"))
        elif not any(d in f.contacts.get(a, frozenset()) for a in c.attackers):
            out.append(
                (
                    "NOM-9.6",
                    f"{board.data.unit(d).name} is not in the ZOC of any attacker of its combat",
                )
            )
    if out:
        return out
    if v.is_("combat_grouping", "one_defender") and len(c.defenders) != 1:
        out.append(("NOM-9.7", "each combat has exactly one defender in this variant (AMB-NOM-9)"))
    if v.is_("combat_connection", "connected") and not _connected(f, c.attackers, c.defenders):
        out.append(("NOM-9.7", "the units of one combat must form one connected group in contact"))
    if v.is_("attacker_targets", "all_adjacent"):
        for a in c.attackers:
            if a in f.obliged and not f.contacts[a] <= set(c.defenders):
                out.append(
                    (
                        "NOM-9.14",
                        f"{board.data.unit(a).name} is not on a hill and must "
                        "attack every enemy unit in its ZOC (AMB-NOM-9)",
                    )
                )
    return out


def _all_side(board: Board, state: NomonhanState, side: str) -> set[str]:
    return {u.id for u in state.units if u.hex is not None and board.data.unit(u.id).side == side}


def artillery_beset(board: Board, state: NomonhanState) -> bool:
    """A Japanese unit is adjacent to the Artillery (NOM-9.18): in any adjacent hex, or under
    artillery_adjacency_river=in_contact only where its ZOC reaches the Artillery, not across a
    river without a bridge (NOM-7.4)."""
    art = board.data.artillery
    art_hex = state.unit(art.id).hex if art is not None else None
    if art is None or art_hex is None:
        return False
    v = state.variant
    contact_only = v.is_("artillery_adjacency_river", "in_contact")
    return any(
        u.hex is not None
        and board.data.unit(u.id).side != art.side
        and u.hex in board.neighbors(art_hex)
        and (not contact_only or carries_zoc(board, v, state.demolished, u.hex, art_hex))
        for u in state.units
    )


def support_problem(board: Board, state: NomonhanState, c: Combat) -> tuple[str, str] | None:
    """Artillery support (NOM-9.17 to NOM-9.21, AMB-NOM-13, AMB-NOM-14)."""
    v = state.variant
    art = board.data.artillery
    art_hex = state.unit(art.id).hex if art is not None else None
    if art is None or art_hex is None:
        return "NOM-9.17", "there is no Soviet Artillery on the map to support"
    if state.phasing != art.side:
        return "NOM-9.17", "the Artillery supports Soviet attacks only, never a defence"
    if state.artillery_used:
        return "NOM-9.17", "the Artillery has already supported (once per period, AMB-NOM-14)"
    if v.is_("artillery_adjacency", "banned") and artillery_beset(board, state):
        return "NOM-9.18", "a Japanese unit is adjacent to the Artillery: it cannot support"
    if art.id in c.attackers and v.is_("artillery_self_support", "other_combats"):
        return (
            "NOM-9.17",
            "the Artillery attacks in this combat: it may support only another attack "
            "(artillery_self_support=other_combats)",
        )
    reading = v.reading("artillery_range_to")
    ids = {
        "defender_hex": c.defenders,
        "attacker_hex": c.attackers,
        "any_participant": c.attackers + c.defenders,
    }[reading]
    if not any(
        (h := state.unit(i).hex) is not None and hex_distance(art_hex, h) <= MAX_ARTILLERY_RANGE
        for i in ids
    ):
        return (
            "NOM-9.21",
            f"the combat is beyond the Artillery's range of 3 ({reading}, AMB-NOM-13)",
        )
    return None


def declaration_problems(
    board: Board, state: NomonhanState, combats: Sequence[Combat]
) -> list[tuple[str, str]]:
    """Every obligation a declaration breaks, as (clause, message); empty when legal."""
    f = front(board, state)
    data = board.data
    out: list[tuple[str, str]] = []
    for c in combats:
        out.extend(combat_problems(board, state, f, c))
    attacking = [a for c in combats for a in c.attackers]
    defending = [d for c in combats for d in c.defenders]
    for a in sorted(set(attacking)):
        if attacking.count(a) > 1:
            out.append(("NOM-9.4", f"{data.unit(a).name} attacks more than once"))
    for d in sorted(set(defending)):
        if defending.count(d) > 1:
            out.append(("NOM-9.5", f"{data.unit(d).name} is attacked more than once"))
    for a in sorted(f.obliged - set(attacking), key=f.order.__getitem__):
        out.append(
            (
                "NOM-9.2",
                f"{data.unit(a).name} in {state.unit(a).hex} is in an enemy ZOC and must attack",
            )
        )
    for d in sorted(f.must_defend - set(defending), key=f.order.__getitem__):
        out.append(
            (
                "NOM-9.3",
                f"{data.unit(d).name} in {state.unit(d).hex} is in an attacker's "
                "ZOC and must be attacked",
            )
        )
    supported = [c for c in combats if c.support]
    if len(supported) > 1:
        out.append(("NOM-9.17", "the Artillery may support only one attack"))
    for c in supported:
        problem = support_problem(board, state, c)
        if problem is not None:
            out.append(problem)
    if any(
        list(units) != sorted(units, key=f.order.__getitem__)
        for c in combats
        for units in (c.attackers, c.defenders)
    ):
        out.append(("NOM-9.8", "the units of each combat are listed in data order"))
    if not v_fixed_order(state) and list(combats) != sorted(combats, key=lambda c: _key(f, c)):
        out.append(
            (
                "NOM-9.8",
                "combats are listed in canonical order when the resolution order "
                "is chosen later (AMB-NOM-11)",
            )
        )
    return out


def canonical(board: Board, state: NomonhanState, combats: Sequence[Combat]) -> tuple[Combat, ...]:
    """The listed form of a declaration: units of each combat in data order and, when the
    resolution order is chosen later (AMB-NOM-11), the combats in canonical order too. Two
    listings of the same combats are one declaration."""
    order = {s.id: i for i, s in enumerate(board.data.units)}

    def rank(u: str) -> int:
        return order.get(u, len(order))

    out = tuple(
        Combat(
            tuple(sorted(c.attackers, key=rank)), tuple(sorted(c.defenders, key=rank)), c.support
        )
        for c in combats
    )
    if v_fixed_order(state):
        return out
    return tuple(
        sorted(out, key=lambda c: (tuple(map(rank, c.attackers)), tuple(map(rank, c.defenders))))
    )


def v_fixed_order(state: NomonhanState) -> bool:
    return state.variant.is_("resolution_order", "fixed_in_advance")


def _key(f: Front, c: Combat) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(f.order[a] for a in c.attackers), tuple(f.order[d] for d in c.defenders)


def candidate_combats(board: Board, state: NomonhanState, f: Front) -> list[Combat]:
    """Every single combat that is legal on its own, units in data order."""
    out = []
    by_order = f.order.__getitem__
    engaged = [a for a in f.attackers if f.contacts[a]]
    for n in range(1, len(engaged) + 1):
        for atts in itertools.combinations(engaged, n):
            reach = sorted(set().union(*(f.contacts[a] for a in atts)), key=by_order)
            for m in range(1, len(reach) + 1):
                for defs in itertools.combinations(reach, m):
                    c = Combat(atts, defs)
                    if not combat_problems(board, state, f, c):
                        out.append(c)
    return out


def legal_declarations(board: Board, state: NomonhanState) -> list[tuple[Combat, ...]]:
    """All legal declarations, by backtracking over attackers in data order (the oracle)."""
    f = front(board, state)
    candidates = candidate_combats(board, state, f)
    engaged = [a for a in f.attackers if f.contacts[a]]
    by_first: dict[str, list[Combat]] = {a: [] for a in engaged}
    for c in candidates:
        by_first[c.attackers[0]].append(c)
    results: list[tuple[Combat, ...]] = []

    def search(
        i: int, used_a: frozenset[str], used_d: frozenset[str], chosen: list[Combat]
    ) -> None:
        if i == len(engaged):
            if f.must_defend <= used_d:
                results.append(tuple(chosen))
            return
        a = engaged[i]
        if a in used_a:
            search(i + 1, used_a, used_d, chosen)
            return
        if a not in f.obliged:
            search(i + 1, used_a, used_d, chosen)  # NOM-9.13: a hill unit need not attack
        for c in by_first[a]:
            # NOM-9.4, NOM-9.5: each unit attacks, and is attacked, at most once
            if used_a.isdisjoint(c.attackers) and used_d.isdisjoint(c.defenders):
                chosen.append(c)
                search(i + 1, used_a | set(c.attackers), used_d | set(c.defenders), chosen)
                chosen.pop()

    search(0, frozenset(), frozenset(), [])
    return [d for base in results for d in _with_support_and_order(board, state, f, base)]


def _with_support_and_order(
    board: Board, state: NomonhanState, f: Front, base: tuple[Combat, ...]
) -> Iterator[tuple[Combat, ...]]:
    canonical = tuple(sorted(base, key=lambda c: _key(f, c)))
    variants = [canonical]
    for i, c in enumerate(canonical):
        supported = attrs.evolve(c, support=True)
        if support_problem(board, state, supported) is None:
            variants.append((*canonical[:i], supported, *canonical[i + 1 :]))
    for decl in variants:
        if v_fixed_order(state):
            yield from itertools.permutations(decl)
        else:
            yield decl


def any_contact(board: Board, state: NomonhanState) -> bool:
    """Some attacker may attack someone: otherwise the Combat Phase has nothing to declare."""
    f = front(board, state)
    return any(f.contacts[a] for a in f.attackers) or bool(f.must_defend)
