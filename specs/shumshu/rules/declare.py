"""Attack declarations: who attacks which hex (SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4).

A declaration is a set of (attacker, target hex) pairs, one hex per attacker; the attackers
into one hex form one combat. `declaration_problems` is the definition of a legal declaration:
it lists every broken rule with its clause. `legal_declarations` enumerates the same set by
backtracking over the attackers in data order: it is the plain-Python oracle the solver layer
(`combat_query`) is held against, and `extendable` answers, from it, whether a partial
declaration can still be completed.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules.board import Board, side_name
from specs.shumshu.rules.state import JP, RU, Combat, Loc, ShumshuState, other
from specs.shumshu.rules.units import hex_sides, holder, obliged_hexes, side_pieces

Pair = tuple[str, Hex]
Declaration = tuple[Pair, ...]  # sorted by the attackers' data order
Problem = tuple[str, str]

HEXSIDE_LIMIT = {RU: 2, JP: 3}  # SHU-COMBAT.3


@attrs.frozen
class Front:
    """The units of a combat phase: who may attack which hexes, and what obliges them."""

    side: str
    attackers: tuple[str, ...]  # may attack and are next to an enemy hex, in data order
    barred: dict[str, Problem]  # the phasing side's units on the map that may not attack
    contacts: dict[str, tuple[Hex, ...]]  # attacker -> the hexes it may attack
    obliged: dict[str, frozenset[Hex]]  # attacker -> hexes next to it that must be attacked
    hexsides: dict[Pair, str]  # (attacker, target) -> the hexside crossed
    limit: int  # SHU-COMBAT.3

    @property
    def obligation_clause(self) -> str:
        """Japanese units obliged by Russian attackers, regiments by Japanese ones."""
        return "SHU-COMBAT.4" if self.side == RU else "SHU-RGT.4"


def attacker_problem(b: Board, s: ShumshuState, unit: str) -> Problem | None:
    """Why a unit of the phasing side on the map may not attack at all, or None."""
    spec = b.unit(unit)
    p = s.piece(unit)
    v = s.variant
    if spec.is_decoy:
        return (
            "SHU-COMBAT.6",
            f"{unit} is a decoy: it has no factors and never attacks (AMB-SHU-30)",
        )
    if p.disrupted:
        return "SHU-DISRUPT.1", f"{unit} is disrupted and cannot attack"
    if unit in s.acted:
        if spec.is_regiment:
            return "SHU-RGT.1", f"{unit} formed this turn and may not act yet (AMB-SHU-10)"
        return "SHU-SEQ.1", f"{unit} landed this turn: the landing was its action (AMB-SHU-28)"
    if unit in s.moved:
        if v.is_("move_and_attack", "either"):
            return "SHU-COMBAT.1", f"{unit} moved: a unit moves or attacks (AMB-SHU-12)"
        if v.is_("could_move", "movement_left"):
            return "SHU-COMBAT.2", f"{unit} moved and could not still move in (AMB-SHU-13)"
    if spec.is_regiment and spec.side == RU and v.is_("regiment_counts", "three"):
        return (
            "SHU-COMBAT.3",
            f"{unit} counts as three units and only two may attack across a hexside (AMB-SHU-15)",
        )
    return None


def front(b: Board, s: ShumshuState) -> Front:
    """Who may attack which hexes (SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4), kept for the last
    positions asked: the listing, each join's check and the declaration's end ask it again."""
    return _front(b, s)


@functools.lru_cache(maxsize=64)
def _front(b: Board, s: ShumshuState) -> Front:
    side = s.side
    enemy = other(side)
    obliged_all = obliged_hexes(b, s, side)
    same_combat = s.variant.is_("must_attack", "same_combat")
    attackers: list[str] = []
    barred: dict[str, Problem] = {}
    contacts: dict[str, tuple[Hex, ...]] = {}
    obliged: dict[str, frozenset[Hex]] = {}
    hexsides: dict[Pair, str] = {}
    sides = hex_sides(b, s)
    for p in side_pieces(b, s, side):
        found = attacker_problem(b, s, p.id)
        if found is not None:
            barred[p.id] = found
            continue
        assert p.hex is not None
        near = tuple(n for n in b.neighbors(p.hex) if sides.get(n) == enemy)
        if not near:
            continue
        must = frozenset(n for n in near if n in obliged_all)
        if same_combat and len(must) >= 2:
            barred[p.id] = (
                "SHU-COMBAT.4",
                f"{p.id} is next to {len(must)} hexes that must be attacked in its own combat, "
                "and a combat is against one hex (must_attack=same_combat, AMB-SHU-14)",
            )
            continue
        targets = tuple(sorted(must)) if same_combat and must else near
        attackers.append(p.id)
        contacts[p.id] = tuple(sorted(targets))
        obliged[p.id] = must
        for t in targets:
            hexsides[p.id, t] = side_name(p.hex, t)
    return Front(side, tuple(attackers), barred, contacts, obliged, hexsides, HEXSIDE_LIMIT[side])


def canonical(b: Board, pairs: Iterable[Pair]) -> Declaration:
    return tuple(sorted(pairs, key=lambda pair: (b.order.get(pair[0], len(b.order)), pair[1])))


def pairs_of(combats: Sequence[Combat]) -> Declaration:
    """The pairs of the combats declared so far (attackers in data order within each)."""
    return tuple((a, c.hex) for c in combats for a in c.attackers)


def combats_of(b: Board, pairs: Sequence[Pair]) -> tuple[Combat, ...]:
    """Pairs grouped into combats, in the order of their first attacker (SHU-COMBAT.1)."""
    by_hex: dict[Hex, list[str]] = {}
    for a, h in canonical(b, pairs):
        by_hex.setdefault(h, []).append(a)
    return tuple(Combat(h, tuple(atts)) for h, atts in by_hex.items())


def declaration_problems(b: Board, s: ShumshuState, pairs: Sequence[Pair]) -> list[Problem]:
    """Every rule a declaration breaks, as (clause, message); empty when it is legal."""
    f = front(b, s)
    out: list[Problem] = []
    counts = Counter(a for a, _ in pairs)
    for a in sorted(counts, key=lambda u: b.order.get(u, len(b.order))):
        if counts[a] > 1:
            out.append(("SHU-COMBAT.1", f"{a} attacks more than once"))
    for a, h in pairs:
        if a in f.barred:
            out.append(f.barred[a])
        elif b.unit(a).side != f.side or s.piece(a).loc is not Loc.MAP:
            out.append(("SHU-COMBAT.1", f"{a} is not a unit of the attacking side on the map"))
        elif h not in f.contacts.get(a, ()):
            if h in b.neighbors(s.piece(a).hex) and holder(b, s, h) == other(f.side):  # type: ignore[arg-type]
                out.append(
                    (
                        "SHU-COMBAT.4",
                        f"{a} is next to a hex that must be attacked and may only attack that "
                        "one (must_attack=same_combat, AMB-SHU-14)",
                    )
                )
            else:
                out.append(("SHU-COMBAT.1", f"{a} is not next to enemy units in {h}"))
    legal_pairs = [(a, h) for a, h in pairs if (a, h) in f.hexsides]
    across = Counter(f.hexsides[pair] for pair in legal_pairs)
    for hexside, n in sorted(across.items()):
        if n > f.limit:
            out.append(
                (
                    "SHU-COMBAT.3",
                    f"{n} units attack across hexside {hexside}; at most {f.limit} "
                    f"{'Russian' if f.side == RU else 'Japanese'} units may",
                )
            )
    targets = {h for _, h in pairs}
    missing = sorted({h for a, _ in legal_pairs for h in f.obliged.get(a, ()) if h not in targets})
    for h in missing:
        what = "undisrupted Japanese units" if f.side == RU else "a Russian regiment"
        out.append(
            (
                f.obligation_clause,
                f"{h} holds {what} next to an attacking unit and must also be attacked",
            )
        )
    return out


def iter_declarations(b: Board, s: ShumshuState) -> Iterator[Declaration]:
    """Every legal declaration, by backtracking over the attackers in data order (the oracle):
    each attacks nothing or one hex it may attack, hexside limits pruned on the way, the
    obligations checked on the finished declaration."""
    f = front(b, s)
    attackers = f.attackers

    def search(i: int, chosen: list[Pair], across: Counter[str]) -> Iterator[Declaration]:
        if i == len(attackers):
            targets = {h for _, h in chosen}
            if all(o in targets for a, _ in chosen for o in f.obliged[a]):
                yield tuple(chosen)
            return
        a = attackers[i]
        yield from search(i + 1, chosen, across)
        for h in f.contacts[a]:
            side = f.hexsides[a, h]
            if across[side] >= f.limit:
                continue
            across[side] += 1
            chosen.append((a, h))
            yield from search(i + 1, chosen, across)
            chosen.pop()
            across[side] -= 1

    yield from search(0, [], Counter())


def legal_declarations(b: Board, s: ShumshuState) -> set[Declaration]:
    return set(iter_declarations(b, s))


def extendable(b: Board, s: ShumshuState, pairs: Sequence[Pair]) -> bool:
    """Some legal declaration contains `pairs` and nothing else from the attackers before
    the last one in `pairs` (the oracle of `combat_query.join_ok`)."""
    f = front(b, s)
    fixed = dict(pairs)
    last = max((f.attackers.index(a) for a in fixed if a in f.attackers), default=-1)
    for decl in iter_declarations(b, s):
        mine = dict(decl)
        if all(mine.get(a) == h for a, h in fixed.items()) and all(
            a in fixed for a in mine if f.attackers.index(a) <= last
        ):
            return True
    return False
