"""Combat strength and its revisions (RKS-8.8.1 to RKS-8.8.3, RKS-8.12.3, AMB-RKS-9,
AMB-RKS-23)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from specs.rattenkrieg.data.loader import DATA_FILE
from specs.rattenkrieg.game import Rattenkrieg
from specs.rattenkrieg.rules.actions import Defend, Move, Play
from specs.rattenkrieg.rules.state import GE, SU, RKState
from specs.rattenkrieg.rules.strength import combat_strength
from tests.rattenkrieg.positions import TW, B, active, legal, run

CITY = "barrikady"  # a City Area next to gorodishche (Normal)
assert B.is_city(CITY) and not B.is_city("gorodishche")


def fight(attacker: str, defender: str, area: str, frm: str, **kw: Any) -> RKState:
    """`attacker` moves from `frm` into `area`, held by `defender` (its side's control)."""
    a_side = B.side_of[attacker]
    d_side = SU if a_side == GE else GE
    s = active(
        attacker,
        {attacker: (frm, ["2C"]), defender: (area, [] if B.is_tank(defender) else ["2H"])},
        control={frm: a_side, area: d_side},
        **kw,
    )
    return run(s, Move(area))


def strengths(s: RKState) -> tuple[int, int]:
    c = s.combat
    assert c is not None and c.defender is not None
    return combat_strength(B, s, c, c.attacker), combat_strength(B, s, c, c.defender)


def test_rks_8_8_1_infantry_defending_in_a_city_gets_2() -> None:
    """RKS-8.8.1: Infantry of either side defending in a City Area: +2 (Rifle 2 -> 4, German
    Infantry 3 -> 5); not in a Normal Area; the attacker is not revised (AMB-RKS-23 i)."""
    assert strengths(fight("71", "Rifle-2", CITY, "gorodishche")) == (3, 4)
    assert strengths(fight("71", "Rifle-2", "gorodishche", CITY)) == (3, 2)
    assert strengths(fight("Rifle-2", "71", CITY, "gorodishche")) == (2, 5)


def test_rks_8_8_2_a_panzer_division_defending_in_a_city_loses_2() -> None:
    """RKS-8.8.2: a German Panzer Division defending in a City Area: -2 (7 -> 5)."""
    assert strengths(fight("Rifle-2", "14Pz", CITY, "gorodishche"))[1] == 5
    assert strengths(fight("Rifle-2", "14Pz", "gorodishche", CITY))[1] == 7


def test_rks_8_8_3_motorized_infantry_is_never_revised() -> None:
    """RKS-8.8.3: the Motorized Infantry Division keeps its strength in a City."""
    assert strengths(fight("Rifle-2", "29Mot", CITY, "gorodishche"))[1] == 5


@pytest.mark.parametrize(("reading", "guards"), [("yes", 6), ("no", 4)])
def test_amb_rks_9_guards_as_infantry(reading: str, guards: int) -> None:
    """AMB-RKS-9: Guards defending in a City are Infantry (+2) or not; the T-34 never is."""
    s = fight("71", "13Gds", CITY, "gorodishche", options={"guards_infantry": reading})
    assert strengths(s)[1] == guards
    assert strengths(fight("71", "T-34", TW, "orlovka"))[1] == 3


def test_amb_rks_23_terrain_for_both_sides() -> None:
    """AMB-RKS-23 (i): by the other reading the attacker in a City is revised too."""
    s = fight("71", "Rifle-2", CITY, "gorodishche", options={"terrain_side": "both"})
    assert strengths(s) == (5, 4)


def test_amb_rks_23_strength_floor(tmp_path: Path) -> None:
    """AMB-RKS-23 (ii): a Panzer of strength 1 defending in a City falls to -1, or stays at 1
    with a floor."""
    text = DATA_FILE.read_text(encoding="utf-8")
    weak = text.replace(
        'id = "14Pz"\nname = "14th Panzer Division"\nside = "GE"\ntype = "panzer"\nstrength = 7',
        'id = "14Pz"\nname = "14th Panzer Division"\nside = "GE"\ntype = "panzer"\nstrength = 1',
    )
    assert weak != text
    path = tmp_path / "weak.toml"
    path.write_text(weak, encoding="utf-8")
    game = Rattenkrieg(path)
    for reading, want in (("none", -1), ("one", 1)):
        s = fight("Rifle-2", "14Pz", CITY, "gorodishche", options={"strength_floor": reading})
        c = s.combat
        assert c is not None
        assert combat_strength(game.board, s, c, "14Pz") == want


def test_rks_8_12_3_the_t34_adds_its_strength() -> None:
    """RKS-8.12.3: when another Soviet unit in its Area fights, the T-34's strength is added
    (2 + 3); it is declared with the Soviet's first card of the round."""
    s = active(
        "71",
        {"71": ("orlovka", ["2C"]), "Rifle-2": (TW, ["2H"]), "T-34": TW},
        control={"orlovka": GE},
        hands={SU: ["3H"]},
    )
    s = run(s, Move(TW), Defend("Rifle-2"), Play("2C"))
    assert Play("3H", True) in legal(s)
    s = run(s, Play("3H", True))
    c = s.combat
    assert c is not None and c.support == "T-34"
    assert combat_strength(B, s, c, "Rifle-2") == 2 + 2 + 3  # City +2, T-34 +3
