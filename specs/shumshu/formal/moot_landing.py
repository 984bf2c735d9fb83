"""worst_roll_opposed (found here; SHU-LAND.3, SHU-LAND.7) cannot differ under draft, proved
over the game's data (offered with the other proofs by `formal.moot_readings`).

The option is read in one place, `combat_decisions.landing_roll`, and only on a lander's
worst roll against defenders: the lander is lost either way, and the table's result is
applied too, or not. A lander is one unit (SHU-LAND.2), and a defender result on the row
the worst roll reads needs odds the landers cannot reach against Japanese units; the one
shift a landing may gain under draft, against defenders all disrupted (SHU-DISRUPT.2), comes
only from an earlier lander of the same landing (a Japanese unit disrupted in an earlier
player-turn has recovered by the next Russian one, SHU-DISRUPT.3), and that lander's D
leaves nothing for another D to change.

The proof asks `landing_roll` under both variants, on the worst faces, for every kind of
lander (units alike in type and factors roll alike), every kind of hex a landing may be made
on (alike in terrain and in the Kamchatka artillery's range), every stack of up to four
Japanese units with each of its choices of defenders and each set of them disrupted by an
earlier lander (the rules' own `disrupt`), and compares the positions. Five or more
Japanese units are four defenders at best: the column is then highest with the four weakest
defending, all disrupted, and the proof checks that even there the worst roll reads no
defender result. A single difference fails the proof (None): with Kamchatka's column shift
and its artillery's (kamchatka_shift=column, kamchatka_artillery=with_column) a strong
lander's worst roll against a lone undisrupted tank reads a D.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.shumshu.rules import crt
from specs.shumshu.rules.combat import defender_choices
from specs.shumshu.rules.combat_decisions import landing_roll
from specs.shumshu.rules.effects import disrupt
from specs.shumshu.rules.odds import outcome, worst_roll
from specs.shumshu.rules.state import JP, RU, Fight, Loc, Piece, Sail, ShumshuState, Stage
from specs.shumshu.rules.units import evolve_pieces

MOST_DEFENDING = 4  # SHU-STACK.3: at most 4 Japanese units defend a hex


def _kinds(units: list[Any]) -> dict[tuple[str, int, int], list[str]]:
    """Unit ids by kind (type, attack, defence), in data order."""
    out: dict[tuple[str, int, int], list[str]] = {}
    for u in units:
        out.setdefault((u.type, u.attack, u.defence), []).append(u.id)
    return out


def _hex_kinds(b: Any) -> list[Hex]:
    """One hex a landing may be made on for each terrain and Kamchatka range (SHU-LAND.1,
    SHU-LAND.5, SHU-LAND.6)."""
    kinds: dict[tuple[str, bool], Hex] = {}
    for h in sorted(b.hexes):
        if b.is_coastal(h) and not b.in_red(h):
            kinds.setdefault((b.terrain(h), b.in_black(h)), h)
    return list(kinds.values())


def _stacks(jp: dict[tuple[str, int, int], list[str]]) -> Iterator[tuple[str, ...]]:
    """Every stack of one to four Japanese units, one per mix of kinds."""
    pools = list(jp.values())
    for counts in itertools.product(*(range(len(p) + 1) for p in pools)):
        if 1 <= sum(counts) <= MOST_DEFENDING:
            yield tuple(u for p, n in zip(pools, counts, strict=True) for u in p[:n])


def _landing(game: Any, v: Variant, lander: str, h: Hex, stack: tuple[str, ...]) -> ShumshuState:
    """A Russian landing at `h` with `lander` about to roll against `stack`."""
    s = game.initial_state(v)
    s = evolve_pieces(s, {u: Piece(u, Loc.MAP, h) for u in stack})
    fight = Fight(h, (lander,), landing=True)
    return attrs.evolve(
        s, side=RU, stage=Stage.ROLL, sail=Sail(h, (lander,), sailed=True), fight=fight
    )


def _same_rolls(game: Any, va: Variant, vb: Variant, s: ShumshuState, fight: Fight) -> int | None:
    """The worst faces compared (None at the first difference)."""
    b = game.board
    sa, sb = attrs.evolve(s, variant=va, fight=fight), attrs.evolve(s, variant=vb, fight=fight)
    n = 0
    for face in range(1, 7):
        if not worst_roll(b, sa, fight, face):
            continue  # SHU-LAND.3: the option is read on the worst roll only
        ra, rb = landing_roll(b, sa, fight, face), landing_roll(b, sb, fight, face)
        if attrs.evolve(ra, variant=vb) != rb:
            return None
        n += 1
    return n


def worst_roll_opposed(game: Any, va: Variant, vb: Variant) -> str | None:
    """worst_roll_opposed (found here): every lander's worst roll against every stack leaves
    the same position under both variants (SHU-LAND.3, SHU-LAND.7, SHU-STACK.3,
    SHU-DISRUPT.2), or None."""
    b = game.board
    ru = [u for u in game.data.units if u.side == RU and not u.is_regiment]
    jp = _kinds([u for u in game.data.units if u.side == JP and not u.is_decoy])
    landers = [ids[0] for ids in _kinds(ru).values()]
    n = 0
    for lander, h in itertools.product(landers, _hex_kinds(b)):
        for stack in _stacks(jp):
            s = _landing(game, va, lander, h, stack)
            for chosen in defender_choices(b, s, h):
                for k in range(len(chosen) + 1):
                    for hit in itertools.combinations(chosen, k):
                        d = disrupt(b, s, hit)  # an earlier lander's D (SHU-CRT.6)
                        fight = Fight(h, (lander,), landing=True, defenders=chosen)
                        found = _same_rolls(game, va, vb, d, fight)
                        if found is None:
                            return None
                        n += found
        if not _four_weakest_fall_short(game, va, lander, h, jp):
            return None
    return (
        "proved by the game over its data: worst_roll_opposed is read only on a lander's "
        "worst roll against defenders; all "
        f"{n} worst rolls (each kind of lander, each kind of landing hex, every stack of up "
        "to four Japanese units with each choice of defenders and each set of them disrupted "
        "by an earlier lander) leave the same position under both readings, and against five "
        "or more the four weakest defending, all disrupted, still read no defender result "
        "(SHU-LAND.3, SHU-LAND.7, SHU-STACK.3, SHU-DISRUPT.2, SHU-CRT.1)"
    )


def _four_weakest_fall_short(
    game: Any, v: Variant, lander: str, h: Hex, jp: dict[tuple[str, int, int], list[str]]
) -> bool:
    """Against five or more Japanese units, four defend (SHU-STACK.3); with the four weakest
    defending, all disrupted, the worst roll reads no defender result."""
    b = game.board
    every = sorted((u for ids in jp.values() for u in ids), key=lambda u: b.unit(u).defence)
    if len(every) <= MOST_DEFENDING:
        return True
    weakest = tuple(every[:MOST_DEFENDING])
    s = disrupt(b, _landing(game, v, lander, h, tuple(every)), weakest)
    fight = Fight(h, (lander,), landing=True, defenders=weakest)
    return all(
        outcome(b, s, fight, face).result not in crt.DEFENDER_RESULTS
        for face in range(1, 7)
        if worst_roll(b, s, fight, face)
    )
