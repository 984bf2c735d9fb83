"""The refinement check on real playouts: the symbolic model the prover reasons about is the
game the Python rules play (SHU-SEQ, SHU-LAND, SHU-MOVE, SHU-COMBAT, SHU-CRT as encoded in
specs/shumshu/symbolic*.py).

(a) every concrete step of seeded games of every preset, projected, is a transition of the
model; (b) at sampled positions, and at hand-made positions for the steps random play seldom
reaches (the choice of defenders, the pick of a combat, a rout with nowhere to go, forming a
regiment, a decoy's return, the end of movement with no legal attack), every model transition
is the projected result of a legal action or chance outcome, and every legal action's result
is a model transition. Mutated models show that the check catches a model that lets
capabilities grow, or lets a disrupted unit move.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from solvers.checking import refinement
from solvers.checking.system import Conjunct, Schema
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic_actions import Move as MoveSchema
from specs.shumshu.formal.symbolic_landing_actions import AirRoll as AirRollSchema
from specs.shumshu.formal.verification import Link, symbolic_model
from specs.shumshu.rules.actions import (
    AirRoll,
    Commit,
    Defend,
    Done,
    Hold,
    Join,
    Move,
    Resolve,
    Roll,
)
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, h, legal, position
from tests.sizes import size

PRESETS = sorted(GAME.presets())
GAMES = size(12, 25)  # tests.sizes: 25 in make bench
EVERY = size(20, 30)  # direction (b) at every 20th position (30th of the full run)


def link(preset: str = "draft") -> Link:
    model = symbolic_model(GAME.presets()[preset])
    assert model is not None
    return model


def both_ways(state: ShumshuState, m: Link | None = None) -> int:
    """Direction (b) at one position (and (a) for each of its actions); the successor count."""
    m = m or link()
    problems, count = refinement.check_position(
        GAME, m, refinement.Successors(m), state, f"{state.stage.value} position"
    )
    assert not problems, "\n".join(str(p) for p in problems)
    return count


def to_roll(s: ShumshuState) -> ShumshuState:
    """On to the die, without No Retreat! or any commitment."""
    if s.stage is Stage.HOLD:
        s = apply_all(s, Hold(False))
    if s.stage is Stage.COMMIT:
        s = apply_all(s, Commit())
    assert s.stage is Stage.ROLL, s.stage
    return s


@pytest.mark.parametrize("preset", PRESETS)
def test_model_refines_rules_on_seeded_playouts(preset: str) -> None:
    report = refinement.run(GAME, link(preset), preset, games=GAMES, every=EVERY)
    assert report.ok, "\n".join(str(m) for m in report.mismatches)
    assert report.steps > 80 * GAMES  # about a hundred steps a game
    # about one position per EVERY steps (50 on the seeded games of the free-order set-up,
    # SHU-SETUP.1, which changed every seeded game)
    assert report.positions >= 50
    assert report.successors > report.positions
    schemas = dict(report.schemas)
    for name in (
        "place",
        "land_at",
        "embark",
        "strike",
        "air_roll",
        "roll_landing",
        "move",
        "move_done_attack",
        "move_done_quiet",
        "join",
        "declare_done",
        "hold",
        "commit",
        "roll_combat",
        "reinforce",
    ):
        assert schemas.get(name, 0) > 0, f"no {name} step was checked"


def test_shu_stack_3_the_choice_of_defenders_matches_both_ways() -> None:
    """SHU-STACK.3: of five Japanese units four defend, chosen by the Japanese: the model
    offers exactly the five choices the rules do."""
    five = {u: "0602" for u in ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-IB4")}
    s = apply_all(
        position({**five, "RU-1-138": "0502"}, turn=2), Done(), Join("RU-1-138", h("0602")), Done()
    )
    assert s.stage is Stage.DEFENDERS
    assert both_ways(s) == len([a for a in legal(s) if isinstance(a, Defend)]) == 5
    after = apply_all(s, legal(s)[0])
    both_ways(after)


def test_shu_combat_4_no_legal_attack_ends_the_combat_phase_both_ways() -> None:
    """SHU-COMBAT.4: a lone battalion next to two hexes of undisrupted Japanese can attack
    neither (the other must be attacked too), so movement's end skips the declaration: the
    model takes it by its certificate that no declaration exists; with a second battalion
    the declaration opens, by its witness."""
    m = link()
    alone = position({"RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0503"})
    assert m.schema_of(alone, Done())[0] == "move_done_quiet"
    assert apply_all(alone, Done()).side == JP
    both_ways(alone)
    pair = position({"RU-1-138": "0502", "RU-2-138": "0502", "JP-IB1": "0602", "JP-IB2": "0503"})
    assert m.schema_of(pair, Done())[0] == "move_done_attack"
    declaring = apply_all(pair, Done())
    assert declaring.stage is Stage.DECLARE
    both_ways(declaring)
    joined = apply_all(declaring, Join("RU-1-138", h("0602")))
    assert {a for a in legal(joined) if isinstance(a, Join)} == {Join("RU-2-138", h("0503"))}
    both_ways(joined)


def test_shu_combat_1_picking_the_next_combat_matches_both_ways() -> None:
    """SHU-COMBAT.1: two attacks declared; the attacker picks which is resolved first."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0602", "RU-NI": "0704", "JP-IB2": "0603"})
    s = apply_all(s, Done(), Join("RU-1-138", h("0602")), Join("RU-NI", h("0603")), Done())
    assert s.stage is Stage.PICK
    assert both_ways(s) == 2
    both_ways(apply_all(s, Resolve(h("0603"))))


def test_shu_crt_4_rout_and_advance_and_a_trapped_unit_match_both_ways() -> None:
    """SHU-CRT.4, SHU-COMBAT.13, AMB-SHU-26: a DR routs the defender one hex and the victors
    advance; a unit with no hex free of the enemy is eliminated instead."""
    base = {"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205"}
    s = apply_all(
        position(base), Done(), Join("RU-1-138", h("0602")), Join("RU-NI", h("0602")), Done()
    )
    s = to_roll(s)
    assert both_ways(s) >= 4  # the die's results: DR, DW, D, AD
    routed = apply_all(s, Roll(1))
    assert routed.stage is Stage.RETREAT
    both_ways(routed)
    advance = apply_all(routed, legal(routed)[0])
    assert advance.stage is Stage.ADVANCE
    both_ways(advance)
    trapped = position({"RU-1-138": "0204", "RU-2-138": "0305", "JP-IB1": "0205"})
    trapped = apply_all(
        trapped,
        Done(),
        Join("RU-1-138", h("0205")),
        Join("RU-2-138", h("0205")),
        Done(),
    )
    trapped = to_roll(trapped)
    both_ways(trapped)
    gone = apply_all(trapped, Roll(1))
    assert gone.piece("JP-IB1").loc is Loc.GONE


def test_shu_rgt_1_and_shu_combat_6_forming_and_returning_match_both_ways() -> None:
    """SHU-RGT.1: three battalions together may form their regiment; SHU-COMBAT.6: a decoy
    discovered last turn comes back into a hex the Japanese hold, reachable from hex 33
    (`decoy_return=reachable_held`)."""
    bns = {u: "0502" for u in ("RU-1-138", "RU-2-138", "RU-3-138")}
    s = position({**bns, "JP-IB1": "0703"}, stage=Stage.FORM, turn=2)
    assert both_ways(s) == 2
    formed = apply_all(s, legal(s)[0])
    assert formed.piece("RU-138").loc is Loc.MAP
    japanese = {"JP-IB1": "0703", "JP-IB2": "0404", "JP-IB3": "0305", "JP-TK1": "0205"}
    decoy = position({**japanese, "RU-NI": "0502"}, stage=Stage.MOVE, side=JP, turn=2)
    back = attrs.evolve(
        decoy,
        stage=Stage.DECOY,
        units=tuple(attrs.evolve(p, recover=2) if p.id == "JP-DC1" else p for p in decoy.units),
    )
    GAME.check_position(back)
    assert len(legal(back)) == 4  # each Japanese hex
    assert both_ways(back) >= 4


# --- the check catches a wrong model ----------------------------------------------------------


class _GrowingShips(AirRollSchema):
    """A wrong Ki-43: its roll gives a capability back instead of sinking one."""

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        after = super().step(o, s, c)
        return self.m.upd(after, {"ships": o.add([s.i("ships"), 1])})


class _RestlessMove(MoveSchema):
    """A wrong movement: a disrupted unit may move."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [g for g in super().guard(o, s, c) if g.clause != "SHU-MOVE.4"]


def _mutated(kind: type[Schema], name: str) -> Link:
    """A fresh model of preset draft with schema `name` replaced by a `kind` instance."""
    m = Link(GAME.presets()["draft"])
    swapped: list[Any] = []
    for sc in m.model.schemas:
        if sc.name == name:
            sc = copy.copy(sc)
            sc.__class__ = kind
        swapped.append(sc)
    m.model.schemas = tuple(swapped)
    return m


def test_a_model_that_lets_capabilities_grow_is_caught() -> None:
    """SHU-LAND.3, SHU-AIR.2: direction (a) names the capabilities and their clauses."""
    s = position({"JP-IB1": "0703"}, stage=Stage.AIR_ROLL, side=RU)
    action = AirRoll(6, None)
    after = GAME.apply(s, action)
    assert after.ships == s.ships - 1
    assert refinement.check_step(link(), s, action, after, "right") is None
    found = refinement.check_step(_mutated(_GrowingShips, "air_roll"), s, action, after, "wrong")
    assert found is not None and found.direction == "a"
    assert "ships" in found.detail and "SHU-LAND.3" in found.clauses


def test_a_model_that_lets_a_disrupted_unit_move_is_caught() -> None:
    """SHU-DISRUPT.1, SHU-MOVE.4: direction (b) finds the model's move that no legal action
    makes."""
    s = position({"RU-1-138": "0502", "RU-NI": "0704", "JP-IB1": "0902"}, disrupted=["RU-NI"])
    assert not any(isinstance(a, Move) and a.unit == "RU-NI" for a in legal(s))
    both_ways(s)
    wrong = _mutated(_RestlessMove, "move")
    problems, _ = refinement.check_position(
        GAME, wrong, refinement.Successors(wrong), s, "disrupted"
    )
    assert problems and all(p.direction == "b" and p.schema == "move" for p in problems)
