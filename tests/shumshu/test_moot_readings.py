"""Shumshu's own proof that could_move (AMB-SHU-13, SHU-COMBAT.2) cannot differ under the
draft preset, where move_and_attack=either (AMB-SHU-12, SHU-COMBAT.1) already bars a unit
that moved from attacking (`specs.shumshu.formal.moot_readings`), with the control where it
must fail: move_and_attack=both."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from kernel.variants import Variant
from solvers.checking.explore import differential, reading_variant
from solvers.checking.game_proofs import game_proof, reading_proofs
from specs.shumshu.rules.declare import attacker_problem
from specs.shumshu.rules.state import JP, Loc
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
