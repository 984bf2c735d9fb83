"""SHU-P-ENDS as a proof: every step goes down a well-founded order (lexicographically the
set-up, play and the end; the half-days left; the step of the player-turn; what is left to do
within it), with the lemmas that proof assumes.

Apart from `properties`, which states SHU-P-ENDS with `descends` and `ranking_lemmas`,
because the order is one construction of its own.
"""

from __future__ import annotations

from solvers.checking.prover import Lemma
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.step_records import FIGHT_STAGES, records_lemma, stage_in
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
    MOVE,
    OVER,
    REINFORCE,
    REPLACE,
    RETREAT,
    ROLL,
    SAIL,
    SETUP,
)
from specs.shumshu.formal.symbolic_play import Model

TIERS = {
    FORM: 10,
    SAIL: 9,
    AIR: 8,
    AIR_ROLL: 7,
    REPLACE: 5,
    REINFORCE: 4,
    DECOY: 3,
    MOVE: 2,
    DECLARE: 1,
}
"""The steps of a player-turn from first to last (a landing's combats are tier 6, the combat
phase's tier 0)."""


def ranking_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t

    def lander(o: Ops[B, I], s: Frame[B, I]) -> B:
        fighting = o.all([s.b("landing"), stage_in(o, s, *FIGHT_STAGES)])
        return o.implies(
            fighting, o.any(o.all([s.b(m.fatt[u]), s.b(m.party[u])]) for u in t.sailors)
        )

    return (records_lemma(m), Lemma("a lander's combat is the combat of a unit at sea", lander))


def _flags(o: Ops[B, I], s: Frame[B, I], names: dict[int, str]) -> list[B]:
    return [s.b(x) for _, x in sorted(names.items())]


def _smaller(o: Ops[B, I], a: list[B], b: list[B]) -> B:
    """The set `a` is a strict subset of the set `b` (flags over the same units)."""
    return o.all(
        [
            *(o.implies(x, y) for x, y in zip(a, b, strict=True)),
            o.any(o.all([o.not_(x), y]) for x, y in zip(a, b, strict=True)),
        ]
    )


def _equal(o: Ops[B, I], a: list[B], b: list[B]) -> B:
    return o.all(o.iff(x, y) for x, y in zip(a, b, strict=True))


def _fight_step(o: Ops[B, I], s: Frame[B, I]) -> I:
    """Where a combat stands: its steps from the choice of defenders down to the advance, and
    below them the pick of the next combat (nothing under way)."""
    out: I = o.num(-1)
    for value, stage in enumerate((ADVANCE, RETREAT, ROLL, COMMIT, HOLD, DEFENDERS)):
        out = o.ite(o.eq(s.i("stage"), stage), value, out)
    return out


def _tier(o: Ops[B, I], s: Frame[B, I]) -> I:
    """The step of the player-turn (`TIERS`; a landing's combats 6, the combat phase 0)."""
    out: I = o.ite(s.b("landing"), 6, 0)
    for stage, tier in TIERS.items():
        out = o.ite(o.eq(s.i("stage"), stage), tier, out)
    return out


def descends(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """The step from `s` to `n` goes down a well-founded order: lexicographically, the set-up
    before play before the end; the half-days left and whose player-turn; the step of the
    player-turn; and within it what is left to do, each a finite set that only grows or only
    shrinks (units moved, attacks joined, combats left, landers at sea, regiments unformed,
    decoys away, pieces to place) or a combat's own steps, routs and advances."""
    t = m.t

    def level(x: Frame[B, I]) -> I:
        stage = x.i("stage")
        return o.ite(o.eq(stage, OVER), -1, o.ite(o.eq(stage, SETUP), 1, 0))

    def half_days(x: Frame[B, I]) -> I:
        return o.add([o.sub(0, o.add([x.i("turn"), x.i("turn")])), o.ite(x.b("ru"), 1, 0)])

    def pend(x: Frame[B, I]) -> list[B]:
        return [o.not_(o.eq(x.i(v), 0)) for _, v in sorted(m.pend.items())]

    def at_code(x: Frame[B, I], units: tuple[int, ...], code: int) -> list[B]:
        return [m.is_at(o, x, u, code) for u in units]

    def combat(key_s: list[B], key_n: list[B]) -> B:
        """Fewer left, or as many and the combat under way further on."""
        fs, fn = _fight_step(o, s), _fight_step(o, n)
        retreats = o.all(
            [
                o.eq(s.i("stage"), RETREAT),
                o.eq(n.i("stage"), RETREAT),
                _smaller(o, _flags(o, n, m.retr), _flags(o, s, m.retr)),
            ]
        )
        advances = o.all(
            [
                o.eq(s.i("stage"), ADVANCE),
                o.eq(n.i("stage"), ADVANCE),
                _smaller(o, _flags(o, n, m.win), _flags(o, s, m.win)),
            ]
        )
        further = o.any([o.lt(fn, fs), retreats, advances])
        return o.any([_smaller(o, key_n, key_s), o.all([_equal(o, key_n, key_s), further])])

    stage = s.i("stage")
    sail = o.any(
        [
            o.all([o.not_(s.b("sail")), n.b("sail")]),
            o.all(
                [
                    o.iff(s.b("sail"), n.b("sail")),
                    _smaller(o, _flags(o, s, m.party), _flags(o, n, m.party)),
                ]
            ),
        ]
    )
    within = {
        FORM: _smaller(o, at_code(n, t.regiments, t.UNFORMED), at_code(s, t.regiments, t.UNFORMED)),
        SAIL: sail,
        DECOY: _smaller(o, at_code(n, t.decoys, t.REMOVED), at_code(s, t.decoys, t.REMOVED)),
        MOVE: _smaller(o, _flags(o, s, m.mv), _flags(o, n, m.mv)),
        DECLARE: _smaller(o, pend(s), pend(n)),
    }
    inner: B = o.bite(
        s.b("landing"),
        combat(_flags(o, s, m.party), _flags(o, n, m.party)),
        combat(pend(s), pend(n)),
    )
    for st, formula in within.items():
        inner = o.bite(o.eq(stage, st), formula, inner)
    quiet = stage_in(o, s, AIR, AIR_ROLL, REPLACE, REINFORCE)
    inner = o.all([o.not_(quiet), inner])
    ts, tn = _tier(o, s), _tier(o, n)
    hs, hn = half_days(s), half_days(n)
    playing = o.any(
        [
            o.lt(hn, hs),
            o.all([o.eq(hn, hs), o.any([o.lt(tn, ts), o.all([o.eq(tn, ts), inner])])]),
        ]
    )
    placing = _smaller(o, at_code(n, t.setup_pieces, 0), at_code(s, t.setup_pieces, 0))
    ls, ln = level(s), level(n)
    return o.any(
        [
            o.lt(ln, ls),
            o.all([o.eq(ln, ls), o.eq(ls, 0), playing]),
            o.all([o.eq(ln, ls), o.eq(ls, 1), placing]),
        ]
    )
