"""The single-state lemmas SHU-P-NO-LEAK's relation assumes in both states (SHU-COMBAT.1,
SHU-COMBAT.2, SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-DISRUPT.3, SHU-DISRUPT.5,
SHU-SEQ.1, SHU-RGT.1, SHU-AIR.2, SHU-STACK.1, SHU-LAND.2, AMB-SHU-7, AMB-SHU-21).

Equal Russian observations alone are not an inductive relation: two states could agree on
everything the Russians see and hold, among the pieces they do not, a face-down defender or a
face-down piece with a stale recovery turn, and the next step (which reveals it) would show
the difference. No game reaches such states; each lemma below says why (the clauses that make
it true). `noninterference.prove` proves their conjunction an inductive invariant of the
extended model before it assumes them (tests/shumshu/test_no_leak_lemmas.py proves each one
given those before it). With them a face-down piece differs from another only in where it
stands and whether it moved, which the Russians see in counts; and a decoy discovered in an
attacked hex was never marked moved (`moved_decoys_unattacked`, which rests on the lemmas
before it: the sides apart, attacks only in the combat phase of the side declaring them).
"""

from __future__ import annotations

from solvers.checking.prover import Lemma
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.noleak import FIGHT_LISTS, rev
from specs.shumshu.formal.step_records import FIGHT_STAGES, stage_in
from specs.shumshu.formal.symbolic import DECLARE, PICK, ST
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.rules.state import JP, RU, Stage

RUSSIAN_STAGES = (Stage.FORM, Stage.SAIL, Stage.AIR, Stage.AIR_ROLL)
"""Stages only the Russian player-turn has: forming regiments at the start of his turn
(SHU-RGT.1), his landings (SHU-SEQ.1, SHU-LAND.1) and the airpower's roll against his
shipping during his turn (SHU-AIR.2)."""


def russian_stages(m: Model) -> Lemma:
    """The forming, sailing and air stages come only in the Russian player-turn (SHU-RGT.1,
    SHU-SEQ.1, SHU-AIR.2). Without it two states alike to the Russians could sit in such a
    stage during the Japanese player-turn, with face-down pieces marked moved, and a
    landing discovering a decoy (SHU-COMBAT.6) would show a mark no game shows."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        stage = s.i("stage")
        return o.implies(o.any(o.eq(stage, ST[x]) for x in RUSSIAN_STAGES), s.b("ru"))

    return Lemma("the forming, sailing and air stages are the Russian player-turn's", holds)


def japanese_places(m: Model) -> Lemma:
    """A Japanese piece is waiting on Paramushir (0), on the map, eliminated, or (a decoy
    only) removed until next turn (SHU-SETUP.1, SHU-REINF.1, SHU-COMBAT.6): no Japanese piece
    is ever at sea, sunk or in a regiment, those are the Russians' (SHU-LAND.2, SHU-RGT.1).
    A removed decoy is face up (SHU-COMBAT.6: the Russians saw it removed), and a disrupted
    piece is on the map and face up (SHU-DISRUPT.5)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        t = m.t
        out = []
        for u in t.of_side[JP]:
            at = s.i(m.at[u])
            places = [o.le(at, t.H), o.eq(at, t.GONE)]
            if t.decoy[u]:
                places.append(o.eq(at, t.REMOVED))
            up = s.b(rev(t.ids[u]))
            out.append(o.any(places))
            out.append(o.implies(o.eq(at, t.REMOVED), up))
            dis = m.disrupted(o, s, u)
            out.append(o.implies(dis, o.all([m.on_map(o, s, u), up])))
        return o.all(out)

    return Lemma("Japanese pieces are off the map, on it, eliminated or removed decoys", holds)


def moved_this_turn(m: Model) -> Lemma:
    """A Japanese piece is marked moved only during the Japanese player-turn, never during
    the set-up (SHU-SEQ.1, SHU-MOVE.1: the marks are cleared when a player-turn starts;
    SHU-SETUP.1: placing a piece is no move)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        setup = o.eq(s.i("stage"), ST[Stage.SETUP])
        now = o.all([o.not_(s.b("ru")), o.not_(setup)])
        return o.all(o.implies(s.b(m.mv[u]), now) for u in m.t.of_side[JP])

    return Lemma("Japanese pieces are marked moved only in the Japanese player-turn", holds)


def decoys_never_fight(m: Model) -> Lemma:
    """A decoy never attacks, defends, routs or advances (SHU-COMBAT.6, SHU-STACK.3: it is
    discovered and removed when its hex is attacked; only real units join an attack)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        out = []
        for d in m.t.decoys:
            out.append(o.eq(s.i(m.pend[d]), 0))
            out += [o.not_(s.b(getattr(m, f)[d])) for f in FIGHT_LISTS]
        return o.all(out)

    return Lemma("decoys are in no attack and no combat", holds)


def face_down_clean(m: Model) -> Lemma:
    """A face-down Japanese piece is undisrupted (SHU-DISRUPT.5 reveals a disrupted one), has
    no recovery turn (SHU-DISRUPT.3: recovery clears it, and a decoy coming back starts
    afresh, SHU-COMBAT.6), and is in no combat list: a defender is revealed (SHU-COMBAT.5), a
    routed or withdrawn piece is disrupted (SHU-CRT.4, SHU-CRT.5), a victor is a combatant;
    under `reveal=in_combat` (AMB-SHU-21 i) a piece joining an attack is revealed too, so a
    face-down piece is neither declared nor attacking."""
    in_combat = m.t.v.is_("reveal", "in_combat")

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        t = m.t
        out = []
        for u in t.of_side[JP]:
            clean = [
                o.not_(m.disrupted(o, s, u)),
                o.eq(s.i(m.rec[u]), 0),
                o.not_(s.b(m.fdef[u])),
                o.not_(s.b(m.retr[u])),
                o.not_(s.b(m.win[u])),
            ]
            if in_combat:
                clean += [o.not_(s.b(m.fatt[u])), o.eq(s.i(m.pend[u]), 0)]
            out.append(o.implies(o.not_(s.b(rev(t.ids[u]))), o.all(clean)))
        return o.all(out)

    return Lemma("face-down Japanese pieces are undisrupted and out of every combat", holds)


def russians_ashore_after_setup(m: Model) -> Lemma:
    """During the set-up no Russian piece is on the map (SHU-SETUP.1 to SHU-SETUP.3: the
    Russians come ashore by landing, in their player-turns)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        setup = o.eq(s.i("stage"), ST[Stage.SETUP])
        return o.implies(setup, o.all(o.not_(m.on_map(o, s, u)) for u in m.t.of_side[RU]))

    return Lemma("no Russian piece is on the map during set-up", holds)


def beachhead_not_japanese(m: Model) -> Lemma:
    """While the game goes on, no Japanese piece stands on the beachhead (AMB-SHU-7: it is
    lost when the Japanese take it, `settle`, after every action)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        on = o.not_(o.eq(s.i("stage"), ST[Stage.OVER]))
        return o.implies(on, o.not_(m.has_at(o, s, JP, s.i("beach"))))

    return Lemma("no Japanese piece stands on the beachhead", holds)


def landing_on_its_hex(m: Model) -> Lemma:
    """A landing is a combat under way on the coastal hex the Russians sail for (SHU-LAND.2;
    the combat's record is cleared when it ends)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        hex_ = s.i("sail_hex")
        fight = stage_in(o, s, *FIGHT_STAGES)
        where = [fight, s.b("sail"), o.not_(o.eq(hex_, 0)), o.eq(s.i("fhex"), hex_)]
        return o.implies(s.b("landing"), o.all(where))

    return Lemma("a landing is fought on the hex sailed for", holds)


def sides_apart(m: Model) -> Lemma:
    """No map hex holds pieces of both sides (SHU-STACK.1, SHU-MOVE.3: a unit never enters an
    enemy hex; SHU-LAND.7: a lander comes ashore once its hex is clear; SHU-COMBAT.6: decoys
    there are discovered first; SHU-CRT.5, SHU-COMBAT.13: routs and advances go to hexes free
    of the enemy). Without it a Japanese attack could find a decoy in the hex it attacks,
    marked moved this player-turn, and show the mark when the decoy is discovered."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        t = m.t
        return o.all(
            o.implies(m.on_map(o, s, r), o.not_(o.eq(s.i(m.at[u]), s.i(m.at[r]))))
            for r in t.of_side[RU]
            for u in t.of_side[JP]
        )

    return Lemma("no map hex holds pieces of both sides", holds)


def attacks_of_the_player_turn(m: Model) -> Lemma:
    """Only the side whose player-turn it is has attacks declared (SHU-SEQ.1, SHU-COMBAT.1:
    the phasing player declares; the declarations are cleared when a player-turn starts)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.all(
            o.implies(o.not_(o.eq(s.i(m.pend[u]), 0)), m.phasing(o, s, u)) for u in m.t.units
        )

    return Lemma("attacks are declared by the side whose player-turn it is", holds)


def attacks_in_the_combat_phase(m: Model) -> Lemma:
    """Attacks are declared only from the declaration to the end of the combat phase, never
    during a landing (SHU-SEQ.1, SHU-COMBAT.1: declared after movement, cleared when the phase
    ends; the landings come before movement)."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        phase = stage_in(o, s, DECLARE, PICK, *FIGHT_STAGES)
        now = o.all([phase, o.not_(s.b("landing"))])
        return o.all(o.implies(o.not_(o.eq(s.i(m.pend[u]), 0)), now) for u in m.t.units)

    return Lemma("attacks are declared only in the combat phase", holds)


def moved_decoys_unattacked(m: Model) -> Lemma:
    """A decoy marked moved stands on no hex an attack is declared into: the Japanese attack
    hexes the Russians hold (SHU-COMBAT.1, SHU-COMBAT.2), where no Japanese piece stands, and
    Japanese pieces are marked moved only in the Japanese player-turn."""

    def holds(o: Ops[B, I], s: Frame[B, I]) -> B:
        t = m.t
        return o.all(
            o.not_(
                o.all(
                    [
                        s.b(m.mv[d]),
                        o.not_(o.eq(s.i(m.pend[u]), 0)),
                        o.eq(s.i(m.at[d]), s.i(m.pend[u])),
                    ]
                )
            )
            for d in t.decoys
            for u in t.units
        )

    return Lemma("a decoy marked moved stands on no hex attacked", holds)


def lemmas(m: Model) -> tuple[Lemma, ...]:
    """The lemmas in the order they are proved (each may assume those before it)."""
    return (
        japanese_places(m),
        moved_this_turn(m),
        decoys_never_fight(m),
        face_down_clean(m),
        russian_stages(m),
        russians_ashore_after_setup(m),
        beachhead_not_japanese(m),
        landing_on_its_hex(m),
        sides_apart(m),
        attacks_of_the_player_turn(m),
        attacks_in_the_combat_phase(m),
        moved_decoys_unattacked(m),
    )
