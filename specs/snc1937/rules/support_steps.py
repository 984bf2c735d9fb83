"""Fire support and Chinese air support in the sequence of play (SNC-11.1.x, SNC-11.3.x).

Once the attackers are declared, the attacker adds his markers one at a time (`Support`, then
`Done`), then the defender his naval gunfire (SNC-11.1.1, SNC-11.1.4), then the combat die.
A Japanese air marker lets the Chinese try to intercept with their air support (SNC-11.3.1:
`Intercept`, then its die); so does Japanese air interdiction in the Chinese Reinforcement
Phase (SNC-11.3.3). Which markers may be added is `fire_support.py`'s.
"""

from __future__ import annotations

import attrs

from specs.snc1937.rules import fire_support
from specs.snc1937.rules.state import JP, Combat, Phase, SNCState, Step, evolve, other
from specs.snc1937.rules.tables import Tables, locations

SUPPORT_ORDER = ("air", "artillery", "naval_gunfire", "amphibious")  # the listing's order


def markers_gt(s: SNCState, side: str) -> int:
    """The GT whose markers `side` holds now (SNC-8.5.1, SNC-3.1.2): this GT's once its own
    player turn has begun; under marker_arrival=own_player_turn the Japanese hold only the last
    GT's in the Chinese player turn, which opens the GT (SNC-5.1.1); under game_turn this
    GT's from its start (found here)."""
    if side == JP and s.side != JP and s.variant.is_("marker_arrival", "own_player_turn"):
        return s.turn - 1  # SNC-8.5.1: received at the start of the Japanese player turn
    return s.turn


def support_kinds(t: Tables, s: SNCState, c: Combat, defending: bool) -> list[str]:
    """Markers the side may add now: `fire_support.eligible_kinds` (SNC-11.0.1 to SNC-11.1.6,
    SNC-11.4.x; AMB-SNC-32) among those it holds (`markers_gt`, SNC-8.5.1) and has not set
    aside this phase (SNC-11.1.5, SNC-3.1.3; fire_support_refresh, AMB-SNC-7), none of the
    attacker's in a Second Operations Phase under first_phase_only, and after Japanese
    support in the First Operations Phase, under landing_fire_support=all_or_none, only
    amphibious support in the Reinforcement Phase (SNC-8.5.2; per_marker: the markers not
    used, SNC-8.4.0.6). Listed air, artillery, naval gunfire, amphibious."""
    v = s.variant
    side = other(s.side) if defending else s.side
    used_now = c.support_d if defending else c.support_a
    gt = markers_gt(s, side)
    available = [  # SNC-11.1.3: one of a kind per combat; SNC-11.1.5: set-aside ones are not held
        k
        for k in fire_support.KINDS
        if k not in used_now and t.markers(side, k, gt) > s.used.count(f"{side}:{k}")
    ]
    if not defending:
        if s.phase == Phase.OPS2 and v.is_("fire_support_refresh", "first_phase_only"):
            return []
        all_or_none = v.is_("landing_fire_support", "all_or_none")
        if side == JP and s.phase == Phase.REINF and s.jp_support_ops1 and all_or_none:
            # SNC-8.4.0.6, SNC-11.1.6: a landing may still add the amphibious marker
            available = [k for k in available if k == fire_support.AMPHIBIOUS]  # SNC-8.5.2
    where = locations(s.where)
    found = fire_support.eligible_kinds(
        t.board, v, owner=side, attacking=not defending, target=c.target,
        attacker_hexes=frozenset(where[u] for u in c.attackers if u in where),
        landing=c.landing, available=available,
    )  # fmt: skip
    return sorted(found, key=SUPPORT_ORDER.index)


def chinese_air_ready(s: SNCState) -> bool:
    """The Chinese air support still exists and, under chinese_air=once_per_phase, has not
    flown this phase (SNC-11.3.2)."""
    return s.ch_air and not (s.ch_air_used and s.variant.is_("chinese_air", "once_per_phase"))


def support(s: SNCState, kind: str) -> SNCState:
    """A fire support marker (SNC-11.1.1 to SNC-11.1.5); a Japanese air marker lets the
    Chinese try to intercept (SNC-11.3.1; AMB-SNC-31)."""
    c = s.combat
    assert c is not None
    if s.step == Step.SUPPORT_D:
        c = attrs.evolve(c, support_d=(*c.support_d, kind))
        used = tuple(sorted((*s.used, f"{other(s.side)}:{kind}")))
        return evolve(s, combat=c, used=used, step=Step.ROLL)
    c = attrs.evolve(c, support_a=(*c.support_a, kind))
    used = tuple(sorted((*s.used, f"{s.side}:{kind}")))
    s = evolve(s, combat=c, used=used)
    if s.side == JP and s.phase == Phase.OPS1:
        s = evolve(s, jp_support_ops1=True)  # SNC-8.5.2
    if kind == "air" and chinese_air_ready(s):
        return evolve(s, step=Step.AIR_ASK)  # SNC-11.3.1: the Chinese may intercept
    return s


def end_attacker_support(t: Tables, s: SNCState) -> SNCState:
    """The attacker's markers are all added: the defender's turn if he may add one
    (SNC-11.1.1, SNC-11.1.4), else the combat die."""
    c = s.combat
    assert c is not None
    if support_kinds(t, s, c, True):
        return evolve(s, step=Step.SUPPORT_D)  # SNC-11.1.1, SNC-11.1.4: then defender
    return evolve(s, step=Step.ROLL)


def end_defender_support(s: SNCState) -> SNCState:
    """The defender adds no marker: the combat die (SNC-10.5.0.1)."""
    return evolve(s, step=Step.ROLL)


def intercept(s: SNCState, yes: bool) -> SNCState:
    """The Chinese decide whether their air support flies against a Japanese air marker
    (SNC-11.3.1) or against air interdiction (SNC-11.3.3); if it does, its die comes next."""
    if not yes:
        step = Step.SUPPORT_A if s.step == Step.AIR_ASK else Step.INTERDICT_ROLL
        return evolve(s, step=step)
    # SNC-11.3.1, SNC-11.3.3: the Chinese roll to intercept
    return evolve(s, step=Step.AIR_ROLL, ch_air_used=True)


def air_roll(s: SNCState, face: int) -> SNCState:
    """The interception die (SNC-11.3.2, SNC-11.3.3): on a 1 the Chinese air support is shot
    down for good; on a 6 the Japanese air marker is aborted, or the interdiction disrupted."""
    if face == 1:
        s = evolve(s, ch_air=False)  # SNC-11.3.2, SNC-11.3.3
    if s.combat is not None:
        if face == 6:
            s = evolve(s, combat=attrs.evolve(s.combat, aborted=s.combat.aborted + 1))
        return evolve(s, step=Step.SUPPORT_A)
    if face == 6:
        return evolve(s, step=Step.MAIN)  # interdiction disrupted (SNC-11.3.3)
    return evolve(s, step=Step.INTERDICT_ROLL)  # SNC-11.2.1: then interdiction
