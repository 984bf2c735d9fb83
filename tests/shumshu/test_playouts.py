"""Random play under random readings with the invariants checked after every step, as a
hypothesis state machine, and seeded games through the command (SHU-SEQ.1, SHU-SEQ.2,
SHU-STACK.1, SHU-STACK.3, SHU-LAND.3, SHU-LAND.4, SHU-DISRUPT.1, SHU-WIN.1 to SHU-WIN.3).

The invariants are the position check's (`specs.shumshu.formal.position.INVARIANTS`), written once;
the step properties below relate two successive positions.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from kernel.game import CHANCE
from specs.shumshu.formal.position import breaches
from specs.shumshu.rules.actions import Action, Advance, Move
from specs.shumshu.rules.combat import DEFENDER_LIMIT
from specs.shumshu.rules.state import JP, RU, ShumshuState
from tests.shumshu.positions import CATALOGUE, GAME, OPTIONS, B
from tools.cli import commands as cli


def check_step(before: ShumshuState, action: Action, after: ShumshuState) -> None:
    """What one step may do: capabilities never grow and fall by at most one (SHU-LAND.3,
    SHU-LAND.4, SHU-AIR.2); a disrupted unit never moves or advances (SHU-DISRUPT.1); no more
    defenders than the limit, and never a decoy (SHU-STACK.3)."""
    assert before.ships - 1 <= after.ships <= before.ships
    if isinstance(action, Move | Advance):
        assert not before.piece(action.unit).disrupted
    f = after.fight
    if f is not None and f.defenders:
        side = B.side_of[f.defenders[0]]
        assert len(f.defenders) <= DEFENDER_LIMIT[side]
        assert not any(B.unit(d).is_decoy for d in f.defenders)
    assert not breaches(B, after), breaches(B, after)[:1]


class ShumshuPlay(RuleBasedStateMachine):
    """One rule draws any legal action (or a chance outcome) under drawn readings."""

    def __init__(self) -> None:
        super().__init__()
        self.state = GAME.initial_state(CATALOGUE.preset("draft"))

    @initialize(choices=st.fixed_dictionaries({o: st.sampled_from(r) for o, r in OPTIONS.items()}))
    def setup(self, choices: dict[str, str]) -> None:
        self.state = GAME.initial_state(CATALOGUE.variant("draft", choices))

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        s = self.state
        if GAME.to_move(s) is None:
            return
        if GAME.to_move(s) == CHANCE:
            action = data.draw(st.sampled_from([a for a, _ in GAME.chance_outcomes(s)]))
        else:
            acts = list(GAME.legal_actions(s))
            assert acts, f"no legal action at {s.stage}"
            action = data.draw(st.sampled_from(acts))
        self.state = GAME.apply(s, action)
        check_step(s, action, self.state)

    @invariant()
    def codec_round_trip(self) -> None:
        assert GAME.state_from_json(GAME.state_to_json(self.state)) == self.state

    @invariant()
    def a_finished_game_names_its_clause(self) -> None:
        r = self.state.result
        assert r is None or r.clause in ("SHU-WIN.1", "SHU-WIN.2", "SHU-WIN.3")
        if r is not None:
            assert r.winner in (RU, JP)


ShumshuPlay.TestCase.settings = settings(max_examples=12, stateful_step_count=150, deadline=None)
test_shumshu_stateful = ShumshuPlay.TestCase

REPORT = re.compile(r"^result: (RU|JP) wins \((SHU-WIN\.[123])\): .+$")


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_shu_win_3_seeded_games_end_with_a_clause(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """SHU-WIN.1 to SHU-WIN.3: `wargame play shumshu --seed N` ends with the result and the
    clause that decided it; the log shows set-up, landings and the end (SHU-SETUP.1,
    SHU-LAND.1)."""
    assert cli.main(["play", "shumshu", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"· variant draft · seed {seed}")
    assert REPORT.match(out[-1]), out[-1]
    text = "\n".join(out)
    assert "SHU-SETUP.1" in text and "will land at" in text
