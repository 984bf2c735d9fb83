"""Shumshu's properties: what its rules guarantee in every reachable position, or do not.

Each property is declared twice under one ID: as a `kernel.properties.Property` whose check is
plain Python over `ShumshuState` (run after every step of playouts), and as a formal statement
over the symbolic model (`formal`), which the prover proves or refutes. A state property's
check is the position check's invariant of the same meaning (`position.invariant`): written
once, it refuses a position no play reaches and is proved here to hold in every one that play
does reach.

Expected verdicts are per preset; `wargame verify shumshu` holds the prover to them. Play ends
under every preset whose game length (AMB-SHU-2) is bounded; a preset without a bound would be
expected to fail `SHU-P-ENDS`, with the clauses the game names for it.
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.properties import Property, Verdict
from solvers.checking.prover import Formal, Invariant, Lemma, StepInvariant
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.data.loader import DATA_FILE, load_data
from specs.shumshu.data.variants import CATALOGUE, LENGTH
from specs.shumshu.formal import position
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
    JAPANESE,
    MARGINAL,
    MOVE,
    OVER,
    PICK,
    REINFORCE,
    REPLACE,
    RETREAT,
    ROLL,
    SAIL,
    SETUP,
    STRATEGIC,
)
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.rules.actions import Action
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage

CAPABILITIES = "SHU-P-CAPABILITIES"
ONE_SIDE = "SHU-P-ONE-SIDE"
DEFENDER_LIMIT = "SHU-P-DEFENDER-LIMIT"
DISRUPTED_STILL = "SHU-P-DISRUPTED-STILL"
ATTACKERS_UNDISRUPTED = "SHU-P-ATTACKERS-UNDISRUPTED"
DECOYS = "SHU-P-DECOYS"
ENDS = "SHU-P-ENDS"

BOARD = Board(load_data(DATA_FILE))

SHARED = {
    ONE_SIDE: ("SHU-I-ONE-SIDE",),
    DEFENDER_LIMIT: ("SHU-I-DEFENDERS",),
    ATTACKERS_UNDISRUPTED: ("SHU-I-ATTACKERS",),
    DECOYS: ("SHU-I-DECOYS", "SHU-I-RESULT"),
}
"""Each state property's concrete check: the position check's invariants of that meaning."""

FIGHT_STAGES = (DEFENDERS, HOLD, COMMIT, ROLL, RETREAT, ADVANCE)
BEFORE_ROLL = (DEFENDERS, HOLD, COMMIT, ROLL)

# --- concrete checks over ShumshuState ----------------------------------------------------------


def _holds(pid: str) -> Callable[[ShumshuState], bool]:
    checks = [position.invariant(i).find for i in SHARED[pid]]
    return lambda s: not any(next(find(BOARD, s), None) for find in checks)


def capabilities(before: ShumshuState, action: Action, after: ShumshuState) -> bool:
    """SHU-LAND.3, SHU-LAND.4, SHU-AIR.2: never more capabilities, at most one fewer a step; a
    lander's worst roll costs one only while none was lost in its landing, and marks it lost;
    a landing's loss stays marked until the sea movement ends."""
    if not after.ships <= before.ships <= after.ships + 1:
        return False
    lander = before.stage is Stage.ROLL and before.fight is not None and before.fight.landing
    lost_before = before.sail is not None and before.sail.lost_ship
    lost_after = after.sail is not None and after.sail.lost_ship
    if lander and after.ships < before.ships and (lost_before or (after.sail and not lost_after)):
        return False
    return not (lost_before and after.sail is not None and not lost_after)


def disrupted_still(before: ShumshuState, action: Action, after: ShumshuState) -> bool:
    """SHU-DISRUPT.1, SHU-MOVE.4: a unit disrupted before a step does not move (in movement or
    an advance) and does not join an attack in it."""
    moving = before.stage in (Stage.MOVE, Stage.ADVANCE)
    was = {a for c in before.pending for a in c.attackers}
    now = {a for c in after.pending for a in c.attackers}
    for p, q in zip(before.units, after.units, strict=True):
        if not p.disrupted:
            continue
        on_map = p.loc is Loc.MAP and q.loc is Loc.MAP
        if moving and on_map and p.hex != q.hex:
            return False
        if p.id in now and p.id not in was:
            return False
    return True


def length_bounded(preset: str) -> bool:
    """The preset's game length (AMB-SHU-2) has a last turn."""
    reading = CATALOGUE.preset(preset).reading("game_length")
    return LENGTH.get(reading) is not None


def properties() -> tuple[Property, ...]:
    presets = sorted(CATALOGUE.presets)
    both: dict[str, Verdict] = dict.fromkeys(presets, "holds")
    ends: dict[str, Verdict] = {p: "holds" if length_bounded(p) else "fails" for p in presets}
    # the costliest proofs first: `wargame verify` deals the properties out to its workers
    # in this order, so they share the time evenly
    return (
        Property(
            ENDS,
            ("SHU-SEQ.2", "SHU-WIN.3"),
            "The game always ends: under every preset whose length (AMB-SHU-2) is bounded, a "
            "ranking that every step lowers reaches the end of the last half-day.",
            "ends",
            ends,
            formal="every step goes down a well-founded order, lexicographically: set-up, "
            "play, over; the half-days left and whose player-turn; the step of the "
            "player-turn; what is left in it (pieces to place, regiments unformed, units "
            "at sea, moved, joined, combats and landers left, a combat's steps, routs and "
            "advances), each a finite set that only shrinks or grows (no cycle, so play ends)",
        ),
        Property(
            ATTACKERS_UNDISRUPTED,
            ("SHU-DISRUPT.1", "SHU-COMBAT.1"),
            "A disrupted unit never attacks: every unit of a declared attack is undisrupted "
            "until its combat's roll.",
            "invariant",
            both,
            state_check=_holds(ATTACKERS_UNDISRUPTED),
            formal="pend(u) != 0 => not dis(u); attacker(u) before the roll => not dis(u)",
        ),
        Property(
            ONE_SIDE,
            ("SHU-STACK.1", "SHU-MOVE.3", "SHU-CRT.4", "SHU-CRT.5", "SHU-COMBAT.13", "SHU-LAND.7"),
            "Only one side per hex, after set-up, movement, landings, deliveries, "
            "replacements, reinforcements, returning decoys, routs, withdrawals and advances.",
            "invariant",
            both,
            state_check=_holds(ONE_SIDE),
            formal="for all Russian u and Japanese v on the map: hex(u) != hex(v)",
        ),
        Property(
            DECOYS,
            ("SHU-COMBAT.6", "SHU-STACK.3", "SHU-WIN.1", "SHU-WIN.2", "SHU-WIN.3"),
            "A decoy is never counted as a defender (nor as an attacker), and never for "
            "victory: the result is what the Russian units on the star hexes give.",
            "invariant",
            both,
            state_check=_holds(DECOYS),
            formal="decoy d: not defender(d), not attacker(d), pend(d) = 0; over <=> winner "
            "!= 0; over => winner = strategic if a Russian unit holds the 2-star hex, "
            "marginal if one holds the 1-star hex, else Japanese",
        ),
        Property(
            CAPABILITIES,
            ("SHU-LAND.3", "SHU-LAND.4", "SHU-AIR.2"),
            "Landing capabilities never increase and fall by at most one a step; a lander's "
            "worst roll costs one only if none was lost in its landing yet, so one landing "
            "loses at most one to the landing rolls (the Ki-43 may sink another, AMB-SHU-27).",
            "step",
            both,
            step_check=capabilities,
            formal="ships' <= ships <= ships' + 1; landing roll and ships' < ships => not lost "
            "and (sail' => lost'); sail and sail' and lost => lost'",
        ),
        Property(
            DEFENDER_LIMIT,
            ("SHU-STACK.3",),
            "No more units defend a hex than the limit: at most 3 Russian or 4 Japanese "
            "defenders take part in a combat (the others share its result, AMB-SHU-11).",
            "invariant",
            both,
            state_check=_holds(DEFENDER_LIMIT),
            formal="#{Russian defenders} <= 3 and #{Japanese defenders} <= 4",
        ),
        Property(
            DISRUPTED_STILL,
            ("SHU-DISRUPT.1", "SHU-MOVE.4", "SHU-COMBAT.1"),
            "A disrupted unit never moves: not in movement, not in an advance after combat, "
            "and it never joins an attack (routs and withdrawals move disrupted units by the "
            "CRT, SHU-CRT.4, SHU-CRT.5).",
            "step",
            both,
            step_check=disrupted_still,
            formal="dis(u) and stage in {move, advance} and u on the map before and after => "
            "hex'(u) = hex(u); dis(u) and pend(u) = 0 => pend'(u) = 0",
        ),
    )


# --- formal statements over the symbolic model ---------------------------------------------------


def formal(m: Model) -> dict[str, Formal]:
    """Each property's statement over the model `m`, with the lemmas its proof assumes."""
    setup = Lemma("no Russian unit is on the map during set-up", lambda o, s: _setup(m, o, s))
    beach = Lemma(
        "a beachhead holds pieces and no Japanese one (while play goes on)",
        lambda o, s: _beach(m, o, s),
    )
    winners = Lemma(
        "victors are marked only at the advance, undisrupted",
        lambda o, s: _winners(m, o, s),
    )
    out: dict[str, Formal] = {
        CAPABILITIES: StepInvariant(lambda o, s, n: _capabilities(o, s, n)),
        ONE_SIDE: Invariant(lambda o, s: _one_side(m, o, s), lemmas=(setup, beach)),
        DEFENDER_LIMIT: Invariant(lambda o, s: _defender_limit(m, o, s)),
        DISRUPTED_STILL: StepInvariant(
            lambda o, s, n: _disrupted_still(m, o, s, n), lemmas=(winners,)
        ),
        ATTACKERS_UNDISRUPTED: Invariant(
            lambda o, s: _attackers_undisrupted(m, o, s), lemmas=_attacker_lemmas(m)
        ),
        DECOYS: Invariant(lambda o, s: _decoys(m, o, s)),
        ENDS: StepInvariant(lambda o, s, n: _descends(m, o, s, n), lemmas=_ranking_lemmas(m)),
    }
    return out


def _stage_in(o: Ops[B, I], s: Frame[B, I], *stages: int) -> B:
    return o.any(o.eq(s.i("stage"), x) for x in stages)


def _capabilities(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    ships, after = s.i("ships"), n.i("ships")
    lander = o.all([o.eq(s.i("stage"), ROLL), s.b("landing")])
    drop = o.lt(after, ships)
    return o.all(
        [
            o.le(after, ships),
            o.le(ships, o.add([after, 1])),
            o.implies(
                o.all([lander, drop]),
                o.all([o.not_(s.b("lost")), o.implies(n.b("sail"), n.b("lost"))]),
            ),
            o.implies(o.all([s.b("lost"), n.b("sail")]), n.b("lost")),
        ]
    )


def _setup(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.implies(
        o.eq(s.i("stage"), SETUP),
        o.all(o.not_(m.on_map(o, s, u)) for u in m.t.of_side[RU]),
    )


def _beach(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    beach = s.i("beach")
    return o.implies(
        o.all([o.not_(o.eq(beach, 0)), o.not_(o.eq(s.i("stage"), OVER))]),
        o.all([m.has_at(o, s, "", beach), o.not_(m.has_at(o, s, JP, beach))]),
    )


def _one_side(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    t = m.t
    return o.all(
        o.not_(o.all([m.on_map(o, s, u), o.eq(s.i(m.at[u]), s.i(m.at[v]))]))
        for u in t.of_side[RU]
        for v in t.of_side[JP]
    )


def _defender_limit(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    t = m.t
    return o.all(
        o.le(o.count(s.b(m.fdef[u]) for u in t.of_side[side]), t.defender_limit[side])
        for side in (RU, JP)
    )


def _winners(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.all(
        o.implies(
            s.b(m.win[u]),
            o.all([o.eq(s.i("stage"), ADVANCE), o.not_(m.disrupted(o, s, u))]),
        )
        for u in m.t.units
    )


def _disrupted_still(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    t = m.t
    moving = _stage_in(o, s, MOVE, ADVANCE)
    parts = []
    for u in t.real:
        dis = m.disrupted(o, s, u)
        moved = o.all(
            [
                m.on_map(o, s, u),
                m.on_map(o, n, u),
                o.not_(o.eq(s.i(m.at[u]), n.i(m.at[u]))),
            ]
        )
        joins = o.all([o.eq(s.i(m.pend[u]), 0), o.not_(o.eq(n.i(m.pend[u]), 0))])
        parts.append(o.implies(dis, o.all([o.not_(o.all([moving, moved])), o.not_(joins)])))
    return o.all(parts)


def _attackers_undisrupted(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    before_roll = _stage_in(o, s, *BEFORE_ROLL)
    return o.all(
        o.implies(
            o.any([o.not_(o.eq(s.i(m.pend[u]), 0)), o.all([s.b(m.fatt[u]), before_roll])]),
            o.not_(m.disrupted(o, s, u)),
        )
        for u in m.t.real
    )


def _sides(o: Ops[B, I], s: Frame[B, I]) -> B:
    """The Russian steps are in the Russian player-turn, the Japanese ones in the Japanese,
    and a landing is Russian (SHU-SEQ.1)."""
    ru = s.b("ru")
    return o.all(
        [
            o.implies(_stage_in(o, s, FORM, SAIL, AIR, AIR_ROLL, REPLACE), ru),
            o.implies(_stage_in(o, s, SETUP, REINFORCE, DECOY), o.not_(ru)),
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
    fighting = _stage_in(o, s, *FIGHT_STAGES)
    landing = o.all([s.b("landing"), fighting])
    sea = o.any([_stage_in(o, s, SAIL, AIR, AIR_ROLL), landing])
    marks = [
        s.b("landing"),
        o.not_(o.eq(s.i("fhex"), 0)),
        *(s.b(x) for names in (m.fatt, m.fdef, m.retr, m.win) for x in names.values()),
    ]
    declared = _stage_in(o, s, DECLARE, PICK, *FIGHT_STAGES)
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


def _records_lemma(m: Model) -> Lemma:
    return Lemma("each step's records appear in their step only", lambda o, s: _records(m, o, s))


def _regiments(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """SHU-RGT.1, AMB-SHU-10: a regiment is formed exactly while its battalions are in it."""
    t = m.t
    return o.all(
        o.iff(m.on_map(o, s, r), m.is_at(o, s, b, t.IN_REGIMENT))
        for r in t.regiments
        for b in t.bns[r]
    )


def _attacker_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t

    def pending(o: Ops[B, I], s: Frame[B, I]) -> B:
        declaring = _stage_in(o, s, DECLARE, PICK, *FIGHT_STAGES)
        return o.all(
            o.implies(
                o.not_(o.eq(s.i(m.pend[u]), 0)),
                o.all(
                    [
                        declaring,
                        o.not_(s.b("landing")),
                        m.phasing(o, s, u),
                        m.on_map(o, s, u),
                        o.not_(s.b(m.fatt[u])),
                    ]
                ),
            )
            for u in t.real
        )

    return (
        _records_lemma(m),
        Lemma(
            "a declared attack waits, outside a landing, by units of the side attacking on "
            "the map, not in the combat under way",
            pending,
        ),
    )


def _decoys(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    t = m.t
    over = o.eq(s.i("stage"), OVER)
    two = o.any(m.at_hex(o, s, u, t.two_star) for u in t.of_side[RU] if not t.decoy[u])
    one = o.any(m.at_hex(o, s, u, t.one_star) for u in t.of_side[RU] if not t.decoy[u])
    verdict = o.ite(two, STRATEGIC, o.ite(one, MARGINAL, JAPANESE))
    return o.all(
        [
            *(
                o.all(
                    [
                        o.not_(s.b(m.fdef[d])),
                        o.not_(s.b(m.fatt[d])),
                        o.eq(s.i(m.pend[d]), 0),
                    ]
                )
                for d in t.decoys
            ),
            o.iff(over, o.not_(o.eq(s.i("winner"), 0))),
            o.implies(over, o.eq(s.i("winner"), verdict)),
        ]
    )


# --- termination: every step goes down a well-founded order -----------------------------------


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


def _ranking_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t

    def lander(o: Ops[B, I], s: Frame[B, I]) -> B:
        fighting = o.all([s.b("landing"), _stage_in(o, s, *FIGHT_STAGES)])
        return o.implies(
            fighting, o.any(o.all([s.b(m.fatt[u]), s.b(m.party[u])]) for u in t.sailors)
        )

    return (_records_lemma(m), Lemma("a lander's combat is the combat of a unit at sea", lander))


# --- termination as a well-founded descent -----------------------------------------------------


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


def _descends(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
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
    quiet = _stage_in(o, s, AIR, AIR_ROLL, REPLACE, REINFORCE)
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
