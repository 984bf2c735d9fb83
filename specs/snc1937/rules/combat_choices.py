"""What may be done next in a combat (SNC-10.x; a landing's, SNC-8.4.0.7 to SNC-8.4.1.3).

Split from `combat_steps` (the transitions, in the order play takes): the choices each step
offers, which read the state and change nothing. The hexes that may be attacked and the
attackers that may join (SNC-10.0.x, SNC-10.2.1, SNC-10.4.1.x), the units that may take the
next step loss (SNC-10.5.2.x), the victors that may advance (SNC-10.5.3.x), the Chinese units
that retreat from a landing and where (SNC-8.4.0.9, SNC-8.4.1.3), the survivors that may come
ashore (AMB-SNC-12) and the 10th Army's second hex (SNC-8.4.1.2).
"""

from __future__ import annotations

from collections.abc import Iterable

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules import (
    advance,
    combat_query,
    losses,
    retreat,
    stacking,
)
from specs.snc1937.rules.actions import AdvanceOn
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.state import CH, Combat, SNCState
from specs.snc1937.rules.tables import (
    Tables,
    locations,
    stacks,
)


def _defended(s: SNCState) -> frozenset[str]:
    """The units attacked already this phase: those in the hexes attacked (SNC-10.0.8; no unit
    changes hex in a Fight phase but by advancing into an emptied hex)."""
    st = stacks(s.where)
    return frozenset(u for h in s.attacked for u in st.get(h, ()))


def attack_targets(t: Tables, s: SNCState) -> tuple[Hex, ...]:
    """Enemy hexes that may be attacked now (`combat_query.attack_targets`: SNC-10.0.1,
    SNC-10.0.7, SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.8, SNC-10.4.1.9); units in `s.done` have
    attacked this phase (or landed, AMB-SNC-12). Kept per position, attacks made and hexes
    attacked: a Fight phase lists them again after each unit put on top."""
    return _attack_targets(t, s.where, s.reduced, s.side, s.done, s.attacked, s.variant)


@identity_memo
def _attack_targets(
    t: Tables,
    where: tuple[tuple[str, Hex], ...],
    reduced: frozenset[str],
    side: str,
    done: frozenset[str],
    attacked: frozenset[Hex],
    variant: Variant,
) -> tuple[Hex, ...]:
    st = stacks(where)
    defended = frozenset(u for h in attacked for u in st.get(h, ()))  # as `_defended`
    return combat_query.attack_targets(
        t.data, t.board, st, reduced, side, attacked=done, defended=defended, variant=variant
    )


def join_choices(t: Tables, s: SNCState) -> list[str]:
    """Units that may still join the attack being declared (`combat_query.contacts_by_target`:
    SNC-10.0.5, SNC-10.0.7, SNC-10.2.1, SNC-10.4.1.9), in the data's order."""
    c = s.combat
    assert c is not None
    found = combat_query.contacts_by_target(
        t.data, t.board, stacks(s.where), s.side,
        attacked=s.done, defended=_defended(s), only=c.target, variant=s.variant,
    ).get(c.target, ())  # fmt: skip
    return sorted((u for u in found if u not in c.attackers), key=t.order.__getitem__)


def may_strike(t: Tables, s: SNCState, c: Combat) -> bool:
    """The declared attackers may attack: at least one (SNC-10.0.5), with an adjusted strength
    above 0 (`combat_query.strong_enough`, SNC-10.4.1.8)."""
    st = stacks(s.where)
    return bool(c.attackers) and combat_query.strong_enough(
        t.data, t.board, st, s.reduced, c.target, c.attackers
    )


def loss_choices(t: Tables, v: Variant, units: Iterable[str], reduced: frozenset[str]) -> list[str]:
    """Units that may take the next step loss: `losses.next_loss` (SNC-10.5.2.1 to
    SNC-10.5.2.3; loss_order and strength_measure, AMB-SNC-28)."""
    return list(losses.next_loss(t.data, v, units, reduced))


def alive(s: SNCState) -> list[str]:
    """The attackers still in play (on the map, or at sea for a landing)."""
    c = s.combat
    assert c is not None
    loc = locations(s.where)
    at_sea = {u for u, _ in s.trt}
    return [u for u in c.attackers if u in loc or (c.landing and u in at_sea)]


def defender_loss_choices(t: Tables, s: SNCState) -> list[str]:
    """The defending units that may take the next step loss (SNC-10.5.2.x)."""
    c = s.combat
    assert c is not None
    return loss_choices(t, s.variant, stacks(s.where).get(c.target, ()), s.reduced)


def attacker_loss_choices(t: Tables, s: SNCState) -> list[str]:
    """The attacking units that may take the next step loss (SNC-10.5.2.x)."""
    return loss_choices(t, s.variant, alive(s), s.reduced)


def advance_choices(t: Tables, s: SNCState) -> list[str]:
    """Surviving attackers that may advance next, one unit at a time, into the hex emptied by
    the battle, by `advance.may_advance` and `advance.survivors` (SNC-10.5.3.1,
    SNC-10.5.3.2, SNC-10.5.3.6, SNC-10.5.3.7); EZOC never stops an advance (SNC-7.2.4).
    Under advance_victors=fewer_losses only a winning attacker advances (AMB-SNC-29)."""
    c = s.combat
    assert c is not None
    if s.variant.is_("advance_victors", "fewer_losses") and not c.won:
        return []
    st = stacks(s.where)
    here = st.get(c.target, ())
    gone = frozenset(c.attackers) & frozenset(here)  # attackers that advanced already
    rest = tuple(u for u in here if u not in gone)
    before = {h: us for h, us in st.items() if h != c.target}
    if rest:
        before[c.target] = rest
    if not advance.may_advance(c.target, before):
        return []
    pool = advance.survivors(c.attackers, st)  # SNC-10.5.3.6, SNC-10.5.3.7
    return [
        u
        for u in c.attackers
        if u in pool and u not in gone and stacking.within_limits((*here, u), t.data, s.variant)
    ]  # SNC-10.5.3.2 (the limits: stacking.py); no EZOC test: SNC-7.2.4, SNC-10.5.3.4


def advancers(t: Tables, s: SNCState) -> list[str]:
    """Who may advance next: the victors into the emptied hex (SNC-10.5.3.5: optional,
    decided now), or a landing's survivors still at sea coming ashore (AMB-SNC-12)."""
    c = s.combat
    if c is not None and c.landing:
        return ashore_choices(t, s)
    return advance_choices(t, s)


def mobile(t: Tables, units: Iterable[str]) -> list[str]:
    """Those of `units` that can retreat at all: static units never move (SNC-2.2.1.8,
    SNC-9.1.1), so they have no hex to retreat into (`retreat.retreats`)."""
    return [u for u in units if retreat.retreats(t.data, u)]


def retreater(t: Tables, s: SNCState) -> str:
    """The next Chinese unit to retreat from the landing hex (SNC-8.4.0.9) or from the hex
    a 10th Army unit advances into (SNC-8.4.1.3): the first that is not static."""
    c = s.combat
    assert c is not None
    origin = c.second or c.target
    here = stacks(s.where).get(origin, ())
    return (mobile(t, here) or here)[0]


def retreat_hexes(t: Tables, s: SNCState, origin: Hex) -> tuple[Hex, ...]:
    """Where the Chinese units in `origin` may retreat one hex (`retreat.retreat_hexes`:
    SNC-8.4.0.9, SNC-8.4.1.3, SNC-9.4.6, SNC-9.0.12; retreat_into_ezoc, AMB-SNC-11)."""
    return retreat.retreat_hexes(t.board, t.data, s.variant, stacks(s.where), CH, origin)


def retreat_choices(t: Tables, s: SNCState) -> list[tuple[str, Hex]]:
    """The next retreating unit with each hex it may retreat into."""
    c = s.combat
    assert c is not None
    unit = retreater(t, s)
    if not retreat.retreats(t.data, unit):
        return []  # SNC-2.2.1.8, SNC-9.1.1: a static unit never retreats
    return [(unit, h) for h in retreat_hexes(t, s, c.second or c.target)]


def ashore_choices(t: Tables, s: SNCState) -> list[str]:
    """Under landing_unpaid_losses=attackers_stay_at_sea, the survivors still at sea that
    fit in the landing hex (SNC-6.2.x), one at a time, the owner's choice (AMB-SNC-12)."""
    c = s.combat
    assert c is not None
    here = stacks(s.where).get(c.target, ())
    if here and t.spec[here[0]].side == CH:
        return []  # Chinese stayed (retreat_blocked=stays): no one lands
    at_sea = [u for u in alive(s) if u not in locations(s.where)]
    fits = stacking.within_limits
    return [u for u in at_sea if fits((*here, u), t.data, s.variant)]


def _tenth_army(t: Tables, unit: str) -> bool:
    """A unit of the reinforcement line whose units advance two hexes (SNC-8.4.1.1,
    SNC-8.4.1.2: the GT 7 10th Army)."""
    record = t.record.get(unit)
    restriction = None if record is None else record.restriction
    return restriction is not None and restriction.advance_hexes == 2


def advance_on_choices(t: Tables, s: SNCState) -> list[AdvanceOn]:
    """10th Army units in the landing hex after its combat, each into an adjacent hex free
    of Chinese units where it may stack, or, when every such hex holds Chinese units, an
    adjacent Chinese-held coastal hex (SNC-8.4.1.2, SNC-8.4.1.3, SNC-10.5.3.2)."""
    c = s.combat
    if c is None or not c.landing:
        return []
    st = stacks(s.where)
    movers = [u for u in st.get(c.target, ()) if _tenth_army(t, u)]
    if not movers:
        return []
    out = []
    data = t.data
    for second in advance.tenth_army_second_hexes(data, t.board, c.target, st):
        there = () if second.chinese_retreat else st.get(second.hex, ())
        for u in movers:
            if stacking.within_limits((*there, u), data, s.variant):
                out.append(AdvanceOn(u, second.hex))
    return out
