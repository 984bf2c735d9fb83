"""Nomonhan's own proofs that two readings cannot differ under the ja preset
(`specs.nomonhan.formal.moot_readings`), each with the control where it must fail: the en
preset, whose other options (artillery_rules=generic, demolition=standard_en,
advance_units=any_friendly) bring the reading's inputs into play."""

from __future__ import annotations

import re
from pathlib import Path

from kernel.variants import Variant
from solvers.checking.explore import differential, reading_variant
from solvers.checking.game_proofs import game_proof, reading_proofs
from specs.nomonhan.rules.board import carries_zoc
from specs.nomonhan.rules.strength import can_attack
from tests.nomonhan.helpers_seq import BOARD
from tests.nomonhan.positions import GAME

CAT = GAME.catalogue
SPEC = Path(__file__).resolve().parents[2] / "specs" / "nomonhan"


def _pair(preset: str, option: str) -> tuple[Variant, Variant]:
    """`preset` with its own reading of `option` and with the other one."""
    mine = CAT.preset(preset).reading(option)
    other = next(r.name for r in CAT.option(option).readings if r.name != mine)
    return (
        reading_variant(CAT, preset, option, mine),
        reading_variant(CAT, preset, option, other),
    )


def _naming(option: str) -> set[str]:
    """The modules of the game that name `option`."""
    return {
        p.relative_to(SPEC).as_posix()
        for p in SPEC.rglob("*.py")
        if re.search(rf"\b{option}\b", p.read_text(encoding="utf-8"))
    }


def test_the_game_offers_its_proofs_to_the_explorer() -> None:
    """The hook gives the two proofs, for options of the catalogue."""
    assert set(reading_proofs(GAME)) == {
        "artillery_self_support",
        "demolition_effect",
        "disturbed_combats",
    }
    assert set(reading_proofs(GAME)) <= {o.name for o in CAT.options}


def test_nom_9_17_artillery_self_support_is_read_only_where_the_artillery_attacks() -> None:
    """NOM-9.17: the rules read the option in the declaration checks only (`declare`,
    `combat_query`), each time for a combat with the Artillery among its attackers; the
    formal mirrors (position check, symbolic model) read it under the same condition."""
    assert _naming("artillery_self_support") == {
        "data/variants.py",
        "rules/declare.py",
        "rules/combat_query.py",
        "formal/position_combat.py",
        "formal/symbolic_queries.py",
        "formal/moot_readings.py",
        "game.py",
    }


def test_nom_9_20_artillery_self_support_is_moot_under_ja() -> None:
    """NOM-9.20, AMB-NOM-15: under ja (artillery_rules=ja) the Artillery never attacks, so no
    combat it supports has it as an attacker: the proof holds and the explorer calls the pair
    equivalent with it."""
    va, vb = _pair("ja", "artillery_self_support")
    art = BOARD.data.artillery
    assert art is not None and not can_attack(va, art) and not can_attack(vb, art)
    proof = game_proof(GAME, "artillery_self_support", va, vb)
    assert proof is not None and "NOM-9.20" in proof
    [f] = differential(
        GAME, CAT.option("artillery_self_support"), budget=None, games=0, exhaustive_cap=1
    )
    assert f.verdict == "equivalent" and f.detail == proof


def test_nom_9_20_artillery_self_support_control_generic_artillery_attacks() -> None:
    """The control: under en (artillery_rules=generic, NOM-9.24) the Artillery attacks, so
    the reading decides and the proof fails."""
    va, vb = _pair("en", "artillery_self_support")
    art = BOARD.data.artillery
    assert art is not None and can_attack(va, art)
    assert game_proof(GAME, "artillery_self_support", va, vb) is None


def test_nom_opt_5_demolition_effect_is_read_only_of_a_blown_pontoon() -> None:
    """NOM-OPT.5, AMB-NOM-17: the rules read the option in `board.carries_zoc` only (the
    symbolic model mirrors it), for a blown pontoon hexside."""
    assert _naming("demolition_effect") == {
        "data/variants.py",
        "rules/board.py",
        "formal/symbolic_tables.py",
        "formal/moot_readings.py",
        "game.py",
    }


def test_nom_opt_1_demolition_effect_is_moot_under_ja() -> None:
    """NOM-OPT.1: under ja (demolition=off) the pontoon is never blown, and with it standing
    every hexside reads the same under both readings: the proof holds, and the explorer calls
    the pair equivalent with it."""
    va, vb = _pair("ja", "demolition_effect")
    proof = game_proof(GAME, "demolition_effect", va, vb)
    assert proof is not None and "NOM-OPT.1" in proof
    [f] = differential(
        GAME, CAT.option("demolition_effect"), budget=None, games=0, exhaustive_cap=1
    )
    assert f.verdict == "equivalent" and f.detail == proof


def test_nom_opt_5_demolition_effect_control_a_blown_bridge_parts_the_readings() -> None:
    """The control: under en (demolition=standard_en) the bridge may be blown, and then the
    pontoon hexside carries ZOC by one reading only (AMB-NOM-17), so the proof fails."""
    va, vb = _pair("en", "demolition_effect")
    assert game_proof(GAME, "demolition_effect", va, vb) is None
    pontoon = BOARD.map.pontoon
    assert pontoon is not None
    a, b = pontoon.a, pontoon.b
    assert carries_zoc(BOARD, va, True, a, b) != carries_zoc(BOARD, vb, True, a, b)
    assert carries_zoc(BOARD, va, False, a, b) == carries_zoc(BOARD, vb, False, a, b)


def test_nom_9_8_disturbed_combats_is_read_only_when_a_combat_is_taken_up() -> None:
    """NOM-9.8, AMB-NOM-19: of the rules, only `resolve` reads the option (where a declared
    combat is taken up); the formal layer's position check and model mirror it."""
    naming = _naming("disturbed_combats")
    assert {p for p in naming if p.startswith("rules/")} == {"rules/resolve.py"}


def test_nom_9_34_disturbed_combats_is_moot_under_ja() -> None:
    """NOM-9.34, AMB-NOM-21 (ii): under ja only a combat's participants advance, so no unit
    of a combat still to come moves before it, and contact reads the same both ways over every
    hexside: the proof holds, and the explorer calls the pair equivalent with it."""
    va, vb = _pair("ja", "disturbed_combats")
    proof = game_proof(GAME, "disturbed_combats", va, vb)
    assert proof is not None and "NOM-9.34" in proof
    [f] = differential(
        GAME, CAT.option("disturbed_combats"), budget=None, games=0, exhaustive_cap=1
    )
    assert f.verdict == "equivalent" and f.detail == proof


def test_nom_9_30_disturbed_combats_control_any_friendly_unit_advances() -> None:
    """The control: under en (advance_units=any_friendly, NOM-9.30) a unit of a combat still
    to come may advance out of contact, and the proof fails; so it does under ja with that
    one option changed."""
    va, vb = _pair("en", "disturbed_combats")
    assert game_proof(GAME, "disturbed_combats", va, vb) is None
    changed = [
        CAT.variant("ja", {"advance_units": "any_friendly", "disturbed_combats": r})
        for r in ("drop_out_of_contact", "resolve_anyway")
    ]
    assert game_proof(GAME, "disturbed_combats", *changed) is None
