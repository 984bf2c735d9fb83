"""Fast membership in a Move phase's listing, and attack contacts read from the stacks (issue 34).

`apply` checks an action other than a move against the listing (SNC-5.0.3; the Move phase's
moves, overruns, group joins, top units and `Done`, SNC-9.0.x, SNC-9.6.x, SNC-6.3.1): a
`MoveList` answers `x in listing` from its groups and tail without building every move. The
attacks a side may still declare and the units that may join one (SNC-10.0.1, SNC-10.0.5 to
SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.9) are read from the stacks by `contacts_by_target` rather
than through the solvers' named problem. On positions from seeded playouts of both presets each
must answer as the plain reading does: the membership as a scan of the listed actions, the
contacts as `combat_problem`'s; and a sabotaged copy of each must be told apart.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import combat_choices, combat_query
from specs.snc1937.rules.actions import Done, Join, Move, Overrun, Strike, Top
from specs.snc1937.rules.movement_steps import MoveList
from specs.snc1937.rules.state import CH, JP, Phase, SNCState
from specs.snc1937.rules.tables import stacks

GAME = SNC()
T = GAME.tables
STEPS = 2500  # steps of each seeded playout searched (a count, not a time)
SEEDS = (0, 3)
KEEP = 60  # positions kept per preset, evenly spaced over the playouts


def _playout(preset: str, seed: int) -> Iterator[SNCState]:
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = GAME.to_move(s)
        if side is None:
            return
        if side == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            yield s
            action = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, action)


def _positions(keep: Callable[[SNCState], bool]) -> list[SNCState]:
    out: list[SNCState] = []
    for preset in sorted(CATALOGUE.presets):
        found = [s for seed in SEEDS for s in _playout(preset, seed) if keep(s)]
        out.extend(found[:: max(1, len(found) // KEEP)])
    return out


def _lists_moves(s: SNCState) -> bool:
    return isinstance(GAME.legal_actions(s), MoveList)


MOVE_POSITIONS = _positions(_lists_moves)


def _probes(s: SNCState, listing: MoveList, rng: random.Random) -> list[Any]:
    """Listed actions and near misses of them: the move to a neighbouring hex, its units
    reversed, as a list, one unit of a group alone; every action of the tail's kinds for the
    units and hexes at hand; and objects of no action kind."""
    listed = list(listing)
    out: list[Any] = rng.sample(listed, min(8, len(listed)))
    for a in list(out):
        if isinstance(a, Move):
            out.extend(Move(a.units, n) for n in T.board.neighbors(a.to))
            out.extend([Move(a.units[::-1], a.to), Move(a.units[:1], a.to)])
            out.append(Move(list(a.units), a.to))  # type: ignore[arg-type]
            out.extend([Join(a.units[0]), Top(a.units[0]), Overrun(a.to)])
    out.extend([Done(), Strike(), None, "Done", (("u",), a_hex(s))])
    return out


def a_hex(s: SNCState) -> Hex:
    return s.where[0][1]


def _membership_differences(make: Callable[[MoveList], MoveList]) -> list[str]:
    """Each probe's membership by `make(listing)`'s test against a scan of what it lists."""
    rng = random.Random(5)
    out = []
    for s in MOVE_POSITIONS:
        listing = GAME.legal_actions(s)
        assert isinstance(listing, MoveList)
        listed = list(listing)
        fast = make(listing)
        for x in _probes(s, listing, rng):
            if (x in fast) != any(x == a for a in listed):
                out.append(f"{s.turn} {s.phase} {x!r}")
    return out


def test_move_positions_are_many_and_varied() -> None:
    """The positions are both sides', with stacks moving together and tails holding overruns,
    group joins and top units (the test is not vacuous)."""
    listings = [GAME.legal_actions(s) for s in MOVE_POSITIONS]
    assert len(MOVE_POSITIONS) >= 60
    assert {s.side for s in MOVE_POSITIONS} == {CH, JP}
    assert any(len(g) > 1 for m in listings if isinstance(m, MoveList) for g, _ in m.groups)
    tails = {type(a) for m in listings if isinstance(m, MoveList) for a in m.tail}
    assert {Overrun, Join, Top, Done} <= tails


def test_move_list_membership_is_the_plain_scan() -> None:
    """SNC-5.0.3: an action is in a Move phase's listing exactly when a scan finds it there."""
    assert _membership_differences(lambda m: m) == []


class _NoTail(MoveList):
    """Sabotage: looks for every action among the groups' moves only."""

    def __contains__(self, x: object) -> bool:
        return isinstance(x, Move) and any(g == x.units and x.to in d for g, d in self.groups)


def _rebuilt(kind: type[MoveList]) -> Callable[[MoveList], MoveList]:
    return lambda m: kind(m.groups, m.tail)


@pytest.mark.parametrize("kind", [_NoTail, MoveList])
def test_a_sabotaged_membership_is_caught(kind: type[MoveList]) -> None:
    """A membership that forgets the tail (`Done`, joins, top units, overruns) is told apart;
    the real one rebuilt the same way is not."""
    assert bool(_membership_differences(_rebuilt(kind))) == (kind is _NoTail)


# --- attack contacts ------------------------------------------------------------------------


def _plain_contacts(
    data: Any,
    board: Any,
    st: Mapping[Hex, tuple[str, ...]],
    side: str,
    *,
    variant: Any = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
    only: Hex | None = None,
) -> dict[Hex, tuple[str, ...]]:
    """The reference: the contacts of `combat_query.combat_problem`, grouped by target."""
    problem = combat_query.combat_problem(
        data, board, st, side, attacked=attacked, defended=defended, only=only, variant=variant
    )
    out: dict[Hex, list[str]] = {}
    for c in problem.contacts:
        out.setdefault(parse_hex(c.target), []).append(c.attacker)
    return {t: tuple(out[t]) for t in sorted(out)}


def _in_fight(s: SNCState) -> bool:
    fighting = s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() == "fight"
    return fighting or s.combat is not None


FIGHT_POSITIONS = _positions(_in_fight)


def _contact_differences(fast: Callable[..., dict[Hex, tuple[str, ...]]]) -> list[str]:
    """Both sides' contacts in every fight position, with and without the units that attacked
    and the hexes attacked, for every target and each target alone, under the position's
    variant and the standard preset."""
    out = []
    for s in FIGHT_POSITIONS:
        st = stacks(s.where)
        hit = combat_choices._defended(s)
        for side in (CH, JP):
            for attacked, defended in ((s.done, hit), (frozenset(), frozenset())):
                kw: dict[str, Any] = {"attacked": attacked, "defended": defended}
                for variant in (s.variant, None):
                    whole = _plain_contacts(T.data, T.board, st, side, variant=variant, **kw)
                    onlys: list[Hex | None] = [None, *whole]
                    for only in onlys:
                        args = (T.data, T.board, st, side)
                        want = _plain_contacts(*args, variant=variant, only=only, **kw)
                        got = fast(*args, variant=variant, only=only, **kw)
                        if got != want or list(got) != list(want):
                            out.append(f"{s.turn} {s.phase} {side} {only}")
    return out


def test_fight_positions_hold_attacks_made() -> None:
    """Positions where units have attacked and hexes were attacked (the test is not vacuous)."""
    assert len(FIGHT_POSITIONS) >= 60
    assert any(s.done and combat_choices._defended(s) for s in FIGHT_POSITIONS)


def test_contacts_are_the_problems() -> None:
    """SNC-10.0.1, SNC-10.0.5 to SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.9: the same targets, in
    hex order, each with the same attackers in the same order as `combat_problem`'s."""
    assert _contact_differences(combat_query.contacts_by_target) == []


def _forgets_attacked(*args: Any, **kw: Any) -> dict[Hex, tuple[str, ...]]:
    return combat_query.contacts_by_target(*args, **{**kw, "attacked": frozenset()})


def _reorders(*args: Any, **kw: Any) -> dict[Hex, tuple[str, ...]]:
    got = combat_query.contacts_by_target(*args, **kw)
    return {t: tuple(sorted(us)) for t, us in got.items()}


@pytest.mark.parametrize("sabotage", [_forgets_attacked, _reorders])
def test_sabotaged_contacts_are_caught(sabotage: Callable[..., Any]) -> None:
    """Contacts that let a unit attack twice (SNC-10.0.6), or list attackers out of the
    problem's order, are told apart."""
    assert _contact_differences(sabotage)


def test_move_list_slices_are_the_plain_list_slices() -> None:
    """A slice of a Move phase's listing (a codec reads its tail as `listing[moves:]`) holds the
    same actions, in the same order, as the slice of the plain list; a move under way is a
    listing of one group (SNC-9.0.10)."""
    rng = random.Random(7)
    under_way = 0
    for s in MOVE_POSITIONS:
        listing = GAME.legal_actions(s)
        if not isinstance(listing, MoveList):
            continue
        under_way += bool(s.moving)
        plain = list(listing)
        cuts = {listing.moves, 0, len(plain)} | {rng.randrange(len(plain) + 1) for _ in range(4)}
        for start in cuts:
            assert list(listing[start:]) == plain[start:]
            assert list(listing[start : start + 2]) == plain[start : start + 2]
        assert list(listing[::2]) == plain[::2]
    assert under_way > 0
