"""The position check: every position the rules cannot produce is refused with its JSON path
and clause (and, for the invariants, the property ID); every position play produces passes;
and the work of a legal-action listing stays polynomial (issue 11; RKS-2.4.1 to RKS-10.3.1).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from itertools import combinations
from math import comb
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.chance import sample
from kernel.errors import ImpossiblePosition, InvalidInput, WargameError
from kernel.game import CHANCE
from specs.rattenkrieg.formal.position import applicable
from specs.rattenkrieg.formal.properties import invariants, properties
from specs.rattenkrieg.rules import legal as rk_legal
from specs.rattenkrieg.rules.actions import Discard
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState, Stage
from tests.rattenkrieg.positions import CATALOGUE, GAME, B, position

Json = dict[str, Any]
OPTIONS = [(o.name, [r.name for r in o.readings]) for o in CATALOGUE.options]
variants = st.fixed_dictionaries({name: st.sampled_from(readings) for name, readings in OPTIONS})


def playout(
    seed: int, choices: dict[str, str] | None = None, preset: str = "standard"
) -> list[Any]:
    """Every state of a seeded random game (the final one included)."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.variant(preset, choices or {}))
    out = [s]
    while GAME.to_move(s) is not None:
        side = GAME.to_move(s)
        if side == CHANCE:
            action = sample(GAME.chance_outcomes(s), rng)
        else:
            action = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, action)
        out.append(s)
    return out


@functools.cache
def real_states() -> tuple[RKState, ...]:
    """States of a few seeded games of the standard preset and of two variants that make
    General Chuikov's open cards, alternating raises and random step losses common."""
    out: list[RKState] = []
    for seed in range(3):
        out += playout(seed)
    out += playout(7, {"raising": "alternating", "lost_step": "random"})
    out += playout(8, {"chuikov_raises": "declaration_only", "event_timing": "player_turn_too"})
    return tuple(out)


def at(pred: Callable[[RKState], bool]) -> Json:
    """The JSON of the first real state meeting `pred`."""
    for s in real_states():
        if pred(s):
            data: Json = GAME.state_to_json(s)
            return copy.deepcopy(data)
    raise AssertionError("no real state meets the predicate")


def impossible(data: Json) -> ImpossiblePosition:
    with pytest.raises(ImpossiblePosition) as err:
        GAME.state_from_json(data)
    return err.value


def invalid(data: Json) -> InvalidInput:
    with pytest.raises(InvalidInput) as err:
        GAME.state_from_json(data)
    return err.value


def uid_index(uid: str) -> int:
    return B.unit_index[uid]


def stage(name: str) -> Callable[[RKState], bool]:
    return lambda s: s.stage.value == name


def player_turn(s: RKState) -> bool:
    return s.stage == Stage.PLAYER_TURN and s.turn >= 2


def raising(s: RKState) -> bool:
    return s.stage == Stage.COMBAT and s.combat is not None and s.combat.step.value == "raise"


# --- the regressions of issue 11 ---------------------------------------------------------------


def test_rks_8_2_2_a_combat_record_in_stage_player_turn_is_refused() -> None:
    """RKS-8.2.2: a combat is the acting unit's; at a Player Turn's start there is no acting
    unit, so a combat record there is refused (it used to be accepted, and a legal action
    from it gave a state the CLI itself refused)."""
    data = at(stage("combat"))
    data |= {"stage": "player_turn", "acting": None, "acted": False, "effects": []}
    err = impossible(data)
    assert err.field == "combat" and err.clauses == ("RKS-8.2.2", "RKS-P-SEQUENCE")
    kept = at(stage("combat")) | {"stage": "player_turn"}
    assert impossible(kept).field in ("combat", "acting")


def test_rks_5_1_1_a_discard_stage_during_the_player_turns_is_refused() -> None:
    """RKS-5.1.1: the Recruiting Phase discard is no stage of the Player Turns."""
    err = impossible(at(player_turn) | {"stage": "discard"})
    assert err.field == "stage" and "RKS-5.1.1" in err.clauses


@pytest.mark.parametrize(
    ("field", "value", "clause"),
    [
        ("draws", [{"kind": "hand", "who": "GE"}], "RKS-3.4.3"),
        ("draws", [{"kind": "steps", "who": "71"}], "RKS-3.4.3"),
        ("pending", {"to": "orlovka", "escort": None, "payments": 1}, "RKS-7.3.1"),
        ("pick", {"kind": "sniper", "who": "GE"}, "RKS-9.6.1"),
        ("pick", {"kind": "step", "who": "71"}, "RKS-9.6.1"),
        ("damage", {"unit": "71", "cause": "combat"}, "RKS-8.9.1"),
        (
            "result",
            {"winner": "GE", "points": {}, "clause": "RKS-4.1.1", "reason": ""},
            "RKS-4.1.1",
        ),
    ],
)
def test_rks_3_4_3_7_3_1_9_6_1_queued_draws_moves_and_picks_only_in_their_stage(
    field: str, value: Any, clause: str
) -> None:
    """RKS-3.4.3 (draws), RKS-7.3.1 (a move waiting for its card), RKS-9.6.1 (a random pick),
    RKS-8.9.1 (damage), RKS-4.1.1 (a result): each record only in its own stage."""
    err = impossible(at(player_turn) | {field: value})
    assert err.field == field and err.clauses == (clause, "RKS-P-SEQUENCE")


@pytest.mark.parametrize("name", ["draw", "pick", "pay", "damage", "combat", "over"])
def test_rks_5_1_1_a_stage_without_its_record_is_refused(name: str) -> None:
    """RKS-5.1.1: a stage needs its record (a pick stage with nothing to pick made `legal`
    report a false rules gap)."""
    phase = {"over": "over", "draw": "recruiting"}.get(name, "player_turns")
    data = at(player_turn) | {"stage": name, "phase": phase}
    if name == "over":
        data = at(lambda s: s.turn == 6 and s.stage == Stage.PLAYER_TURN)
        data |= {"stage": "over", "phase": "over"}
    fields = ("draws", "pick", "pending", "damage", "combat", "result", "player")
    assert impossible(data).field in fields


def test_rks_8_6_1_raises_of_a_billion_are_refused() -> None:
    """RKS-8.6.1: each raise puts down another card, so there are at most 51; a billion is out
    of the format, and a count that does not match the cards replaced is impossible."""
    data = at(raising)
    data["combat"]["raises"] = 10**9
    err = invalid(data)
    assert err.field == "combat.raises" and err.clauses == ("RKS-8.6.1",)
    data["combat"]["raises"] = 7
    err2 = impossible(data)
    assert err2.field == "combat.raises" and "RKS-8.6.1" in err2.clauses


def test_rks_8_6_2_one_raise_each_by_default() -> None:
    """RKS-8.6.2, AMB-RKS-6: under `raising=one_each` a round has at most one raise by each
    side, so two raises made and a third due is impossible."""
    data = at(lambda s: raising(s) and s.variant.preset == "standard")
    c = data["combat"]
    c["raises"], c["spent"] = 2, copy.deepcopy([c["attack"], c["defence"]])
    for p in (c["attack"], c["defence"]):
        data["deck"].remove(fresh := next(x for x in sort_cards(DECK) if x in data["deck"]))
        p["card"] = fresh
    err = impossible(data)
    assert str(err.field).startswith("combat") and err.clauses[-1] == "RKS-P-COMBAT"


def test_rks_8_9_2_a_unit_eliminated_twice_is_refused() -> None:
    """RKS-8.9.2: an eliminated unit leaves the map; only the T-34 returns, and its record
    goes with it, so no unit is listed twice."""
    data = at(lambda s: bool(s.eliminated) and s.turn >= 3)
    uid, turn = data["eliminated"][0]
    data["eliminated"].append([uid, turn])
    err = impossible(data)
    assert str(err.field).startswith("eliminated[")
    assert err.clauses == ("RKS-8.9.2", "RKS-P-UNITS")


def test_rks_4_1_2_a_unit_eliminated_in_turn_99_or_a_future_turn_is_refused() -> None:
    """RKS-4.1.2: there are six turns (99 is out of the format), and no unit is eliminated in
    a turn not yet played."""
    data = at(lambda s: bool(s.eliminated) and s.turn <= 4)
    data["eliminated"][0][1] = 99
    err = invalid(data)
    assert err.field == "eliminated[0][1]" and err.clauses == ("RKS-4.1.2",)
    data["eliminated"][0][1] = data["turn"] + 1
    err2 = impossible(data)
    assert err2.field == "eliminated[0]" and err2.clauses == ("RKS-4.1.2", "RKS-P-UNITS")


def test_rks_3_1_1_a_rifle_never_placed_is_refused() -> None:
    """RKS-3.1.1: the Soviet player places a Rifle on every Normal Area at set-up; after it a
    Rifle off the map must have been eliminated."""
    data = at(lambda s: player_turn(s) and B.unit(s, "Rifle-3").area is not None)
    unit = data["units"][uid_index("Rifle-3")]
    data["deck"] = sort_cards(data["deck"] + unit["steps"])
    unit |= {"area": None, "steps": [], "flipped": False, "isolated": False}
    err = impossible(data)
    assert err.field == f"units[{uid_index('Rifle-3')}].area"
    assert err.clauses == ("RKS-3.1.1", "RKS-P-UNITS")


def test_rks_10_2_1_a_20_card_hand_is_refused() -> None:
    """RKS-3.4.1, RKS-10.1.2, RKS-10.2.1: hands grow only by the deal (4 and 3) and the refill
    (to 3, or 4 with Mamayev Kurgan), so no hand holds more than 4 cards: 20 are out of the
    format, 5 are impossible, and 4 German cards before the first refill too."""
    data = at(player_turn)
    moved = data["deck"][:20]
    data["deck"] = data["deck"][20:]
    data["hands"]["GE"] = sorted(data["hands"]["GE"] + moved)
    err = invalid(data)
    assert err.field == "hands.GE" and err.clauses == ("RKS-3.4.1", "RKS-10.2.1")
    s = GAME.state_from_json(at(player_turn))
    five = sort_cards(s.deck)[: 5 - len(s.hand_ge)]
    big = attrs.evolve(s, hand_ge=s.hand_ge | set(five), deck=s.deck - set(five))
    with pytest.raises(ImpossiblePosition) as err2:
        GAME.check_position(big)
    assert err2.value.field == "hands.GE" and err2.value.clauses == ("RKS-10.2.1", "RKS-P-HAND")
    first = GAME.state_from_json(at(lambda s: s.turn == 1 and s.stage == Stage.PLAYER_TURN))
    four = sort_cards(first.deck)[: 4 - len(first.hand_ge)]
    early = attrs.evolve(first, hand_ge=first.hand_ge | set(four), deck=first.deck - set(four))
    with pytest.raises(ImpossiblePosition) as err3:
        GAME.check_position(early)
    assert err3.value.clauses == ("RKS-3.4.1", "RKS-P-HAND")


def test_rks_2_4_1_every_card_exactly_once() -> None:
    """RKS-2.4.1: the 52 cards, each in exactly one place: a card missing, a card in two
    places, a card listed twice in one place, and a card that is not one of the 52."""
    data = at(player_turn)
    lost = at(player_turn)
    lost["deck"].pop()
    assert impossible(lost).clauses == ("RKS-2.4.1", "RKS-P-CARDS")
    twice = at(player_turn)
    twice["discards"] = sort_cards([*twice["discards"], twice["deck"][0]])
    err = impossible(twice)
    assert err.field == "discards" and err.clauses == ("RKS-2.4.1", "RKS-P-CARDS")
    data["deck"].append(data["deck"][0])
    err2 = invalid(data)
    assert err2.field == f"deck[{len(data['deck']) - 1}]" and err2.clauses == ("RKS-2.4.1",)
    data["deck"][-1] = "11S"
    assert invalid(data).field == f"deck[{len(data['deck']) - 1}]"


# --- more that the rules cannot produce ---------------------------------------------------------


def _edit(path: str, value: Any) -> Callable[[Json], None]:
    """Set the JSON value at a dotted path (list indices as numbers)."""

    def apply(data: Json) -> None:
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        node: Any = data
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return apply


def _deck_reversed(data: Json) -> None:
    data["deck"].reverse()


def _flip_result(data: Json) -> None:
    data["result"]["winner"] = "SU" if data["result"]["winner"] == "GE" else "GE"


def _open_attack(data: Json) -> None:
    data["combat"]["attack"]["open"] = True


def _swap_units(data: Json) -> None:
    data["units"][0], data["units"][1] = data["units"][1], data["units"][0]


def _deal_out_of_order(data: Json) -> None:
    data["draws"] = list(reversed(data["draws"]))


def _short_refill(data: Json) -> None:
    data["draws"] = data["draws"][1:]


def _expose(data: Json) -> None:
    unit = next(u for u in data["units"] if u["steps"])
    data["exposed"] = [unit["steps"][0]]


def _remove(data: Json) -> None:
    data["removed"] = [data["deck"].pop()]


def _face_up_in_deck(data: Json) -> None:
    data["face_up"] = [data["deck"][0]]


def _reinforcement_early(data: Json) -> None:
    data["units"][uid_index("16Pz")]["area"] = "german-rear"


def _arrival_record_early(data: Json) -> None:
    unit = data["units"][uid_index("16Pz")]
    data["deck"] = sort_cards(data["deck"] + unit["steps"])
    unit |= {"area": None, "steps": [], "flipped": False, "isolated": False}
    data["eliminated"] = sorted([*data["eliminated"], ["16Pz", 1]])


def _other_origin(data: Json) -> None:
    data["combat"]["attack"]["origin"] = "13Gds" if data["combat"]["attack"]["side"] == GE else "71"


def _support_by_rifle(data: Json) -> None:
    data["combat"]["support"] = "Rifle-1"


def _winner_damaged(data: Json) -> None:
    c = data["combat"]
    data["damage"]["unit"] = (
        c["attacker"] if data["damage"]["unit"] == c["defender"] else c["defender"]
    )


def _flip_at_setup(data: Json) -> None:
    data["units"][uid_index("14Pz")]["flipped"] = True


def _wrong_effect(data: Json) -> None:
    data["effects"] = ["molotov"] if data["player"] == GE else ["assault_gun"]


MORE: list[tuple[str, Callable[[RKState], bool], Callable[[Json], None], str, str]] = [
    # (what, where, edit, field, clause)
    ("a result the points contradict", stage("over"), _flip_result, "result", "RKS-4.1.1"),
    (
        "an Area without controller",
        player_turn,
        _edit("control.orlovka", None),
        "control.orlovka",
        "RKS-3.6.1",
    ),
    (
        "passes outside the Player Turns",
        stage("discard"),
        _edit("passes", 1),
        "passes",
        "RKS-5.1.2",
    ),
    (
        "an acting unit in the Recruiting Phase",
        stage("discard"),
        _edit("acting", "71"),
        "acting",
        "RKS-7.1.1",
    ),
    (
        "an operation without an acting unit",
        player_turn,
        _edit("acted", True),
        "acted",
        "RKS-7.1.2",
    ),
    (
        "a recruit left to continue by the standard reading",
        player_turn,
        _edit("recruited", True),
        "recruited",
        "RKS-7.5.1",
    ),
    ("the other side's events in force", stage("active"), _wrong_effect, "effects[0]", "RKS-9.1.1"),
    (
        "a step card both sides saw under played_step=spent",
        player_turn,
        _expose,
        "exposed",
        "RKS-3.3.3",
    ),
    (
        "a card out of play under used_steps=reshuffled",
        player_turn,
        _remove,
        "removed",
        "RKS-3.4.3",
    ),
    ("a face-up card that is not discarded", player_turn, _face_up_in_deck, "face_up", "RKS-3.4.3"),
    (
        "a reinforcement on the map before its turn",
        lambda s: s.turn == 1 and s.stage == Stage.PLAYER_TURN,
        _reinforcement_early,
        f"units[{uid_index('16Pz')}].area",
        "RKS-6.1.1",
    ),
    (
        "a reinforcement eliminated before it arrived",
        lambda s: (
            s.turn >= 2
            and s.stage == Stage.PLAYER_TURN
            and B.unit(s, "16Pz").area is not None
            and not s.eliminated
        ),
        _arrival_record_early,
        "eliminated[0]",
        "RKS-6.1.1",
    ),
    (
        "a card face up without General Chuikov",
        lambda s: (
            s.stage == Stage.COMBAT
            and s.combat is not None
            and s.combat.attack is not None
            and not s.combat.attack.open
        ),
        _open_attack,
        "combat.attack.open",
        "RKS-9.8.1",
    ),
    (
        "a combat card from another unit",
        lambda s: s.stage == Stage.COMBAT and s.combat is not None and s.combat.attack is not None,
        _other_origin,
        "combat.attack.origin",
        "RKS-8.4.1",
    ),
    (
        "a Rifle supporting as a T-34",
        lambda s: (
            s.stage == Stage.COMBAT and s.combat is not None and s.combat.defender is not None
        ),
        _support_by_rifle,
        "combat.support",
        "RKS-8.12.3",
    ),
    (
        "the winner taking the damage",
        lambda s: s.stage == Stage.DAMAGE and s.combat is not None,
        _winner_damaged,
        "damage.unit",
        "RKS-8.9.1",
    ),
    ("a flipped unit at set-up", stage("place"), _flip_at_setup, "units[0]", "RKS-7.4.1"),
    (
        "the deal out of order",
        lambda s: s.phase == Phase.SETUP and len(s.draws) > 10,
        _deal_out_of_order,
        "draws",
        "RKS-3.3.1",
    ),
    (
        "a refill short of the target",
        lambda s: s.phase == Phase.RECRUITING and len(s.draws) >= 2,
        _short_refill,
        "draws",
        "RKS-10.1.2",
    ),
    (
        "a queued draw of a hand card in the Player Turns",
        lambda s: s.phase == Phase.PLAYER_TURNS and s.stage == Stage.DRAW and s.acting is None,
        _edit("draws", [{"kind": "hand", "who": "GE"}]),
        "draws",
        "RKS-10.1.2",
    ),
    ("a set-up led by the German", stage("place"), _edit("player", "GE"), "player", "RKS-3.1.1"),
    ("the game over before Turn 6", stage("over"), _edit("turn", 5), "turn", "RKS-4.1.1"),
]


@pytest.mark.parametrize(
    ("where", "edit", "field", "clause"),
    [pytest.param(*m[1:], id=m[0]) for m in MORE],
)
def test_more_positions_the_rules_cannot_produce(
    where: Callable[[RKState], bool], edit: Callable[[Json], None], field: str, clause: str
) -> None:
    """Found here, each from a real position with one thing the rules never produce: the
    position check names its field, its clause and the invariant."""
    data = at(where)
    edit(data)
    err = impossible(data)
    assert (err.field, err.clauses[0]) == (field, clause), err.message
    assert err.clauses[1].startswith("RKS-P-")


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (_edit("variant.preset", "soviet_recruiting"), "variant.options.recruiting"),
        (_edit("variant.options.ace", "fourteen"), "variant.options.ace"),
        (_edit("variant.options.ace", "eleven"), "variant.options.ace"),
        (_edit("variant.options.colour", "red"), "variant.options.colour"),
        (_edit("variant.preset", None), "variant.preset"),
        (_swap_units, "units[0].id"),
        (_deck_reversed, "deck[1]"),
        (_edit("units.0.flipped", 0), "units[0].flipped"),
        (_edit("turn", True), "turn"),
        (_edit("units.0.id", "14Pz\n"), "units[0].id"),
        (_edit("control.atlantis", "GE"), "control.atlantis"),
        (_edit("pending", {"to": "orlovka", "escort": None}), "pending.payments"),
        (_edit("colour", "red"), "colour"),
        (_edit("game", "nomonhan"), "game"),
    ],
)
def test_malformed_states_are_invalid_input_naming_the_path(
    edit: Callable[[Json], None], field: str
) -> None:
    """Strict decoding: a preset named with readings that are not its own (or readings that
    are exactly a preset's with no preset named), an unknown option or reading, units out of
    the data's order, cards out of the reading order (a position has one text), a number for
    a boolean and a boolean for a number, an id with a newline, an unknown Area, a missing
    field, an unknown field, another game."""
    data = at(player_turn)
    edit(data)
    assert invalid(data).field == field


def test_missing_options_are_not_defaulted() -> None:
    data = at(player_turn)
    del data["variant"]["options"]["ace"]
    assert invalid(data).field == "variant.options.ace"


# --- the invariants are the position check --------------------------------------------------------


def test_the_position_check_runs_the_spec_invariants() -> None:
    """Each invariant is written once: its property's state check is "its finder finds no
    breach", the position check runs the finders and names the property ID; the properties
    list every invariant, and all are expected to hold under every preset."""
    found = invariants(B)
    props = {p.id: p for p in properties(B)}
    assert {i.prop.id for i in found} <= set(props)
    assert {p.id for p in props.values() if p.kind == "invariant"} == {i.prop.id for i in found}
    for i in found:
        assert set(i.prop.expected.values()) == {"holds"} and i.prop.clauses
    for s in real_states()[::50]:
        for i in found:
            assert i.prop.holds_in(s) and i.find(s) is None


def test_the_invariants_run_are_those_that_hold_for_the_variant() -> None:
    """A variant with a preset runs the invariants expected to hold under it; a variant of
    its own readings those expected to hold under every preset."""
    preset = CATALOGUE.preset("soviet_recruiting")
    custom = CATALOGUE.variant("standard", {"ace": "fourteen"})
    assert custom.preset is None
    assert len(applicable(B, preset)) == len(applicable(B, custom)) == len(invariants(B))


# --- closure: play is never refused, and every successor of an accepted state passes ------------


@pytest.mark.parametrize("preset", sorted(CATALOGUE.presets))
def test_every_state_of_seeded_games_of_every_preset_passes(preset: str) -> None:
    """Real play is never refused: every state of seeded games of each preset passes the
    check, and its JSON reads back equal and is written back identical."""
    for seed in range(2):
        for s in playout(seed, preset=preset):
            data = GAME.state_to_json(s)
            again = GAME.state_from_json(json.loads(json.dumps(data)))
            assert again == s and GAME.state_to_json(again) == data


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), choices=variants)
def test_real_play_is_never_refused_under_any_variant(seed: int, choices: dict[str, str]) -> None:
    for s in playout(seed, choices)[::3]:
        assert GAME.state_from_json(GAME.state_to_json(s)) == s


PLACES = ("deck", "discards", "face_up", "exposed", "removed", "hands.GE", "hands.SU")


def _pile(state: Json, place: str) -> list[str]:
    if place.startswith("hands."):
        pile: list[str] = state["hands"][place[6:]]
        return pile
    if place.startswith("units."):
        steps: list[str] = state["units"][int(place[6:])]["steps"]
        return steps
    found: list[str] = state[place]
    return found


def _edit_once(data: st.DataObject, a: Json, b: Json) -> None:
    """One edit of a real state's JSON: a field set to another value the format allows, a
    unit moved or turned, a card moved between places, or a record taken from another state."""
    kind = data.draw(st.integers(0, 6))
    units = [u["id"] for u in a["units"]]
    if kind == 0:
        fields: list[tuple[str, list[Any]]] = [
            ("stage", [s.value for s in Stage]),
            ("phase", [p.value for p in Phase]),
            ("player", [GE, SU]),
            ("turn", [1, 2, 3, 4, 5, 6]),
            ("passes", [0, 1]),
            ("acting", [None, *units]),
            ("acted", [False, True]),
            ("recruited", [False, True]),
            ("effects", [[], ["assault_gun"], ["engineer"], ["molotov"], ["chuikov"]]),
        ]
        key, values = data.draw(st.sampled_from(fields))
        a[key] = data.draw(st.sampled_from(values))
    elif kind == 1:
        u = a["units"][data.draw(st.integers(0, len(units) - 1))]
        field = data.draw(st.sampled_from(["area", "flipped", "isolated"]))
        if field == "area":
            u["area"] = data.draw(st.sampled_from([None, *B.areas]))
        else:
            u[field] = not u[field]
    elif kind == 2:
        places = [*PLACES, *(f"units.{i}" for i in range(len(units)))]
        src = _pile(a, data.draw(st.sampled_from(places)))
        if src:
            card = src.pop(data.draw(st.integers(0, len(src) - 1)))
            dst = _pile(a, data.draw(st.sampled_from(places)))
            dst[:] = sort_cards([*dst, card])
    elif kind == 3:
        area = data.draw(st.sampled_from(B.stalingrad))
        a["control"][area] = data.draw(st.sampled_from([GE, SU, None]))
    elif kind == 4:
        key = data.draw(st.sampled_from(["combat", "damage", "pending", "draws", "pick", "result"]))
        a[key] = copy.deepcopy(b[key])
    elif kind == 5 and a["combat"] is not None and b["combat"] is not None:
        key = data.draw(st.sampled_from(sorted(a["combat"])))
        a["combat"][key] = copy.deepcopy(b["combat"][key])
    elif kind == 6:
        a["eliminated"] = copy.deepcopy(b["eliminated"])


def _mutant(data: st.DataObject) -> Json:
    """A real state with one to three edits (`_edit_once`)."""
    states = real_states()
    a = GAME.state_to_json(states[data.draw(st.integers(0, len(states) - 1))])
    b = GAME.state_to_json(states[data.draw(st.integers(0, len(states) - 1))])
    for _ in range(data.draw(st.integers(1, 3))):
        _edit_once(data, a, b)
    return a


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_successor_of_an_accepted_state_passes(data: st.DataObject) -> None:
    """Closure: a state the check accepts (here a real state with fields swapped in from
    another, when it is still accepted) leads by every legal action and chance outcome only
    to states the check accepts, so play from accepted input never reaches a refused one."""
    try:
        s = GAME.state_from_json(_mutant(data))
    except WargameError:
        return
    side = GAME.to_move(s)
    if side is None:
        return
    if side == CHANCE:
        actions = [a for a, _ in GAME.chance_outcomes(s)][:6]
    else:
        actions = list(GAME.legal_actions(s))
    for action in actions[:12]:
        GAME.check_position(GAME.apply(s, action))


# --- bounded work ---------------------------------------------------------------------------------


def _discard_stage(hand: list[str], options: dict[str, str] | None = None) -> RKState:
    """A Recruiting Phase discard with `hand` as the German hand, built without the check
    (the check refuses hands over 4 cards)."""
    s = position({"71": "german-rear", "13Gds": "soviet-rear"}, options=options)
    return attrs.evolve(
        s,
        phase=Phase.RECRUITING,
        stage=Stage.DISCARD,
        player=GE,
        hand_ge=frozenset(hand),
        deck=s.deck - set(hand),
    )


def _listed(s: RKState) -> list[Any]:
    """The discards as the rules list them, one candidate at a time (RKS-10.1.1)."""
    hand = sort_cards(s.hand(GE))
    return [
        Discard(frozenset(cards), refill)
        for n in range(len(hand) + 1)
        for cards in combinations(hand, n)
        for refill in (True, False)
        if rk_legal.problem(B, s, Discard(frozenset(cards), refill)) is None
    ]


@pytest.mark.parametrize("options", [{}, {"hand_limit": "hard_limit"}])
def test_rks_10_1_1_the_discards_are_a_lazy_sequence_equal_to_the_listing(
    options: dict[str, str],
) -> None:
    """RKS-10.1.1, RKS-10.1.2, AMB-RKS-19: the lazy discards are exactly the legal ones, in the
    same order, whatever the hand's size."""
    for n in range(7):
        s = _discard_stage(sort_cards(DECK)[:n], options)
        lazy = GAME.legal_actions(s)
        listed = _listed(s)
        assert len(lazy) == len(listed) and list(lazy) == listed
        assert [lazy[i] for i in range(len(lazy))] == listed
        assert all(a in lazy for a in listed) and Discard(frozenset({"KH"}), True) not in lazy


def test_rks_10_1_1_a_20_card_hand_is_counted_not_listed() -> None:
    """RKS-10.1.1: the 2^20 subsets of a 20-card hand are counted by binomials and any one is
    found by unranking; the position check refuses such a hand anyway (RKS-10.2.1)."""
    hand = sort_cards(DECK)[:20]
    s = _discard_stage(hand)
    lazy = GAME.legal_actions(s)
    target = 3  # refill target: the German does not occupy Mamayev Kurgan (RKS-10.1.2)
    assert len(lazy) == sum(comb(20, k) * (2 if 20 - k < target else 1) for k in range(21))
    assert lazy[0] == Discard(frozenset(), True)
    assert lazy[1] == Discard(frozenset({hand[0]}), True)
    assert lazy[-1] == Discard(frozenset(hand), False)
    assert lazy[-2] == Discard(frozenset(hand), True)
    middle = lazy[len(lazy) // 2]
    assert isinstance(middle, Discard) and middle in lazy
    assert rk_legal.problem(B, s, middle) is None
    with pytest.raises(ImpossiblePosition) as err:
        GAME.check_position(s)
    assert err.value.clauses == ("RKS-10.2.1", "RKS-P-HAND")


def test_rks_2_2_1_every_listing_is_small_for_accepted_positions() -> None:
    """Polynomial work: in real positions no listing is longer than the units, Areas and 8
    cards allow (a hand of at most 4 and steps of at most 4)."""
    most = max(len(GAME.legal_actions(s)) for s in real_states())
    assert most <= 2 * len(B.specs) + 12 * len(B.specs)
    assert all(len(GAME.legal_actions(s)) <= 32 for s in real_states() if s.stage == Stage.DISCARD)
    assert {s.stage for s in real_states()} >= {Stage.DISCARD, Stage.COMBAT, Stage.DAMAGE}
    assert SU in {s.player for s in real_states()}
