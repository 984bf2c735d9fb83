"""Four choices the rules text leaves open and the code used to make silently, each now a
named option (specs/nomonhan/data/variants.py) whose default under both presets is the old
behaviour: `combat_connection` (NOM-9.7), `artillery_adjacency_river` (NOM-9.18),
`artillery_self_support` (NOM-9.17) and `flag_friendly` (NOM-8.8, NOM-8.9).

Each test builds a position where the readings give different legal actions, and checks the
symbolic model against the rules there under each reading (the refinement check, both ways).
"""

from __future__ import annotations

import random

import pytest

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.playout import play
from kernel.variants import consultations
from solvers.checking import refinement
from specs.nomonhan.data.variants import CATALOGUE, PRESETS
from specs.nomonhan.formal.verification import symbolic_model
from specs.nomonhan.rules.actions import Declare, EndPhase, Enter, Move
from specs.nomonhan.rules.state import NomonhanState, Phase
from tests.nomonhan.helpers_combat import c, combat_position, declare, decls, legal_declarations
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    JP_YAM,
    SU_11TK,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
)
from tests.sizes import size

SU_FLAG = GAME.rules.data.map.flags["SU"][0]


def _refines(state: NomonhanState, label: str) -> None:
    """At `state` the model's successors are exactly the projected results of the legal
    actions and chance outcomes (the refinement check, both ways)."""
    model = symbolic_model(state.variant)
    assert model is not None, f"{label}: the model should encode this variant"
    succ = refinement.Successors(model)
    problems, count = refinement.check_position(GAME, model, succ, state, label)
    assert not problems, "\n".join(str(p) for p in problems)
    assert count > 0


NEW_READINGS = [
    ("ja", "combat_connection", "free"),
    ("en", "combat_connection", "free"),
    ("ja", "artillery_adjacency_river", "in_contact"),
    ("en", "artillery_self_support", "other_combats"),
    ("ja", "flag_friendly", "must_clear"),
    ("en", "flag_friendly", "must_clear"),
]


@pytest.mark.parametrize(("preset", "option", "reading"), NEW_READINGS)
def test_model_refines_rules_under_each_new_reading(preset: str, option: str, reading: str) -> None:
    """The symbolic model encodes each new reading: at every 7th position of two seeded games
    of the preset with that one reading changed, model and rules agree both ways."""
    variant = CATALOGUE.variant(preset, {option: reading})
    model = symbolic_model(variant)
    assert model is not None
    succ = refinement.Successors(model)
    checked = 0
    for seed in range(size(1, 2)):  # tests.sizes: two games in make bench
        rng = random.Random(seed)
        state = GAME.initial_state(variant)
        for step in range(1500):
            side = GAME.to_move(state)
            if side is None:
                break
            if step % 7 == 0:
                where = f"{option}={reading} game {seed} step {step}"
                problems, _ = refinement.check_position(GAME, model, succ, state, where)
                assert not problems, "\n".join(str(p) for p in problems)
                checked += 1
            if side == CHANCE:
                action = sample(GAME.chance_outcomes(state), rng)
            else:
                action = rng.choice(list(GAME.legal_actions(state)))
            state = GAME.apply(state, action)
    assert checked > 10


@pytest.mark.parametrize(
    ("option", "default"),
    [
        ("combat_connection", "connected"),
        ("artillery_adjacency_river", "any_adjacent"),
        ("artillery_self_support", "allowed"),
        ("flag_friendly", "postpones"),
    ],
)
def test_defaults_keep_both_presets_as_they_were(option: str, default: str) -> None:
    """The four options default to the behaviour the code had: no preset changes."""
    assert PRESETS["ja"][option] == PRESETS["en"][option] == default


# --- NOM-9.7: one combat, one connected group? ---------------------------------------------


def _two_separate_fights(reading: str) -> NomonhanState:
    """Japanese Combat Phase: Kobayashi (0403) faces 36/149 (0303) and the 3rd Tank (0405)
    faces 6/15 (0305); the two pairs are not in contact with each other."""
    return combat_position(
        {JP_KOB: "0403", SU_36: "0303", JP_3TK: "0405", SU_615: "0305"},
        options={"combat_connection": reading},
    )


def test_nom_9_7_combat_connection_connected_keeps_separate_fights_apart() -> None:
    """NOM-9.7 (combat_connection=connected): units of one combat form one group linked by
    contacts, so the two separate pairs fight two combats; one combat of all four is refused
    citing NOM-9.7."""
    s = _two_separate_fights("connected")
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36), c(JP_3TK, SU_615)])
    joint = declare(c((JP_KOB, JP_3TK), (SU_36, SU_615)))
    assert clauses_of_illegal(s, joint) == ("NOM-9.7",)
    _refines(s, "combat_connection=connected")


def test_nom_9_7_combat_connection_free_allows_one_combat_of_separate_pairs() -> None:
    """NOM-9.7 read literally (combat_connection=free): any combination meeting NOM-9.2 to
    NOM-9.6 is allowed, so the two pairs may also fight as one combat, pooling their dice
    (NOM-9.9); a defender no attacker of its combat touches is still refused (NOM-9.6)."""
    s = _two_separate_fights("free")
    joint = c((JP_KOB, JP_3TK), (SU_36, SU_615))
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36), c(JP_3TK, SU_615)], [joint])
    assert isinstance(GAME.apply(s, declare(joint)), NomonhanState)
    crossed = declare(c(JP_KOB, SU_615), c(JP_3TK, SU_36))
    assert "NOM-9.6" in clauses_of_illegal(s, crossed)
    _refines(s, "combat_connection=free")


# --- NOM-9.18: adjacency across a river without a bridge ------------------------------------


def _across_the_river(reading: str) -> NomonhanState:
    """Soviet Combat Phase under `ja` (artillery_adjacency=banned): the 3rd Tank in 0304 is
    adjacent to the Artillery in 0204, across a river without a bridge (NOM-7.4)."""
    return combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204", JP_3TK: "0304"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_adjacency_river": reading},
    )


def test_nom_9_18_adjacency_river_any_adjacent_bans_support_across_the_river() -> None:
    """NOM-9.18 read literally (artillery_adjacency_river=any_adjacent): a Japanese unit in
    any adjacent hex stops support, even across a river its ZOC does not cross (NOM-7.4)."""
    s = _across_the_river("any_adjacent")
    assert legal_declarations(s)
    assert not any(comb.support for d in legal_declarations(s) for comb in d)
    plain = next(iter(legal_declarations(s)))
    supported = Declare((c(plain[0].attackers, plain[0].defenders, True), *plain[1:]))
    assert clauses_of_illegal(s, supported) == ("NOM-9.18",)
    _refines(s, "artillery_adjacency_river=any_adjacent")


def test_nom_9_18_adjacency_river_in_contact_lets_the_artillery_support() -> None:
    """NOM-9.18 with NOM-7.4 (artillery_adjacency_river=in_contact): a Japanese unit across a
    river without a bridge cannot engage the Artillery and does not stop its support; one on
    the same bank (0203) still does."""
    s = _across_the_river("in_contact")
    plain = legal_declarations(s)
    with_support = {d for d in plain if any(comb.support for comb in d)}
    assert with_support
    assert len(plain) == 2 * len(plain - with_support)  # each declaration, with and without
    _refines(s, "artillery_adjacency_river=in_contact")
    same_bank = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204", JP_3TK: "0203"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_adjacency_river": "in_contact"},
    )
    assert legal_declarations(same_bank) == decls([c(SU_36, JP_KOB)])


# --- NOM-9.17: the Artillery supporting its own attack (en) ---------------------------------


def _artillery_attacks(reading: str) -> NomonhanState:
    """Soviet Combat Phase under `en` (artillery_rules=generic): the Artillery in 0504 is next
    to Kobayashi in 0604, so it must attack him (NOM-9.2), within its own range."""
    return combat_position(
        {SU_ART: "0504", JP_KOB: "0604"},
        phase=Phase.NIP_COMBAT,
        preset="en",
        options={"artillery_self_support": reading},
    )


def test_nom_9_17_self_support_allowed_artillery_supports_its_own_attack() -> None:
    """NOM-9.17 read literally under `en` (artillery_self_support=allowed): the attacking
    Artillery may also support its own combat, one more Soviet die."""
    s = _artillery_attacks("allowed")
    assert legal_declarations(s) == decls([c(SU_ART, JP_KOB)], [c(SU_ART, JP_KOB, support=True)])
    _refines(s, "artillery_self_support=allowed")


def test_nom_9_17_self_support_other_combats_refuses_support_of_its_own_attack() -> None:
    """NOM-9.17 (artillery_self_support=other_combats): support is aid to an attack the
    Artillery is not part of, so its own combat cannot be supported (refused citing
    NOM-9.17)."""
    s = _artillery_attacks("other_combats")
    assert legal_declarations(s) == decls([c(SU_ART, JP_KOB)])
    assert clauses_of_illegal(s, declare(c(SU_ART, JP_KOB, support=True))) == ("NOM-9.17",)
    _refines(s, "artillery_self_support=other_combats")


# --- NOM-8.8, NOM-8.9: a friendly unit on the flag hex --------------------------------------


def _flag_held_by_friend(options: dict[str, str], **extra: str) -> NomonhanState:
    """Turn 2, Soviet Movement Phase: the 11th Tank Brigade (GT 2) is due and 36/149 stands
    on the Soviet flag hex 0109."""
    units = {JP_KOB: "0801", JP_3TK: "0807", SU_36: str(SU_FLAG), SU_ART: "0103", **extra}
    return position(units, turn=2, options=options, eliminated=(JP_YAM,))


def _entries(s: NomonhanState) -> list[Enter]:
    return [a for a in legal(s) if isinstance(a, Enter) and a.unit == SU_11TK]


def test_nom_8_9_flag_friendly_postpones_entry_indefinitely() -> None:
    """NOM-8.9 extended by NOM-8.6 (flag_friendly=postpones): a friendly unit on the flag hex
    keeps the reinforcement out for as long as it stays, and the phase may end."""
    s = _flag_held_by_friend({"flag_friendly": "postpones"})
    assert not _entries(s)
    assert EndPhase() in legal(s)
    _refines(s, "flag_friendly=postpones")


def test_nom_8_9_flag_friendly_must_clear_makes_room_for_the_reinforcement() -> None:
    """NOM-8.9 read a contrario, NOM-8.8 (flag_friendly=must_clear): only an enemy unit
    postpones entry, so 36/149 must leave the flag hex before the phase ends; then the
    reinforcement can enter, and must."""
    s = _flag_held_by_friend({"flag_friendly": "must_clear"})
    assert not _entries(s)
    assert EndPhase() not in legal(s)
    assert clauses_of_illegal(s, EndPhase()) == ("NOM-8.9",)
    _refines(s, "flag_friendly=must_clear")
    move = next(a for a in legal(s) if isinstance(a, Move) and a.unit == SU_36)
    s = apply_all(s, move)
    assert _entries(s)
    assert clauses_of_illegal(s, EndPhase()) == ("NOM-8.8",)
    _refines(s, "flag_friendly=must_clear, flag hex cleared")


def test_nom_8_9_flag_friendly_must_clear_only_binds_a_unit_that_can_move() -> None:
    """NOM-8.9, NOM-7.3 (flag_friendly=must_clear): a unit on the flag hex that cannot move
    (here in an enemy ZOC) is not obliged, so the phase may end; and under
    reinforcement_timing=any_phase nothing is compulsory (AMB-NOM-18)."""
    stuck = _flag_held_by_friend({"flag_friendly": "must_clear"}, **{JP_KOB: "0108"})
    assert EndPhase() in legal(stuck)
    _refines(stuck, "flag_friendly=must_clear, holder in an EZOC")
    waiting = _flag_held_by_friend(
        {"flag_friendly": "must_clear", "reinforcement_timing": "any_phase"}
    )
    assert EndPhase() in legal(waiting)


def test_nom_9_17_self_support_is_asked_for_only_where_the_artillery_attacks() -> None:
    """NOM-9.17, NOM-9.20: the rules ask for `artillery_self_support` only when the Artillery
    attacks and supports, so under `ja` (its Artillery never attacks) seeded play never asks
    and the explorer marks the pair moot there; under `en` it is asked."""
    counts = {}
    for preset in ("ja", "en"):
        with consultations() as asked:
            for seed in range(3):
                play(GAME, GAME.initial_state(GAME.presets()[preset]), random.Random(seed))
        counts[preset] = asked["artillery_self_support"]
    assert counts["ja"] == 0 and counts["en"] > 0
