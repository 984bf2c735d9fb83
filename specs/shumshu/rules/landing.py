"""What arrives and by which way: regiments forming, the Russians' sea movement (landings and
deliveries), the Ki-43 against shipping, replacements, Japanese reinforcements and returning
decoys (SHU-RGT.1, SHU-LAND.1 to SHU-LAND.10, SHU-REINF.1 to SHU-REINF.3, SHU-REPL.1,
SHU-REPL.2, SHU-AIR.2, SHU-AIR.3, SHU-COMBAT.6).

Each step's choices are listed here and checked in `sequence` against the same lists, so what
is offered and what is accepted cannot differ.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules import crt
from specs.shumshu.rules.actions import Embark, LandAt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat import air_available
from specs.shumshu.rules.effects import eliminate, recovery_turn
from specs.shumshu.rules.state import JP, RU, Loc, Sail, ShumshuState
from specs.shumshu.rules.units import (
    hex_sides,
    holder,
    obliged_hexes,
    period,
    side_pieces,
    update,
)

MAX_LANDERS = 3  # SHU-LAND.2


def formable(b: Board, s: ShumshuState) -> list[tuple[str, Hex]]:
    """Regiments whose three battalions are together and undisrupted at the start of the
    Russian turn (SHU-RGT.1)."""
    out = []
    for p in s.units:
        spec = b.unit(p.id)
        if not spec.is_regiment or p.loc is not Loc.UNFORMED:
            continue
        bns = [s.piece(x) for x in b.battalions_of(p.id)]
        hexes = {x.hex for x in bns}
        if (
            len(bns) == 3
            and all(x.loc is Loc.MAP and not x.disrupted for x in bns)
            and len(hexes) == 1
        ):
            (h,) = hexes
            assert h is not None
            out.append((p.id, h))  # SHU-RGT.1: three undisrupted battalions in one hex
    return out


def available(b: Board, s: ShumshuState, unit: str) -> bool:
    """A Russian unit off-board that may sail this turn (SHU-SETUP.3, AMB-SHU-8)."""
    spec = b.unit(unit)
    if spec.side != RU or spec.is_regiment or s.piece(unit).loc is not Loc.POOL:
        return False
    return s.variant.is_("schedule", "all_at_once") or spec.from_turn <= s.turn


def landing_hexes(b: Board, s: ShumshuState) -> list[Hex]:
    """Coastal hexes outside the Paramushir artillery's red range (SHU-LAND.1, SHU-LAND.5),
    while a landing is allowed this turn (SHU-LAND.10, AMB-SHU-7), and not barred by
    `hex_barred`."""
    if not landing_open(s):
        return []
    return [h for h in b.hexes if landing_hex_ok(b, s, h)]


def landing_open(s: ShumshuState) -> bool:
    """A landing may be made this Russian player-turn (SHU-LAND.1, SHU-LAND.3, SHU-LAND.10)."""
    if s.ships <= 0 or s.sail is not None:
        return False
    if not s.is_am and s.variant.is_("landing_turns", "am_only"):
        return False  # SHU-REINF.1: units come over on the AM turn (`landing_turns=am_only`)
    # SHU-LAND.10: a new landing only once the beachhead is lost (AMB-SHU-7)
    return not (s.variant.is_("landings", "one_beachhead") and s.beachhead is not None)


def landing_hex_ok(b: Board, s: ShumshuState, h: Hex) -> bool:
    """SHU-LAND.1 a coastal hex; SHU-LAND.5 not in the Paramushir red range; not barred by
    the readings (`hex_barred`)."""
    return b.is_coastal(h) and not b.in_red(h) and hex_barred(b, s, h) is None


def hex_barred(b: Board, s: ShumshuState, h: Hex) -> tuple[str, str] | None:
    """Why the readings bar a landing at coastal hex `h` now, as (clause, message), or None:
    a hex the Russians hold (`friendly_landing=not_allowed`: a lander attacks the hex,
    SHU-LAND.2), or one whose coastal neighbours hold undisrupted Japanese pieces the landers
    would be obliged to attack (`landing_obligation=coastal_neighbours`, SHU-COMBAT.4)."""
    v = s.variant
    if v.is_("friendly_landing", "not_allowed") and holder(b, s, h) == RU:
        return (
            "SHU-LAND.2",
            f"the Russians hold {h}, and a lander attacks the hex (friendly_landing=not_allowed)",
        )
    if v.is_("landing_obligation", "coastal_neighbours"):
        obliged = obliged_hexes(b, s, RU)
        near = [n for n in b.neighbors(h) if b.is_coastal(n) and n in obliged]
        if near:
            return (
                "SHU-COMBAT.4",
                f"{near[0]} holds undisrupted Japanese pieces next to the landers off {h}, "
                "which attack only the landing hex (landing_obligation=coastal_neighbours)",
            )
    return None


def land_at_problem(b: Board, s: ShumshuState, h: Hex) -> tuple[str, ...]:
    """Why no landing at `h` now: the message, then the clauses."""
    if not b.is_coastal(h):
        return (f"{h} is not a coastal hex", "SHU-LAND.1")
    if b.in_red(h):
        return (f"{h} is within the Paramushir artillery's red-bordered range", "SHU-LAND.5")
    if s.ships <= 0:
        return ("no naval landing capability is left", "SHU-LAND.3")
    if s.sail is not None:
        return ("one landing per Russian turn, chosen before embarking", "SHU-LAND.1")
    if not s.is_am and s.variant.is_("landing_turns", "am_only"):
        return ("landings are made on the Russian AM turn (landing_turns=am_only)", "SHU-REINF.1")
    if s.beachhead is not None and s.variant.is_("landings", "one_beachhead"):
        return (
            f"the beachhead {s.beachhead} holds: a new landing only once it is lost (AMB-SHU-7)",
            "SHU-LAND.10",
        )
    barred = hex_barred(b, s, h)
    if barred is not None:
        return (barred[1], barred[0])
    return ("no Russian unit may sail this turn", "SHU-SETUP.3")


def party_limit(s: ShumshuState, landing: bool) -> int:
    """How many units one sailing carries: one per capability or three (SHU-LAND.2,
    SHU-REINF.3, AMB-SHU-8, `landing_size`), two when a landing obeys the hexside limit
    (AMB-SHU-15)."""
    if s.ships <= 0:
        return 0
    option = "landing_size" if landing else "deliveries"
    # SHU-LAND.2 up to 3 landers; SHU-REINF.3 deliveries, one per capability left
    limit = min(MAX_LANDERS, s.ships) if s.variant.is_(option, "capabilities") else MAX_LANDERS
    if landing and s.variant.is_("landing_limit", "hexside_limit"):
        limit = min(limit, 2)
    return limit


def delivery_possible(s: ShumshuState) -> bool:
    """Deliveries to the beachhead on the Russian AM turn (SHU-REINF.1, SHU-REINF.3)."""
    return s.is_am and s.beachhead is not None and s.ships > 0


def embark_choices(b: Board, s: ShumshuState) -> list[str]:
    """The units that may embark now, in data order (SHU-LAND.2, SHU-REINF.3)."""
    after = embark_after(b, s)
    if after is None:
        return []
    return [u.id for u in b.data.units if _may_embark(b, s, u.id, after)]


def embark_after(b: Board, s: ShumshuState) -> int | None:
    """None when no unit may embark now; else the data rank a unit embarking must come after
    (-1 when any order goes): the embarking order is the rolling order (SHU-LAND.2)."""
    sail = s.sail
    if sail is not None and sail.sailed:
        return None
    landing = sail is not None and sail.hex is not None
    if not landing and not delivery_possible(s):
        return None
    party = sail.party if sail is not None else ()
    if len(party) >= party_limit(s, landing):
        return None
    if landing and s.variant.is_("lander_order", "russian_choice"):
        return -1  # any order may be chosen: the Russians pick the rolling order
    return max((b.order[u] for u in party), default=-1)


def _may_embark(b: Board, s: ShumshuState, unit: str, after: int) -> bool:
    party = s.sail.party if s.sail is not None else ()
    return b.order[unit] > after and unit not in party and available(b, s, unit)


def sail_choices(b: Board, s: ShumshuState) -> list[LandAt | Embark]:
    """Picking a landing hex (before anyone embarks) and embarking (SHU-LAND.1, SHU-LAND.2,
    SHU-REINF.3). A landing hex needs a unit to carry."""
    out: list[LandAt | Embark] = []
    if s.sail is None and any(available(b, s, u.id) for u in b.data.units):
        out.extend(LandAt(h) for h in landing_hexes(b, s))
    out.extend(Embark(u) for u in embark_choices(b, s))
    return out


def sail_choice_ok(b: Board, s: ShumshuState, action: LandAt | Embark) -> bool:
    """Whether `action` is one of `sail_choices`, asked of that action alone."""
    if isinstance(action, LandAt):
        return (
            s.sail is None
            and landing_open(s)
            and landing_hex_ok(b, s, action.hex)
            and any(available(b, s, u.id) for u in b.data.units)
        )
    after = embark_after(b, s)
    return (
        after is not None and b.data.has_unit(action.unit) and _may_embark(b, s, action.unit, after)
    )


def sail_done_ok(s: ShumshuState) -> bool:
    """Whether the sea movement may end now: a landing hex, once chosen, needs at least one
    unit embarked (SHU-LAND.2)."""
    return s.sail is None or s.sail.hex is None or bool(s.sail.party)


def strike_possible(s: ShumshuState) -> bool:
    """The Ki-43 may strike at shipping once in a Russian player-turn (SHU-AIR.2,
    AMB-SHU-23), while any capability is left to sink: in every Russian player-turn, or only
    when units sail (`strike_when`)."""
    if not (s.side == RU and s.ships > 0 and air_available(s)):
        return False
    if s.variant.is_("strike_when", "ships_at_sea"):
        return s.sail is not None and bool(s.sail.party)
    return True


def loads(s: ShumshuState) -> list[tuple[str, ...]]:
    """What each capability carries this sea movement, by `ship_load`: one unit each (a unit
    beyond the capabilities left a load of its own), or the sailing units shared out over the
    capabilities left in embarking order; empty loads included (SHU-AIR.2)."""
    party = s.sail.party if s.sail is not None else ()
    if s.variant.is_("ship_load", "shared") and s.ships > 0:
        return [party[j :: s.ships] for j in range(s.ships)]
    return [(u,) for u in party] + [() for _ in range(max(0, s.ships - len(party)))]


def air_outcomes(b: Board, s: ShumshuState) -> list[tuple[int, str | None, Fraction]]:
    """(face, unit sunk or None, probability) of the Ki-43's roll: the best face sinks one
    capability at random with whoever it carries (SHU-AIR.2, AMB-SHU-27); the three worst shoot
    it down (SHU-AIR.3)."""
    left = crt.reads_left(s.variant, JP)
    every = loads(s)
    if s.variant.is_("air_sinks", "loaded_ship"):
        every = [load for load in every if load]
    out: list[tuple[int, str | None, Fraction]] = []
    for face in range(1, 7):
        p = Fraction(1, 6)
        if crt.row_of(b.data.crt, left, face) != 0 or not every:
            out.append((face, None, p))
            continue
        loaded = [load for load in every if load]
        out.extend((face, load[0], p / len(every)) for load in loaded)  # named by its first
        if len(every) > len(loaded):
            out.append((face, None, p * (len(every) - len(loaded)) / len(every)))
    return out


def apply_air(b: Board, s: ShumshuState, face: int, sunk: str | None) -> ShumshuState:
    """The Ki-43's roll: its best face sinks a capability and its load (named by the load's
    first unit), eliminated or lost for good (`sunk_passengers`); its three worst shoot it
    down (SHU-AIR.2, SHU-AIR.3)."""
    before = s
    left = crt.reads_left(s.variant, JP)
    row = crt.row_of(b.data.crt, left, face)
    s = attrs.evolve(s, air_used=True, air_turn=s.turn)
    if row == 0:  # SHU-AIR.2: the best roll sinks a capability with its load
        loaded_only = s.variant.is_("air_sinks", "loaded_ship")
        if sunk is not None or not loaded_only:
            s = attrs.evolve(s, ships=max(0, s.ships - 1))
        sail = s.sail
        if sunk is not None and sail is not None:
            lost = next(load for load in loads(before) if load and load[0] == sunk)
            gone = Loc.SUNK if s.variant.is_("sunk_passengers", "lost_for_good") else Loc.GONE
            s = lost_at_sea(eliminate(b, s, lost, to=gone), lost)
            party = tuple(u for u in sail.party if u not in lost)
            s = attrs.evolve(s, sail=attrs.evolve(sail, party=party))
    elif row >= 3:
        s = attrs.evolve(s, air=False)  # SHU-AIR.3: the three worst rolls shoot it down
    return s


def lose_ship(s: ShumshuState) -> ShumshuState:
    """A worst landing roll costs one capability, at most once per landing (SHU-LAND.3,
    SHU-LAND.4)."""
    sail = s.sail
    assert sail is not None
    if sail.lost_ship or s.ships <= 0:
        return s
    return attrs.evolve(s, ships=s.ships - 1, sail=attrs.evolve(sail, lost_ship=True))


def to_sea_box(b: Board, s: ShumshuState, unit: str) -> ShumshuState:
    """A failed lander waits disrupted in a sea box (AMB-SHU-4 reading sea_box)."""
    return update(s, [unit], loc=Loc.SEA, disrupted=True, recover=recovery_turn(s, RU))


def start_sail(s: ShumshuState, hex_: Hex | None) -> Sail:
    return s.sail if s.sail is not None else Sail(hex_)


def replacements(b: Board, s: ShumshuState) -> list[str]:
    """Eliminated Russian infantry battalions that may come back at the beachhead: one per
    turn, after this turn's deliveries or once none waits off-board (SHU-REPL.1, SHU-REPL.2,
    AMB-SHU-9)."""
    if s.beachhead is None or s.replaced == period(s) or holder(b, s, s.beachhead) == JP:
        return []
    if s.variant.is_("replacement", "pool_landed") and any(
        b.side_of[p.id] == RU and p.loc in (Loc.POOL, Loc.SEA) for p in s.units
    ):
        return []
    lost_now = s.acted if s.variant.is_("replace_lost", "next_turn") else frozenset()
    return [
        p.id
        for p in s.units
        if p.loc is Loc.GONE
        and b.side_of[p.id] == RU
        and b.unit(p.id).type == "infantry"
        and p.id not in lost_now  # replace_lost=next_turn: not lost at sea this player-turn
    ]


def lost_at_sea(s: ShumshuState, units: tuple[str, ...] | list[str]) -> ShumshuState:
    """Units lost at sea this player-turn (worst roll, AE, sunk) are kept in `acted` under
    `replace_lost=next_turn`, so that none is replaced before the next Russian player-turn
    (SHU-REPL.2); the set is emptied when the player-turn ends."""
    if not units or not s.variant.is_("replace_lost", "next_turn"):
        return s
    return attrs.evolve(s, acted=s.acted | frozenset(units))


def reinforcements(b: Board, s: ShumshuState) -> list[tuple[str, Hex]]:
    """One Japanese unit from Paramushir to hex 33 on the Japanese AM turn (SHU-REINF.1,
    SHU-REINF.2); with Russians in hex 33, none or next to it (`hex33_blocked`)."""
    if not s.is_am or s.side != JP:
        return []  # SHU-REINF.1: reinforcements only in the owner's AM turn
    waiting = [p.id for p in s.units if p.loc is Loc.POOL and b.side_of[p.id] == JP]
    if not waiting:
        return []
    h33 = b.data.hex33
    if holder(b, s, h33) != RU:
        hexes = [h33]  # SHU-REINF.2: from Paramushir to hex 33
    elif s.variant.is_("hex33_blocked", "adjacent"):
        hexes = [n for n in b.neighbors(h33) if holder(b, s, n) != RU]
    else:
        hexes = []
    return [(u, h) for u in waiting for h in hexes]


def decoy_hexes(b: Board, s: ShumshuState) -> list[Hex]:
    """Where a returning decoy may go (SHU-COMBAT.6, AMB-SHU-21 iii): by `decoy_return`, a
    hex reachable from hex 33 that the Japanese hold (`reachable_held`, draft: it joins their
    stack, so the Russians cannot tell it from the pieces there) or that is empty
    (`reachable_empty`), or hex 33 itself. While the Russians hold hex 33 it waits, or the
    way is counted from the hexes the Japanese hold (`decoy_return_blocked`)."""
    h33 = b.data.hex33
    sides = hex_sides(b, s)
    blocked = sides.get(h33) == RU
    if s.variant.is_("decoy_return", "hex_33"):
        return [] if blocked else [h33]
    if not blocked:
        starts = [h33]
    elif s.variant.is_("decoy_return_blocked", "from_japanese_hexes"):
        starts = sorted({p.hex for p in side_pieces(b, s, JP) if p.hex is not None})
    else:
        return []  # decoy_return_blocked=waits: its way back from hex 33 is shut
    seen = set(starts)
    todo = deque(starts)
    while todo:
        h = todo.popleft()
        for n in b.neighbors(h):
            if n not in seen and sides.get(n) != RU:
                seen.add(n)
                todo.append(n)
    if s.variant.is_("decoy_return", "reachable_held"):
        return sorted(h for h in seen if sides.get(h) == JP)  # SHU-COMBAT.5: in a stack
    return sorted(h for h in seen if h not in sides)  # an empty hex


def decoy_returns(b: Board, s: ShumshuState) -> list[tuple[str, Hex]]:
    """The decoys due back and their hexes (SHU-COMBAT.6): the first due in data order, or
    any due one (`decoy_return_order=japanese_choice`)."""
    if s.side != JP:
        return []
    hexes = decoy_hexes(b, s)
    if not hexes:
        return []
    due = [p.id for p in s.units if p.loc is Loc.REMOVED and p.recover <= s.turn]
    if s.variant.is_("decoy_return_order", "data_order"):
        due = due[:1]  # the first in the counter list
    return [(u, h) for u in due for h in hexes]


def decoy_may_wait(s: ShumshuState) -> bool:
    """Whether the Japanese may keep a decoy due back off the map this player-turn
    (`decoy_return_compulsory=optional`, SHU-COMBAT.6)."""
    return s.variant.is_("decoy_return_compulsory", "optional")
