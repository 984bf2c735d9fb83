"""One combat (or landing roll) resolved: decoys found, defenders chosen, No Retreat!, the
attacker's choices, the result applied, routs and withdrawals, the advance.

These are the pure steps; `sequence.py` strings them together. Clauses: SHU-COMBAT.6, SHU-STACK.3,
SHU-LAND.7 to SHU-LAND.9, SHU-CRT.3 to SHU-CRT.8, SHU-RGT.2, SHU-BANZAI.2, SHU-COMBAT.13.
"""

from __future__ import annotations

import functools
import itertools

import attrs

from kernel.hexes import Hex
from solvers.queries import stacking
from solvers.queries.stacking import AtLeast, Capacity, Extent, StackingProblem, StackUnit
from specs.shumshu.rules import crt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.effects import break_regiment, disrupt, eliminate
from specs.shumshu.rules.state import JP, RU, Fight, Loc, Piece, ShumshuState, other
from specs.shumshu.rules.units import evolve_pieces, holder, pieces_in, real_in, update

DEFENDER_LIMIT = {RU: 3, JP: 4}  # SHU-STACK.3


def discover_decoys(b: Board, s: ShumshuState, h: Hex, back: int) -> ShumshuState:
    """Decoys in an attacked hex are discovered and removed until `back`, the next turn
    (SHU-COMBAT.6): whenever the hex is attacked, or only when no real unit is with them
    (`decoy_discovery=when_alone`)."""
    if s.variant.is_("decoy_discovery", "when_alone") and real_in(b, s, h):
        return s
    return _remove_decoys(b, s, h, back)


def lone_decoys(b: Board, s: ShumshuState, h: Hex, back: int) -> ShumshuState:
    """After a result, decoys the result left alone in the hex are discovered
    (`decoy_discovery=when_alone`; under `hex_attacked` they left when the attack came)."""
    if real_in(b, s, h):
        return s
    return _remove_decoys(b, s, h, back)


def _remove_decoys(b: Board, s: ShumshuState, h: Hex, back: int) -> ShumshuState:
    found = [p for p in pieces_in(s, h) if b.unit(p.id).is_decoy]
    return evolve_pieces(
        s, {p.id: Piece(p.id, Loc.REMOVED, recover=back, revealed=True) for p in found}
    )


def defence_problem(b: Board, s: ShumshuState, h: Hex) -> tuple[StackingProblem, list[StackUnit]]:
    """The choice of defenders as the solvers' stacking problem (SHU-STACK.3, AMB-SHU-11,
    AMB-SHU-15, AMB-SHU-30): at most 3 Russian or 4 Japanese units, a regiment weighing three
    when it counts as its battalions; decoys never defend."""
    units, weighted, every = _defence_key(b, s, h)
    weights = _weights(b, units, weighted)
    stack = [StackUnit(u, u, w) for u, w in zip(units, weights, strict=True)]
    return _defence(b.side_of[units[0]], f"hex {h}", weighted, every), stack


def _defence_key(b: Board, s: ShumshuState, h: Hex) -> tuple[tuple[str, ...], bool, bool]:
    """What the choice of defenders depends on: the units that may defend (in data order),
    whether a Russian regiment weighs three (`regiment_counts`), and whether as many defend
    as may (`defender_count`)."""
    v = s.variant
    units = tuple(p.id for p in real_in(b, s, h))
    weighted = b.side_of[units[0]] == RU and v.is_("regiment_counts", "three")
    return units, weighted, v.is_("defender_count", "as_many_as_allowed")


def _weights(b: Board, units: tuple[str, ...], weighted: bool) -> tuple[int, ...]:
    return tuple(3 if weighted and b.unit(u).is_regiment else 1 for u in units)


def _defence(side: str, where: str, weighted: bool, every: bool) -> StackingProblem:
    limit = DEFENDER_LIMIT[side]
    cap = Capacity(
        limit,
        ("SHU-STACK.3",),
        f"at most {limit} {'Russian' if side == RU else 'Japanese'} units defend a hex",
        weighted=weighted,
        measure="defenders",
    )
    if every:
        return StackingProblem(
            where, [cap], Extent.MINIMAL, ("SHU-STACK.3",), "left out of the defence"
        )
    least = AtLeast(1, ("SHU-STACK.3",), "a hex with units has a defender")
    return StackingProblem(
        where, [cap, least], Extent.ANY, ("SHU-STACK.3",), "left out of the defence"
    )


def defender_choices(b: Board, s: ShumshuState, h: Hex) -> list[tuple[str, ...]]:
    """Every legal set of defenders, each in data order, from the solver. The sets depend on
    the side, the units' weights and the readings alone (`defender_sets`), so the solver is
    asked once per such stack, not at every attack."""
    if not real_in(b, s, h):
        return [()]
    units, weighted, every = _defence_key(b, s, h)
    sets = defender_sets(b.side_of[units[0]], _weights(b, units, weighted), weighted, every)
    return [tuple(units[i] for i in kept) for kept in sets]


@functools.lru_cache(maxsize=256)
def defender_sets(
    side: str, weights: tuple[int, ...], weighted: bool, every: bool
) -> tuple[tuple[int, ...], ...]:
    """The legal sets of defenders of a stack of `side` units with these `weights` (in data
    order), as positions in the stack, sorted as their units in data order would be."""
    stack = [StackUnit(str(i), str(i), w) for i, w in enumerate(weights)]
    problem = _defence(side, "the attacked hex", weighted, every)  # a name for explanations
    return tuple(
        sorted(
            tuple(sorted(int(i) for i in c.kept))
            for c in stacking.compliance_choices(problem, stack)
        )
    )


def defence_refusal(b: Board, s: ShumshuState, h: Hex, chosen: tuple[str, ...]) -> str:
    """Why `chosen` is not a legal set of defenders of `h`: the stacking rules it breaks, or
    that the defenders are units of the hex (SHU-STACK.3, AMB-SHU-30)."""
    problem, stack = defence_problem(b, s, h)
    known = {u.id for u in stack}
    kept = set(chosen) & known
    reasons = (
        stacking.explain_choice(problem, stack, [u.id for u in stack if u.id not in kept])
        if kept == set(chosen)
        else []
    )
    return "; ".join(str(r) for r in reasons) or (
        "the defenders are units of the attacked hex (decoys never defend, AMB-SHU-30)"
    )


def defender_choices_oracle(b: Board, s: ShumshuState, h: Hex) -> list[tuple[str, ...]]:
    """The same sets by trying every subset (the plain-Python oracle)."""
    units = [p.id for p in real_in(b, s, h)]
    if not units:
        return [()]
    side = b.side_of[units[0]]
    weighted = side == RU and s.variant.is_("regiment_counts", "three")

    def weight(kept: tuple[str, ...]) -> int:
        return sum(3 if weighted and b.unit(u).is_regiment else 1 for u in kept)

    limit = DEFENDER_LIMIT[side]
    fits = [
        kept
        for n in range(1, len(units) + 1)
        for kept in itertools.combinations(units, n)
        if weight(kept) <= limit
    ]
    if s.variant.is_("defender_count", "as_many_as_allowed"):
        fits = [
            kept for kept in fits if all(weight((*kept, u)) > limit for u in units if u not in kept)
        ]
    return sorted(fits, key=lambda kept: [b.order[u] for u in kept])


def hold_allowed(b: Board, s: ShumshuState, fight: Fight) -> bool:
    """No Retreat! may be declared for undisrupted defenders (SHU-LAND.8, SHU-LAND.9,
    SHU-DISRUPT.5): in every combat, or only against a landing and in the beachhead
    (AMB-SHU-6)."""
    if not any(not s.piece(d).disrupted for d in fight.defenders):
        return False  # SHU-DISRUPT.5: disrupted units may not declare No Retreat!
    if s.variant.is_("no_retreat_scope", "every_combat"):
        return True
    defender = b.side_of[fight.defenders[0]]
    return fight.landing if defender == JP else fight.hex == s.beachhead


def air_available(s: ShumshuState) -> bool:
    """The Ki-43 flies and has not acted in this player-turn (or game turn) (AMB-SHU-23)."""
    if not s.air:
        return False
    if s.variant.is_("air_frequency", "each_player_turn"):
        return not s.air_used
    return s.air_turn != s.turn


def commit_choices(b: Board, s: ShumshuState, fight: Fight) -> list[tuple[bool, bool, bool]]:
    """(press, air, banzai) choices open to the attacker before the roll (SHU-PRESS.1,
    SHU-AIR.1, SHU-BANZAI.1, AMB-SHU-24, AMB-SHU-25)."""
    v = s.variant
    japanese = b.side_of[fight.attackers[0]] == JP and not fight.landing
    presses = [False, True] if not fight.landing or v.is_("press_landings", "yes") else [False]
    airs = [False, True] if japanese and air_available(s) else [False]
    banzais = [False, True] if japanese else [False]
    return [
        (p, a, z)
        for p in presses
        for a in airs
        for z in banzais
        if not (p and z and v.is_("banzai_press", "not_combined"))
    ]


def affected(b: Board, s: ShumshuState, fight: Fight) -> list[str]:
    """The units a defender result reaches: every unit in the hex, or the defenders only
    (SHU-STACK.3, AMB-SHU-11)."""
    if s.variant.is_("non_defenders", "share_result"):
        return [p.id for p in real_in(b, s, fight.hex)]
    return [d for d in fight.defenders if s.piece(d).loc is Loc.MAP]


def apply_result(b: Board, s: ShumshuState, fight: Fight, result: str) -> ShumshuState:
    """Apply a CRT result (SHU-CRT.3 DE, SHU-CRT.4 DR, SHU-CRT.5 DW, SHU-CRT.6 D, SHU-CRT.7
    AD, SHU-CRT.8 AE) with No Retreat! (SHU-LAND.8: DR becomes
    DE, DW becomes D for the undisrupted units that hold), regiments breaking (SHU-RGT.2) and
    Banzai! (SHU-BANZAI.2). Units to rout or withdraw are queued in `fight.retreating`."""
    v = s.variant
    hit = affected(b, s, fight)
    held = [u for u in hit if fight.hold and not s.piece(u).disrupted]
    moving: list[str] = []
    if result == "DE":  # SHU-CRT.3: all defenders eliminated
        s = eliminate(b, s, hit)
    elif result in ("DR", "DW"):
        if result == "DR":
            s = eliminate(b, s, held)
        elif v.is_("no_retreat_dw", "disrupted"):
            s = disrupt(b, s, held)
        others = [u for u in hit if u not in held]
        s = disrupt(b, s, others)  # a routed regiment breaks where it ends up
        moving = others
    elif result == "D":  # SHU-CRT.6: the defenders disrupted
        s = disrupt(b, s, hit)
    elif result == "AD":  # SHU-CRT.7: the attackers disrupted
        s = _attackers_disrupted(b, s, fight)
    elif result == "AE":  # SHU-CRT.8: the attackers eliminated
        s = eliminate(b, s, [a for a in fight.attackers if s.piece(a).loc is Loc.MAP])
    if fight.banzai and result in crt.D_OR_WORSE:  # SHU-BANZAI.2: all attackers eliminated
        s = eliminate(b, s, [a for a in fight.attackers if s.piece(a).loc is Loc.MAP])
    current = attrs.evolve(fight, result=result, retreating=tuple(moving))
    return attrs.evolve(s, fight=current)


def _attackers_disrupted(b: Board, s: ShumshuState, fight: Fight) -> ShumshuState:
    live = [a for a in fight.attackers if s.piece(a).loc is Loc.MAP]
    s = disrupt(b, s, [a for a in live if not b.unit(a).is_regiment])
    for a in live:
        if b.unit(a).is_regiment:
            s = break_regiment(b, s, a)  # SHU-RGT.2: AD against a regiment
    return s


def retreat_chooser(b: Board, fight: Fight) -> str:
    """The attacker routs on DR (SHU-CRT.4), the defender withdraws on DW (SHU-CRT.5)."""
    attacker = b.side_of[fight.attackers[0]]
    return attacker if fight.result == "DR" else other(attacker)


def retreat_choices(b: Board, s: ShumshuState, fight: Fight) -> list[Hex]:
    """Where the next unit in `fight.retreating` may go: one adjacent hex of the island free
    of enemy pieces (AMB-SHU-26), the same hex as the first under `retreat_together`."""
    unit = fight.retreating[0]
    here = s.piece(unit).hex
    assert here is not None
    enemy = other(b.side_of[unit])
    out = [n for n in b.neighbors(here) if holder(b, s, n) != enemy]  # SHU-STACK.1
    if s.variant.is_("retreat_together", "together") and fight.first_to is not None:
        out = [h for h in out if h == fight.first_to]
    return out


def apply_retreat(b: Board, s: ShumshuState, unit: str, to: Hex | None) -> ShumshuState:
    """Move the next routed or withdrawn unit; with no hex to go to it is eliminated or stays
    (AMB-SHU-26 iv). A routed regiment breaks where it ends up (SHU-RGT.2)."""
    fight = s.fight
    assert fight is not None
    rest = fight.retreating[1:]
    if to is None:
        if s.variant.is_("no_retreat_path", "eliminated"):
            s = eliminate(b, s, [unit])
        elif b.unit(unit).is_regiment and fight.result == "DR":
            s = break_regiment(b, s, unit)  # SHU-RGT.2: DR against a regiment
    else:
        s = update(s, [unit], hex=to)
        if b.unit(unit).is_regiment and fight.result == "DR":
            s = break_regiment(b, s, unit)  # SHU-RGT.2: DR against a regiment
    first = fight.first_to if fight.first_to is not None else to
    return attrs.evolve(s, fight=attrs.evolve(fight, retreating=rest, first_to=first))


def victors(b: Board, s: ShumshuState, fight: Fight) -> tuple[str, ...]:
    """Attackers that may advance (SHU-COMBAT.13): undisrupted survivors, after a result
    that clears the hex or any defender result (`victors`, found here)."""
    if fight.landing:
        return ()
    if s.variant.is_("victors", "hex_cleared"):
        won = holder(b, s, fight.hex) != other(b.side_of[fight.attackers[0]])
        won = won and fight.result in ("DE", "DR", "DW")
    else:
        won = fight.result in crt.DEFENDER_RESULTS
    if not won:
        return ()
    return tuple(
        a for a in fight.attackers if s.piece(a).loc is Loc.MAP and not s.piece(a).disrupted
    )


def advance_choices(b: Board, s: ShumshuState, fight: Fight, unit: str) -> list[Hex]:
    """The defender's hex if free of enemies, or an empty hex adjacent to it (or to the
    victor) (SHU-COMBAT.13, AMB-SHU-26 i)."""
    here = s.piece(unit).hex
    assert here is not None
    enemy = other(b.side_of[unit])
    target_free = holder(b, s, fight.hex) != enemy
    out = set()
    if target_free:
        out.add(fight.hex)  # SHU-COMBAT.13: into the defender's hex
    if s.variant.is_("advance_hex", "next_to_defender"):
        for n in b.neighbors(fight.hex):
            if not pieces_in(s, n) and (target_free or n in b.neighbors(here)):
                out.add(n)  # SHU-COMBAT.13: or an empty hex next to it
    else:
        out.update(n for n in b.neighbors(here) if not pieces_in(s, n))
    out.discard(here)
    return sorted(out)
