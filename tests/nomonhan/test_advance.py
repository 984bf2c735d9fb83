"""Advance after combat (NOM-9.29 to NOM-9.34), and pending combats disturbed by an earlier
advance (AMB-NOM-19)."""

from __future__ import annotations

from typing import Any

from specs.nomonhan.rules.actions import Advance, EndAdvance, Loss, Resolve, Roll
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from tests.nomonhan.helpers_combat import (
    c,
    combat_position,
    declare,
    dice,
    hx,
    rolling,
    where,
)
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_615,
    apply_all,
    clauses_of_illegal,
    legal,
)

ADVANCE_REFUSAL = ("NOM-9.30", "NOM-9.32", "NOM-9.33")


def advance_options(state: NomonhanState) -> set[tuple[str, str]]:
    out = set()
    for action in legal(state):
        if isinstance(action, Advance):
            out.add((action.unit, str(action.to)))
        else:
            assert isinstance(action, EndAdvance)
    return out


def advancers(state: NomonhanState) -> set[str]:
    return {u for u, _ in advance_options(state)}


def japan_wins(
    units: dict[str, str],
    attackers: str | tuple[str, ...],
    defenders: str | tuple[str, ...],
    hits: int,
    *losses: Loss,
    **kwargs: Any,
) -> NomonhanState:
    """Japan attacks, wins by `hits`, and the Soviets take `losses`."""
    s = rolling(combat_position(units, **kwargs), c(attackers, defenders))
    return apply_all(s, Roll(hits, 0), *losses)


def left_points(state: NomonhanState) -> int:
    assert state.current is not None
    return state.current.advance_left


# --- NOM-9.29: when there is an advance, and how many points -----------------------------


def test_nom_9_29_enemy_gone_winner_gains_points_equal_to_damage() -> None:
    """NOM-9.29: 36/149 retreats out of 0604 and loses a step (2 damage): Japan gains 2 advance
    points and chooses the advance."""
    s = japan_wins(
        {JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2, Loss(SU_36, hx("0705")), Loss(SU_36)
    )
    assert (where(s, SU_36), s.unit(SU_36).steps) == ("0705", 1)
    assert s.stage == Stage.ADVANCE and GAME.to_move(s) == "JP"
    assert left_points(s) == 2


def test_nom_9_29_no_advance_while_the_enemy_holds_its_hex() -> None:
    """NOM-9.29: 36/149 takes its damage as a step and stays in 0604: no advance, the phase
    ends."""
    s = japan_wins({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 1, Loss(SU_36))
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)
    assert where(s, JP_KOB) == "0504"


def test_nom_9_29_defender_can_be_the_winner_who_advances() -> None:
    """NOM-9.29: in the Soviet (NIP) Combat Phase 36/149 attacks Kobayashi and loses; it
    retreats, and Kobayashi, the defender, advances."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604"}, phase=Phase.NIP_COMBAT)
    s = apply_all(rolling(s, c(SU_36, JP_KOB)), Roll(0, 1), Loss(SU_36, hx("0705")))
    assert s.stage == Stage.ADVANCE and GAME.to_move(s) == "JP"
    assert left_points(s) == 1
    assert advancers(s) == {JP_KOB}
    s = apply_all(s, Advance(JP_KOB, hx("0604")))
    assert where(s, JP_KOB) == "0604"
    assert (s.turn, s.initiative) == (1, "JP")  # the IP won: no initiative change


def test_nom_9_29_advance_points_hit_difference() -> None:
    """NOM-9.29: (advance_points=hit_difference) a flipped 36/149 takes 3 damage and is gone
    after the first: Japan still gains 3 points."""
    s = japan_wins(
        {JP_KOB: "0504", SU_36: "0604"},
        JP_KOB,
        SU_36,
        3,
        Loss(SU_36),
        steps={SU_36: 1},
        options={"advance_points": "hit_difference"},
    )
    assert s.unit(SU_36).steps == 0
    assert left_points(s) == 3


def test_nom_9_29_advance_points_damage_applied() -> None:
    """NOM-9.29: (advance_points=damage_applied) the same 3 damage gives only the 1 point that
    could be applied."""
    s = japan_wins(
        {JP_KOB: "0504", SU_36: "0604"},
        JP_KOB,
        SU_36,
        3,
        Loss(SU_36),
        steps={SU_36: 1},
        options={"advance_points": "damage_applied"},
    )
    assert left_points(s) == 1
    s = apply_all(s, Advance(JP_KOB, hx("0604")))
    assert (s.phase, where(s, JP_KOB)) == (Phase.NIP_MOVEMENT, "0604")


def test_nom_9_29_advance_trigger_all_hexes() -> None:
    """NOM-9.29: (advance_trigger=all_hexes) 36/149 retreats but 9 stays in its hex: no
    advance."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    s = japan_wins(
        units,
        JP_KOB,
        (SU_36, SU_9),
        2,
        Loss(SU_36, hx("0705")),
        Loss(SU_9),
        options={"advance_trigger": "all_hexes"},
    )
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)


def test_nom_9_29_advance_trigger_any_hex() -> None:
    """NOM-9.29: (advance_trigger=any_hex) the same result: one hex emptied is enough for the
    2-point advance."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    s = japan_wins(
        units,
        JP_KOB,
        (SU_36, SU_9),
        2,
        Loss(SU_36, hx("0705")),
        Loss(SU_9),
        options={"advance_trigger": "any_hex"},
    )
    assert s.stage == Stage.ADVANCE and left_points(s) == 2


# --- NOM-9.30 to NOM-9.32: how the points are used -----------------------------------------


def test_nom_9_30_advance_units_participants() -> None:
    """NOM-9.30: (advance_units=participants, JA) only units that fought may advance."""
    units = {JP_KOB: "0504", JP_3TK: "0407", SU_36: "0604"}
    s = japan_wins(
        units, JP_KOB, SU_36, 1, Loss(SU_36, hx("0705")), options={"advance_units": "participants"}
    )
    assert advancers(s) == {JP_KOB}
    assert clauses_of_illegal(s, Advance(JP_3TK, hx("0408"))) == ADVANCE_REFUSAL


def test_nom_9_30_advance_units_any_friendly() -> None:
    """NOM-9.30: (advance_units=any_friendly, EN) any Japanese unit on the map may use the
    points, even one far from the combat."""
    units = {JP_KOB: "0504", JP_3TK: "0407", SU_36: "0604"}
    s = japan_wins(
        units, JP_KOB, SU_36, 1, Loss(SU_36, hx("0705")), options={"advance_units": "any_friendly"}
    )
    assert advancers(s) == {JP_KOB, JP_3TK, JP_4TK}
    s = apply_all(s, Advance(JP_3TK, hx("0408")))
    assert where(s, JP_3TK) == "0408" and s.stage == Stage.MOVE


def test_nom_9_30_points_split_among_units_one_hex_each() -> None:
    """NOM-9.30: each point moves one unit one hex; two points may move two units."""
    units = {JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604"}
    s = japan_wins(units, (JP_KOB, JP_3TK), SU_36, 2, Loss(SU_36, hx("0705")), Loss(SU_36))
    assert left_points(s) == 2
    assert clauses_of_illegal(s, Advance(JP_KOB, hx("0605"))) == ADVANCE_REFUSAL  # two hexes
    s = apply_all(s, Advance(JP_KOB, hx("0604")))
    assert left_points(s) == 1
    s = apply_all(s, Advance(JP_3TK, hx("0605")))
    assert (where(s, JP_KOB), where(s, JP_3TK)) == ("0604", "0605")
    assert s.stage == Stage.MOVE


def test_nom_9_30_advance_may_stop_early() -> None:
    """NOM-9.30: the winner may advance; unused points are dropped."""
    s = japan_wins(
        {JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2, Loss(SU_36, hx("0705")), Loss(SU_36)
    )
    assert EndAdvance() in legal(s)
    s = apply_all(s, EndAdvance())
    assert (s.phase, where(s, JP_KOB)) == (Phase.NIP_MOVEMENT, "0504")


def test_nom_9_31_advance_ignores_enemy_zoc() -> None:
    """NOM-9.31: 6/15 in 0703 puts 0604 and 0704 in its ZOC; Kobayashi still advances into
    0604 and on out of it."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_615: "0703"}
    s = japan_wins(units, JP_KOB, SU_36, 2, Loss(SU_36, hx("0705")), Loss(SU_36))
    assert (JP_KOB, "0604") in advance_options(s)
    s = apply_all(s, Advance(JP_KOB, hx("0604")))
    assert (JP_KOB, "0704") in advance_options(s)  # in 6/15's ZOC too
    s = apply_all(s, Advance(JP_KOB, hx("0704")))
    assert where(s, JP_KOB) == "0704"


def test_nom_9_32_advance_into_any_vacant_hex() -> None:
    """NOM-9.32: the advance need not enter the enemy's hex: every vacant neighbour is open,
    and occupied hexes are not."""
    units = {JP_KOB: "0504", SU_36: "0604", JP_3TK: "0403"}
    s = japan_wins(units, JP_KOB, SU_36, 1, Loss(SU_36, hx("0705")))
    assert advance_options(s) == {(JP_KOB, h) for h in ("0503", "0505", "0404", "0603", "0604")}
    assert clauses_of_illegal(s, Advance(JP_KOB, hx("0403"))) == ADVANCE_REFUSAL
    s = apply_all(s, Advance(JP_KOB, hx("0404")))
    assert where(s, JP_KOB) == "0404"


def test_nom_9_32_advance_follows_river_crossing_rules() -> None:
    """NOM-9.32 (AMB-NOM-21): Kobayashi in 0303 may not advance across the river into 0202 or
    0203."""
    s = japan_wins({JP_KOB: "0303", SU_36: "0403"}, JP_KOB, SU_36, 1, Loss(SU_36, hx("0503")))
    assert advance_options(s) == {(JP_KOB, h) for h in ("0302", "0402", "0403", "0304")}


# --- NOM-9.33: tanks and bridges ----------------------------------------------------------


def test_nom_9_33_tank_advance_bridge_banned() -> None:
    """NOM-9.33: (tank_advance_bridge=banned, JA) 3rd Tank in 0309 and Kobayashi in 0208
    eliminate 6/15 in 0209: the tank may not advance across the fixed bridge, Kobayashi may
    advance into 0209 from its own bank."""
    units = {JP_3TK: "0309", JP_KOB: "0208", SU_615: "0209"}
    s = japan_wins(
        units,
        (JP_KOB, JP_3TK),
        SU_615,
        1,
        Loss(SU_615),
        steps={SU_615: 1},
        options={"tank_advance_bridge": "banned"},
    )
    assert advance_options(s) == {
        *((JP_3TK, h) for h in ("0308", "0408", "0409")),
        *((JP_KOB, h) for h in ("0207", "0209", "0108", "0109")),
    }
    assert clauses_of_illegal(s, Advance(JP_3TK, hx("0209"))) == ADVANCE_REFUSAL


def test_nom_9_33_tank_advance_bridge_allowed() -> None:
    """NOM-9.33: (tank_advance_bridge=allowed, EN) the tank may advance across the bridge."""
    units = {JP_3TK: "0309", JP_KOB: "0208", SU_615: "0209"}
    s = japan_wins(
        units,
        (JP_KOB, JP_3TK),
        SU_615,
        1,
        Loss(SU_615),
        steps={SU_615: 1},
        options={"tank_advance_bridge": "allowed"},
    )
    assert {h for u, h in advance_options(s) if u == JP_3TK} == {"0308", "0408", "0409", "0209"}
    s = apply_all(s, Advance(JP_3TK, hx("0209")))
    assert where(s, JP_3TK) == "0209"


# --- NOM-9.34: the text's example ------------------------------------------------------------


THREE_ATTACKERS = {JP_KOB: "0504", JP_3TK: "0505", JP_4TK: "0603", SU_36: "0604"}


def _three_damage() -> NomonhanState:
    s = japan_wins(
        THREE_ATTACKERS, (JP_KOB, JP_3TK, JP_4TK), SU_36, 3, Loss(SU_36), steps={SU_36: 1}
    )
    assert left_points(s) == 3
    return s


def test_nom_9_34_three_damage_one_unit_three_hexes() -> None:
    """NOM-9.34: after inflicting 3 damage one unit may advance 3 hexes."""
    s = apply_all(
        _three_damage(),
        Advance(JP_KOB, hx("0604")),
        Advance(JP_KOB, hx("0705")),
        Advance(JP_KOB, hx("0805")),
    )
    assert where(s, JP_KOB) == "0805"
    assert (where(s, JP_3TK), where(s, JP_4TK)) == ("0505", "0603")
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)


def test_nom_9_34_three_damage_three_units_one_hex_each() -> None:
    """NOM-9.34: or three participating units may advance 1 hex each; no fourth hex."""
    s = apply_all(
        _three_damage(),
        Advance(JP_KOB, hx("0604")),
        Advance(JP_3TK, hx("0605")),
    )
    assert left_points(s) == 1
    s = apply_all(s, Advance(JP_4TK, hx("0703")))
    assert (where(s, JP_KOB), where(s, JP_3TK), where(s, JP_4TK)) == ("0604", "0605", "0703")
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)
    assert clauses_of_illegal(s, Advance(JP_KOB, hx("0705"))) == ("NOM-8.1",)


# --- AMB-NOM-19: a pending combat disturbed by an advance -----------------------------------


DISTURBED = {JP_KOB: "0504", SU_36: "0604", JP_3TK: "0507", JP_4TK: "0606", SU_9: "0607"}


def _disturb(reading: str) -> NomonhanState:
    """EN (any friendly unit advances): Kobayashi beats 36/149; the advance point moves the
    4th Tank out of contact with 9 before its declared combat is resolved."""
    s = combat_position(DISTURBED, preset="en", options={"disturbed_combats": reading})
    s = apply_all(
        s,
        declare(c(JP_KOB, SU_36), c((JP_3TK, JP_4TK), SU_9)),
        Resolve(0),
        Roll(1, 0),
        Loss(SU_36, hx("0705")),
    )
    assert s.stage == Stage.ADVANCE
    s = apply_all(s, Advance(JP_4TK, hx("0605")))
    assert s.stage == Stage.ROLL
    return s


def test_nom_9_29_disturbed_combats_drop_out_of_contact() -> None:
    """NOM-9.29, NOM-9.8: (disturbed_combats=drop_out_of_contact) the 4th Tank, no longer next
    to 9, drops out: 3rd Tank fights alone (4 dice against 2)."""
    s = _disturb("drop_out_of_contact")
    assert s.current is not None and s.current.combat == c(JP_3TK, SU_9)
    assert dice(s, s.current.combat) == (4, 2)


def test_nom_9_29_disturbed_combats_resolve_anyway() -> None:
    """NOM-9.29, NOM-9.8: (disturbed_combats=resolve_anyway) the combat is fought as declared,
    with the 4th Tank's 3 dice."""
    s = _disturb("resolve_anyway")
    assert s.current is not None and s.current.combat == c((JP_3TK, JP_4TK), SU_9)
    assert dice(s, s.current.combat) == (7, 2)


def test_nom_9_29_disturbed_combat_with_nobody_left_is_cancelled() -> None:
    """NOM-9.29, NOM-9.8: (disturbed_combats=drop_out_of_contact) when every attacker has left
    contact the combat is cancelled and the phase ends; under resolve_anyway it is fought."""
    units = {JP_KOB: "0504", SU_36: "0604", JP_4TK: "0606", SU_9: "0607"}
    for reading, stage in (("drop_out_of_contact", Stage.MOVE), ("resolve_anyway", Stage.ROLL)):
        s = combat_position(units, preset="en", options={"disturbed_combats": reading})
        s = apply_all(
            s,
            declare(c(JP_KOB, SU_36), c(JP_4TK, SU_9)),
            Resolve(0),
            Roll(1, 0),
            Loss(SU_36, hx("0705")),
            Advance(JP_4TK, hx("0605")),
        )
        assert s.stage == stage, reading
