"""Reading pairs of Shumshu that cannot differ under a preset, proved over the game's data
(`reading_proofs`, offered to the ambiguity explorer by the game: `game.Shumshu`).

could_move (AMB-SHU-13, SHU-COMBAT.2) is read in one place only, `declare.attacker_problem`
(why a unit may not attack), and only for a unit that moved this player-turn and that
move_and_attack (AMB-SHU-12, SHU-COMBAT.1) has not already barred: under
move_and_attack=either a unit that moved never attacks, whatever could_move says. The proof
asks `attacker_problem` under both variants for every unit of the data in every state of
what it reads of the unit (disrupted or not, formed or landed this turn or not, moved or not)
and compares the answers: the same answer everywhere means the same attacks are open, so the
same game. A single difference, under the variants handed in, makes it fail (None): under
move_and_attack=both the readings part ways for a unit that moved.

ship_load (found here; SHU-AIR.2, SHU-LAND.2, SHU-REINF.3) is read in one place only,
`landing.loads` (what each capability carries when the Ki-43 strikes), from two inputs: the
units sailing and the capabilities left. The strike comes straight after the sea movement
(`sequence.air_step`), and nothing between embarking and the strike changes the capabilities
left, so the party is never larger than `landing.party_limit` allowed it with that number.
The proof asks `loads` and `air_outcomes` under both variants for every number of
capabilities the data can leave (its capabilities down to none), a landing or deliveries, and
every party size `party_limit` allows: under landing_size=capabilities and
deliveries=capabilities no party outnumbers the capabilities, one unit to a capability either
way. Under landing_size=three (or deliveries=three) three units may sail on fewer
capabilities, the readings share them out differently and the proof fails.

worst_roll_opposed (found here; SHU-LAND.3, SHU-LAND.7): `formal.moot_landing`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.shumshu.formal import moot_landing
from specs.shumshu.rules.declare import attacker_problem
from specs.shumshu.rules.landing import air_outcomes, loads, party_limit
from specs.shumshu.rules.state import RU, Sail, ShumshuState
from specs.shumshu.rules.units import evolve_pieces

Proof = Callable[[Variant, Variant], str | None]


def _as(s: ShumshuState, unit: str, disrupted: bool, acted: bool, moved: bool) -> ShumshuState:
    """`s` with `unit` disrupted or not, in the turn's `acted` and `moved` sets or not."""
    piece = attrs.evolve(s.piece(unit), disrupted=disrupted)
    s = evolve_pieces(s, {unit: piece})
    return attrs.evolve(
        s,
        acted=s.acted | {unit} if acted else s.acted - {unit},
        moved=s.moved | {unit} if moved else s.moved - {unit},
    )


def could_move(game: Any, va: Variant, vb: Variant) -> str | None:
    """could_move (AMB-SHU-13): every unit's reason not to attack is the same under both
    variants (SHU-COMBAT.1, SHU-COMBAT.2, SHU-COMBAT.3, SHU-COMBAT.6, SHU-DISRUPT.1,
    SHU-RGT.1, SHU-SEQ.1), or None."""
    b = game.board
    sa, sb = game.initial_state(va), game.initial_state(vb)
    units = [u.id for u in game.data.units]
    n = 0
    for unit, flags in itertools.product(units, itertools.product((False, True), repeat=3)):
        a = attacker_problem(b, _as(sa, unit, *flags), unit)
        if a != attacker_problem(b, _as(sb, unit, *flags), unit):
            return None
        n += 1
    return (
        "proved by the game over its data: could_move is read only for a unit that moved "
        f"and that move_and_attack={va.reading('move_and_attack')} has not already barred; "
        f"all {n} answers of why a unit may not attack (each of the {len(units)} units, "
        "disrupted or not, formed or landed this turn or not, moved or not) are the same "
        "under both readings (SHU-COMBAT.1, SHU-COMBAT.2, SHU-COMBAT.3, SHU-COMBAT.6, "
        "SHU-DISRUPT.1, SHU-RGT.1, SHU-SEQ.1; AMB-SHU-12, AMB-SHU-13)"
    )


def _sailing(s: ShumshuState, ships: int, to: Hex | None, party: tuple[str, ...]) -> ShumshuState:
    """`s` with `ships` capabilities left and `party` sailing (to landing hex `to`, or
    delivered when None), its embarking over: the position the Ki-43 strikes at
    (SHU-AIR.2)."""
    return attrs.evolve(s, ships=ships, sail=Sail(to, party, sailed=True))


def ship_load(game: Any, va: Variant, vb: Variant) -> str | None:
    """ship_load (found here): what each capability carries, and so what the Ki-43's best
    roll may sink, is the same under both variants for every party the variants let sail
    (SHU-AIR.2, SHU-LAND.2, SHU-LAND.3, SHU-REINF.3), or None."""
    b = game.board
    sa, sb = game.initial_state(va), game.initial_state(vb)
    coast = min(h for h in b.hexes if b.is_coastal(h) and not b.in_red(h))
    sailors = tuple(u.id for u in game.data.units if u.side == RU and not u.is_regiment)
    n = 0
    for ships, landing in itertools.product(range(game.data.capabilities + 1), (True, False)):
        limit = party_limit(attrs.evolve(sa, ships=ships), landing)
        if limit != party_limit(attrs.evolve(sb, ships=ships), landing):
            return None
        for size in range(limit + 1):
            party = sailors[:size]
            to = coast if landing else None
            a, c = _sailing(sa, ships, to, party), _sailing(sb, ships, to, party)
            if loads(a) != loads(c) or air_outcomes(b, a) != air_outcomes(b, c):
                return None
            n += 1
    return (
        "proved by the game over its data: ship_load is read only when the Ki-43 strikes "
        "at shipping, straight after the sea movement, and a party is never larger than "
        f"landing_size={va.reading('landing_size')} and "
        f"deliveries={va.reading('deliveries')} allow with the capabilities left; "
        f"all {n} sailings (every number of capabilities from {game.data.capabilities} to "
        "none, a landing or deliveries, every party size allowed) load the capabilities "
        "alike and give the same strike outcomes under both readings (SHU-AIR.2, "
        "SHU-LAND.2, SHU-LAND.3, SHU-REINF.3)"
    )


def reading_proofs(game: Any) -> Mapping[str, Proof]:
    """The option -> proof mapping the explorer asks for (`solvers.checking.game_proofs`),
    each bound to `game` (the rules: their board, data and set-up)."""
    return {
        "could_move": lambda va, vb: could_move(game, va, vb),
        "ship_load": lambda va, vb: ship_load(game, va, vb),
        "worst_roll_opposed": lambda va, vb: moot_landing.worst_roll_opposed(game, va, vb),
    }
