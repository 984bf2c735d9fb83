"""Victory: sudden death (NOM-4.1, NOM-4.2), points (NOM-4.3, NOM-4.5, NOM-4.6) and the tie
(NOM-4.4); options `tie` (AMB-NOM-2) and `scoring` (AMB-NOM-3)."""

from __future__ import annotations

import pytest

from specs.nomonhan.rules.actions import Declare, EndRoll, Loss, Roll
from specs.nomonhan.rules.sequence import points
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from tests.nomonhan.helpers_seq import BOARD, contact, points_of, quiet
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_ART,
    apply_all,
    legal,
    position,
)


def _attack_artillery(
    options: dict[str, str] | None = None, steps: dict[str, int] | None = None
) -> NomonhanState:
    """Turn 1, Japanese Combat Phase: Kobayashi attacks the Artillery."""
    units = quiet(SU_ART="0504", SU_36="0108")
    s = contact(units=units, options=options, steps=steps)
    return apply_all(s, Declare((Combat((JP_KOB,), (SU_ART,)),)))


def _game_end(
    units: dict[str, str] | None = None,
    steps: dict[str, int] | None = None,
    preset: str = "ja",
    options: dict[str, str] | None = None,
) -> NomonhanState:
    """The end-of-turn die at the end of Turn 6 shows a face that ends the game (NOM-5.4)."""
    s = position(
        quiet() if units is None else units,
        preset=preset,
        options=options,
        steps=steps,
        turn=6,
        stage=Stage.END_ROLL,
    )
    face = min(GAME.rules.data.end_roll[6])
    return apply_all(s, EndRoll(face))


# --- NOM-4.1 --------------------------------------------------------------------------------


def test_nom_4_1_artillery_eliminated_japan_wins_at_once() -> None:
    """NOM-4.1: the moment the Artillery is eliminated the game ends with a Japanese win; under
    the JA Artillery (one step, no retreat) one damage point does it."""
    s = apply_all(_attack_artillery(), Roll(1, 0))
    assert legal(s) == [Loss(SU_ART, None)]
    s = apply_all(s, Loss(SU_ART, None))
    assert s.stage == Stage.OVER
    assert GAME.to_move(s) is None
    assert s.result is not None
    assert (s.result.winner, s.result.clause) == ("JP", "NOM-4.1")
    assert points_of(s) == {"JP": 1, "SU": 0}  # one step of a non-tank unit (NOM-4.6)


def test_nom_4_1_sudden_death_beats_points() -> None:
    """NOM-4.1: the Artillery's elimination wins for Japan even when the Soviets lead on
    points."""
    s = apply_all(
        _attack_artillery(steps={JP_3TK: 1, JP_4TK: 1, JP_KOB: 1}), Roll(1, 0), Loss(SU_ART, None)
    )
    assert s.result is not None
    assert points_of(s) == {"JP": 1, "SU": 5}
    assert (s.result.winner, s.result.clause) == ("JP", "NOM-4.1")


def test_nom_4_1_generic_artillery_needs_two_step_losses() -> None:
    """NOM-4.1 with artillery_rules=generic (EN): the Artillery is an ordinary two-step counter,
    so its first step loss flips it and the game goes on; the second ends it."""
    s = apply_all(_attack_artillery({"artillery_rules": "generic"}), Roll(2, 0))
    assert Loss(SU_ART, None) in legal(s)
    assert any(isinstance(a, Loss) and a.retreat_to is not None for a in legal(s))
    s = apply_all(s, Loss(SU_ART, None))
    assert s.result is None
    assert s.unit(SU_ART).steps == 1
    s = apply_all(s, Loss(SU_ART, None))
    assert s.result is not None
    assert (s.result.winner, s.result.clause) == ("JP", "NOM-4.1")


# --- NOM-4.2 --------------------------------------------------------------------------------


def _su_attacks_4tk(three_alive: bool, steps_4tk: int) -> NomonhanState:
    """Turn 2 (Soviet initiative), Soviet Combat Phase: 36/149 attacks the 4th Tank Regiment,
    which takes one step loss."""
    units = quiet(JP_KOB="0801", JP_4TK="0503", JP_3TK="0807" if three_alive else None)
    s = contact(turn=2, units=units, steps={JP_4TK: steps_4tk})
    return apply_all(s, Declare((Combat((SU_36,), (JP_4TK,)),)), Roll(1, 0), Loss(JP_4TK, None))


def test_nom_4_2_both_japanese_tanks_eliminated_soviets_win() -> None:
    """NOM-4.2: when the second Japanese tank regiment is eliminated the game ends at once with
    a Soviet win."""
    s = _su_attacks_4tk(three_alive=False, steps_4tk=1)
    assert s.stage == Stage.OVER
    assert s.result is not None
    assert (s.result.winner, s.result.clause) == ("SU", "NOM-4.2")
    assert points_of(s)["SU"] == 8  # both tanks' four steps at 2 points (NOM-4.5)


def test_nom_4_2_one_tank_or_a_flip_is_not_enough() -> None:
    """NOM-4.2: eliminating one tank while the other survives, or flipping the last one, does
    not end the game: "removed" means eliminated."""
    one_left = _su_attacks_4tk(three_alive=True, steps_4tk=1)
    assert one_left.result is None
    assert one_left.unit(JP_4TK).steps == 0
    flipped = _su_attacks_4tk(three_alive=False, steps_4tk=2)
    assert flipped.result is None
    assert flipped.unit(JP_4TK).steps == 1


# --- NOM-4.3 to NOM-4.6 ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_4_3_more_points_wins_at_game_end(preset: str) -> None:
    """NOM-4.3: with no sudden death, the side with more points wins when the game ends."""
    s = _game_end(steps={SU_9: 1, JP_KOB: 1}, preset=preset)  # JP 2 (tank step), SU 1
    assert s.result is not None
    assert points_of(s) == {"JP": 2, "SU": 1}
    assert s.result.winner == "JP"
    assert s.result.clause == "NOM-5.4"
    assert "NOM-4.3" in s.result.reason
    s = _game_end(steps={SU_36: 1, JP_3TK: 1}, preset=preset)  # JP 1, SU 2
    assert s.result is not None
    assert (points_of(s), s.result.winner) == ({"JP": 1, "SU": 2}, "SU")


@pytest.mark.parametrize(
    ("reading", "winner"), [("soviet", "SU"), ("draw", None)], ids=["soviet", "draw"]
)
def test_nom_4_4_tie_by_reading(reading: str, winner: str | None) -> None:
    """NOM-4.4 (AMB-NOM-2): a points tie is a Soviet win under JA (tie=soviet) and has no
    winner under EN read literally (tie=draw)."""
    for steps in ({}, {SU_36: 1, JP_KOB: 1}):
        s = _game_end(steps=steps, options={"tie": reading})
        assert s.result is not None
        assert points_of(s)["JP"] == points_of(s)["SU"]
        assert s.result.winner == winner
    assert GAME.catalogue.presets["ja"]["tie"] == "soviet"
    assert GAME.catalogue.presets["en"]["tie"] == "draw"


def test_nom_4_5_enemy_tank_step_scores_two() -> None:
    """NOM-4.5: each step of an enemy tank eliminated scores 2, whether the counter is flipped
    or removed."""
    s = position(quiet(), steps={JP_3TK: 1})
    assert points(BOARD, s) == {"JP": 0, "SU": 2}
    s = position(quiet(JP_3TK=None))
    assert points(BOARD, s) == {"JP": 0, "SU": 4}
    s = position(quiet(), steps={SU_9: 1})
    assert points(BOARD, s) == {"JP": 2, "SU": 0}


def test_nom_4_6_enemy_non_tank_step_scores_one() -> None:
    """NOM-4.6: each step of an enemy non-tank unit eliminated scores 1."""
    s = position(quiet(), steps={SU_36: 1})
    assert points(BOARD, s) == {"JP": 1, "SU": 0}
    s = position(quiet(JP_KOB=None, SU_615=None))
    assert points(BOARD, s) == {"JP": 2, "SU": 2}


def test_nom_4_5_nom_4_6_scoring_readings_differ() -> None:
    """NOM-4.5, NOM-4.6 (AMB-NOM-3): under scoring=enemy_eliminated only eliminated enemy steps
    score; under own_remaining each side scores its own steps in play. With no losses, Yamagata
    arrived and the 11th Tank Brigade not yet, the first is a 0-0 tie (a Soviet win under JA)
    and the second a Japanese win 12-9."""
    units = quiet(JP_YAM="0805")
    enemy = _game_end(units=units, options={"scoring": "enemy_eliminated"})
    own = _game_end(units=units, options={"scoring": "own_remaining"})
    assert enemy.result is not None and own.result is not None
    assert (points_of(enemy), enemy.result.winner) == ({"JP": 0, "SU": 0}, "SU")
    # JP: Kobayashi 2 + Yamagata 2 + two tanks 2 x 2 x 2; SU: 36/149 2 + 6/15 2 + the
    # one-step JA Artillery 1 + tank 9 2 x 2
    assert (points_of(own), own.result.winner) == ({"JP": 12, "SU": 9}, "JP")


def test_nom_4_5_own_remaining_counts_tanks_double() -> None:
    """NOM-4.5, NOM-4.6 under scoring=own_remaining: a side's own tank step still in play is
    worth 2 and a non-tank step 1; eliminated units score nothing."""
    s = position(
        quiet(SU_615=None),
        options={"scoring": "own_remaining"},
        steps={JP_3TK: 1, SU_36: 1},
        phase=Phase.IP_MOVEMENT,
    )
    # JP: KOB 2 + 3TK 1 x 2 + 4TK 2 x 2 = 8; SU: 36 1 + 9 2 x 2 + the JA Artillery's one step
    assert points(BOARD, s) == {"JP": 8, "SU": 6}
    generic = position(
        quiet(SU_615=None),
        options={"scoring": "own_remaining", "artillery_rules": "generic"},
        steps={JP_3TK: 1, SU_36: 1},
        phase=Phase.IP_MOVEMENT,
    )
    assert points(BOARD, generic) == {"JP": 8, "SU": 7}  # a two-step Artillery counter
