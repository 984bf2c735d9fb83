"""What happens to pieces: disruption and its recovery, elimination, regiments forming and
breaking (SHU-DISRUPT.1 to SHU-DISRUPT.5, SHU-RGT.1, SHU-RGT.2, SHU-COMBAT.5)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import JP, RU, Loc, Piece, ShumshuState
from specs.shumshu.rules.units import evolve_pieces, next_period_start


def recovery_turn(s: ShumshuState, side: str) -> int:
    """The player-turn at whose end a unit of `side` disrupted now recovers.

    Japanese (SHU-DISRUPT.3, AMB-SHU-20): at the end of the next Japanese player-turn (this
    one, if it is Japanese), or of this very player-turn. Russians (SHU-DISRUPT.4): at the end
    of the first Japanese combat phase after the disruption, or of the next game turn's."""
    v = s.variant
    pt = s.player_turn
    if side == JP:
        if v.is_("jp_recovery", "same_player_turn"):
            return pt
        return pt if s.side == JP else pt + 1  # SHU-DISRUPT.3: end of his own player-turn
    if v.is_("ru_recovery", "first_after"):
        return pt + 1 if s.side == RU else pt + 2  # SHU-DISRUPT.4: next Japanese combat phase
    return 2 * next_period_start(s)


def disrupt(b: Board, s: ShumshuState, ids: Iterable[str]) -> ShumshuState:
    """Disrupt units (again: the recovery is counted from now, "if they are not re-D-ed",
    SHU-DISRUPT.4); a disrupted Japanese unit is face up (SHU-DISRUPT.5)."""
    changes: dict[str, Piece] = {}
    for uid in ids:
        p = s.piece(uid)
        side = b.side_of[uid]
        changes[uid] = attrs.evolve(  # SHU-DISRUPT.5: a disrupted Japanese unit is face up
            p, disrupted=True, recover=recovery_turn(s, side), revealed=p.revealed or side == JP
        )
    return evolve_pieces(s, changes)


def eliminate(b: Board, s: ShumshuState, ids: Iterable[str], *, to: Loc = Loc.GONE) -> ShumshuState:
    """Remove units from play (`to` SUNK: lost at sea for good, `sunk_passengers`). A regiment
    takes its battalions with it (AMB-SHU-10); its counter may be formed again, or never once
    a battalion or the regiment is lost (`reform`, AMB-SHU-10 iv). A Japanese unit is turned
    face up, or leaves as it was (`eliminated_face`)."""
    v = s.variant
    lasting = v.is_("reform", "not_after_loss")
    face_up = v.is_("eliminated_face", "face_up")
    changes: dict[str, Piece] = {}
    for uid in ids:
        spec = b.unit(uid)
        if spec.is_regiment:
            changes[uid] = Piece(uid, Loc.GONE if lasting else Loc.UNFORMED)
            for bn in b.battalions_of(uid):
                changes[bn] = Piece(bn, to)
            continue
        p = s.piece(uid)
        shown = spec.side == JP and (face_up or p.revealed or p.disrupted)
        changes[uid] = Piece(uid, to, revealed=shown)
        if lasting and spec.regiment is not None:
            rgt = changes.get(spec.regiment, s.piece(spec.regiment))
            if rgt.loc is Loc.UNFORMED:
                changes[spec.regiment] = Piece(spec.regiment, Loc.GONE)
    return evolve_pieces(s, changes)


def form(b: Board, s: ShumshuState, regiment: str, at: Hex) -> ShumshuState:
    """Three undisrupted battalions become their regiment; the battalions leave the map while
    it exists (SHU-RGT.1, AMB-SHU-10)."""
    changes = {bn: Piece(bn, Loc.IN_REGIMENT) for bn in b.battalions_of(regiment)}
    changes[regiment] = Piece(regiment, Loc.MAP, at)  # SHU-RGT.1: the regiment replaces them
    s = evolve_pieces(s, changes)
    if s.variant.is_("regiment_use", "next_turn"):
        s = attrs.evolve(s, acted=s.acted | {regiment})
    return s


def break_regiment(b: Board, s: ShumshuState, regiment: str) -> ShumshuState:
    """A regiment hit by DR or AD breaks back into its battalions where it ends up, each
    disrupted (SHU-RGT.2, AMB-SHU-10 iii)."""
    at = s.piece(regiment).hex
    bns = b.battalions_of(regiment)
    changes = {bn: Piece(bn, Loc.MAP, at) for bn in bns}  # SHU-RGT.2: back to battalions
    changes[regiment] = Piece(regiment, Loc.UNFORMED)
    s = evolve_pieces(s, changes)
    return disrupt(b, s, bns)


def recover(b: Board, s: ShumshuState, side: str) -> ShumshuState:
    """Disrupted units of `side` whose time has come recover (SHU-DISRUPT.3, SHU-DISRUPT.4);
    a Japanese unit goes face down again (AMB-SHU-21 ii), a Russian unit in a sea box goes
    back off-board (AMB-SHU-4)."""
    pt = s.player_turn
    rehide = s.variant.is_("rehide", "on_recovery")
    changes: dict[str, Piece] = {}
    for p in s.units:
        if not p.disrupted or b.side_of[p.id] != side or p.recover > pt:
            continue
        if p.loc is Loc.SEA:
            changes[p.id] = Piece(p.id, Loc.POOL)
        elif p.loc is Loc.MAP:  # SHU-DISRUPT.3 (Japanese), SHU-DISRUPT.4 (Russians): recovered
            changes[p.id] = attrs.evolve(
                p, disrupted=False, recover=0, revealed=p.revealed and not rehide
            )
    return evolve_pieces(s, changes)
