"""Lines of communication and where Chinese reinforcements may appear (SNC-8.2.x, SNC-8.3.5,
SNC-8.3.8, SNC-9.5.2.x, SNC-0.0.2).

There are no supply rules (SNC-1.3.1); a LoC matters only where a rule asks for one:

- the Chinese rail LoC of SNC-8.2.4/SNC-8.2.5: along the rail net from the placement hex to a
  railroad hex on the west or south map edge, through hexes free of Japanese units and Japanese
  ZOC, never through 3513 (SNC-0.0.2);
- Chinese railroad movement of arriving reinforcements (SNC-9.5.2.x): from Nanking or Hangzhou
  along railroad hexes, never entering a Japanese unit or an EZOC. Whether it and SNC-8.2(b) are
  one mechanism or two is `chinese_rail` (AMB-SNC-21);
- the Japanese LoC of SNC-8.3.5 to a landing hex, which the text never defines (AMB-SNC-19,
  `japanese_loc`), and the SNLF's LoC to Wusong or a Yangtze hex (SNC-8.3.8).

Places are found by their names in the map data, not by hex numbers.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from fractions import Fraction

from kernel.errors import InvalidInput
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.movement import reachable, side_steps
from specs.snc1937.rules.zoc import hexes_of_side, zoc_hexes

RAIL_FROM_GT = 3  # SNC-8.2.4, SNC-9.5.2.1
RIVER_WATER = frozenset({"yangtze", "estuary"})  # the Yangtze and its estuary (SNC-9.3.1)


def place(board: Board, name: str) -> Hex:
    """The hex of the city, town or landing site called `name` on the map."""
    for table in (board.map.cities, board.map.towns, board.map.landings):
        for h, record in table.items():
            if record.name == name:
                return h
    raise InvalidInput(f"no place called {name!r} on the map", field="map")


def adjacent_to_japanese(
    board: Board, data: SNCData, stacks: Mapping[Hex, tuple[str, ...]]
) -> frozenset[Hex]:
    """Every hex next to a hex with Japanese units, whatever the hexside between (SNC-8.2.1)."""
    return frozenset(n for h in hexes_of_side(data, stacks, "JP") for n in board.neighbors(h))


# --- Chinese reinforcements (SNC-8.2) -------------------------------------------------------------


def reinforcement_hexes(
    board: Board, data: SNCData, stacks: Mapping[Hex, tuple[str, ...]], listed: Iterable[Hex]
) -> frozenset[Hex]:
    """The listed set-up hexes (method (a), SNC-8.2.2) a Chinese reinforcement may be placed in:
    enterable, free of Japanese units and not next to one (SNC-8.2.1, SNC-0.0.1)."""
    near = adjacent_to_japanese(board, data, stacks)
    japanese = hexes_of_side(data, stacks, "JP")
    return frozenset(  # SNC-8.2.2: the listed hexes; SNC-8.2.1: none in or next to a Japanese
        h for h in listed if board.enterable(h) and h not in japanese and h not in near
    )


def elite_return_hexes(
    board: Board, data: SNCData, stacks: Mapping[Hex, tuple[str, ...]]
) -> tuple[Hex, ...]:
    """Where a returning Chinese elite unit may be placed: Nanking or a hex next to it
    (SNC-8.1.4), Nanking first then the neighbours in board order; enterable, free of Japanese
    units and not next to one (SNC-8.2.1, SNC-0.0.1)."""
    nanking = place(board, "Nanking")
    ok = reinforcement_hexes(board, data, stacks, (nanking, *board.neighbors(nanking)))
    return tuple(h for h in (nanking, *board.neighbors(nanking)) if h in ok)


def reinforcement_moves(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
) -> dict[Hex, Fraction]:
    """Where method-(a) reinforcements placed in `start` may move in the Reinforcement Phase
    (SNC-8.2.2): a normal move (SNC-9.x, SNC-7.2.x) that never enters a hex next to a Japanese
    unit (SNC-8.2.3). Units placed by rail (method (b)) do not move (SNC-8.2.6)."""
    near = adjacent_to_japanese(board, data, stacks)
    return reachable(board, data, variant, stacks, units, start, forbid=near)


def _edge_rail(board: Board) -> frozenset[Hex]:
    return frozenset(h for h in board.rail_hexes if board.on_west_edge(h) or board.on_south_edge(h))


def chinese_loc_hexes(
    board: Board, data: SNCData, variant: Variant, stacks: Mapping[Hex, tuple[str, ...]]
) -> frozenset[Hex]:
    """Every railroad hex with a Chinese LoC along the rail net to a west- or south-edge railroad
    hex, through hexes (the first and the last included) free of Japanese units and Japanese ZOC
    (SNC-8.2.4, SNC-8.2.5) and never through 3513 (SNC-0.0.2). Chinese units in those hexes do
    not negate the Japanese ZOC (SNC-7.2.2)."""
    blocked = (
        hexes_of_side(data, stacks, "JP")
        | zoc_hexes(board, data, variant, stacks, "JP")
        | {h for h in board.rail_hexes if not board.enterable(h)}  # SNC-0.0.2: never via 3513
    )  # SNC-8.2.5: free of Japanese units and Japanese ZOC
    out: set[Hex] = set()
    for edge in _edge_rail(board):
        if edge not in out:
            out |= board.rail_reach(edge, frozenset(blocked))
    return frozenset(out)


def rail_move_hexes(
    board: Board, data: SNCData, variant: Variant, stacks: Mapping[Hex, tuple[str, ...]]
) -> frozenset[Hex]:
    """Every railroad hex an arriving Chinese reinforcement can reach by railroad movement
    (SNC-9.5.2.1, SNC-9.5.2.2): from Nanking or Hangzhou along railroad hexes, never entering a
    hex with a Japanese unit or a Japanese ZOC (SNC-9.5.2.3). A Japanese unit in the start hex
    always blocks it. `rail_start_in_ezoc` (found here): `blocked`, the start hex counts as
    entered, so a Japanese ZOC there blocks it too; `allowed`, the unit sets out from an EZOC
    as it may leave one (SNC-7.2.3), and only the hexes it enters must be clear."""
    japanese = hexes_of_side(data, stacks, "JP")
    blocked = frozenset(japanese | zoc_hexes(board, data, variant, stacks, "JP"))  # SNC-9.5.2.3
    out: set[Hex] = set()
    for name in ("Nanking", "Hangzhou"):  # SNC-9.5.2.2
        start = place(board, name)
        avoid = blocked
        if variant.is_("rail_start_in_ezoc", "allowed") and start not in japanese:
            avoid = blocked - {start}
        out |= board.rail_reach(start, avoid)
    return frozenset(out)


def rail_reinforcement_hexes(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    gt: int,
) -> frozenset[Hex]:
    """Where a Chinese reinforcement may appear by rail on GT `gt` (none before GT 3:
    SNC-8.2.4, SNC-9.5.2.1), never next to a Japanese unit (SNC-8.2.1).

    `chinese_rail` (AMB-SNC-21): one_mechanism, SNC-8.2(b) and SNC-9.5.2 describe one
    placement, so the hex needs both the edge LoC and a clear rail route from Nanking or
    Hangzhou; two_mechanisms, either one will do."""
    if gt < RAIL_FROM_GT:
        return frozenset()
    loc = chinese_loc_hexes(board, data, variant, stacks)  # SNC-8.2.4: from GT 3, a rail LoC
    # SNC-9.5.2, SNC-9.5.2.1: or a railroad move from Nanking or Hangzhou
    moved = rail_move_hexes(board, data, variant, stacks)
    found = loc & moved if variant.is_("chinese_rail", "one_mechanism") else loc | moved
    return found - adjacent_to_japanese(board, data, stacks)  # SNC-8.2.1


# --- the Japanese LoC (SNC-8.3.5, SNC-8.3.8) --------------------------------------------------


@identity_memo  # every Japanese LoC search of an SNLF unit asks it: made once per variant
def snlf_loc_targets(board: Board, variant: Variant) -> frozenset[Hex]:
    """Where an SNLF LoC may end: Wusong or "another Yangtze River hex" (SNC-8.3.8; AMB-SNC-19
    kernel note). `snlf_loc_target` (found here): `yangtze_bank`, every enterable land hex next
    to a Yangtze or estuary hex; `yangtze_landings`, only the amphibious landing hexes among
    them (the ends of the other LoCs, SNC-8.3.5)."""
    landings_only = variant.is_("snlf_loc_target", "yangtze_landings")
    bank = {
        h
        for h in board.map.hexes
        if board.enterable(h)
        and (not landings_only or board.is_landing(h))
        and any(board.terrain(n) in RIVER_WATER for n in board.neighbors(h))
    }
    return frozenset(bank | {place(board, "Wusong")})


def japanese_loc_hexes(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    *,
    snlf: bool = False,
) -> frozenset[Hex]:
    """Every hex from which a Japanese unit has a LoC (SNC-8.3.5): a chain of hexes a unit could
    move through (no water, no 3513, no prohibited hexside: SNC-9.4.6, SNC-0.0.2) ending in an
    amphibious landing hex, or for an SNLF unit in Wusong or another Yangtze hex (SNC-8.3.8).

    `japanese_loc` (AMB-SNC-19): blocked_by_units_and_zoc, no hex of the chain after the unit's
    own may hold Chinese units or Chinese ZOC (friendly units do not negate it, SNC-7.2.2; the
    unit itself may stand in an EZOC, SNC-8.3.6); blocked_by_units, only Chinese units block."""
    steps, _ = side_steps(board, data, variant, "JP")  # SNC-0.0.2: no step enters 3513
    blocked = set(hexes_of_side(data, stacks, "CH"))
    if variant.is_("japanese_loc", "blocked_by_units_and_zoc"):
        blocked |= zoc_hexes(board, data, variant, stacks, "CH")
    targets = snlf_loc_targets(board, variant) if snlf else frozenset(board.map.landings)
    seen = {t for t in targets if t not in blocked and board.enterable(t)}
    todo = deque(seen)
    while todo:  # backwards from the targets; adjacency and prohibitions are symmetric
        h = todo.popleft()
        for n, _ticks in steps.get(h, ()):
            if n not in seen and n not in blocked:
                seen.add(n)
                todo.append(n)
    out = set(seen)
    # the unit's own hex may be in an EZOC (SNC-8.3.6): it needs only a clear neighbour
    for h in blocked:
        if board.enterable(h) and (h in targets or any(n in seen for n, _ in steps.get(h, ()))):
            out.add(h)
    return frozenset(out)


def has_japanese_loc(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    unit: str,
    at: Hex,
) -> bool:
    """Whether the Japanese unit `unit` in `at` may receive a replacement step as far as the LoC
    goes (SNC-8.3.5; SNLF units, type naval infantry: SNC-8.3.8)."""
    snlf = data.unit(unit).type == "naval_infantry"
    return at in japanese_loc_hexes(board, data, variant, stacks, snlf=snlf)


def japanese_loc_units(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Iterable[str],
) -> frozenset[str]:
    """Those of the Japanese `units` on the map with a LoC (`has_japanese_loc`: SNC-8.3.5,
    SNC-8.3.8), each LoC net found once."""
    where = {u: h for h, ids in stacks.items() for u in ids}

    def net(snlf: bool) -> frozenset[Hex]:
        return japanese_loc_hexes(board, data, variant, stacks, snlf=snlf)

    return units_in_nets(data, where, units, net)


def units_in_nets(
    data: SNCData,
    where: Mapping[str, Hex],
    units: Iterable[str],
    net: Callable[[bool], frozenset[Hex]],
) -> frozenset[str]:
    """Those of `units` on the map (`where`) standing in their kind's LoC net: `net(True)` for
    an SNLF unit (SNC-8.3.8), `net(False)` for the others (SNC-8.3.5), each asked once."""
    nets: dict[bool, frozenset[Hex]] = {}
    out = set()
    for u in units:
        h = where.get(u)
        if h is None:
            continue
        snlf = data.unit(u).type == "naval_infantry"
        if snlf not in nets:
            nets[snlf] = net(snlf)
        if h in nets[snlf]:
            out.add(u)
    return frozenset(out)
