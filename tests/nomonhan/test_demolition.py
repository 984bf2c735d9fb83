"""Pontoon-bridge demolition (NOM-OPT.1 to NOM-OPT.6); options `demolition` and
`demolition_effect` (AMB-NOM-17)."""

from __future__ import annotations

import re

import pytest

from kernel.hexes import Hex, parse_hex
from specs.nomonhan.rules.actions import Declare, Demolish, EndPhase, Move
from specs.nomonhan.rules.board import in_enemy_zoc, occupancy
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase
from specs.nomonhan.rules.strength import combat_dice
from tests.nomonhan.helpers_seq import BOARD
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    SU_36,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
)


def _h(text: str) -> Hex:
    return parse_hex(text)


def _at_bridge(
    reading: str,
    units: dict[str, str] | None = None,
    steps: dict[str, int] | None = None,
    phase: Phase = Phase.IP_MOVEMENT,
) -> NomonhanState:
    """Kobayashi at the east end of the pontoon (0308), no enemy near; `reading` of demolition."""
    return position(
        units or {JP_KOB: "0308", JP_3TK: "0807", JP_4TK: "0809", SU_ART: "0103"},
        options={"demolition": reading},
        steps=steps,
        phase=phase,
    )


# --- NOM-OPT.1 -----------------------------------------------------------------------------------


def test_nom_opt_1_status_by_reading() -> None:
    """NOM-OPT.1 (AMB-NOM-17): under JA the rule is optional and off unless adopted (preset ja:
    demolition=off); under EN it is a standard rule (preset en: standard_en)."""
    assert GAME.catalogue.presets["ja"]["demolition"] == "off"
    assert GAME.catalogue.presets["en"]["demolition"] == "standard_en"
    off = _at_bridge("off", steps={JP_KOB: 1})
    assert Demolish() not in legal(off)
    assert clauses_of_illegal(off, Demolish()) == ("NOM-OPT.1",)
    en = position(
        {JP_KOB: "0308", JP_3TK: "0807", SU_ART: "0103"}, preset="en"
    )  # nothing reduced, EN has no precondition
    assert Demolish() in legal(en)
    assert apply_all(en, Demolish()).demolished


# --- NOM-OPT.2 -----------------------------------------------------------------------------------


def test_nom_opt_2_ja_needs_a_reduced_japanese_unit() -> None:
    """NOM-OPT.2: under the JA optional rule the bridge may be blown only while a Japanese unit
    is flipped (any unit, not only the one at the bridge); EN has no such condition."""
    full = _at_bridge("optional_ja")
    assert clauses_of_illegal(full, Demolish()) == ("NOM-OPT.2",)
    assert Demolish() in legal(_at_bridge("optional_ja", steps={JP_KOB: 1}))
    assert Demolish() in legal(_at_bridge("optional_ja", steps={JP_4TK: 1}))
    assert Demolish() in legal(_at_bridge("standard_en"))


def test_nom_opt_2_an_eliminated_unit_is_not_a_flipped_one() -> None:
    """NOM-OPT.2: the JA condition is a flipped counter on the map; a Japanese unit that has
    been removed altogether does not meet it."""
    s = _at_bridge("optional_ja", units={JP_KOB: "0308", JP_3TK: "0807", SU_ART: "0103"})
    assert s.unit(JP_4TK).steps == 0
    assert clauses_of_illegal(s, Demolish()) == ("NOM-OPT.2",)


# --- NOM-OPT.3 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["optional_ja", "standard_en"])
def test_nom_opt_3_timing_by_reading(reading: str) -> None:
    """NOM-OPT.3: JA allows the declaration only at the start of the Japanese Movement Phase
    (before any unit has moved); EN any time during it."""
    s = _at_bridge(reading, steps={JP_KOB: 1})
    assert Demolish() in legal(s)
    after_move = apply_all(s, Move(JP_3TK, _h("0806")))
    if reading == "optional_ja":
        assert clauses_of_illegal(after_move, Demolish()) == ("NOM-OPT.3",)
    else:
        assert Demolish() in legal(after_move)


@pytest.mark.parametrize("reading", ["optional_ja", "standard_en"])
def test_nom_opt_3_only_in_a_japanese_movement_phase(reading: str) -> None:
    """NOM-OPT.3: never in a Soviet Movement Phase, nor in a Combat Phase."""
    su = _at_bridge(reading, steps={JP_KOB: 1}, phase=Phase.NIP_MOVEMENT)
    assert su.phasing == "SU"
    assert clauses_of_illegal(su, Demolish()) == ("NOM-OPT.3",)
    combat = _at_bridge(reading, steps={JP_KOB: 1}, phase=Phase.IP_COMBAT)
    assert clauses_of_illegal(combat, Demolish()) == ("NOM-9.8",)


# --- NOM-OPT.4 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("where", "ok"), [("0308", True), ("0207", True), ("0309", False)])
def test_nom_opt_4_a_japanese_unit_in_0207_or_0308(where: str, ok: bool) -> None:
    """NOM-OPT.4: a Japanese unit must stand in 0207 or 0308, the pontoon's two hexes."""
    s = _at_bridge("standard_en", units={JP_KOB: where, JP_3TK: "0807", SU_ART: "0103"})
    if ok:
        assert Demolish() in legal(s)
    else:
        assert clauses_of_illegal(s, Demolish()) == ("NOM-OPT.4",)


def test_nom_opt_4_a_soviet_unit_there_does_not_count() -> None:
    """NOM-OPT.4: a Soviet unit in a pontoon hex does not let the Japanese blow it."""
    s = _at_bridge(
        "standard_en", units={SU_36: "0308", JP_KOB: "0801", JP_3TK: "0807", SU_ART: "0103"}
    )
    assert clauses_of_illegal(s, Demolish()) == ("NOM-OPT.4",)


# --- NOM-OPT.5 -----------------------------------------------------------------------------------


def test_nom_opt_5_no_crossing_after_demolition() -> None:
    """NOM-OPT.5: once blown, no unit crosses by the pontoon for the rest of the game, and the
    bridge cannot be blown twice."""
    s = _at_bridge("standard_en")
    assert "0207" in {str(a.to) for a in legal(s) if isinstance(a, Move) and a.unit == JP_KOB}
    s = apply_all(s, Demolish())
    assert s.demolished
    assert BOARD.hexside_kind(_h("0207"), _h("0308"), s.demolished) == "blown"
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0207"))) == ("NOM-OPT.5",)
    assert clauses_of_illegal(s, Demolish()) == ("NOM-OPT.5",)
    later = apply_all(s, EndPhase(), EndPhase())  # through the Soviet phase, back to Japan
    assert later.phase == Phase.IP_MOVEMENT and later.demolished
    assert not [a for a in legal(later) if isinstance(a, Move) and a.to == _h("0207")]


@pytest.mark.parametrize("effect", ["everything", "crossing_only"])
def test_nom_opt_5_effect_on_zoc_and_attacks_by_reading(effect: str) -> None:
    """NOM-OPT.5 (AMB-NOM-17): under demolition_effect=everything the blown hexside is a river
    without a bridge for ZOC and combat too; under crossing_only ZOC and attacks still pass
    (with the bridge's +1 to the defender)."""
    units = {JP_KOB: "0308", SU_36: "0207", JP_3TK: "0807", SU_ART: "0103"}
    opts = {"demolition": "standard_en", "demolition_effect": effect}
    s = position(units, options=opts, demolished=True)
    kob = _h("0308")
    assert in_enemy_zoc(BOARD, s, "JP", kob, occupancy(s)) == (effect == "crossing_only")
    combat = position(units, options=opts, demolished=True, phase=Phase.IP_COMBAT)
    attack = Declare((Combat((JP_KOB,), (SU_36,)),))
    if effect == "crossing_only":
        assert legal(combat) == [attack]
        assert combat_dice(BOARD, combat, attack.combats[0]) == (4, 3 + 1)
    else:
        assert legal(combat) == [Declare(())]
        assert "NOM-9.6" in clauses_of_illegal(combat, attack)


# --- NOM-OPT.6 -----------------------------------------------------------------------------------


def test_nom_opt_6_only_the_surviving_text_is_implemented() -> None:
    """NOM-OPT.6: the JA optional rule breaks off after the effect, so whatever followed is
    unknown. The kernel implements the readings of the surviving text only: the demolition
    option names the cut (NOM-OPT.6) in its question, and no reading rests on anything beyond
    NOM-OPT.1 to NOM-OPT.5."""
    demolition = GAME.catalogue.option("demolition")
    effect = GAME.catalogue.option("demolition_effect")
    assert demolition.ambiguity == effect.ambiguity == "AMB-NOM-17"
    assert demolition.clauses == ("NOM-OPT.1", "NOM-OPT.2", "NOM-OPT.3", "NOM-OPT.4", "NOM-OPT.6")
    assert "NOM-OPT.6" in demolition.question
    assert effect.clauses == ("NOM-OPT.5",)
    assert {r.name for r in demolition.readings} == {"off", "optional_ja", "standard_en"}
    assert {r.name for r in effect.readings} == {"everything", "crossing_only"}
    cited: set[str] = set()
    for option in GAME.catalogue.options:
        for r in option.readings:
            cited.update(r.clauses)
    opt_clauses = {c for c in cited if re.fullmatch(r"NOM-OPT\.\d+", c)}
    assert opt_clauses <= {f"NOM-OPT.{n}" for n in range(1, 6)}
    # the demolition marker the surviving text names is among the counters
    assert "DEMOLITION" in {m for m, _ in GAME.rules.data.markers}
