"""Who fights in Rattenkrieg's abstraction (`symbolic`, RKS-8.2.2, RKS-8.2.3, RKS-8.12.3): the
supporting T-34s by number, and the step rules of a combat record's attacker, defender, support
and Area (`combat_rules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import CONTROLLERS
from specs.rattenkrieg.rules.state import SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def supporters(m: Model, o: Ops[B, I]) -> list[I]:
    """The Soviet T-34s by number, and 0 (no support)."""
    return [o.num(0), *(o.num(m.unit_number[t]) for t in m.tanks if m.side[t] == SU)]


def combat_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """Who fights in a combat record (`combat.start_combat`, `combat.choose_defender`,
    `combat.play`, `damage.after_damage`): it is opened for the acting unit, for the
    player, in a Stalingrad Area, with no defender but one of the enemy units and no
    support; while it lasts its
    attacker and Area stay; a defender is chosen among the enemy units; only a Soviet T-34
    supports."""
    opens = o.all([o.eq(s.i("fight"), 0), o.not_(o.eq(n.i("fight"), 0))])
    lasts = o.all([o.not_(o.eq(s.i("fight"), 0)), o.not_(o.eq(n.i("fight"), 0))])

    def enemy_of_attacker(f: Frame[B, I], v: str) -> B:
        return o.all(
            o.implies(o.eq(f.i(v), k), o.not_(o.eq(f.i("attacker"), CONTROLLERS[m.side[u]])))
            for u, k in m.unit_number.items()
        )

    return [
        Conjunct(
            "RKS-8.2.2",
            "a combat record is opened for the acting unit, by the player: it attacks "
            "(`start_combat`), or its bombardment's target's remaining units decide "
            "(AMB-RKS-16, `after_damage`); its support is none yet",
            lambda: o.implies(
                opens,
                o.all(
                    [
                        o.not_(o.eq(n.i("acting"), 0)),
                        o.eq(n.i("cunit"), n.i("acting")),
                        o.eq(n.i("attacker"), n.i("player")),
                        o.eq(n.i("csup"), 0),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-8.1.1",
            "a combat record is opened in a Stalingrad Area: an attack is made where an "
            "enemy unit is (`attack_problem`, `entry`), which no Rear holds (RKS-3.5.1), and "
            "a bombarded unit is never in the enemy Rear (RKS-9.2.4)",
            lambda: o.implies(
                opens,
                o.among(n.i("carea"), [o.num(m.areas[a]) for a in m.stalingrad]),
            ),
        ),
        Conjunct(
            "RKS-8.2.2",
            "while a combat record lasts (a round, its damage, the remaining units, the "
            "attack again) its attacker and Area stay",
            lambda: o.implies(
                lasts,
                o.all(
                    [
                        o.eq(n.i("cunit"), s.i("cunit")),
                        o.eq(n.i("carea"), s.i("carea")),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-8.2.3",
            "the defender is chosen among the enemy units of the Area (`defenders`, "
            "`choose_defender`), or is the bombarded enemy unit (AMB-RKS-16)",
            lambda: o.implies(
                o.all(
                    [
                        o.not_(o.eq(n.i("cdef"), s.i("cdef"))),
                        o.not_(o.eq(n.i("cdef"), 0)),
                    ]
                ),
                enemy_of_attacker(n, "cdef"),
            ),
        ),
        Conjunct(
            "RKS-8.12.3",
            "only a Soviet T-34 adds its strength to a Soviet card (`play_problem`)",
            lambda: o.implies(
                o.not_(o.eq(n.i("csup"), s.i("csup"))),
                o.among(n.i("csup"), supporters(m, o)),
            ),
        ),
        Conjunct(
            "RKS-8.2.2",
            "no combat record, none of its fighters or Area (the projection's)",
            lambda: o.implies(
                o.eq(n.i("fight"), 0),
                o.all(o.eq(n.i(v), 0) for v in ("cunit", "cdef", "csup", "carea")),
            ),
        ),
    ]
