"""The SNC's declared properties (specs/snc1937/formal/properties.py): each holds after every step
of
seeded playouts under both presets (and other readings), each check refuses a hand-made
position or step that breaks it, the position check runs the invariants, and `wargame verify
snc1937` checks them on playouts (SNC-0.0.1, SNC-6.0.1 to SNC-6.0.4, SNC-6.2.x, SNC-2.2.1.8,
SNC-9.1.1, SNC-2.2.1.15, SNC-8.3.x, SNC-8.1.2, SNC-5.2.1, SNC-5.2.2, SNC-4.3.3).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, cast

import attrs
import pytest

from kernel.errors import ImpossiblePosition
from kernel.game import Game, Outcome
from kernel.hexes import Hex, parse_hex
from kernel.playout import play
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal import properties as props
from specs.snc1937.formal import step_breaches, verification
from specs.snc1937.formal.breach import Breach
from specs.snc1937.formal.position_domains import garrison_pool
from specs.snc1937.game import SNC
from specs.snc1937.rules import sequence
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import Action, Advance, Declare, Done, Eliminate, Replace, Roll
from specs.snc1937.rules.state import CH, JP, Combat, Order, Phase, SNCState, Step
from tests.snc1937.assembled import rules_of
from tools import verify as verify_tool
from tools.cli import commands as cli

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
T = RULES.tables
PRESETS = sorted(CATALOGUE.presets)
PROPS = {p.id: p for p in props.properties(T)}
OTHER_READINGS = {
    "stacking_check": "global",
    "movement_check_side": "both_players",
    "reinforcement_stacking": "checked_on_placement",
    "japanese_stack": "division_plus_one",
    "static_steps": "elite_only",
    "sudden_defeat_timing": "end_of_phase",
}
REQUIRED = {
    "SNC-P-STACKING",
    "SNC-P-SETTLEMENT",
    "SNC-P-STATIC",
    "SNC-P-STEPS",
    "SNC-P-ENDS",
    "SNC-P-ONE-SIDE",
}
SIX_JP = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4", "JP-11D-1", "JP-11D-2")


def H(text: str) -> Hex:
    return parse_hex(text)


def position(
    side: str = JP,
    turn: int = 6,
    order: Order | None = None,
    stack: tuple[str, ...] = (),
    **units: str,
) -> SNCState:
    """Only the named units on the map (unit id with '_' for '-' -> hex), the `stack` units
    in 3006, JP-G-SHANGHAI in 3512 and CH-36D next to it; every other unit dead, nothing in
    the TRT; in `side`'s first Operations Phase under `order` (or at his declaration)."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    where = {u.replace("_", "-"): H(h) for u, h in units.items()}
    where.update({u: H("3006") for u in stack})
    where.setdefault("JP-G-SHANGHAI", H("3512"))
    where.setdefault("CH-36D", H("3511"))
    dead = frozenset(T.spec) - set(where) - garrison_pool(T)
    s = attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=(),
        dead=dead,
        turn=turn,
        side=side,
        jp_control=frozenset({H("3512")}),
    )
    return s if order is None else GAME.apply(s, Declare(order))


def holds_on(pid: str, before: SNCState, action: Any, after: SNCState) -> bool:
    p = PROPS[pid]
    return p.holds_in(after) and p.holds_on(before, action, after)


def find_step(pid: str, before: SNCState, action: Any, after: SNCState) -> Breach | None:
    check = next(c for c in props.step_checks(T) if c.prop.id == pid)
    return check.find(before, action, after)


# --- declarations ----------------------------------------------------------------------------


def test_every_property_is_declared_with_clauses_and_expected_verdicts() -> None:
    """Each property has its clauses, a statement and an expected verdict per preset; the
    verification module declares the same ones, and its symbolic model of each preset is an
    abstraction stating every one of them."""
    assert set(PROPS) >= REQUIRED
    for p in PROPS.values():
        assert set(p.expected) == set(PRESETS), p.id
        assert all(v == "holds" for v in p.expected.values()), p.id
        assert p.clauses and all(c.startswith("SNC-") for c in p.clauses), p.id
        assert p.statement, p.id
        assert (p.kind == "invariant") == (p.state_check is not None), p.id
        assert (p.kind == "step") == (p.step_check is not None), p.id
    assert [p.id for p in verification.properties()] == [*PROPS, "SNC-P-NO-LEAK"]
    for preset in PRESETS:
        model = verification.symbolic_model(GAME.presets()[preset])
        assert model.exact is False
        assert set(model.formal()) == set(PROPS)


# --- playouts --------------------------------------------------------------------------------


def _checked_playout(variant_name: str, options: dict[str, str], seed: int) -> Counter[str]:
    """Every property after every step of one seeded game; counts of the stacking check
    points met, so the test shows it tested something."""
    seen: Counter[str] = Counter()
    every = tuple(PROPS.values())

    def on_step(before: SNCState, action: Action, after: SNCState) -> None:
        for p in every:
            assert p.holds_in(after), (p.id, props.breaches(T, after))
            if not p.holds_on(before, action, after):
                check = next(c for c in props.step_checks(T) if c.prop.id == p.id)
                raise AssertionError(p.id, check.find(before, action, after), action)
        if step_breaches.checked_hexes(T, before, action, after) is not None:
            seen["checks"] += 1
        if before.step == Step.STACK and after.step != Step.STACK:
            seen["culls"] += 1
        if any(u in T.spec and T.spec[u].is_static for u, _ in before.where):
            seen["statics"] += 1
        seen["steps"] += 1

    s = GAME.initial_state(CATALOGUE.variant(variant_name, options))
    out = play(
        GAME, s, random.Random(seed), RULES.playout_agents(), max_steps=20000, on_step=on_step
    )
    assert out.stop == "ended", out.report()
    return seen


@pytest.mark.parametrize(
    ("preset", "seed", "options"),
    [
        ("standard", 1, {}),
        ("standard", 3, {}),
        ("printed", 2, {}),
        ("printed", 3, {}),
        ("standard", 2, OTHER_READINGS),  # a seed whose game over-stacks a hex
    ],
)
def test_snc_6_0_2_properties_hold_after_every_step_of_seeded_games(
    preset: str, seed: int, options: dict[str, str]
) -> None:
    """SNC-6.0.2, SNC-0.0.1, SNC-6.0.1, SNC-2.2.1.8, SNC-2.2.1.15, SNC-5.2.2: every property
    holds after every step of seeded random games under both presets, and under the other
    readings of the stacking options (AMB-SNC-8, AMB-SNC-9); stacking check points are met."""
    seen = _checked_playout(preset, options, seed)
    assert seen["steps"] > 100 and seen["checks"] > 0 and seen["statics"] > 0
    if options:
        assert seen["culls"] > 0  # an over-stacked hex was culled and checked


class Forgetful(SNC):
    """The rules with the culls forgotten: a stacking check that finds an over-stacked hex
    goes on as if it had found none."""

    def apply(self, s: SNCState, action: Action) -> SNCState:
        after = super().apply(s, action)
        if after.step == Step.STACK:
            return attrs.evolve(after, step=Step.MAIN, stack_hexes=(), after_stack="")
        return after


def test_snc_6_0_4_stacking_property_catches_rules_that_skip_the_culls() -> None:
    """SNC-6.0.4: rules that forget to cull an over-stacked hex break SNC-P-STACKING in a
    seeded game at the check that found it."""
    broken: list[Breach] = []

    class Stop(Exception):
        pass

    def on_step(before: SNCState, action: Action, after: SNCState) -> None:
        br = find_step(props.STACKING, before, action, after)
        if br is not None:
            broken.append(br)
            raise Stop

    rules = Forgetful()
    # the forgetful rules with every role, as tools hold a game
    game = attrs.evolve(PACKAGE, rules=lambda: cast("Game[SNCState, Action]", rules)).assemble()
    s = game.initial_state(CATALOGUE.variant("standard", OTHER_READINGS))
    with pytest.raises(Stop):
        play(game, s, random.Random(2), rules.playout_agents(), max_steps=20000, on_step=on_step)
    assert broken[0].clause == "SNC-6.0.2"


# --- SNC-P-STACKING --------------------------------------------------------------------------


def test_snc_6_0_2_a_move_phase_end_must_check_the_phasing_hexes() -> None:
    """SNC-6.0.2 (a), SNC-6.2.1: six Japanese units in one hex at the end of a Move phase: the
    rules hand the hex to the culls (holds); a step that went on without the check's culls
    breaks it. (The property reads the check from the position's `checked`; that the rules
    record one where it is due is tests/snc1937/test_checked.py's.)"""
    before = position(order=Order.MOVE_FIGHT, stack=SIX_JP)
    assert before.phase == Phase.OPS1 and before.ops_kind() == "move"
    after = GAME.apply(before, Done())
    assert after.step == Step.STACK and after.stack_hexes == (H("3006"),)
    assert H("3006") in after.checked
    assert holds_on(props.STACKING, before, Done(), after)
    # the phase ends with the check recorded, but with no culls
    skipped = attrs.evolve(sequence.next_phase(T, before), checked=after.checked)
    assert skipped.phase == Phase.REINF
    assert not holds_on(props.STACKING, before, Done(), skipped)
    br = find_step(props.STACKING, before, Done(), skipped)
    assert br is not None and br.clause == "SNC-6.0.2" and "3006" in br.message


def test_snc_6_0_4_culls_end_only_within_the_limits() -> None:
    """SNC-6.0.4: the owner eliminates units until the hex complies (holds); culls that stop
    with the hex still over the limit break the property."""
    before = position(order=Order.MOVE_FIGHT, stack=SIX_JP)
    culling = GAME.apply(before, Done())
    done = GAME.apply(culling, Eliminate("JP-11D-2"))
    assert done.step != Step.STACK
    assert holds_on(props.STACKING, culling, Eliminate("JP-11D-2"), done)
    early = attrs.evolve(culling, step=Step.MAIN, stack_hexes=(), after_stack="")
    br = find_step(props.STACKING, culling, Eliminate("JP-11D-2"), early)
    assert br is not None and br.clause == "SNC-6.0.4"


def test_snc_6_0_2_b_a_combat_end_must_check_its_hexes() -> None:
    """SNC-6.0.2 (b), SNC-6.0.3: a combat ends with six Japanese units in an attacker's hex:
    the rules' check culls it (holds); ending the combat without the check's culls breaks
    it."""
    s = position(order=Order.FIGHT_FIGHT, stack=SIX_JP)
    c = Combat(target=H("3007"), attackers=("JP-3D-1",), face=3)
    before = attrs.evolve(s, step=Step.ADVANCE, combat=c)
    after = GAME.apply(before, Done())
    assert after.combat is None and after.step == Step.STACK and after.checked == (H("3006"),)
    assert holds_on(props.STACKING, before, Done(), after)
    skipped = attrs.evolve(before, combat=None, step=Step.MAIN, checked=after.checked)
    br = find_step(props.STACKING, before, Done(), skipped)
    assert br is not None and br.clause == "SNC-6.0.2"
    assert step_breaches.checked_hexes(T, before, Done(), skipped) == (H("3006"),)


def test_snc_6_0_2_no_check_within_a_move_phase_or_a_fight_phase_end() -> None:
    """SNC-6.0.2: stacking is enforced only at its two moments: an over-stacked hex in the
    middle of a Move phase, or when a Fight phase ends, breaks nothing."""
    s = position(order=Order.MOVE_FIGHT, stack=SIX_JP)
    move = next(a for a in GAME.legal_actions(s) if not isinstance(a, Done))
    after = GAME.apply(s, move)
    assert step_breaches.checked_hexes(T, s, move, after) is None
    assert holds_on(props.STACKING, s, move, after)
    fight = position(order=Order.FIGHT_FIGHT, stack=SIX_JP)
    ended = GAME.apply(fight, Done())
    assert ended.phase == Phase.REINF
    assert step_breaches.checked_hexes(T, fight, Done(), ended) is None
    assert holds_on(props.STACKING, fight, Done(), ended)


# --- invariants and the position check -------------------------------------------------------


def _in_3513(s: SNCState, unit: str = "CH-20B") -> SNCState:
    where = tuple((u, H("3513") if u == unit else h) for u, h in s.where)
    return attrs.evolve(s, where=where)


def test_snc_0_0_1_settlement_check_refuses_a_unit_in_3513() -> None:
    """SNC-0.0.1: a unit in 3513 breaks SNC-P-SETTLEMENT; the at-start position does not."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    p = PROPS[props.SETTLEMENT]
    assert p.holds_in(s)
    bad = _in_3513(s)
    assert not p.holds_in(bad)
    ((inv, br),) = props.breaches(T, bad)
    assert inv.prop.id == props.SETTLEMENT and br.clause == "SNC-0.0.1"
    i = [u for u, _ in bad.where].index("CH-20B")
    assert br.field == f"where[{i}].hex"


def test_snc_0_0_1_position_check_refuses_a_unit_in_3513_naming_the_clause() -> None:
    """SNC-0.0.1: the position check runs the invariants: a state with a unit in 3513 is
    refused naming the field, the clause and the property, whether built or read as JSON."""
    s = _in_3513(GAME.initial_state(CATALOGUE.preset("standard")))
    i = [u for u, _ in s.where].index("CH-20B")
    with pytest.raises(ImpossiblePosition) as err:
        GAME.check_position(s)
    assert err.value.clauses == ("SNC-0.0.1", props.SETTLEMENT)
    assert err.value.field == f"where[{i}].hex"
    data = json.loads(json.dumps(GAME.state_to_json(GAME.initial_state(s.variant))))
    assert data["where"][i]["unit"] == "CH-20B"
    data["where"][i]["hex"] = "3513"
    with pytest.raises(ImpossiblePosition) as err:
        GAME.state_from_json(data)
    assert "SNC-0.0.1" in err.value.clauses and props.SETTLEMENT in err.value.clauses


def test_snc_6_0_1_one_side_check_refuses_both_sides_in_a_hex() -> None:
    """SNC-6.0.1: a Japanese unit in a Chinese hex breaks SNC-P-ONE-SIDE, and the position
    check refuses it naming the clause and the property."""
    s = position(JP_3D_1="3006", CH_11D="3007")
    assert PROPS[props.ONE_SIDE].holds_in(s)
    bad = position(JP_3D_1="3007", CH_11D="3007")
    assert not PROPS[props.ONE_SIDE].holds_in(bad)
    with pytest.raises(ImpossiblePosition) as err:
        GAME.check_position(bad)
    assert err.value.clauses == ("SNC-6.0.1", props.ONE_SIDE)


def test_snc_5_2_2_ends_check_refuses_gt_13_and_a_result_out_of_place() -> None:
    """SNC-5.2.2, SNC-4.3.3: no GT 13; over exactly with a result; the Chinese end-of-game
    win only in GT 12."""
    s = position(side=CH, turn=11)
    p = PROPS[props.ENDS]
    assert p.holds_in(s)
    assert not p.holds_in(attrs.evolve(s, turn=13))
    assert not p.holds_in(attrs.evolve(s, phase=Phase.OVER))
    win = Outcome(CH, clause="SNC-4.3.3", reason="GT 12 ends")
    assert not p.holds_in(attrs.evolve(s, phase=Phase.OVER, result=win))
    assert p.holds_in(attrs.evolve(s, turn=12, phase=Phase.OVER, result=win))
    with pytest.raises(ImpossiblePosition) as err:
        GAME.check_position(attrs.evolve(s, turn=13))
    assert err.value.clauses == ("SNC-5.2.2", props.ENDS) and err.value.field == "turn"


# --- step properties -------------------------------------------------------------------------


def test_snc_2_2_1_8_static_check_refuses_a_static_unit_that_moves() -> None:
    """SNC-2.2.1.8, SNC-9.1.1: a static unit that changes hex, or leaves the map other than
    for the dead pile, breaks SNC-P-STATIC; its elimination does not."""
    s = position(CH_G_A="2003")
    moved = flow.put(s, {"CH-G-A": H("2004")})
    assert not holds_on(props.STATIC, s, Done(), moved)
    br = find_step(props.STATIC, s, Done(), moved)
    assert br is not None and br.clause == "SNC-2.2.1.8"
    gone = flow.put(s, {"CH-G-A": None})
    assert not holds_on(props.STATIC, s, Done(), gone)
    killed = flow.eliminate(T, s, ["CH-G-A"])
    assert holds_on(props.STATIC, s, Done(), killed)
    mobile = flow.put(s, {"CH-36D": H("3411")})  # a mobile unit may move
    assert holds_on(props.STATIC, s, Done(), mobile)


def test_snc_8_3_4_steps_check_restores_only_by_japanese_replacement() -> None:
    """SNC-8.3.2, SNC-8.3.4: a reduced unit back to full strength by a Japanese Replace
    holds; by any other action, or a Chinese unit by Replace, breaks SNC-P-STEPS."""
    s = position(JP_3D_1="3006")
    s = attrs.evolve(s, reduced=frozenset({"JP-3D-1", "CH-36D"}))
    jp_full = attrs.evolve(s, reduced=frozenset({"CH-36D"}))
    assert holds_on(props.STEPS, s, Replace("JP-3D-1"), jp_full)
    assert not holds_on(props.STEPS, s, Done(), jp_full)
    ch_full = attrs.evolve(s, reduced=frozenset({"JP-3D-1"}))
    br = find_step(props.STEPS, s, Replace("CH-36D"), ch_full)
    assert br is not None and br.clause == "SNC-8.3.2"
    dead = flow.take_step(T, s, "JP-3D-1")  # eliminated: no longer reduced, and no growth
    assert "JP-3D-1" in dead.dead and holds_on(props.STEPS, s, Done(), dead)


def test_snc_8_3_3_steps_check_refuses_a_dead_unit_returning() -> None:
    """SNC-8.3.3, SNC-8.0.3, SNC-11.2.3: a unit out of the dead pile, onto the map or the
    TRT, breaks SNC-P-STEPS; a Japanese garrison placed from the pool does not (SNC-9.1.3)."""
    s = position(JP_3D_1="3006")
    assert "JP-3D-2" in s.dead
    back = attrs.evolve(flow.put(s, {"JP-3D-2": H("3005")}), dead=s.dead - {"JP-3D-2"})
    br = find_step(props.STEPS, s, Done(), back)
    assert br is not None and br.clause == "SNC-8.3.3"
    to_trt = attrs.evolve(s, dead=s.dead - {"JP-3D-2"}, trt=(("JP-3D-2", 8),))
    assert not holds_on(props.STEPS, s, Done(), to_trt)
    pool = [g for g in T.jp_garrisons if g not in dict(s.where) and g not in s.dead]
    assert pool
    garrison = flow.put(s, {pool[0]: H("3006")})
    assert holds_on(props.STEPS, s, Done(), garrison)


def test_snc_8_1_2_steps_check_lets_elite_units_return_only_reduced() -> None:
    """SNC-8.1.2, SNC-8.1.3: an eliminated Chinese elite unit waits for its die and returns
    to the TRT reduced (holds), or is gone beyond GT 12; returning at full strength, or a
    non-elite unit waiting for the die, breaks SNC-P-STEPS."""
    s = position(side=JP, turn=6, JP_3D_1="3006", CH_87D="3007")
    waiting = flow.eliminate(T, s, ["CH-87D"])
    assert waiting.elite == ("CH-87D",)
    assert holds_on(props.STEPS, s, Done(), waiting)
    back = GAME.apply(waiting, Roll(3))
    assert ("CH-87D", 9) in back.trt and "CH-87D" in back.reduced
    assert holds_on(props.STEPS, waiting, Roll(3), back)
    full = attrs.evolve(back, reduced=back.reduced - {"CH-87D"})
    br = find_step(props.STEPS, waiting, Roll(3), full)
    assert br is not None and br.clause == "SNC-8.1.2"
    gone = GAME.apply(attrs.evolve(waiting, turn=11), Roll(6))
    assert "CH-87D" in gone.dead
    assert holds_on(props.STEPS, attrs.evolve(waiting, turn=11), Roll(6), gone)
    s2 = position(side=JP, turn=6, JP_3D_1="3006", CH_98D="3007")
    assert T.spec["CH-98D"].arm == "regular"
    regular = attrs.evolve(flow.put(s2, {"CH-98D": None}), elite=("CH-98D",))
    br = find_step(props.STEPS, s2, Done(), regular)
    assert br is not None and br.clause == "SNC-8.1.2"


def test_snc_5_2_1_gt_order_check_refuses_a_gt_out_of_turn() -> None:
    """SNC-5.2.1, SNC-5.1.1: the GT moves on by one from the Japanese player turn to the
    Chinese declaration; from the Chinese turn, backwards, or by two, it breaks
    SNC-P-GT-ORDER."""
    jp = position(side=JP, turn=6)
    nxt = attrs.evolve(jp, turn=7, side=CH, phase=Phase.DECLARE, order=None)
    assert holds_on(props.GT_ORDER, jp, Done(), nxt)
    ch = position(side=CH, turn=6)
    assert not holds_on(props.GT_ORDER, ch, Done(), attrs.evolve(ch, turn=7))
    assert not holds_on(props.GT_ORDER, jp, Done(), attrs.evolve(nxt, turn=8))
    br = find_step(props.GT_ORDER, jp, Done(), attrs.evolve(jp, turn=5))
    assert br is not None and br.clause == "SNC-5.2.1"


def test_snc_4_1_1_sudden_death_is_no_stacking_check_point() -> None:
    """SNC-4.1.1, SNC-6.0.2: a step that ends the game by sudden death ends it at once, so a
    check it cuts short breaks nothing; the same step without the result does."""
    before = position(order=Order.MOVE_FIGHT, stack=SIX_JP)
    culling = GAME.apply(before, Done())
    won = Outcome(CH, clause="SNC-4.1.1", reason="test")
    over = attrs.evolve(culling, phase=Phase.OVER, step=Step.MAIN, result=won, stack_hexes=())
    assert holds_on(props.STACKING, culling, Eliminate("JP-11D-2"), over)
    not_over = attrs.evolve(over, phase=Phase.REINF, result=None)
    assert not holds_on(props.STACKING, culling, Eliminate("JP-11D-2"), not_over)


def test_snc_6_0_2_an_advance_into_the_target_is_checked_there() -> None:
    """SNC-6.0.2 (b), SNC-10.5.3.1: the hexes checked after a combat are the target and the
    attackers' hexes once the advances are over."""
    s = position(order=Order.FIGHT_FIGHT, JP_3D_1="3006", JP_3D_2="3006")
    c = Combat(target=H("3007"), attackers=("JP-3D-1", "JP-3D-2"), face=3, won=True)
    before = attrs.evolve(s, step=Step.ADVANCE, combat=c)
    after = GAME.apply(before, Advance("JP-3D-1"))
    assert after.combat is not None and after.step == Step.ADVANCE  # JP-3D-2 may follow
    assert step_breaches.checked_hexes(T, before, Advance("JP-3D-1"), after) is None
    last = GAME.apply(after, Done())
    assert last.combat is None
    assert step_breaches.checked_hexes(T, after, Done(), last) == (H("3006"), H("3007"))
    assert holds_on(props.STACKING, after, Done(), last)


# --- wargame verify --------------------------------------------------------------------------


def test_snc_6_0_2_verify_proves_stacking_and_steps_over_the_abstraction(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SNC-6.0.2, SNC-8.3.4: `wargame verify snc1937` finds the verification module and proves
    the stacking limits at their check points (unit by unit) and the steps property over the
    abstract model, and says so. Exit 0."""
    monkeypatch.setattr(verify_tool, "TESTED_GAMES", 2)
    argv = ["verify", "snc1937", "--preset", "printed", "--json", "--jobs", "1"]
    argv += ["--property", props.STACKING, "--property", props.STEPS]
    code = cli.main(argv)
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    rows = {r["property"]: r for r in data["results"]}
    assert set(rows) == {props.STACKING, props.STEPS}
    stacking, steps = rows[props.STACKING], rows[props.STEPS]
    assert (stacking["expected"], stacking["verdict"]) == ("holds", "proved")
    assert stacking["method"].startswith("1-induction by parts")
    assert (steps["expected"], steps["verdict"]) == ("holds", "proved")
    assert stacking["method"].endswith("over an abstraction")
    assert steps["method"].endswith("over an abstraction")
