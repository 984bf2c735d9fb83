"""Resampling what the Russians cannot see, consistently with what they see (no-leak tests).

A face-down Japanese piece (undisrupted, unrevealed; decoys are face down too) is to the
Russians one more counter in its hex, and a Paramushir unit one more unit there. Their
identities are shuffled among those places, keeping what the Russians know: a decoy is never
on Paramushir, and a face-down counter that attacks (or moved, when decoys never move) is a
unit, not a decoy. Every reference to a piece (moves, declared attacks) follows it.

A unit eliminated face down (`eliminated_face=as_it_was`) is to the Russians a unit (decoys
are never eliminated) that is gone. While a combat is resolved the face-down pieces of its hex
stay as they are: which of them defend was the Japanese player's choice, which fixes who was
left out (a decoy that stays face down under `decoy_discovery=when_alone`).
"""

from __future__ import annotations

import random

import attrs

from specs.shumshu.rules.state import JP, Combat, Fight, Loc, Piece, ShumshuState
from specs.shumshu.rules.units import hidden
from tests.shumshu.positions import B


def resample(s: ShumshuState, rng: random.Random) -> ShumshuState:
    held = s.fight.hex if s.fight is not None else None
    secret = [p for p in s.units if hidden(B, p) and not (p.loc is Loc.MAP and p.hex == held)]
    if not secret:
        return s
    attacking = {a for c in s.pending for a in c.attackers}
    if s.fight is not None:
        attacking |= set(s.fight.attackers)
    fixed_decoys = s.variant.is_("decoy_movement", "fixed")
    on_paramushir = [p for p in secret if p.loc is Loc.POOL]
    on_map = [p for p in secret if p.loc is Loc.MAP]
    gone = [p for p in secret if p.loc is Loc.GONE]
    must_be_real = [p for p in on_map if p.id in attacking or (fixed_decoys and p.id in s.moved)]
    assign: dict[str, str] = {}  # old id at a place -> new id there
    from_paramushir = [p.id for p in secret if B.unit(p.id).setup == "paramushir"]
    rng.shuffle(from_paramushir)
    for p in on_paramushir:  # only Paramushir's own units can still be there
        assign[p.id] = from_paramushir.pop()
    rest = from_paramushir + [p.id for p in secret if B.unit(p.id).setup == "shumshu"]
    decoys = [u for u in rest if B.unit(u).is_decoy]
    real = [u for u in rest if not B.unit(u).is_decoy]
    free = [p for p in on_map if p not in must_be_real]
    rng.shuffle(free)
    rng.shuffle(real)
    for p in free[: len(decoys)]:
        assign[p.id] = decoys.pop()
    for p in on_map + gone:
        if p.id not in assign:
            assign[p.id] = real.pop()
    assert not decoys and not real
    by_id = {p.id: p for p in s.units}
    moved = attrs.evolve
    new_units = []
    for spec in B.data.units:
        old = next((o for o, n in assign.items() if n == spec.id), None)
        if old is None:
            new_units.append(by_id[spec.id])
        else:
            src = by_id[old]
            new_units.append(Piece(spec.id, src.loc, src.hex))

    def rename(ids: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted((assign.get(u, u) for u in ids), key=B.order.__getitem__))

    pending = tuple(Combat(c.hex, rename(c.attackers)) for c in s.pending)
    fight: Fight | None = s.fight
    if fight is not None:
        fight = moved(fight, attackers=rename(fight.attackers))
    return moved(
        s,
        units=tuple(new_units),
        moved=frozenset(assign.get(u, u) for u in s.moved),
        pending=pending,
        fight=fight,
    )


def japanese_hidden(s: ShumshuState) -> list[str]:
    return [p.id for p in s.units if hidden(B, p) and B.side_of[p.id] == JP]
