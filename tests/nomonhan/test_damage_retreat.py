"""Damage, step losses and retreats (NOM-9.24 to NOM-9.28), and what an initiative change does
to the combat in progress (NOM-6.2, NOM-6.3)."""

from __future__ import annotations

from typing import Any

from specs.nomonhan.rules.actions import EndAdvance, Loss, Resolve, Roll
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from tests.nomonhan.helpers_combat import (
    c,
    combat_position,
    declare,
    hx,
    loss_options,
    retreats_of,
    rolling,
    where,
)
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
)


def soviets_lose(
    units: dict[str, str],
    attackers: str | tuple[str, ...],
    defenders: str | tuple[str, ...],
    damage: int,
    **kwargs: Any,
) -> NomonhanState:
    """Japan attacks in its Combat Phase and wins by `damage` hits."""
    s = rolling(combat_position(units, **kwargs), c(attackers, defenders))
    return apply_all(s, Roll(damage, 0))


# --- NOM-9.24: one retreat hex or one step per damage point -------------------------------


def test_nom_9_24_each_damage_point_is_a_retreat_or_a_step() -> None:
    """NOM-9.24: 36/149 (0604) takes 2 damage: each point is a one-hex retreat or a step; the
    first step flips it, the second removes it."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2)
    assert s.stage == Stage.DAMAGE and GAME.to_move(s) == "SU"
    assert loss_options(s) == {(SU_36, None), (SU_36, "0605"), (SU_36, "0704"), (SU_36, "0705")}
    s = apply_all(s, Loss(SU_36, None))
    assert (where(s, SU_36), s.unit(SU_36).steps) == ("0604", 1)
    assert s.current is not None and s.current.damage_left == 1
    s = apply_all(s, Loss(SU_36, None))
    assert (where(s, SU_36), s.unit(SU_36).steps) == (None, 0)


def test_nom_9_24_retreat_moves_one_hex_keeping_steps() -> None:
    """NOM-9.24: a retreat moves the unit one hex and costs no step."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 1)
    s = apply_all(s, Loss(SU_36, hx("0705")))
    assert (where(s, SU_36), s.unit(SU_36).steps) == ("0705", 2)


def test_nom_9_24_flipped_unit_is_removed_by_one_step() -> None:
    """NOM-9.24: an already flipped unit is removed by its next step loss."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 1, steps={SU_36: 1})
    s = apply_all(s, Loss(SU_36, None))
    assert (where(s, SU_36), s.unit(SU_36).steps) == (None, 0)


def test_nom_9_24_points_spread_over_the_losing_participants() -> None:
    """NOM-9.24: with two defenders, each damage point goes to either of them; units that did
    not take part in the combat take none."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503", SU_615: "0706"}
    s = soviets_lose(units, JP_KOB, (SU_36, SU_9), 2)
    units_offered = {u for u, _ in loss_options(s)}
    assert units_offered == {SU_36, SU_9}
    assert clauses_of_illegal(s, Loss(SU_615, None)) == ("NOM-9.24",)
    s = apply_all(s, Loss(SU_9, None))
    assert {u for u, _ in loss_options(s)} == {SU_36, SU_9}
    s = apply_all(s, Loss(SU_36, None))
    assert (s.unit(SU_9).steps, s.unit(SU_36).steps) == (1, 1)


def test_nom_9_24_damage_allocation_owner() -> None:
    """NOM-9.24: (damage_allocation=owner) the owner of the damaged units chooses each point,
    whichever side wins."""
    units = {JP_KOB: "0504", SU_36: "0604"}
    su_loses = soviets_lose(units, JP_KOB, SU_36, 1, options={"damage_allocation": "owner"})
    assert GAME.to_move(su_loses) == "SU"
    s = rolling(combat_position(units, options={"damage_allocation": "owner"}), c(JP_KOB, SU_36))
    assert GAME.to_move(apply_all(s, Roll(0, 1))) == "JP"


def test_nom_9_24_damage_allocation_winner() -> None:
    """NOM-9.24: (damage_allocation=winner) the winner chooses where each point goes, from the
    same choices."""
    units = {JP_KOB: "0504", SU_36: "0604"}
    owner = soviets_lose(units, JP_KOB, SU_36, 1, options={"damage_allocation": "owner"})
    winner = soviets_lose(units, JP_KOB, SU_36, 1, options={"damage_allocation": "winner"})
    assert GAME.to_move(winner) == "JP"
    assert loss_options(winner) == loss_options(owner)
    s = rolling(combat_position(units, options={"damage_allocation": "winner"}), c(JP_KOB, SU_36))
    assert GAME.to_move(apply_all(s, Roll(0, 1))) == "SU"


def test_nom_9_24_retreat_repeat_per_point() -> None:
    """NOM-9.24: (retreat_repeat=per_point) a unit given two points may retreat twice, one hex
    each time, never back into an enemy ZOC."""
    s = soviets_lose(
        {JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2, options={"retreat_repeat": "per_point"}
    )
    s = apply_all(s, Loss(SU_36, hx("0705")))
    assert retreats_of(s, SU_36) == {"0704", "0706", "0605", "0804", "0805"}
    s = apply_all(s, Loss(SU_36, hx("0805")))
    assert (where(s, SU_36), s.unit(SU_36).steps) == ("0805", 2)


def test_nom_9_24_retreat_repeat_once() -> None:
    """NOM-9.24: (retreat_repeat=once) after one retreat, further points to that unit are
    step losses."""
    s = soviets_lose(
        {JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2, options={"retreat_repeat": "once"}
    )
    s = apply_all(s, Loss(SU_36, hx("0705")))
    assert loss_options(s) == {(SU_36, None)}
    assert clauses_of_illegal(s, Loss(SU_36, hx("0805"))) == ("NOM-9.24",)


def test_nom_9_24_retreat_follows_the_crossing_rules() -> None:
    """NOM-9.24 (AMB-NOM-20): a retreat never crosses a river without a bridge: 6/15 in 0303
    may not retreat to 0202 or 0203 across the river."""
    s = soviets_lose({JP_KOB: "0403", SU_615: "0303"}, JP_KOB, SU_615, 1)
    assert retreats_of(s, SU_615) == {"0302"}
    assert clauses_of_illegal(s, Loss(SU_615, hx("0203"))) == ("NOM-8.4",)


# --- NOM-9.25 to NOM-9.27: where a retreat may not go ----------------------------------------


def test_nom_9_25_no_retreat_into_enemy_zoc() -> None:
    """NOM-9.25: 0603 and 0505 are in Kobayashi's ZOC: 36/149 may not retreat there."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 1)
    assert retreats_of(s, SU_36) == {"0605", "0704", "0705"}
    assert clauses_of_illegal(s, Loss(SU_36, hx("0504"))) == ("NOM-8.6",)
    assert clauses_of_illegal(s, Loss(SU_36, hx("0806"))) == ("NOM-9.24",)  # not adjacent
    for ezoc in ("0603", "0505"):
        assert clauses_of_illegal(s, Loss(SU_36, hx(ezoc))) == ("NOM-9.25",)


def test_nom_9_25_zoc_does_not_reach_across_the_river_for_retreat() -> None:
    """NOM-9.25, NOM-7.4: a Japanese unit across a river without a bridge puts no ZOC on a
    retreat hex: 3rd Tank in 0202 is across the river from 0302, so 6/15 may retreat there."""
    s = soviets_lose({JP_KOB: "0403", SU_615: "0303", JP_3TK: "0202"}, JP_KOB, SU_615, 1)
    assert retreats_of(s, SU_615) == {"0302"}


def test_nom_9_26_no_retreat_into_a_friendly_unit() -> None:
    """NOM-9.26: with 9 in 0705, 36/149 may not retreat there."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604", SU_9: "0705"}, JP_KOB, SU_36, 1)
    assert retreats_of(s, SU_36) == {"0605", "0704"}
    assert clauses_of_illegal(s, Loss(SU_36, hx("0705"))) == ("NOM-9.26",)


def test_nom_9_27_unit_that_cannot_retreat_loses_steps() -> None:
    """NOM-9.27: 36/149 surrounded by Japanese ZOCs can only lose steps, and is removed after
    two points."""
    s = soviets_lose({JP_KOB: "0504", JP_3TK: "0705", SU_36: "0604"}, (JP_KOB, JP_3TK), SU_36, 2)
    assert loss_options(s) == {(SU_36, None)}
    assert clauses_of_illegal(s, Loss(SU_36, hx("0605"))) == ("NOM-9.25",)
    s = apply_all(s, Loss(SU_36, None))
    assert loss_options(s) == {(SU_36, None)}
    s = apply_all(s, Loss(SU_36, None))
    assert s.unit(SU_36).steps == 0


# --- NOM-9.28: the Artillery ----------------------------------------------------------------


def test_nom_9_28_ja_artillery_cannot_retreat_and_one_point_ends_the_game() -> None:
    """NOM-9.28, NOM-4.1: (artillery_rules=ja) the Artillery may not retreat; its first damage
    point eliminates it and Japan wins at once."""
    s = soviets_lose({JP_KOB: "0504", SU_ART: "0604"}, JP_KOB, SU_ART, 1)
    assert loss_options(s) == {(SU_ART, None)}
    assert clauses_of_illegal(s, Loss(SU_ART, hx("0705"))) == ("NOM-9.28",)
    assert s.unit(SU_ART).steps == 1  # one step under the JA reading (AMB-NOM-15)
    s = apply_all(s, Loss(SU_ART, None))
    assert s.stage == Stage.OVER and GAME.to_move(s) is None
    result = GAME.outcome(s)
    assert result is not None
    assert (result.winner, result.clause) == ("JP", "NOM-4.1")
    assert s.unit(SU_ART).hex is None


def test_nom_9_28_generic_artillery_retreats_and_has_two_steps() -> None:
    """NOM-9.28: (artillery_rules=generic, EN) the Artillery is an ordinary two-step counter:
    it may retreat, and a first step loss only flips it."""
    s = soviets_lose(
        {JP_KOB: "0504", SU_ART: "0604"},
        JP_KOB,
        SU_ART,
        1,
        options={"artillery_rules": "generic"},
    )
    assert loss_options(s) == {(SU_ART, None), (SU_ART, "0605"), (SU_ART, "0704"), (SU_ART, "0705")}
    flipped = apply_all(s, Loss(SU_ART, None))
    assert flipped.stage != Stage.OVER
    assert (where(flipped, SU_ART), flipped.unit(SU_ART).steps) == ("0604", 1)
    retreated = apply_all(s, Loss(SU_ART, hx("0705")))
    assert where(retreated, SU_ART) == "0705" and retreated.result is None


def test_nom_9_28_artillery_shielding_may_shield() -> None:
    """NOM-9.28 (AMB-NOM-15): (artillery_shielding=may_shield) the Artillery attacked with
    36/149 may be spared: the damage can go to 36/149."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_ART: "0503"}
    s = soviets_lose(
        units,
        JP_KOB,
        (SU_36, SU_ART),
        1,
        options={"artillery_shielding": "may_shield"},
    )
    assert loss_options(s) == {
        (SU_ART, None),
        (SU_36, None),
        (SU_36, "0605"),
        (SU_36, "0704"),
        (SU_36, "0705"),
    }
    s = apply_all(s, Loss(SU_36, None))
    assert s.result is None and s.unit(SU_ART).hex == hx("0503")


def test_nom_9_28_artillery_shielding_any_damage_ends() -> None:
    """NOM-9.28 (AMB-NOM-15): (artillery_shielding=any_damage_ends) any damage in a combat with
    the Artillery falls on it, and the game ends."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_ART: "0503"}
    s = soviets_lose(
        units,
        JP_KOB,
        (SU_36, SU_ART),
        1,
        options={"artillery_shielding": "any_damage_ends"},
    )
    assert loss_options(s) == {(SU_ART, None)}
    assert clauses_of_illegal(s, Loss(SU_36, None)) == ("NOM-9.28",)
    assert clauses_of_illegal(s, Loss(SU_36, hx("0605"))) == ("NOM-9.28",)
    s = apply_all(s, Loss(SU_ART, None))
    assert s.result is not None and s.result.clause == "NOM-4.1"


# --- NOM-6.2, NOM-6.3: an initiative change in the middle of a combat ------------------------


TWO_FIGHTS = {JP_KOB: "0504", JP_3TK: "0507", SU_36: "0604", SU_9: "0607"}


def _japan_loses_first_combat(reading: str) -> NomonhanState:
    """Japan (the IP) declares two combats, resolves Kobayashi's first and loses it by 2."""
    s = combat_position(TWO_FIGHTS, options={"initiative_change": reading})
    s = apply_all(s, declare(c(JP_KOB, SU_36), c(JP_3TK, SU_9)), Resolve(0), Roll(0, 2))
    assert GAME.to_move(s) == "JP" and s.current is not None and s.current.damage_left == 2
    return apply_all(s, Loss(JP_KOB, None))


def test_nom_9_24_initiative_change_finish_combat() -> None:
    """NOM-9.24, NOM-6.2, NOM-6.3: (initiative_change=finish_combat) after the IP's first step
    loss the combat is finished (the second point, then the Soviet advance); only then does the
    turn end, cancelling the other declared combat."""
    s = _japan_loses_first_combat("finish_combat")
    assert s.stage == Stage.DAMAGE and s.turn_ending and s.turn == 1
    assert s.pending == (c(JP_3TK, SU_9),)
    s = apply_all(s, Loss(JP_KOB, None))
    assert s.unit(JP_KOB).steps == 0
    assert s.stage == Stage.ADVANCE and GAME.to_move(s) == "SU"
    assert s.current is not None and s.current.advance_left == 2
    s = apply_all(s, EndAdvance())
    assert (s.turn, s.initiative, s.phase, s.stage) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
    assert s.pending == () and where(s, JP_3TK) == "0507" and where(s, SU_9) == "0607"


def test_nom_9_24_initiative_change_immediate() -> None:
    """NOM-9.24, NOM-6.2: (initiative_change=immediate) the turn ends at the IP's first step
    loss: the second point is lost, there is no advance, and the other combat is cancelled."""
    s = _japan_loses_first_combat("immediate")
    assert (s.turn, s.initiative, s.phase, s.stage) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
    assert s.unit(JP_KOB).steps == 1 and where(s, JP_KOB) == "0504"
    assert s.current is None and s.pending == ()


def test_nom_9_24_retreat_of_the_initiative_player_also_changes_initiative() -> None:
    """NOM-9.24, NOM-6.2: a retreat by an IP unit changes the initiative too."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604"}, options={"initiative_change": "immediate"})
    s = apply_all(rolling(s, c(JP_KOB, SU_36)), Roll(0, 1), Loss(JP_KOB, hx("0404")))
    assert (s.turn, s.initiative, where(s, JP_KOB)) == (2, "SU", "0404")


def test_nom_9_24_non_initiative_losses_do_not_end_the_turn() -> None:
    """NOM-9.24, NOM-6.2: the NIP losing a step does not change the initiative: the phase goes
    on to the next declared combat."""
    s = combat_position(TWO_FIGHTS)
    s = apply_all(s, declare(c(JP_KOB, SU_36), c(JP_3TK, SU_9)), Resolve(0), Roll(1, 0))
    s = apply_all(s, Loss(SU_36, None))
    assert (s.turn, s.initiative, s.stage) == (1, "JP", Stage.ROLL)
    assert s.current is not None and s.current.combat == c(JP_3TK, SU_9)
