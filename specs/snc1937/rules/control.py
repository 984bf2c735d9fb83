"""Hex control (SNC-3.2.x): which side owns each hex, kept as the set of Japanese-controlled
hexes; every other hex is Chinese (SNC-3.2.1).

Control starts with the hexes the Japanese occupy at set-up (3512 and 3611, SNC-3.2.1) and
passes to a side the moment a ground unit of that side enters a hex, as often as it happens
(SNC-3.2.2). What counts as entering is open (AMB-SNC-16): `control_entry` says whether
placements and retreats count as well as movement and advance, `control_transit` (found here)
whether a moving unit takes every hex it passes or only the one where it stops. A ZOC never
changes control (SNC-3.2.3): nothing here looks at ZOCs. 3513, which no unit enters
(SNC-0.0.1), is never in the set; its control for victory is derived (SNC-4.3.2).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board

ARRIVALS = ("move", "advance", "retreat", "placement")
"""How units come to be in a hex. "move" is movement, overruns included (a successful overrun
moves into the hex, AMB-SNC-29 (iii)); "advance" is advance after combat, a landing's advance
into the landing hex included (SNC-8.4.0.8, SNC-8.4.0.9); "retreat" a landing's retreat
(SNC-8.4.0.9); "placement" reinforcements, returning elites, garrisons and unopposed landings
(SNC-8.4.0.11)."""

_ENTERING = {"any_arrival": frozenset(ARRIVALS), "movement_and_advance": frozenset(ARRIVALS[:2])}


def initial_control(data: SNCData) -> frozenset[Hex]:
    """The hexes the Japanese occupy at set-up, and only those (SNC-3.2.1): 3512 and 3611."""
    return frozenset(h for line in data.setup.at_start if line.side == "JP" for h in line.hexes)


def initial_control_of(stacks: Mapping[Hex, tuple[str, ...]], data: SNCData) -> frozenset[Hex]:
    """The same from a set-up position: the hexes holding Japanese units (SNC-3.2.1)."""
    return frozenset(h for h, us in stacks.items() if us and data.unit(us[0]).side == "JP")


def takes_control(how: str, variant: Variant) -> bool:
    """Whether units arriving this way enter the hex for control (SNC-3.2.2; AMB-SNC-16)."""
    if how not in ARRIVALS:
        raise ValueError(f"unknown arrival {how!r} (one of {', '.join(ARRIVALS)})")
    return how in _ENTERING[variant.reading("control_entry")]


def garrison_on_arrival(how: str, variant: Variant) -> bool:
    """Whether Japanese units arriving this way "occupy" a city hex and so bring a garrison at
    once (SNC-9.1.3): any arrival that enters the hex (`takes_control`), except that under
    garrison_occupation=where_units_stay a moving group occupies only the hex its move ends in
    (`garrison_at_stop`), not a city it passes through (AMB-SNC-16 (iv))."""
    if not takes_control(how, variant):
        return False
    return how != "move" or variant.is_("garrison_occupation", "every_city_entered")


def garrison_at_stop(variant: Variant) -> bool:
    """Whether the end of a Japanese move places the garrison of a city it ends in
    (SNC-9.1.3; garrison_occupation=where_units_stay, AMB-SNC-16 (iv))."""
    return variant.is_("garrison_occupation", "where_units_stay")


def _switch(control: frozenset[Hex], side: str, hexes: Iterable[Hex]) -> frozenset[Hex]:
    """`control` with `hexes` passed to `side` (SNC-3.2.2); `control` itself when none changes
    hands (most moves enter hexes their side holds already: no copy of the set, and the caller
    sees the same object)."""
    hexes = tuple(hexes)
    if side == "JP":
        if all(h in control for h in hexes):
            return control
        return control | frozenset(hexes)
    if side == "CH":
        if not any(h in control for h in hexes):
            return control
        return control - frozenset(hexes)
    raise ValueError(f"unknown side {side!r}")


def after_arrival(
    control: frozenset[Hex],
    side: str,
    hexes: Iterable[Hex],
    how: str,
    variant: Variant,
    board: Board | None = None,
) -> frozenset[Hex]:
    """Japanese control after units of `side` come to be in `hexes` (SNC-3.2.2): each passes
    to `side` if the arrival counts as entering (`control_entry`, AMB-SNC-16). Given a board,
    an arrival in a hex no unit may enter (3513, water; SNC-0.0.1, SNC-9.4.6) is refused."""
    hexes = tuple(hexes)
    if board is not None:
        for h in hexes:
            if not board.enterable(h):
                raise ValueError(f"SNC-0.0.1, SNC-9.4.6: no unit enters {h}")
    if not takes_control(how, variant):
        return control
    return _switch(control, side, hexes)


def after_move(
    control: frozenset[Hex],
    side: str,
    path: Sequence[Hex],
    variant: Variant,
    board: Board | None = None,
) -> frozenset[Hex]:
    """Japanese control after one move of units of `side` entering `path` in order (its start
    hex excluded) (SNC-3.2.2): every hex entered under control_transit=every_hex_entered,
    only the last under where_move_ends (found here)."""
    if not path:
        return control
    if not takes_in_transit(variant):
        path = path[-1:]
    return after_arrival(control, side, path, "move", variant, board)


def takes_in_transit(variant: Variant) -> bool:
    """Whether a moving unit takes each hex as it enters it (control_transit=every_hex_entered)
    rather than only the hex where its move ends (where_move_ends) (SNC-3.2.2)."""
    return variant.is_("control_transit", "every_hex_entered")


def controller(h: Hex, control: frozenset[Hex]) -> str:
    """The side controlling a hex (SNC-3.2.1, SNC-3.2.2), 3513 as it stands: always Chinese,
    since no unit enters it (its victory count is `japanese_cities`' business)."""
    return "JP" if h in control else "CH"


def settlement_counts_japanese(board: Board, control: frozenset[Hex]) -> bool:
    """SNC-4.3.2: the neutral city 3513 counts as Japanese-controlled when every other city
    hex is Japanese-controlled (AMB-SNC-16 (ii): its control is derived, never entered)."""
    return all(h in control for h in board.map.cities if not board.is_neutral(h))


def japanese_cities(board: Board, control: frozenset[Hex]) -> frozenset[Hex]:
    """The city hexes that count as Japanese-controlled for victory: those in `control`, and
    the neutral settlement when all the others are (SNC-4.3.1, SNC-4.3.2)."""
    cities = frozenset(board.map.cities)
    held = frozenset(h for h in cities if h in control and not board.is_neutral(h))
    if settlement_counts_japanese(board, control):  # SNC-4.3.2: the settlement counts too
        held |= frozenset(h for h in cities if board.is_neutral(h))
    return held


def garrison_to_place(
    board: Board,
    data: SNCData,
    stacks: Mapping[Hex, tuple[str, ...]],
    dead: Collection[str],
    h: Hex,
) -> str | None:
    """The Japanese garrison placed at once in the city hex `h` the Japanese have just
    occupied or reoccupied (SNC-9.1.3): none if `h` is no city or already holds a Japanese
    garrison; else the first, in the counter data's order, of the pool of Japanese garrisons
    neither on the map nor eliminated (AMB-SNC-37: none when the pool is empty; an overstack is
    culled at the next check)."""
    if not board.is_city(h):
        return None
    here = stacks.get(h, ())
    if any(_japanese_garrison(data, u) for u in here):
        return None
    on_map = {u for ids in stacks.values() for u in ids}
    return next(
        (
            u.id
            for u in data.units
            if _japanese_garrison(data, u.id) and u.id not in on_map and u.id not in dead
        ),
        None,
    )


def _japanese_garrison(data: SNCData, unit: str) -> bool:
    spec = data.unit(unit)
    return spec.side == "JP" and spec.is_static
