"""Soviet Artillery support (NOM-9.17 to NOM-9.21) and the Artillery as a unit in combat."""

from __future__ import annotations

import pytest

from specs.nomonhan.rules.actions import Loss, Roll
from specs.nomonhan.rules.state import Phase, Stage
from specs.nomonhan.rules.strength import full_steps
from tests.nomonhan.helpers_combat import (
    c,
    combat_position,
    declare,
    decls,
    dice,
    legal_declarations,
    roll_distribution,
    rolling,
)
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
)

ART_SETUP = str(GAME.rules.data.unit(SU_ART).setup)
RANGE_READINGS = ("defender_hex", "attacker_hex", "any_participant")


# --- NOM-9.21: the text's example, under every range reading ---------------------------------


@pytest.mark.parametrize("range_to", RANGE_READINGS)
@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_9_21_example_attack_0303_into_0403_can_be_supported(
    range_to: str, preset: str
) -> None:
    """NOM-9.21: a Soviet attack from 0303 into 0403 can be supported with the Artillery at its
    set-up hex, under every artillery_range_to reading (AMB-NOM-13) and both presets."""
    assert ART_SETUP == "0204"
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: ART_SETUP},
        phase=Phase.NIP_COMBAT,
        preset=preset,
        options={"artillery_range_to": range_to},
    )
    assert legal_declarations(s) == decls([c(SU_36, JP_KOB)], [c(SU_36, JP_KOB, support=True)])
    assert dice(s, c(SU_36, JP_KOB, support=True)) == (3 + 1, 4)
    after = apply_all(s, declare(c(SU_36, JP_KOB, support=True)))
    assert after.stage == Stage.ROLL and after.artillery_used


def test_nom_9_21_range_counts_adjacent_hex_as_one_up_to_three() -> None:
    """NOM-9.21: measured to the defender (defender_hex), 0604 is 4 hexes from the Artillery in
    0204 and out of range; 0504 is 3 hexes away and in range."""
    out = combat_position(
        {SU_36: "0504", JP_KOB: "0604", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_range_to": "defender_hex"},
    )
    assert legal_declarations(out) == decls([c(SU_36, JP_KOB)])
    assert clauses_of_illegal(out, declare(c(SU_36, JP_KOB, support=True))) == ("NOM-9.21",)
    inside = combat_position(
        {SU_36: "0604", JP_KOB: "0504", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_range_to": "defender_hex"},
    )
    assert c(SU_36, JP_KOB, support=True) in {d[0] for d in legal_declarations(inside)}


@pytest.mark.parametrize(
    ("attacker", "defender", "in_range"),
    [
        # attacker 3 hexes from 0204, defender 4
        ("0504", "0604", {"defender_hex": False, "attacker_hex": True, "any_participant": True}),
        # attacker 4 hexes from 0204, defender 3
        ("0604", "0504", {"defender_hex": True, "attacker_hex": False, "any_participant": True}),
        # both 4 or more
        ("0605", "0604", {"defender_hex": False, "attacker_hex": False, "any_participant": False}),
    ],
)
def test_nom_9_21_artillery_range_to_readings_differ(
    attacker: str, defender: str, in_range: dict[str, bool]
) -> None:
    """NOM-9.21, NOM-9.17: (artillery_range_to) whether an attack is in range depends on which
    hex is measured: the defender's, an attacker's, or any participant's."""
    for reading, expected in in_range.items():
        s = combat_position(
            {SU_36: attacker, JP_KOB: defender, SU_ART: "0204"},
            phase=Phase.NIP_COMBAT,
            options={"artillery_range_to": reading},
        )
        supported = declare(c(SU_36, JP_KOB, support=True))
        if expected:
            assert supported in GAME.legal_actions(s), reading
        else:
            assert clauses_of_illegal(s, supported) == ("NOM-9.21",), reading


# --- NOM-9.17: +1, once, attack only -------------------------------------------------------


def test_nom_9_17_support_adds_one_die_to_the_soviet_attacker() -> None:
    """NOM-9.17: a supported attack rolls one more Soviet die; the defender's dice are
    unchanged."""
    s = combat_position(
        {SU_36: "0303", SU_615: "0304", JP_KOB: "0403", SU_ART: "0204"}, phase=Phase.NIP_COMBAT
    )
    assert dice(s, c((SU_36, SU_615), JP_KOB)) == (5, 4)
    assert dice(s, c((SU_36, SU_615), JP_KOB, support=True)) == (6, 4)
    s = rolling(s, c((SU_36, SU_615), JP_KOB, support=True))
    dist = roll_distribution(s)
    assert max(a for a, _ in dist) == 6 and max(d for _, d in dist) == 4
    assert sum(dist.values()) == 1


def test_nom_9_17_only_one_combat_supported() -> None:
    """NOM-9.17: the Artillery supports one attack: supporting two is refused, and each
    single supported combat is a legal declaration."""
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_615: "0305", JP_3TK: "0405", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        preset="en",
    )
    plain = [c(SU_36, JP_KOB), c(SU_615, JP_3TK)]
    assert clauses_of_illegal(
        s, declare(c(SU_36, JP_KOB, support=True), c(SU_615, JP_3TK, support=True))
    ) == ("NOM-9.17",)
    assert legal_declarations(s) == decls(
        plain,
        [c(SU_36, JP_KOB, support=True), plain[1]],
        [plain[0], c(SU_615, JP_3TK, support=True)],
    )


def test_nom_9_17_never_supports_a_defence() -> None:
    """NOM-9.17: in the Japanese Combat Phase the Artillery cannot support the Soviet defence;
    a Japanese combat marked as supported is refused."""
    s = combat_position({JP_KOB: "0403", SU_36: "0303", SU_ART: "0204"}, phase=Phase.IP_COMBAT)
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36)])
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36, support=True))) == ("NOM-9.17",)


def test_nom_9_17_no_support_without_the_artillery() -> None:
    """NOM-9.17: with the Artillery eliminated there is no support."""
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403"}, phase=Phase.NIP_COMBAT, park=False, eliminated=(SU_ART,)
    )
    assert legal_declarations(s) == decls([c(SU_36, JP_KOB)])
    assert clauses_of_illegal(s, declare(c(SU_36, JP_KOB, support=True))) == ("NOM-9.17",)


def test_nom_9_17_used_artillery_cannot_support_again() -> None:
    """NOM-9.17, NOM-9.19: a flipped (used) Artillery may not support."""
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        artillery_used=True,
    )
    assert legal_declarations(s) == decls([c(SU_36, JP_KOB)])
    assert clauses_of_illegal(s, declare(c(SU_36, JP_KOB, support=True))) == ("NOM-9.17",)


def _supported_phase_then_tie(frequency: str) -> tuple[bool, bool]:
    """A supported Soviet attack in the NIP Combat Phase ends in a tie: (flag right after the
    declaration, flag once the phase is over)."""
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_frequency": frequency},
    )
    s = apply_all(s, declare(c(SU_36, JP_KOB, support=True)))
    during = s.artillery_used
    s = apply_all(s, Roll(1, 1))
    assert (s.turn, s.phase) == (1, Phase.IP_MOVEMENT)  # NOM-5.2: same turn, next cycle
    return during, s.artillery_used


def test_nom_9_19_artillery_flipped_when_used_and_back_after_the_phase() -> None:
    """NOM-9.19, NOM-9.17: (artillery_frequency=per_combat_phase) the Artillery is flipped
    when it supports and flipped back at the end of that Combat Phase, without losing a step."""
    during, after = _supported_phase_then_tie("per_combat_phase")
    assert (during, after) == (True, False)
    s = combat_position({SU_36: "0303", JP_KOB: "0403", SU_ART: "0204"}, phase=Phase.NIP_COMBAT)
    s = apply_all(s, declare(c(SU_36, JP_KOB, support=True)))
    assert s.unit(SU_ART).steps == full_steps(s.variant, GAME.rules.data.unit(SU_ART))


def test_nom_9_17_artillery_frequency_per_turn() -> None:
    """NOM-9.17: (artillery_frequency=per_turn) the Artillery stays used through the next cycle
    of the same turn, so the next Soviet Combat Phase has no support; it is ready again once
    the turn ends."""
    during, after = _supported_phase_then_tie("per_turn")
    assert (during, after) == (True, True)
    s = combat_position(
        {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_frequency": "per_turn"},
    )
    s = apply_all(s, declare(c(SU_36, JP_KOB, support=True)), Roll(2, 1))
    # Kobayashi (the IP) loses a step: the turn ends (NOM-6.2) and the Artillery is ready
    s = apply_all(s, Loss(JP_KOB, None))
    assert (s.turn, s.initiative, s.artillery_used) == (2, "SU", False)


# --- NOM-9.18: no support with a Japanese unit adjacent ------------------------------------


def test_nom_9_18_adjacent_japanese_unit_bans_support() -> None:
    """NOM-9.18: (artillery_adjacency=banned, JA) with 3rd Tank in 0203 next to the Artillery
    in 0204, it cannot support; under allowed (EN silent) it can."""
    units = {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204", JP_3TK: "0203"}
    banned = combat_position(
        units, phase=Phase.NIP_COMBAT, options={"artillery_adjacency": "banned"}
    )
    assert legal_declarations(banned) == decls([c(SU_36, JP_KOB)])
    assert clauses_of_illegal(banned, declare(c(SU_36, JP_KOB, support=True))) == ("NOM-9.18",)
    allowed = combat_position(
        units, phase=Phase.NIP_COMBAT, options={"artillery_adjacency": "allowed"}
    )
    assert legal_declarations(allowed) == decls(
        [c(SU_36, JP_KOB)], [c(SU_36, JP_KOB, support=True)]
    )


def test_nom_9_18_adjacency_across_a_river_still_counts() -> None:
    """NOM-9.18: the ban is about adjacency: Kobayashi in 0304, across the river from the
    Artillery in 0204, still stops support under banned."""
    units = {SU_36: "0303", JP_KOB: "0403", SU_ART: "0204", JP_3TK: "0304"}
    s = combat_position(units, phase=Phase.NIP_COMBAT, preset="en")
    # under EN the 3rd Tank is just another target of 36/149; the Artillery may support
    assert any(comb.support for d in legal_declarations(s) for comb in d)
    banned = combat_position(
        units, phase=Phase.NIP_COMBAT, options={"artillery_adjacency": "banned"}
    )
    assert not any(comb.support for d in legal_declarations(banned) for comb in d)


# --- NOM-9.20: the Artillery never attacks (JA) ------------------------------------------------


def test_nom_9_20_ja_artillery_never_attacks_and_is_not_obliged() -> None:
    """NOM-9.20: (artillery_rules=ja) the Artillery next to a Japanese unit neither must nor
    may attack it."""
    s = combat_position({SU_ART: "0504", JP_KOB: "0604"}, phase=Phase.NIP_COMBAT)
    assert legal_declarations(s) == decls([])
    assert "NOM-9.20" in clauses_of_illegal(s, declare(c(SU_ART, JP_KOB)))


def test_nom_9_20_generic_artillery_attacks_with_its_printed_strength() -> None:
    """NOM-9.20, NOM-9.2: (artillery_rules=generic, EN) the Artillery is an ordinary counter:
    in an enemy ZOC it must attack, with its printed strength."""
    s = combat_position(
        {SU_ART: "0504", JP_KOB: "0604"},
        phase=Phase.NIP_COMBAT,
        options={"artillery_rules": "generic"},
    )
    assert c(SU_ART, JP_KOB) in {d[0] for d in legal_declarations(s) if d}
    assert () not in legal_declarations(s)
    assert clauses_of_illegal(s, declare()) == ("NOM-9.2", "NOM-9.3")
    assert dice(s, c(SU_ART, JP_KOB)) == (1, 4)
