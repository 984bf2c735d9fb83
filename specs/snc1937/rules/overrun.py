"""Japanese overrun geometry, cost and sequencing (SNC-9.6.x); the battle's arithmetic is in
`odds.py` (the extra 1L of SNC-9.6.5 included).

During a move a Japanese group (units that started in one hex and moved together, SNC-9.6.2)
may spend MP to attempt an overrun of an adjacent hex held by Chinese units that is neither a
city nor a town (SNC-9.6.1), and then stops to fight it (SNC-9.6.3). The readings the kernel
needs here:

- `overrun_cost` (AMB-SNC-25): the cost of entering the target plus 1 (the example pays 3 MP
  for a marsh hex), or 1 MP alone. An overrun is launched from the adjacent hex the group stands
  in (AMB-SNC-25 location (i)); when the defenders are eliminated the group stands in the
  overrun hex with the MP left after paying the overrun (the example: "the 11th advances into
  the hex"), so the cost covers the move into it.
- `overrun_from_ezoc` (AMB-SNC-25): whether the group may launch it from a hex in a Chinese ZOC
  (the example does, from 2806 next to 2707).
- `repeated_overruns` (AMB-SNC-26): whether a hex may be overrun more than once a phase.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import Hex, hex_adjacent, hex_name
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.movement import cost_between, group_problem, reachable
from specs.snc1937.rules.zoc import hexes_of_side, zoc_hexes

OVERRUN_EXTRA = Fraction(1)  # SNC-9.6.1: "one additional MP"


def overrun_cost(
    board: Board,
    data: SNCData,
    variant: Variant,
    origin: Hex,
    target: Hex,
    *,
    repeat: bool = False,
) -> Fraction | None:
    """The MP a Japanese group in `origin` pays to attempt an overrun of `target`, or None when
    no unit may cross into it at all (SNC-9.4.6). A renewed attempt against the same hex from
    the same origin (`repeat`) follows `overrun_repeat_cost` (found here): `one_mp`, "pay 1 more
    MP" (SNC-9.6.8) whatever `overrun_cost` says; `full_cost`, the cost of a first attempt."""
    entry = cost_between(board, data, variant, "JP", origin, target)
    if entry is None:
        return None
    if repeat and variant.is_("overrun_repeat_cost", "one_mp"):
        return OVERRUN_EXTRA  # SNC-9.6.8
    if variant.is_("overrun_cost", "one_mp"):
        return OVERRUN_EXTRA  # SNC-9.6.8; AMB-SNC-25 reading (b)
    return entry + OVERRUN_EXTRA  # SNC-9.6.1, AMB-SNC-25 reading (a), SNC-9.6.9's 3 MP


def overrun_problem(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    group: Collection[str],
    origin: Hex,
    target: Hex,
    mp_left: Fraction,
    *,
    repeat: bool = False,
    overrun_this_phase: Collection[Hex] = frozenset(),
) -> str | None:
    """Why the group `group`, standing in `origin` with `mp_left` MP after moving there
    together, may not attempt an overrun of `target`; None when it may.

    `repeat`: a renewed attempt against the hex it just failed to clear (SNC-9.6.8).
    `overrun_this_phase`: hexes already overrun this phase (for `repeated_overruns`)."""
    problem = group_problem(data, variant, stacks, group, origin, together=True)
    if problem is not None:
        return problem
    if any(data.unit(u).side != "JP" for u in group):
        return "only the Japanese overrun (SNC-9.6.1)"
    if any(data.unit(u).is_static for u in group):
        return "static units never move, so never overrun (SNC-9.1.1)"
    if not hex_adjacent(origin, target):
        return f"{hex_name(target)} is not next to {hex_name(origin)} (SNC-9.6.1)"
    if board.is_city(target) or board.is_town(target):
        return f"{hex_name(target)} is a city or town hex: no overrun there (SNC-9.6.1)"
    if not any(data.unit(u).side == "CH" for u in stacks.get(target, ())):
        return f"{hex_name(target)} holds no Chinese units to overrun (SNC-9.6.1)"
    cost = overrun_cost(board, data, variant, origin, target, repeat=repeat)
    if cost is None:
        return f"no unit crosses into {hex_name(target)} from {hex_name(origin)} (SNC-9.4.6)"
    if mp_left < cost:
        return f"the overrun costs {cost} MP, the group has {mp_left} (SNC-9.6.1, SNC-9.0.11)"
    if variant.is_("overrun_from_ezoc", "forbidden") and origin in zoc_hexes(
        board, data, variant, stacks, "CH"
    ):
        return f"{hex_name(origin)} is in a Chinese ZOC (AMB-SNC-25 overrun_from_ezoc forbidden)"
    if (
        not repeat
        and variant.is_("repeated_overruns", "once_per_hex")
        and target in overrun_this_phase
    ):
        return f"{hex_name(target)} was already overrun this phase (AMB-SNC-26 once_per_hex)"
    return None


def check_overrun(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    group: Collection[str],
    origin: Hex,
    target: Hex,
    mp_left: Fraction,
    *,
    repeat: bool = False,
    overrun_this_phase: Collection[Hex] = frozenset(),
) -> Fraction:
    """The MP left after paying for the overrun; IllegalAction when it may not be attempted."""
    problem = overrun_problem(
        board,
        data,
        variant,
        stacks,
        group,
        origin,
        target,
        mp_left,
        repeat=repeat,
        overrun_this_phase=overrun_this_phase,
    )
    if problem is not None:
        raise IllegalAction(problem, clauses=("SNC-9.6.1", "SNC-9.6.2"))
    cost = overrun_cost(board, data, variant, origin, target, repeat=repeat)
    assert cost is not None  # checked by overrun_problem
    return mp_left - cost


def overrun_targets(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    group: Collection[str],
    origin: Hex,
    mp_left: Fraction,
    *,
    overrun_this_phase: Collection[Hex] = frozenset(),
) -> tuple[Hex, ...]:
    """The hexes the group in `origin` may attempt a (first) overrun of, in board order."""
    return tuple(
        t
        for t in board.neighbors(origin)
        if overrun_problem(
            board,
            data,
            variant,
            stacks,
            group,
            origin,
            t,
            mp_left,
            overrun_this_phase=overrun_this_phase,
        )
        is None
    )


def overrun_options(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    group: Collection[str],
    start: Hex,
    *,
    mp: Fraction | None = None,
    overrun_this_phase: Collection[Hex] = frozenset(),
) -> dict[tuple[Hex, Hex], Fraction]:
    """Every (origin, target) overrun the group starting in `start` can make in this move, with
    the MP it would have left: it moves together to `origin` (SNC-9.6.2, every rule of
    `reachable`), then attempts the overrun of the adjacent `target` (SNC-9.6.1)."""
    out: dict[tuple[Hex, Hex], Fraction] = {}
    ends = reachable(board, data, variant, stacks, group, start, mp=mp, together=True)
    for origin, left in ends.items():
        moved = dict(stacks)
        if origin != start:
            rest = tuple(u for u in stacks[start] if u not in group)
            if rest:
                moved[start] = rest
            else:
                del moved[start]
            moved[origin] = (*stacks.get(origin, ()), *group)
        for target in overrun_targets(
            board,
            data,
            variant,
            moved,
            group,
            origin,
            left,
            overrun_this_phase=overrun_this_phase,
        ):
            cost = overrun_cost(board, data, variant, origin, target)
            assert cost is not None  # checked by overrun_targets
            out[origin, target] = left - cost
    return out


@attrs.frozen
class AfterOverrun:
    """What the overrunning group may do once the battle is resolved (SNC-9.6.6 to SNC-9.6.8).

    `at`: where the group stands; `mp_left`: its MP; `may_move_on`: it may continue moving
    (SNC-9.6.6); `may_overrun_again`: it may attempt another overrun, from `at` (SNC-9.6.7,
    SNC-9.6.8); `repeat`: that attempt is a renewed one against the same hex (SNC-9.6.8).
    Otherwise the group's move is over."""

    at: Hex
    mp_left: Fraction
    may_move_on: bool
    may_overrun_again: bool
    repeat: bool


def after_overrun(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks_after: Mapping[Hex, tuple[str, ...]],
    origin: Hex,
    target: Hex,
    mp_left: Fraction,
) -> AfterOverrun:
    """The sequel of an overrun, given the position after losses (`stacks_after`, the group
    still in `origin`) and the MP left after paying for it.

    - Defenders eliminated (whatever the Japanese losses): the group stands in the overrun hex;
      it may move on if it has MP and the hex is not in a Chinese ZOC (SNC-9.6.6); if the hex is
      in a Chinese ZOC it may attempt another overrun (SNC-9.6.7).
    - Chinese units remain: the group stays in `origin` and may pay another MP to try again, or
      stop there (SNC-9.6.8), if it has the MP a renewed attempt costs
      (`overrun_repeat_cost`)."""
    chinese = hexes_of_side(data, stacks_after, "CH")
    if target in chinese:
        again = overrun_cost(board, data, variant, origin, target, repeat=True)
        return AfterOverrun(origin, mp_left, False, again is not None and mp_left >= again, True)
    # the group now occupies the overrun hex, which matters on the coast (SNC-7.1.5)
    zoc = zoc_hexes(board, data, variant, stacks_after, "CH", also_japanese=(target,))
    in_zoc = target in zoc
    return AfterOverrun(target, mp_left, mp_left > 0 and not in_zoc, in_zoc, False)
