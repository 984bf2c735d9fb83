"""Shumshu's declared properties (specs/shumshu/formal/properties.py): each concrete check after
every
step of seeded playouts, each formal statement agreeing with its concrete check on the projected
steps, the checks refusing what breaks them, and proofs through `wargame verify` (SHU-STACK.1,
SHU-STACK.3, SHU-LAND.3, SHU-LAND.4, SHU-AIR.2, SHU-DISRUPT.1, SHU-COMBAT.6, SHU-WIN.1 to
SHU-WIN.3, SHU-SEQ.2).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from kernel.errors import ImpossiblePosition
from kernel.game import CHANCE
from solvers.checking import prover
from solvers.checking.prover import Invariant, StepInvariant
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE
from specs.shumshu.formal import position as position_check
from specs.shumshu.formal import properties as props
from specs.shumshu.formal.verification import Link, symbolic_model
from specs.shumshu.rules.actions import Done, Join, Move
from specs.shumshu.rules.state import JP, Combat, Fight, Sail, ShumshuState, Stage
from tests.shumshu.positions import GAME, RULES, apply_all, h, position
from tools.cli import commands as cli

PRESETS = sorted(GAME.presets())
PROPS = {p.id: p for p in props.properties()}


def link(preset: str = "draft") -> Link:
    model = symbolic_model(GAME.presets()[preset])
    assert model is not None
    return model


def formal_holds(m: Link, pid: str, before: Any, after: Any) -> bool:
    f = m.formal()[pid]
    a = concrete_frame(m.system.variables, m.project(before))
    b = concrete_frame(m.system.variables, m.project(after))
    if isinstance(f, Invariant):
        return bool(f.holds(CONCRETE, b))
    assert isinstance(f, StepInvariant)
    return bool(f.holds(CONCRETE, a, b))


def test_every_property_is_declared_with_clauses_and_a_formal_statement() -> None:
    assert set(PROPS) == {
        "SHU-P-CAPABILITIES",
        "SHU-P-ONE-SIDE",
        "SHU-P-DEFENDER-LIMIT",
        "SHU-P-DISRUPTED-STILL",
        "SHU-P-ATTACKERS-UNDISRUPTED",
        "SHU-P-DECOYS",
        "SHU-P-ENDS",
    }
    for p in PROPS.values():
        assert set(p.expected) == set(PRESETS), p.id
        assert p.clauses and all(c.startswith("SHU-") for c in p.clauses)
        assert p.formal and p.statement
        for preset in PRESETS:
            assert p.id in link(preset).formal()


def test_shu_seq_2_play_ends_under_every_bounded_preset() -> None:
    """SHU-SEQ.2, AMB-SHU-2: every preset bounds the game's length, so SHU-P-ENDS is
    expected to hold under each."""
    for preset in PRESETS:
        assert props.length_bounded(preset)
        assert PROPS[props.ENDS].expected[preset] == "holds"


def test_shu_setup_the_model_starts_at_the_set_up() -> None:
    """SHU-SETUP.1 to SHU-SETUP.3: the model's initial state, built from the data file, is the
    projection of the rules' initial position."""
    for preset in PRESETS:
        m = link(preset)
        assert m.project(GAME.initial_state(GAME.presets()[preset])) == m.system.initial()


@pytest.mark.parametrize("preset", PRESETS)
def test_properties_after_every_step_of_seeded_playouts(preset: str) -> None:
    """Each concrete check holds after every step where the property is expected to hold, and
    the formal statement gives the same answer on the projected step."""
    m = link(preset)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.presets()[preset])
        while GAME.to_move(state) is not None:
            side = GAME.to_move(state)
            if side == CHANCE:
                options = [a for a, _ in GAME.chance_outcomes(state)]
            else:
                options = list(GAME.legal_actions(state))
            action = rng.choice(options)
            after = GAME.apply(state, action)
            for p in PROPS.values():
                if p.kind == "ends":
                    continue
                concrete = p.holds_in(after) and p.holds_on(state, action, after)
                if p.expected[preset] == "holds":
                    assert concrete, f"{p.id} broken by {GAME.action_to_json(action)}"
                formal = formal_holds(m, p.id, state, after)
                assert formal == concrete, f"{p.id}: formal {formal}, concrete {concrete}"
            checked += 1
            state = after
        assert state.result is not None  # SHU-P-ENDS on real play
    assert checked > 200


# --- the checks refuse what breaks them ---------------------------------------------------


def _with(s: ShumshuState, uid: str, **fields: Any) -> ShumshuState:
    return attrs.evolve(
        s, units=tuple(attrs.evolve(p, **fields) if p.id == uid else p for p in s.units)
    )


def test_shu_land_4_capabilities_check_refuses_growth_and_a_second_loss() -> None:
    """SHU-LAND.3, SHU-LAND.4: capabilities never grow, and one landing's rolls lose one."""
    s = position({"JP-IB1": "0703"}, ships=2)
    assert props.capabilities(s, Done(), attrs.evolve(s, ships=1))
    assert not props.capabilities(s, Done(), attrs.evolve(s, ships=3))
    assert not props.capabilities(s, Done(), attrs.evolve(s, ships=0))
    rolling = attrs.evolve(
        s,
        stage=Stage.ROLL,
        sail=Sail(h("0602"), ("RU-1-138",), sailed=True, lost_ship=True),
        fight=Fight(h("0602"), ("RU-1-138",), landing=True),
    )
    after = attrs.evolve(rolling, ships=1)
    assert not props.capabilities(rolling, Done(), after)
    sail = rolling.sail
    assert sail is not None
    first = attrs.evolve(rolling, sail=attrs.evolve(sail, lost_ship=False))
    marked = attrs.evolve(after, sail=attrs.evolve(sail, lost_ship=True))
    assert props.capabilities(first, Done(), marked)


def test_shu_disrupt_1_disrupted_check_refuses_a_move_and_a_join() -> None:
    """SHU-DISRUPT.1: a disrupted unit that moves or joins an attack breaks the check."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0703"}, disrupted=["RU-1-138"])
    moved = _with(s, "RU-1-138", hex=h("0503"))
    assert not props.disrupted_still(s, Move("RU-1-138", h("0503")), moved)
    joined = attrs.evolve(s, stage=Stage.DECLARE, pending=(Combat(h("0602"), ("RU-1-138",)),))
    assert not props.disrupted_still(s, Join("RU-1-138", h("0602")), joined)
    assert props.disrupted_still(s, Done(), s)


@pytest.mark.parametrize(
    ("defenders", "invariant", "clause"),
    [
        (("JP-IB1", "JP-DC1"), "SHU-I-DECOYS", "SHU-COMBAT.6"),
        (("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-IB4"), "SHU-I-DEFENDERS", "SHU-STACK.3"),
    ],
)
def test_shu_stack_3_position_check_refuses_decoys_and_too_many_defenders(
    defenders: tuple[str, ...], invariant: str, clause: str
) -> None:
    """SHU-STACK.3, AMB-SHU-30: the position check runs the properties' invariants (here an
    earlier one may speak first: the defenders are no legal choice either)."""
    s = position(
        {**dict.fromkeys(defenders, "0602"), "RU-1-138": "0502"},
        stage=Stage.ROLL,
        check=False,
    )
    s = attrs.evolve(s, fight=Fight(h("0602"), ("RU-1-138",), defenders=defenders))
    with pytest.raises(ImpossiblePosition):
        GAME.check_position(s)
    breach = next(position_check.invariant(invariant).find(RULES.board, s))
    assert breach.clause == clause
    assert not PROPS[
        props.DECOYS if invariant == "SHU-I-DECOYS" else props.DEFENDER_LIMIT
    ].holds_in(s)


def test_shu_disrupt_1_position_check_refuses_a_disrupted_attacker() -> None:
    """SHU-DISRUPT.1: a disrupted unit in a declared attack is refused, naming the clause."""
    s = position(
        {"RU-1-138": "0502", "JP-IB1": "0602", "RU-NI": "0704", "JP-IB2": "0603"},
        disrupted=["RU-1-138"],
    )
    pending = (Combat(h("0602"), ("RU-1-138",)), Combat(h("0603"), ("RU-NI",)))
    s = attrs.evolve(s, stage=Stage.PICK, pending=pending)
    assert not PROPS[props.ATTACKERS_UNDISRUPTED].holds_in(s)
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.check_position(s)
    assert "SHU-DISRUPT.1" in exc.value.clauses


def test_shu_stack_1_one_side_check_agrees_with_the_position_check() -> None:
    """SHU-STACK.1: the property's check is the position check's invariant."""
    s = position({"RU-1-138": "0602", "JP-IB1": "0702"})
    assert PROPS[props.ONE_SIDE].holds_in(s)
    bad = _with(s, "JP-IB1", hex=h("0602"))
    assert not PROPS[props.ONE_SIDE].holds_in(bad)
    assert not formal_holds(link(), props.ONE_SIDE, s, bad)


# --- proofs -------------------------------------------------------------------------------------


def test_shu_land_4_capabilities_proved_through_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`wargame verify shumshu --property SHU-P-CAPABILITIES`: proved, exit 0."""
    code = cli.main(["verify", "shumshu", "--property", props.CAPABILITIES, "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    row = out.splitlines()[1].split()
    assert row[0] == props.CAPABILITIES and row[3:5] == ["holds", "proved"]


def test_shu_stack_3_without_the_limit_the_proof_fails() -> None:
    """SHU-STACK.3: the proof rests on the rule: a model whose defenders may be any units of
    the hex does not prove the limit (the inductive step finds a counterexample)."""
    m = Link(GAME.presets()["draft"])
    defend = next(sc for sc in m.model.schemas if sc.name == "defend")
    guard = defend.guard

    def lax(o: Any, s: Any, c: Any) -> Any:
        return [g for g in guard(o, s, c) if g.text != "as many as the limit allows"]

    object.__setattr__(defend, "guard", lax)
    verdict = prover.check(m.system, m.formal()[props.DEFENDER_LIMIT])
    assert verdict.status != "proved"
    right = prover.check(link().system, link().formal()[props.DEFENDER_LIMIT])
    assert right.status == "proved"


def test_shu_win_decoys_never_count_for_victory() -> None:
    """SHU-WIN.1 to SHU-WIN.3, SHU-COMBAT.6: a decoy alone on the 2-star hex gives the
    Japanese nothing the rules would not: the result is what the Russians hold."""
    s = position({"JP-DC1": "0304", "RU-1-138": "0603"}, side=JP, turn=6)
    over = apply_all(s, Done())
    assert over.stage is Stage.OVER and over.result is not None
    assert over.result.clause == "SHU-WIN.1"
    assert PROPS[props.DECOYS].holds_in(over)
    assert formal_holds(link(), props.DECOYS, s, over)
