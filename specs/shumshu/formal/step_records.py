"""The step records lemma of Shumshu's formal properties: each step's records (attackers,
defenders, routs, victors, units at sea, pending attacks, regiments) appear in their step only,
and each step is in its side's player-turn (SHU-SEQ.1, SHU-RGT.1, AMB-SHU-10; the position
check's SHU-I-STAGE and SHU-I-REGIMENTS, in part).

Apart because two proofs assume it: SHU-P-ATTACKERS-UNDISRUPTED (`properties`) and
SHU-P-ENDS (`termination`); both import it from here.
"""

from __future__ import annotations

from solvers.checking.prover import Lemma
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic import (
    ADVANCE,
    AIR,
    AIR_ROLL,
    COMMIT,
    DECLARE,
    DECOY,
    DEFENDERS,
    FORM,
    HOLD,
    PICK,
    REINFORCE,
    REPLACE,
    RETREAT,
    ROLL,
    SAIL,
    SETUP,
)
from specs.shumshu.formal.symbolic_play import Model

FIGHT_STAGES = (DEFENDERS, HOLD, COMMIT, ROLL, RETREAT, ADVANCE)


BEFORE_ROLL = (DEFENDERS, HOLD, COMMIT, ROLL)


def stage_in(o: Ops[B, I], s: Frame[B, I], *stages: int) -> B:
    return o.any(o.eq(s.i("stage"), x) for x in stages)


def _sides(o: Ops[B, I], s: Frame[B, I]) -> B:
    """The Russian steps are in the Russian player-turn, the Japanese ones in the Japanese,
    and a landing is Russian (SHU-SEQ.1)."""
    ru = s.b("ru")
    return o.all(
        [
            o.implies(stage_in(o, s, FORM, SAIL, AIR, AIR_ROLL, REPLACE), ru),
            o.implies(stage_in(o, s, SETUP, REINFORCE, DECOY), o.not_(ru)),
            o.implies(s.b("landing"), ru),
        ]
    )


def _records(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """Each step's records appear in their step only (position's SHU-I-STAGE and
    SHU-I-REGIMENTS, in part): a step is in its side's player-turn; a regiment is on the map
    exactly while its battalions are in it; attackers are of the side whose player-turn it
    is, defenders and routed units of the other; disrupted units are on the map; a lander is
    at sea until it lands; units are at sea only during the sea movement and its landings; a
    combat is under way only at a combat step; attacks are pending only from the declaration
    to the end of the combat phase, never during a landing."""
    t = m.t
    fighting = stage_in(o, s, *FIGHT_STAGES)
    landing = o.all([s.b("landing"), fighting])
    sea = o.any([stage_in(o, s, SAIL, AIR, AIR_ROLL), landing])
    marks = [
        s.b("landing"),
        o.not_(o.eq(s.i("fhex"), 0)),
        *(s.b(x) for names in (m.fatt, m.fdef, m.retr, m.win) for x in names.values()),
    ]
    declared = stage_in(o, s, DECLARE, PICK, *FIGHT_STAGES)
    return o.all(
        [
            _sides(o, s),
            _regiments(m, o, s),
            *(o.implies(s.b(m.fatt[u]), m.phasing(o, s, u)) for u in t.units),
            *(o.implies(s.b(x), m.on_map(o, s, u)) for u, x in m.dis.items()),
            *(
                o.implies(o.any([s.b(m.fdef[u]), s.b(m.retr[u])]), o.not_(m.phasing(o, s, u)))
                for u in t.units
            ),
            *(
                o.implies(o.all([s.b("landing"), s.b(m.fatt[u])]), m.flag(o, s, m.party, u))
                for u in t.units
            ),
            *(
                o.implies(s.b(m.retr[u]), o.all([o.eq(s.i("stage"), RETREAT), m.on_map(o, s, u)]))
                for u in t.units
            ),
            *(
                o.implies(
                    s.b(m.win[u]),
                    o.all(
                        [
                            o.eq(s.i("stage"), ADVANCE),
                            s.b(m.fatt[u]),
                            m.on_map(o, s, u),
                            o.not_(m.disrupted(o, s, u)),
                        ]
                    ),
                )
                for u in t.units
            ),
            o.implies(s.b("sail"), sea),
            *(
                o.implies(s.b(x), o.all([s.b("sail"), m.is_at(o, s, u, 0)]))
                for u, x in m.party.items()
            ),
            *(o.implies(x, fighting) for x in marks),
            *(
                o.implies(
                    o.not_(o.eq(s.i(x), 0)),
                    o.all([declared, o.not_(s.b("landing")), m.phasing(o, s, u)]),
                )
                for u, x in m.pend.items()
            ),
        ]
    )


def records_lemma(m: Model) -> Lemma:
    return Lemma("each step's records appear in their step only", lambda o, s: _records(m, o, s))


def _regiments(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """SHU-RGT.1, AMB-SHU-10: a regiment is formed exactly while its battalions are in it."""
    t = m.t
    return o.all(
        o.iff(m.on_map(o, s, r), m.is_at(o, s, b, t.IN_REGIMENT))
        for r in t.regiments
        for b in t.bns[r]
    )
