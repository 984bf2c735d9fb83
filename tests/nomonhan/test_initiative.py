"""Initiative (NOM-6.1 to NOM-6.7); option `initiative_change` (AMB-NOM-6)."""

from __future__ import annotations

import pytest

from kernel.errors import ImpossiblePosition
from kernel.hexes import parse_hex
from specs.nomonhan.rules.actions import (
    Advance,
    Declare,
    EndAdvance,
    EndPhase,
    EndRoll,
    Loss,
    Resolve,
    Roll,
)
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from tests.nomonhan.helpers_seq import NO_GT, contact, fight, ip_loses, quiet
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    SU_36,
    SU_615,
    apply_all,
    legal,
)


def _after(s: NomonhanState) -> tuple[int, str, Phase, Stage]:
    return (s.turn, s.initiative, s.phase, s.stage)


# --- NOM-6.1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_6_1_japan_has_the_initiative_at_start(preset: str) -> None:
    """NOM-6.1: at the start Japan is the initiative player: it moves first, and only Japanese
    units may move."""
    s = GAME.initial_state(GAME.presets()[preset])
    assert s.initiative == "JP"
    assert GAME.to_move(s) == "JP"
    movers = {a.unit for a in legal(s) if hasattr(a, "unit")}
    assert movers and all(GAME.rules.data.unit(u).side == "JP" for u in movers)


# --- NOM-6.2 ------------------------------------------------------------------------------------


def test_nom_6_2_ip_attacker_step_loss_changes_the_initiative() -> None:
    """NOM-6.2: an IP unit losing a step in its own Combat Phase ends the turn at once."""
    s = ip_loses(contact(turn=1, phase=Phase.IP_COMBAT))
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)


def test_nom_6_2_ip_retreat_changes_the_initiative() -> None:
    """NOM-6.2: an IP unit retreating in combat also changes the initiative; under
    finish_combat the Soviet winner still advances before the turn ends."""
    s = ip_loses(contact(turn=1, phase=Phase.IP_COMBAT), retreat_to="0502")
    assert s.unit(JP_KOB).hex == parse_hex("0502")
    assert (s.turn, s.stage, s.turn_ending, GAME.to_move(s)) == (1, Stage.ADVANCE, True, "SU")
    s = apply_all(s, EndAdvance())
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)


def test_nom_6_2_ip_defender_loss_changes_the_initiative() -> None:
    """NOM-6.2: the rule applies when the IP defends in the NIP Combat Phase as well."""
    s = ip_loses(contact(turn=1, phase=Phase.NIP_COMBAT))
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
    s = ip_loses(contact(turn=2, phase=Phase.NIP_COMBAT, eliminated=NO_GT))
    assert _after(s) == (3, "JP", Phase.IP_MOVEMENT, Stage.MOVE)


def test_nom_6_2_nip_loss_does_not_change_the_initiative() -> None:
    """NOM-6.2: only the IP's losses end the turn; a NIP step loss or retreat does not."""
    s = apply_all(fight(contact(turn=1), 1, 0), Loss(SU_36, None))
    assert _after(s) == (1, "JP", Phase.NIP_MOVEMENT, Stage.MOVE)
    s = apply_all(fight(contact(turn=1), 1, 0), Loss(SU_36, parse_hex("0505")))
    assert s.stage == Stage.ADVANCE  # Kobayashi may advance: the turn goes on
    s = apply_all(s, EndAdvance())
    assert _after(s) == (1, "JP", Phase.NIP_MOVEMENT, Stage.MOVE)


@pytest.mark.parametrize("reading", ["finish_combat", "immediate"])
def test_nom_6_2_initiative_change_readings(reading: str) -> None:
    """NOM-6.2 (AMB-NOM-6): with 2 damage on the IP, finish_combat applies the second point
    and the winner's advance before the turn ends; immediate ends the turn at the first point,
    losing the second point and the advance."""
    s = contact(turn=1, options={"initiative_change": reading})
    s = apply_all(fight(s, 0, 2), Loss(JP_KOB, parse_hex("0502")))
    if reading == "immediate":
        assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
        assert (s.unit(JP_KOB).hex, s.unit(JP_KOB).steps) == (parse_hex("0502"), 2)
        assert s.unit(SU_36).hex == parse_hex("0504")
        return
    assert (s.turn, s.stage, s.current is not None and s.current.damage_left) == (
        1,
        Stage.DAMAGE,
        1,
    )
    s = apply_all(s, Loss(JP_KOB, None))
    assert s.unit(JP_KOB).steps == 1
    assert s.stage == Stage.ADVANCE and s.current is not None and s.current.advance_left == 2
    s = apply_all(s, Advance(SU_36, parse_hex("0503")))
    assert s.unit(SU_36).hex == parse_hex("0503")
    s = apply_all(s, EndAdvance()) if s.stage == Stage.ADVANCE else s
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)


# --- NOM-6.3 ------------------------------------------------------------------------------------


def _two_combats(reading: str = "finish_combat", turn: int = 1) -> NomonhanState:
    """Japanese Combat Phase (an odd turn) with two combats declared: Kobayashi against 36/149
    and the 3rd Tank Regiment against 6/15; the attacker has picked the first one to resolve."""
    s = contact(turn=turn, units=quiet(SU_615="0806"), options={"initiative_change": reading})
    s = apply_all(s, Declare((Combat((JP_KOB,), (SU_36,)), Combat((JP_3TK,), (SU_615,)))))
    assert (s.stage, len(s.pending)) == (Stage.PICK, 2)
    return apply_all(s, Resolve(0))


@pytest.mark.parametrize("reading", ["finish_combat", "immediate"])
def test_nom_6_3_change_cancels_pending_combats(reading: str) -> None:
    """NOM-6.3: when the initiative changes, every declared combat not yet resolved is
    cancelled (under both readings of AMB-NOM-6)."""
    s = apply_all(_two_combats(reading), Roll(0, 1), Loss(JP_KOB, None))
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
    assert s.pending == () and s.current is None
    assert s.unit(SU_615).steps == 2 and s.unit(JP_3TK).steps == 2


def test_nom_6_3_pending_combats_are_gone_before_the_end_roll() -> None:
    """NOM-6.3: the cancellation happens at the change itself: at the end of Turn 7 the
    end-of-turn die is rolled with no combat left pending."""
    s = apply_all(_two_combats(turn=7), Roll(0, 1), Loss(JP_KOB, None))
    assert (s.turn, s.stage) == (7, Stage.END_ROLL)
    assert s.pending == () and s.current is None


def test_nom_6_3_without_a_change_the_other_combat_is_resolved() -> None:
    """NOM-6.3, by contrast: with no IP loss the second declared combat is resolved next."""
    s = apply_all(_two_combats(), Roll(0, 0))
    assert s.stage == Stage.ROLL
    assert s.current is not None and s.current.combat == Combat((JP_3TK,), (SU_615,))


# --- NOM-6.4 to NOM-6.6 ---------------------------------------------------------------------------


@pytest.mark.parametrize("turn", [1, 2, 3, 4])
def test_nom_6_4_initiative_passes_to_the_other_player(turn: int) -> None:
    """NOM-6.4: at an initiative change the other player takes the initiative."""
    s = contact(turn=turn, eliminated=NO_GT)
    before = s.initiative
    s = ip_loses(s)
    assert s.initiative != before
    assert s.initiative == {"JP": "SU", "SU": "JP"}[before]


def test_nom_6_5_odd_turns_japan_even_turns_soviets() -> None:
    """NOM-6.5: played through several changes, Japan holds the initiative in odd turns and
    the Soviets in even turns; a state claiming otherwise is refused."""
    s = contact(turn=1, eliminated=NO_GT)
    seen = [(s.turn, s.initiative)]
    while s.turn < 4:
        s = ip_loses(s)
        if s.stage == Stage.ADVANCE:
            s = apply_all(s, EndAdvance())
        seen.append((s.turn, s.initiative))
        s = apply_all(s, EndPhase())  # the fighters are in each other's ZOC: to combat
    assert seen == [(1, "JP"), (2, "SU"), (3, "JP"), (4, "SU")]
    for turn in range(1, 9):
        s = ip_loses(contact(turn=turn, eliminated=NO_GT))
        if s.stage == Stage.END_ROLL:
            s = apply_all(s, EndRoll(6))
        if turn < 8:
            assert (s.turn, s.initiative) == (turn + 1, "SU" if turn % 2 else "JP")
    data = GAME.state_to_json(contact(turn=2))
    data["initiative"] = "JP"
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(data)
    assert exc.value.clauses == ("NOM-P-INITIATIVE-PARITY", "NOM-6.5")
    assert exc.value.field == "initiative"


def test_nom_6_6_turn_marker_advances_one_box_and_shows_the_new_flag() -> None:
    """NOM-6.6: at each change the Turn marker moves to the next box, turned to the new
    initiative player's flag."""
    for turn in (1, 2, 5):
        s = ip_loses(contact(turn=turn, eliminated=NO_GT))
        out = GAME.state_to_json(s)
        assert (out["turn"], out["initiative"]) == (turn + 1, "SU" if turn % 2 else "JP")


# --- NOM-6.7 ------------------------------------------------------------------------------------


def test_nom_6_7_change_in_nip_combat_the_same_army_acts_twice() -> None:
    """NOM-6.7: a change in the NIP Combat Phase makes the NIP the new IP, who opens the new
    turn with his Movement Phase: the same army acts twice in a row."""
    s = contact(turn=1, phase=Phase.NIP_COMBAT)
    assert GAME.to_move(s) == "SU"
    s = ip_loses(s)
    assert _after(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE)
    assert GAME.to_move(s) == "SU"
    # by contrast, a change in the IP Combat Phase hands play to the other army
    t = contact(turn=1, phase=Phase.IP_COMBAT)
    assert GAME.to_move(t) == "JP"
    assert GAME.to_move(ip_loses(t)) == "SU"
