"""Set-up and the sequence of play (SHU-SETUP.1 to SHU-SETUP.3, SHU-SEQ.1, SHU-SEQ.2)."""

from __future__ import annotations

import random

from kernel.chance import sample
from kernel.game import CHANCE
from specs.shumshu.rules.actions import Done, LandAt, Place
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, B, apply_all, h, legal, position, refused, variant

SETUP_PIECES = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2")


def test_shu_setup_1_the_japanese_place_six_pieces_anywhere_on_shumshu() -> None:
    """SHU-SETUP.1: the Japanese place 3 infantry battalions, the tank battalion and 2 decoys
    on Shumshu, one at a time, each on any hex they choose and in the order they choose."""
    s = GAME.initial_state(variant())
    assert s.stage is Stage.SETUP and GAME.to_move(s) == JP
    assert legal(s) == [Place(u, x) for u in SETUP_PIECES for x in B.hexes]
    assert len(B.hexes) == 25
    assert refused(s, Place("JP-IB4", h("0303"))) == ("SHU-SETUP.1",)  # a Paramushir unit
    s = apply_all(s, Place("JP-DC2", h("0404")))
    assert refused(s, Place("JP-DC2", h("0303"))) == ("SHU-SETUP.1",)  # already down
    for uid in reversed(SETUP_PIECES[:-1]):
        s = apply_all(s, Place(uid, h("0404")))
    assert all(s.piece(u).hex == h("0404") for u in SETUP_PIECES)
    assert s.stage is Stage.SAIL and s.side == RU


def test_shu_setup_2_everyone_else_starts_on_paramushir() -> None:
    """SHU-SETUP.2: the other Japanese units and the Ki-43 start on Paramushir."""
    s = GAME.initial_state(variant())
    assert all(s.piece(u).loc is Loc.POOL for u in ("JP-IB4", "JP-IB5", "JP-TK2"))
    assert s.air and B.data.airpower_start == "paramushir"


def test_shu_setup_3_the_russians_start_off_board() -> None:
    """SHU-SETUP.3: every Russian unit waits off the board; regiments are not formed."""
    s = GAME.initial_state(variant())
    for p in s.units:
        if B.side_of[p.id] == RU:
            assert p.loc in (Loc.POOL, Loc.UNFORMED) and p.hex is None


def test_shu_seq_1_russians_land_and_move_then_attack_then_the_japanese() -> None:
    """SHU-SEQ.1: the Russian player-turn (sea movement, movement, attacks) comes first, then
    the Japanese one."""
    s = position({"JP-IB1": "0205"}, stage=Stage.SAIL)
    seen = []
    rng = random.Random(1)
    while s.turn == 1 and GAME.to_move(s) is not None:
        seen.append((s.side, s.stage))
        if GAME.to_move(s) == CHANCE:
            s = GAME.apply(s, sample(GAME.chance_outcomes(s), rng))
        else:
            options = legal(s)
            s = GAME.apply(s, LandAt(h("0801")) if LandAt(h("0801")) in options else options[0])
    sides = [side for side, _ in seen]
    assert sides.index(JP) > sides.index(RU) and RU not in sides[sides.index(JP) :]
    ru = [stage for side, stage in seen if side == RU]
    assert ru.index(Stage.SAIL) < ru.index(Stage.MOVE)


def test_shu_seq_2_am_and_pm_turns_and_the_game_length() -> None:
    """SHU-SEQ.2, AMB-SHU-2: odd turns are AM; the game ends after the Japanese player-turn of
    the last half-day (six under three_days, four under two_days)."""
    assert position({"JP-IB1": "0205"}, turn=1).is_am
    assert not position({"JP-IB1": "0205"}, turn=2).is_am
    last = position({"JP-IB1": "0205", "RU-1-138": "0801"}, side=JP, turn=6)
    assert apply_all(last, Done()).stage is Stage.OVER
    early = position({"JP-IB1": "0205", "RU-1-138": "0801"}, side=JP, turn=4)
    assert apply_all(early, Done()).turn == 5
    short = position(
        {"JP-IB1": "0205", "RU-1-138": "0801"}, side=JP, turn=4, options={"game_length": "two_days"}
    )
    assert apply_all(short, Done()).stage is Stage.OVER


def test_shu_seq_2_every_seeded_game_ends_within_its_length() -> None:
    """SHU-SEQ.2: play always ends: a bounded number of half-days of bounded steps."""
    for seed in range(5):
        rng = random.Random(seed)
        s: ShumshuState = GAME.initial_state(variant(game_length="two_days"))
        steps = 0
        while GAME.to_move(s) is not None:
            if GAME.to_move(s) == CHANCE:
                s = GAME.apply(s, sample(GAME.chance_outcomes(s), rng))
            else:
                s = GAME.apply(s, rng.choice(legal(s)))
            steps += 1
            assert s.turn <= 4
        assert s.result is not None and steps < 2000
