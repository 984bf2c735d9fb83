"""Shumshu's properties: what its rules guarantee in every reachable position, or do not.

Each property is declared twice under one ID: as a `kernel.properties.Property` whose check is
plain Python over `ShumshuState` (run after every step of playouts), and as a formal statement
over the symbolic model (`formal`), which the prover proves or refutes. A state property's
check is the position check's invariant of the same meaning (`position.invariant`): written
once, it refuses a position no play reaches and is proved here to hold in every one that play
does reach.

Expected verdicts are per preset; `wargame verify shumshu` holds the prover to them. Play ends
under every preset whose game length (AMB-SHU-2) is bounded; a preset without a bound would be
expected to fail `SHU-P-ENDS`, with the clauses the game names for it. The lemma of the
step records two proofs assume is `step_records`; the well-founded order behind `SHU-P-ENDS`
is `termination`.
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.properties import Property, Verdict
from solvers.checking.prover import Formal, Invariant, Lemma, StepInvariant
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.data.loader import DATA_FILE, load_data
from specs.shumshu.data.variants import CATALOGUE, LENGTH
from specs.shumshu.formal import position
from specs.shumshu.formal.step_records import BEFORE_ROLL, FIGHT_STAGES, records_lemma, stage_in
from specs.shumshu.formal.symbolic import (
    ADVANCE,
    DECLARE,
    JAPANESE,
    MARGINAL,
    MOVE,
    OVER,
    PICK,
    ROLL,
    SETUP,
    STRATEGIC,
)
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.termination import descends, ranking_lemmas
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
        ENDS: StepInvariant(lambda o, s, n: descends(m, o, s, n), lemmas=ranking_lemmas(m)),
    }
    return out


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
    moving = stage_in(o, s, MOVE, ADVANCE)
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
    before_roll = stage_in(o, s, *BEFORE_ROLL)
    return o.all(
        o.implies(
            o.any([o.not_(o.eq(s.i(m.pend[u]), 0)), o.all([s.b(m.fatt[u]), before_roll])]),
            o.not_(m.disrupted(o, s, u)),
        )
        for u in m.t.real
    )


def _attacker_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t

    def pending(o: Ops[B, I], s: Frame[B, I]) -> B:
        declaring = stage_in(o, s, DECLARE, PICK, *FIGHT_STAGES)
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
        records_lemma(m),
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
