"""Shumshu's own proof that could_move (AMB-SHU-13, SHU-COMBAT.2) cannot differ under the
draft preset, where move_and_attack=either (AMB-SHU-12, SHU-COMBAT.1) already bars a unit
that moved from attacking (`specs.shumshu.formal.moot_readings`), with the control where it
must fail: move_and_attack=both; and the proofs for ship_load and worst_roll_opposed, each
with its control."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from kernel.variants import Variant
from solvers.checking.explore import differential, reading_variant
from solvers.checking.game_proofs import game_proof, reading_proofs
from specs.shumshu.rules.combat_decisions import landing_roll
from specs.shumshu.rules.declare import attacker_problem
from specs.shumshu.rules.odds import worst_roll
from specs.shumshu.rules.state import JP, Fight, Loc, Sail, Stage
from specs.shumshu.rules.units import obliged_hexes
from tests.shumshu.positions import GAME, B, attack, h, position

CAT = GAME.catalogue
SPEC = Path(__file__).resolve().parents[2] / "specs" / "shumshu"


def _pair(**others: str) -> tuple[Variant, Variant]:
    """draft with `others` and each reading of could_move."""
    if not others:
        return (
            reading_variant(CAT, "draft", "could_move", "terrain"),
            reading_variant(CAT, "draft", "could_move", "movement_left"),
        )
    return (
        CAT.variant("draft", {**others, "could_move": "terrain"}),
        CAT.variant("draft", {**others, "could_move": "movement_left"}),
    )


def test_shu_combat_2_could_move_is_read_in_one_rules_module_only() -> None:
    """SHU-COMBAT.2: the proof compares `declare.attacker_problem`, so no other module of
    the game may name the option (besides its catalogue, the proof and the hook)."""
    naming = {
        p.relative_to(SPEC).as_posix()
        for p in SPEC.rglob("*.py")
        if re.search(r"\bcould_move\b", p.read_text(encoding="utf-8"))
    }
    assert naming == {
        "data/variants.py",
        "rules/declare.py",
        "formal/moot_readings.py",
        "game.py",
    }


def test_shu_combat_2_could_move_is_moot_under_draft() -> None:
    """AMB-SHU-12, AMB-SHU-13: under draft (move_and_attack=either) a unit that moved never
    attacks, so both readings of could_move give every unit the same reason not to attack."""
    assert CAT.preset("draft").reading("move_and_attack") == "either"
    proof = game_proof(GAME, "could_move", *_pair())
    assert proof is not None
    assert f"all {8 * len(B.data.units)} answers" in proof


def test_shu_combat_2_could_move_proof_fails_when_a_moved_unit_may_attack() -> None:
    """Control, SHU-COMBAT.1 and SHU-COMBAT.2 under move_and_attack=both: a unit that moved
    may attack under could_move=terrain and not under movement_left; the proof fails."""
    both = {"move_and_attack": "both"}
    for reading, barred in (("terrain", False), ("movement_left", True)):
        s = position(
            {"RU-1-138": "0502", "JP-IB1": "0602"}, options={**both, "could_move": reading}
        )
        s = attrs.evolve(s, moved=frozenset({"RU-1-138"}))
        assert (attacker_problem(B, s, "RU-1-138") is not None) == barred
    assert game_proof(GAME, "could_move", *_pair(**both)) is None


def test_the_explorer_takes_the_proof() -> None:
    """The explorer reports the pair equivalent with the game's proof, before any search
    (AMB-SHU-13)."""
    assert "could_move" in reading_proofs(GAME)
    [finding] = differential(GAME, CAT.option("could_move"), budget=None, games=0)
    assert finding.verdict == "equivalent"
    assert finding.detail.startswith("proved by the game over its data")


# The readings the explorer's play never asked for under draft, each in the situation where
# the rules do ask: rare in play, but not moot (no other option of draft settles them).

SURROUNDED = {
    **{"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205"},
    **{"RU-2-138": "0702", "RU-3-138": "0703", "RU-1-373": "0603", "RU-2-373": "0503"},
}


def test_shu_crt_4_no_retreat_path_is_asked_when_every_hex_around_is_enemy() -> None:
    """SHU-CRT.4, AMB-SHU-26: a DR (3:2, a 1) on a unit whose every neighbouring island hex
    holds an enemy piece: eliminated, or it stays disrupted, by the reading."""
    joins = [("RU-NI", "0602"), ("RU-1-138", "0602")]
    gone = attack(position(SURROUNDED), joins, 1)
    assert gone.piece("JP-IB1").loc is Loc.GONE
    stays = attack(position(SURROUNDED, options={"no_retreat_path": "stays"}), joins, 1)
    p = stays.piece("JP-IB1")
    assert p.loc is Loc.MAP and p.hex == h("0602") and p.disrupted


def test_shu_rgt_4_rgt_obligation_is_asked_for_a_disrupted_regiment() -> None:
    """SHU-RGT.4, SHU-COMBAT.4: a disrupted Russian regiment next to a Japanese attacker
    obliges an attack on its hex only under rgt_obligation=any."""
    units = {"RU-138": "0502", "JP-IB1": "0602"}
    for reading, obliged in (("undisrupted", False), ("any", True)):
        s = position(units, side=JP, disrupted=["RU-138"], options={"rgt_obligation": reading})
        assert (h("0502") in obliged_hexes(B, s, JP)) == obliged


# ship_load (found here) and worst_roll_opposed (found here): moot under draft, with the
# controls where the proofs must fail.


def _variants(option: str, first: str, second: str, **others: str) -> tuple[Variant, Variant]:
    """draft with `others` and each of two readings of `option`."""
    return (
        CAT.variant("draft", {**others, option: first}),
        CAT.variant("draft", {**others, option: second}),
    )


def test_shu_air_2_ship_load_is_moot_under_draft() -> None:
    """SHU-AIR.2, SHU-LAND.2, SHU-REINF.3: under landing_size=capabilities and
    deliveries=capabilities no party outnumbers the capabilities left, one unit to a
    capability under either reading; the explorer takes the proof."""
    assert CAT.preset("draft").reading("landing_size") == "capabilities"
    assert CAT.preset("draft").reading("deliveries") == "capabilities"
    proof = game_proof(GAME, "ship_load", *_variants("ship_load", "one_unit", "shared"))
    assert proof is not None and proof.startswith("proved by the game over its data")
    [finding] = differential(GAME, CAT.option("ship_load"), budget=None, games=0)
    assert finding.verdict == "equivalent"


def test_shu_land_2_ship_load_proof_fails_when_three_sail_on_fewer_capabilities() -> None:
    """Control, SHU-LAND.2 and SHU-AIR.2: with three landers whatever the capabilities left
    (landing_size=three), or three deliveries (deliveries=three), three units sail on fewer
    capabilities: the readings load them otherwise, and the proof fails."""
    for others in ({"landing_size": "three"}, {"deliveries": "three"}):
        pair = _variants("ship_load", "one_unit", "shared", **others)
        assert game_proof(GAME, "ship_load", *pair) is None


def test_shu_land_3_worst_roll_opposed_is_moot_under_draft() -> None:
    """SHU-LAND.3, SHU-LAND.7: no lander's worst roll reads a defender result that changes
    the position (a D only on defenders an earlier lander already disrupted); the explorer
    takes the proof."""
    pair = _variants("worst_roll_opposed", "lost_at_sea", "crt_too")
    proof = game_proof(GAME, "worst_roll_opposed", *pair)
    assert proof is not None and "worst rolls" in proof
    [finding] = differential(GAME, CAT.option("worst_roll_opposed"), budget=None, games=0)
    assert finding.verdict == "equivalent"


def test_shu_land_6_worst_roll_opposed_proof_fails_with_kamchatka_columns() -> None:
    """Control, SHU-LAND.6 and SHU-COMBAT.10: with Kamchatka's column shift and its
    artillery's, the worst roll of the strongest lander against a lone undisrupted tank in
    the black range reads a D that disrupts it under crt_too only; the proof fails."""
    others = {"kamchatka_shift": "column", "kamchatka_artillery": "with_column"}
    pair = _variants("worst_roll_opposed", "lost_at_sea", "crt_too", **others)
    assert game_proof(GAME, "worst_roll_opposed", *pair) is None
    assert B.in_black(h("0901"))
    for reading, disrupted in (("crt_too", True), ("lost_at_sea", False)):
        s = position({"JP-TK1": "0901"}, options={**others, "worst_roll_opposed": reading})
        fight = Fight(h("0901"), ("RU-NI",), landing=True, defenders=("JP-TK1",))
        s = attrs.evolve(
            s, stage=Stage.ROLL, sail=Sail(h("0901"), ("RU-NI",), sailed=True), fight=fight
        )
        [worst] = [f for f in range(1, 7) if worst_roll(B, s, fight, f)]
        after = landing_roll(B, s, fight, worst)
        assert after.piece("RU-NI").loc is Loc.GONE  # SHU-LAND.3: the lander is lost
        assert after.piece("JP-TK1").disrupted is disrupted
