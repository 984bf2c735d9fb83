"""Shumshu's situations (`specs.shumshu.formal.situations`): each distance is 0 where its
option's readings part, steered play by it reaches 0 from a corpus, and there the explorer,
on counts alone (`budget=None`, no corpus comparison, no call-graph steering, no guided
game), finds the pair `differ` with a witness that replays from the set-up."""

from __future__ import annotations

import json

import attrs
import pytest

from solvers.checking.corpus import build_corpus
from solvers.checking.differences import same_position
from solvers.checking.explore import reading_variant
from solvers.checking.situations import reading_situations, toward
from specs.shumshu.formal.situations_fights import parts_on_roll
from specs.shumshu.rules.state import JP, RU, Fight, ShumshuState, Stage
from tests.shumshu.positions import GAME, B, h, position
from tools.testing.witnesses import assert_witness_holds, situation_only

CAT = GAME.catalogue
CORPUS = build_corpus(GAME, seeds=24, max_steps=3_000)
NODES = 1_000
"""Positions steered play may evaluate in these tests (the explorer's own share is less)."""

REACHED = (
    "disrupted_shift",
    "river_half",
    "non_defenders",
    "no_retreat_path",
    "retreat_together",
    "landing_swamp",
    "regiment_use",
    "regiment_counts",
    "rgt_obligation",
    "decoy_return_blocked",
    "decoy_return_order",
    "must_attack",
    "strategic_needs",
)
"""Options whose situation play steered by the distance reaches within `NODES`."""


def _readings(option: str) -> tuple[str, str]:
    first, second, *_ = (r.name for r in CAT.option(option).readings)
    return first, second


def test_every_situation_is_an_option_of_the_catalogue() -> None:
    """The hook offers distances for options of the game only, and none for an option the
    game proves moot (could_move, ship_load, worst_roll_opposed)."""
    names = {o.name for o in CAT.options}
    offered = set(reading_situations(GAME))
    assert offered <= names
    assert not offered & {"could_move", "ship_load", "worst_roll_opposed"}


@pytest.mark.parametrize("option", REACHED)
def test_steered_play_reaches_the_situation(option: str) -> None:
    """The distance reaches 0 from the corpus positions within `NODES` positions, and the
    actions the search gives lead there from the set-up."""
    s = toward(GAME, CORPUS, "draft", reading_situations(GAME)[option], nodes=NODES)
    assert s.reached and s.best == 0
    here = s.reached[0]
    state = GAME.initial_state(CAT.preset("draft"))
    for action in here.actions:
        state = GAME.apply(state, action)
    assert state == here.state


@pytest.mark.parametrize("option", REACHED)
def test_the_explorer_finds_the_pair_differ_at_the_situation(option: str) -> None:
    """With counts only and every other search off, the pair differs thanks to the
    situation, and its witness replays from the set-up under both readings."""
    f = situation_only(GAME, option, CORPUS, NODES)
    assert f.verdict == "differ", f.detail
    assert f.witness is not None
    d = f.witness.difference
    assert_witness_holds(GAME, f)
    if d.kind == "result_of_action":
        action = GAME.action_from_json(json.loads(d.only_a[0]))
        ra, rb = _readings(option)
        a = GAME.initial_state(reading_variant(CAT, "draft", option, ra))
        b = GAME.initial_state(reading_variant(CAT, "draft", option, rb))
        for data in f.witness.log:
            step = GAME.action_from_json(data)
            a, b = GAME.apply(a, step), GAME.apply(b, step)
        assert not same_position(GAME, GAME.apply(a, action), GAME.apply(b, action))


# The distances at built positions: 0 exactly where the rules answer otherwise.


def _fight(
    units: dict[str, str], target: str, attackers: tuple[str, ...], disrupted: list[str]
) -> ShumshuState:
    """A Japanese attack on `target` about to be rolled, every Russian listed defending."""
    s = position(units, side=JP, disrupted=disrupted)
    fight = Fight(h(target), attackers, defenders=tuple(u for u in units if u.startswith("RU")))
    return attrs.evolve(s, stage=Stage.ROLL, fight=fight)


def test_shu_disrupt_2_disrupted_shift_is_0_for_a_mixed_stack_only() -> None:
    """SHU-DISRUPT.2, AMB-SHU-19: one of two defenders disrupted parts the readings (the
    roll reads another column) and the distance is 0; both disrupted, the shift is given
    under either and the distance is not 0."""
    d = reading_situations(GAME)["disrupted_shift"]
    units = {"RU-1-138": "0502", "RU-2-373": "0502", "JP-IB1": "0602", "JP-IB2": "0602"}
    attackers = ("JP-IB1", "JP-IB2")
    mixed = _fight(units, "0502", attackers, disrupted=["RU-1-138"])
    both = _fight(units, "0502", attackers, disrupted=["RU-1-138", "RU-2-373"])
    assert mixed.fight is not None and both.fight is not None
    assert parts_on_roll(B, mixed, mixed.fight, "disrupted_shift")
    assert d(mixed) == 0
    assert not parts_on_roll(B, both, both.fight, "disrupted_shift")
    assert d(both) > 0


def test_shu_crt_4_no_retreat_path_is_0_for_surrounded_defenders_only() -> None:
    """SHU-CRT.4, AMB-SHU-26: defenders with every neighbouring hex held by the enemy are at
    0; with a free hex next to them, the distance counts it."""
    d = reading_situations(GAME)["no_retreat_path"]
    ring = {"RU-2-138": "0702", "RU-3-138": "0703", "RU-1-373": "0603", "RU-2-373": "0503"}
    units = {"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205", **ring}
    s = position(units, side=RU)
    shut = attrs.evolve(
        s, stage=Stage.ROLL, fight=Fight(h("0602"), ("RU-NI", "RU-1-138"), defenders=("JP-IB1",))
    )
    assert d(shut) == 0
    opened = {k: v for k, v in units.items() if k != "RU-2-373"}
    s = position(opened, side=RU)
    free = attrs.evolve(
        s, stage=Stage.ROLL, fight=Fight(h("0602"), ("RU-NI", "RU-1-138"), defenders=("JP-IB1",))
    )
    assert d(free) >= 1


def test_shu_reinf_2_decoy_return_blocked_counts_the_way_to_hex_33() -> None:
    """SHU-COMBAT.6, SHU-REINF.2: at the end of a Russian player-turn with the Russians on
    hex 33 and a decoy due back the distance is 0; a hex away from it, 1 more."""
    d = reading_situations(GAME)["decoy_return_blocked"]

    def at(where: str) -> ShumshuState:
        s = position({"RU-NI": where, "JP-IB1": "0502"}, side=RU, turn=2)
        back = {"JP-DC1": 2, "JP-DC2": 3}  # found in the last turn, and in this one
        units = tuple(attrs.evolve(p, recover=back.get(p.id, p.recover)) for p in s.units)
        return attrs.evolve(s, units=units)

    assert d(at("0303")) == 0
    assert d(at("0403")) == 1


def test_shu_stack_3_non_defenders_is_0_once_a_unit_of_the_hex_does_not_defend() -> None:
    """SHU-STACK.3, AMB-SHU-11: four Russian units in a hex, three defending: the result
    reaches the fourth under one reading only, and the distance is 0; with three units, all
    defend and the fight counts for nothing (a later, larger stack is lacking)."""
    d = reading_situations(GAME)["non_defenders"]
    four = {"RU-1-138": "0502", "RU-2-138": "0502", "RU-3-138": "0502", "RU-NI": "0502"}
    s = position({**four, "JP-IB1": "0602"}, side=JP)
    defending = ("RU-1-138", "RU-2-138", "RU-3-138")
    fight = Fight(h("0502"), ("JP-IB1",), defenders=defending)
    assert d(attrs.evolve(s, stage=Stage.ROLL, fight=fight)) == 0
    three = {k: v for k, v in four.items() if k != "RU-NI"}
    s = position({**three, "JP-IB1": "0602"}, side=JP)
    assert d(attrs.evolve(s, stage=Stage.ROLL, fight=fight)) > 0


def test_shu_rgt_1_regiment_use_is_0_at_the_choice_to_form() -> None:
    """SHU-RGT.1, AMB-SHU-10: three undisrupted battalions of one regiment together at the
    start of the Russian turn: the rules offer to form it (the readings then part on whether
    it may act), and the distance is 0; two together lack one battalion."""
    d = reading_situations(GAME)["regiment_use"]
    together = {"RU-1-138": "0502", "RU-2-138": "0502", "RU-3-138": "0502", "JP-IB1": "0303"}
    s = position(together, stage=Stage.FORM)
    assert d(s) == 0
    apart = {**together, "RU-3-138": "0602"}
    assert d(position(apart)) == 1 + 1
