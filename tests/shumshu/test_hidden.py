"""Hidden units and decoys: what each side sees, and that the Russians' legal actions depend
on nothing else (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.game import CHANCE
from kernel.playout import decision_positions
from specs.shumshu.io.codec import observation_record
from specs.shumshu.rules.actions import Done, Join, ReturnDecoy
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.hidden import japanese_hidden, resample
from tests.shumshu.positions import (
    CATALOGUE,
    GAME,
    OPTIONS,
    RULES,
    B,
    apply_all,
    attack,
    h,
    legal,
    position,
)
from tools.cli import commands as cli

JP_IDS = [u.id for u in RULES.data.units if u.side == JP]


def test_shu_combat_5_face_down_japanese_pieces_are_counts_only() -> None:
    """SHU-COMBAT.5: the Russians see how many face-down pieces a hex holds, not which; the
    Japanese see everything."""
    s = position({"JP-IB1": "0602", "JP-DC1": "0602", "JP-IB2": "0205", "RU-1-138": "0801"})
    ru, jp = GAME.observe(s, RU), GAME.observe(s, JP)
    assert ru["face_down"] == {"0602": 2, "0205": 1}
    assert not {"JP-IB1", "JP-DC1", "JP-IB2", "JP-IB4"} & {u["id"] for u in ru["units"]}
    assert ru["paramushir"] == 3
    assert {"JP-IB1", "JP-DC1"} <= {u["id"] for u in jp["units"]} and jp["face_down"] == {}
    observation_record(ru)
    observation_record(jp)


def test_shu_combat_5_revealed_when_attacked() -> None:
    """SHU-COMBAT.5, AMB-SHU-21: a unit attacked is revealed; after a result that leaves it
    undisrupted it stays revealed until it recovers from a disruption."""
    s = position({"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205"})
    s = attack(s, [("RU-NI", "0602"), ("RU-1-138", "0602")], 5)  # AD
    ru = GAME.observe(s, RU)
    assert "JP-IB1" in {u["id"] for u in ru["units"]} and "JP-IB2" not in {
        u["id"] for u in ru["units"]
    }


def test_shu_combat_6_a_discovered_decoy_leaves_until_next_turn() -> None:
    """SHU-COMBAT.6, AMB-SHU-21: an attack into a decoy-only hex finds the decoy: it is removed
    (the attack is an automatic DE) and comes back in the next Japanese turn."""
    s = position({"RU-1-138": "0502", "JP-DC1": "0602", "JP-IB1": "0205"})
    s = apply_all(s, Done(), Join("RU-1-138", h("0602")), Done())
    assert s.piece("JP-DC1").loc is Loc.REMOVED and s.piece("JP-DC1").recover == 2
    assert s.stage is Stage.ADVANCE  # the hex is clear
    s = apply_all(s, Done())
    while s.turn == 1:
        s = apply_all(s, legal(s)[-1])
    s = apply_all(s, *([Done()] if s.stage is Stage.REINFORCE else []))
    while s.side == RU:
        s = (
            apply_all(s, legal(s)[-1])
            if GAME.to_move(s) != CHANCE
            else apply_all(s, GAME.chance_outcomes(s)[0][0])
        )
    while s.stage is Stage.REINFORCE:
        s = apply_all(s, Done())
    assert s.stage is Stage.DECOY and GAME.to_move(s) == JP
    returns = [a for a in legal(s) if isinstance(a, ReturnDecoy)]
    # decoy_return=reachable_held (draft): into a hex the Japanese hold, never alone
    assert returns and all(
        [p for p in s.units if p.hex == a.hex and p.loc is Loc.MAP]
        and all(B.side_of[p.id] == JP for p in s.units if p.hex == a.hex and p.loc is Loc.MAP)
        for a in returns
    )
    t = apply_all(s, returns[0])
    assert t.piece("JP-DC1").loc is Loc.MAP and "JP-DC1" not in {
        u["id"] for u in GAME.observe(t, RU)["units"]
    }


def _positions(seed: int, choices: dict[str, str], steps: int) -> list[ShumshuState]:
    """Russian decision positions met along a random playout of a variant."""
    start = GAME.initial_state(CATALOGUE.variant("draft", choices))
    return decision_positions(
        GAME, start, random.Random(seed), steps, lambda _i, s: GAME.to_move(s) == RU
    )


variants = st.fixed_dictionaries(
    {name: st.sampled_from(readings) for name, readings in OPTIONS.items()}
)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), choices=variants, data=st.data())
def test_shu_combat_5_legal_actions_are_a_function_of_the_russian_view(
    seed: int, choices: dict[str, str], data: st.DataObject
) -> None:
    """SHU-COMBAT.5, SHU-COMBAT.6: resampling which face-down piece is which (decoys
    included) changes neither the Russians' view nor their legal actions."""
    changed = 0
    positions = _positions(seed, choices, 600)
    for s in positions[:: max(1, len(positions) // 25)]:
        rng = random.Random(data.draw(st.integers(0, 2**31)))
        view, acts = GAME.observe(s, RU), legal(s)
        for _ in range(2):
            t = resample(s, rng)
            changed += t != s
            assert GAME.to_move(t) == RU
            assert GAME.observe(t, RU) == view
            assert legal(t) == acts
            assert GAME.state_from_json(GAME.state_to_json(t)) == t  # still a legal position
    assert changed or not any(japanese_hidden(s) for s in positions)


def test_shu_combat_5_cli_view_and_legal_name_no_face_down_piece(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SHU-COMBAT.5: `wargame view shumshu STATE --side RU` and `legal --side RU` name no
    face-down Japanese piece."""
    for s in _positions(3, {}, 300)[::20]:
        path = tmp_path / "state.json"
        path.write_text(json.dumps(GAME.state_to_json(s)), encoding="utf-8")
        secret = set(japanese_hidden(s))
        for verb in (
            ["view", "shumshu", str(path), "--side", "RU"],
            ["legal", "shumshu", str(path), "--side", "RU"],
        ):
            assert cli.main(verb) == 0
            out = capsys.readouterr().out
            named = {u for u in JP_IDS if f'"{u}"' in out}
            assert not named & secret, (verb[0], named & secret)


def test_shu_combat_5_the_picture_shows_face_down_pieces_face_down(tmp_path: Path) -> None:
    """SHU-COMBAT.5: `wargame render` draws a face-down piece as "?", never by name."""
    s = position({"JP-IB1": "0602", "JP-DC1": "0602", "RU-1-138": "0801"}, disrupted=[])
    assert GAME.scene is not None
    labels = {p.label for p in GAME.scene(s).pieces if p.where == "0602"}
    assert labels == {"?"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(GAME.state_to_json(s)), encoding="utf-8")
    assert cli.main(["render", "shumshu", str(path), "-o", str(tmp_path / "s.svg")]) == 0
    svg = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert "JP-IB1" not in svg and "JP-DC1" not in svg and "RU-1-138" in svg
