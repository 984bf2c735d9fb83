"""Two Rattenkrieg reading pairs that cannot differ under preset standard, proved over the
data by the game itself (`specs.rattenkrieg.formal.moot_readings`, offered to the explorer
through `reading_proofs`): every combat strength the revisions can make (RKS-8.8.1 to
RKS-8.8.3, RKS-8.12.3, RKS-9.4.1, RKS-9.5.1, RKS-9.7.1) for every unit, Area, role, support
and count of events in force, and every bombardment strength (RKS-9.2.2, RKS-9.3.1), is
computed under both readings and compared. The control cases show each proof fails where
the readings do part ways."""

from __future__ import annotations

import re
from pathlib import Path

from kernel.roles import rules_of
from kernel.variants import Variant
from solvers.checking.explore import differential, reading_variant
from solvers.checking.game_proofs import game_proof, reading_proofs
from specs.rattenkrieg.data.loader import DATA_FILE
from specs.rattenkrieg.formal import moot_readings
from specs.rattenkrieg.game import Rattenkrieg
from specs.rattenkrieg.rules.strength import combat_strength
from tools.registry import get_game

GAME = get_game("rattenkrieg")
RULES = rules_of(GAME)
BOARD = RULES.board
CAT = GAME.catalogue
SPEC = Path(__file__).resolve().parents[2] / "specs" / "rattenkrieg"


def _pair(option: str, ra: str, rb: str, **others: str) -> tuple[Variant, Variant]:
    """The standard preset with `others` and each of the two readings of `option`."""
    if not others:
        return (
            reading_variant(CAT, "standard", option, ra),
            reading_variant(CAT, "standard", option, rb),
        )
    return (
        CAT.variant("standard", {**others, option: ra}),
        CAT.variant("standard", {**others, option: rb}),
    )


def test_rks_8_8_2_rks_9_5_1_both_options_are_read_by_the_strengths_only() -> None:
    """AMB-RKS-23 ii and iii: the proofs compare `rules.strength`'s values, so no other
    module of the game may name the two options (besides the catalogue, the proofs and the
    hook)."""
    for option in ("strength_floor", "engineer_scope"):
        naming = {
            p.relative_to(SPEC).as_posix()
            for p in SPEC.rglob("*.py")
            if re.search(rf"\b{option}\b", p.read_text(encoding="utf-8"))
        }
        assert naming == {
            "data/variants.py",
            "rules/strength.py",
            "formal/moot_readings.py",
            "game.py",
        }, option


def test_rks_8_8_2_strength_floor_never_applies() -> None:
    """RKS-8.8.2 (strength_floor, AMB-RKS-23 ii: none against one): no modified strength falls
    below 1, so the floor never changes one. The weakest unit has strength 1 and gains only;
    the one negative revision is a German Panzer Division's -2 in a City Area (RKS-8.8.2),
    on strength 7. Every combat, role, event count and bombardment gives the same strength."""
    proof = game_proof(GAME, "strength_floor", *_pair("strength_floor", "none", "one"))
    assert proof is not None
    assert "72576 combat strengths" in proof and "476 bombardment strengths" in proof


def test_rks_8_8_2_strength_floor_proof_fails_for_a_strength_below_one(tmp_path: Path) -> None:
    """RKS-8.8.2 control: with a data file whose 14th Panzer Division has strength 1, its
    City revision (-2) takes it below 1, where the floor applies; the game's proof must fail
    then."""
    text = DATA_FILE.read_text(encoding="utf-8")
    weak = text.replace(
        'id = "14Pz"\nname = "14th Panzer Division"\nside = "GE"\ntype = "panzer"\nstrength = 7',
        'id = "14Pz"\nname = "14th Panzer Division"\nside = "GE"\ntype = "panzer"\nstrength = 1',
    )
    assert weak != text
    path = tmp_path / "weak.toml"
    path.write_text(weak, encoding="utf-8")
    game = Rattenkrieg(path)
    va, vb = _pair("strength_floor", "none", "one")
    assert game.reading_proofs()["strength_floor"](va, vb) is None
    assert RULES.reading_proofs()["strength_floor"](va, vb) is not None


def test_rks_9_5_1_engineer_scope_is_moot_under_standard() -> None:
    """RKS-9.5.1, RKS-8.8.2 (engineer_scope, AMB-RKS-23 iii: enemy_bonus against all) under
    standard: the Combat Engineer is a German event in force only in the acting German unit's
    combat (RKS-9.5.1; the position check's `effects_fit`, RKS-9.1.1, holds the combat's
    events to the attacker's), so the only German unit in such a combat is the attacker, and
    under standard's terrain_side=defender (AMB-RKS-23 i) an attacker has no City modifier to
    cancel. Every combat gives the same strengths under both."""
    assert CAT.preset("standard").reading("terrain_side") == "defender"
    proof = game_proof(GAME, "engineer_scope", *_pair("engineer_scope", "enemy_bonus", "all"))
    assert proof is not None


def test_rks_9_5_1_engineer_scope_proof_fails_with_terrain_side_both() -> None:
    """AMB-RKS-23 i and iii control: under terrain_side=both a German attacker has its City
    revision, which engineer_scope=all cancels and enemy_bonus keeps; the enumeration sees
    the difference and the proof fails."""
    va, vb = _pair("engineer_scope", "enemy_bonus", "all", terrain_side="both")
    sa, sb = GAME.initial_state(va), GAME.initial_state(vb)
    assert any(
        combat_strength(BOARD, sa, c, u) != combat_strength(BOARD, sb, c, u)
        for c, _ in moot_readings.combats(BOARD)
        for u in (c.attacker, c.defender)
        if u is not None
    )
    assert game_proof(GAME, "engineer_scope", va, vb) is None


def test_the_game_offers_its_proofs_to_the_explorer() -> None:
    """The explorer reads the game's proofs through the rules' hook, and reports a proved
    pair equivalent with the proof as its detail, before any search (RKS-8.8.2, AMB-RKS-23)."""
    assert set(reading_proofs(GAME)) == {"strength_floor", "engineer_scope"}
    [finding] = differential(GAME, CAT.option("strength_floor"), budget=None, games=0)
    assert finding.verdict == "equivalent"
    assert finding.detail.startswith("proved by the game over its data")
    assert finding.witness is None
