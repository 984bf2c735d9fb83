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
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from kernel.variants import Variant
from specs.shumshu.rules.declare import attacker_problem
from specs.shumshu.rules.state import ShumshuState
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


def reading_proofs(game: Any) -> Mapping[str, Proof]:
    """The option -> proof mapping the explorer asks for (`solvers.checking.game_proofs`),
    each bound to `game` (the rules: their board, data and set-up)."""
    return {"could_move": lambda va, vb: could_move(game, va, vb)}
