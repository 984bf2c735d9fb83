"""Positions that cannot happen are refused (issue 11): each test takes a position of real play
(or the set-up), which is read back unchanged, breaks one thing in its JSON, and checks that
reading it fails naming the JSON path and the clause (or the broken invariant's ID first).

Shape errors (a bound of the wire type, a non-ASCII id) are InvalidInput; well-formed positions
no play can reach are ImpossiblePosition.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from kernel.chance import sample
from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.game import CHANCE
from kernel.hexes import hex_name
from specs.nomonhan.formal.properties import (
    OFF_MAP,
    PENDING_IN_CONTACT,
    POINTS,
    REINFORCEMENTS_ON_TIME,
    STAGE_RECORDS,
    SUDDEN_DEATH,
)
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from tests.nomonhan.helpers_seq import QUIET
from tests.nomonhan.positions import GAME, JP_YAM, SU_11TK, SU_ART, position

Doc = dict[str, Any]
INDEX = {s.id: i for i, s in enumerate(GAME.rules.data.units)}


@functools.cache
def _play(preset: str, seed: int) -> tuple[NomonhanState, ...]:
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.presets()[preset])
    out = [state]
    while GAME.to_move(state) is not None and len(out) < 3000:
        if GAME.to_move(state) == CHANCE:
            action = sample(GAME.chance_outcomes(state), rng)
        else:
            legal = list(GAME.legal_actions(state))
            if not legal:
                break
            action = rng.choice(legal)
        state = GAME.apply(state, action)
        out.append(state)
    return tuple(out)


def found(preset: str, wanted: Callable[[NomonhanState], bool]) -> Doc:
    """The JSON of the first position of seeded play that is `wanted` (read back unchanged)."""
    for seed in range(60):
        for state in _play(preset, seed):
            if wanted(state):
                data = GAME.state_to_json(state)
                assert GAME.state_from_json(copy.deepcopy(data)) == state
                return data
    raise AssertionError("no such position in 60 seeded games")


def start(preset: str = "ja") -> Doc:
    return GAME.state_to_json(GAME.initial_state(GAME.presets()[preset]))


class Refusal(NamedTuple):
    field: str
    clauses: tuple[str, ...]


def refused(data: Doc) -> Refusal:
    """The field and clauses of the ImpossiblePosition reading `data` raises."""
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(data)
    assert exc.value.field and exc.value.clauses, exc.value.to_json()
    return Refusal(exc.value.field, exc.value.clauses)


def invalid(data: Doc) -> Refusal:
    """The field (and clauses) of the InvalidInput reading `data` raises."""
    with pytest.raises(InvalidInput) as exc:
        GAME.state_from_json(data)
    assert exc.value.field, exc.value.to_json()
    return Refusal(exc.value.field, exc.value.clauses)


def unit(data: Doc, uid: str) -> Doc:
    return data["units"][INDEX[uid]]  # type: ignore[no-any-return]


def free_hex(data: Doc) -> str:
    """A hex of the map with no unit on it or next to any (far from everything)."""
    taken = {u["hex"] for u in data["units"] if u["hex"]}
    for h in sorted(GAME.rules.board.map.hexes):
        near = {hex_name(n) for n in GAME.rules.board.neighbors(h)} | {hex_name(h)}
        if not near & taken:
            return hex_name(h)
    raise AssertionError("no free hex")


# --- reinforcements and the turn (NOM-3.4, NOM-8.8, NOM-5.5) ------------------------------------


def test_nom_3_4_turn_2_reinforcement_on_the_map_in_turn_1_is_refused() -> None:
    """NOM-3.4, NOM-8.8: Yamagata (GT 2) cannot be on the map in Turn 1."""
    data = start()
    unit(data, JP_YAM)["hex"] = hex_name(GAME.rules.board.map.flags["JP"][0])
    exc = refused(data)
    assert exc.clauses == (REINFORCEMENTS_ON_TIME, "NOM-3.4", "NOM-8.8")
    assert exc.field == f"units[{INDEX[JP_YAM]}].hex"


def test_nom_8_8_nip_reinforcement_waits_for_its_movement_phase() -> None:
    """NOM-8.8: in Turn 2 the Japanese are the NIP: Yamagata cannot have entered before their
    Movement Phase; in it, or once it is over, it may have. The Soviet GT 2 tanks (the IP's)
    may be on the map from the turn's first phase."""
    units = {**QUIET, JP_YAM: "0805"}
    data = GAME.state_to_json(position(units, turn=2))
    exc = refused(data)
    assert exc.clauses[0] == REINFORCEMENTS_ON_TIME and "NOM-8.8" in exc.clauses
    assert GAME.state_from_json(
        GAME.state_to_json(position(units, turn=2, nip_moved_this_turn=True))
    )
    assert GAME.state_from_json(
        GAME.state_to_json(position(units, turn=2, phase=Phase.NIP_MOVEMENT))
    )
    assert GAME.state_from_json(GAME.state_to_json(position({**QUIET, SU_11TK: "0109"}, turn=2)))


def test_nom_5_5_turn_11_under_ja_is_refused_and_read_under_en() -> None:
    """NOM-5.5, AMB-NOM-4: JA ends the game after Turn 8; EN has no last turn."""
    data = start("ja")
    data["turn"] = 11
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("turn", ("NOM-5.5",))
    en = start("en")
    en["turn"] = 11
    assert GAME.state_from_json(en).turn == 11


def test_nom_6_5_initiative_of_the_wrong_side_names_the_parity_invariant() -> None:
    """NOM-6.5: Turn 2 under the Japanese initiative breaks NOM-P-INITIATIVE-PARITY."""
    data = start()
    data["turn"] = 2
    exc = refused(data)
    assert exc.field == "initiative" and exc.clauses[:2] == ("NOM-P-INITIATIVE-PARITY", "NOM-6.5")


# --- pending combats (NOM-9.1, NOM-9.8, AMB-NOM-19) ----------------------------------------------


def _pending(preset: str = "ja") -> Doc:
    return found(preset, lambda s: s.stage == Stage.PICK)


def test_nom_9_8_pending_combat_out_of_contact_is_refused() -> None:
    """NOM-9.8, AMB-NOM-19: under JA a pending combat is never disturbed, so a defender moved
    away from its attackers breaks NOM-P-PENDING-IN-CONTACT."""
    data = _pending()
    uid = data["pending"][0]["defenders"][0]
    unit(data, uid)["hex"] = free_hex(data)
    exc = refused(data)
    assert exc.clauses[0] == PENDING_IN_CONTACT
    assert exc.field.startswith("pending[0].")


def test_nom_9_8_pending_combat_unit_off_the_map_is_refused() -> None:
    """NOM-9.8: a pending combat's units are on the map (only the combat being resolved takes
    damage)."""
    data = _pending()
    uid = next(
        u
        for c in data["pending"]
        for u in c["attackers"] + c["defenders"]
        if u != SU_ART and GAME.rules.data.unit(u).type != "tank"
    )
    unit(data, uid).update(hex=None, steps=0)  # the derived points are compared after the check
    exc = refused(data)
    assert "NOM-9.8" in exc.clauses
    assert exc.field.startswith("pending[")


def test_nom_9_1_swapped_pending_combat_is_refused() -> None:
    """NOM-9.1: the phasing side attacks; attackers and defenders swapped are refused."""
    data = _pending()
    c = data["pending"][0]
    c["attackers"], c["defenders"] = c["defenders"], c["attackers"]
    c["support"] = False
    exc = refused(data)
    assert exc.clauses == ("NOM-9.1",) and exc.field == "pending[0].attackers[0]"


def test_nom_9_1_pending_combat_of_the_wrong_side_for_the_phase_is_refused() -> None:
    """NOM-9.1: the same combats in the other side's Combat Phase are refused."""
    data = _pending()
    data["phase"] = "nip_combat" if data["phase"] == "ip_combat" else "ip_combat"
    data["nip_moved_this_turn"] = True
    for c in data["pending"]:
        c["support"] = False
    data["artillery_used"] = False
    exc = refused(data)
    assert exc.clauses == ("NOM-9.1",) and exc.field.startswith("pending[0].")


def test_nom_9_4_unit_in_two_combats_is_refused() -> None:
    """NOM-9.4, NOM-9.5: a unit fights one combat per phase."""
    data = _pending()
    data["pending"][1] = copy.deepcopy(data["pending"][0])
    exc = refused(data)
    assert exc.clauses == ("NOM-9.4", "NOM-9.5") and exc.field == "pending[1].attackers[0]"


# --- the combat under way (NOM-9.9 to NOM-9.30) --------------------------------------------------


def _damage(preset: str = "ja") -> Doc:
    return found(preset, lambda s: s.stage == Stage.DAMAGE)


def test_nom_9_12_damage_left_beyond_the_wire_bounds_is_invalid_input() -> None:
    """NOM-9.12: 10**12 and -3 damage points are refused as input (the wire bounds)."""
    for value in (10**12, -3):
        data = _damage()
        data["current"]["damage_left"] = value
        assert invalid(data).field == "current.damage_left"


def test_nom_9_12_damage_beyond_the_winners_dice_is_refused() -> None:
    """NOM-9.9, NOM-9.12: the damage is the hit difference, never more than the winner's dice."""
    data = _damage()
    data["current"]["damage_left"] = data["current"]["damage_done"] = 15
    exc = refused(data)
    assert exc.field == "current.damage_left" and "NOM-9.12" in exc.clauses


def test_nom_9_29_advance_points_beyond_the_damage_are_refused() -> None:
    """NOM-9.29: 99 advance points are invalid input; more than the damage is impossible."""
    data = found("ja", lambda s: s.stage == Stage.ADVANCE)
    data["current"]["advance_left"] = 99
    assert invalid(data).field == "current.advance_left"
    data["current"]["advance_left"] = 15
    exc = refused(data)
    assert exc.field in ("current.advance_left", "current.damage_left")


def test_nom_9_12_damage_stage_without_a_loser_is_refused_not_a_crash() -> None:
    """NOM-9.12: a damage stage with `current.loser: null` (once an assertion, exit 70) is
    refused naming NOM-P-STAGE-RECORDS; so is a roll stage with a loser."""
    data = _damage()
    data["current"]["loser"] = None
    exc = refused(data)
    assert exc.clauses[0] == STAGE_RECORDS and exc.field == "current.loser"
    roll = found("ja", lambda s: s.stage == Stage.ROLL)
    roll["current"]["loser"] = "JP"
    assert refused(roll).field == "current.loser"


def test_nom_9_12_cli_refuses_a_damage_stage_without_loser_with_exit_2(tmp_path: Path) -> None:
    """NOM-9.12: `wargame legal` on that state exits 2 with the path, not 70."""
    from tools.cli import commands as cli

    data = _damage()
    data["current"]["loser"] = None
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    assert cli.main(["legal", "nomonhan", str(path)]) == 2


def _sides(state: NomonhanState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The winner's and the loser's units of the combat under way."""
    cur = state.current
    assert cur is not None and cur.loser is not None
    c = cur.combat
    if cur.loser == state.phasing:
        return c.defenders, c.attackers
    return c.attackers, c.defenders


def _unmoved_loser(state: NomonhanState) -> bool:
    """A damage stage with a losing unit on the map that has not retreated."""
    if state.stage != Stage.DAMAGE or state.current is None:
        return False
    _, losers = _sides(state)
    return any(u not in state.current.retreated and state.unit(u).hex for u in losers)


def test_nom_9_29_units_of_the_combat_stay_put_until_the_advance() -> None:
    """NOM-9.24, NOM-9.29: during the damage the winner's units are where the combat began,
    and a loser's unit is there too unless it retreated (or was eliminated)."""
    data = found("ja", _unmoved_loser)
    state = GAME.state_from_json(copy.deepcopy(data))
    winners, losers = _sides(state)
    moved = copy.deepcopy(data)
    unit(moved, winners[0])["hex"] = free_hex(moved)
    exc = refused(moved)
    assert (exc.field, exc.clauses) == (f"units[{INDEX[winners[0]]}].hex", ("NOM-9.29",))
    assert state.current is not None
    stay = next(u for u in losers if u not in state.current.retreated and state.unit(u).hex)
    unit(data, stay)["hex"] = free_hex(data)
    exc = refused(data)
    assert (exc.field, exc.clauses) == (f"units[{INDEX[stay]}].hex", ("NOM-9.24",))


def test_nom_9_29_start_hexes_name_every_participant() -> None:
    """NOM-9.29: the start hexes are the participants' hexes when the combat began."""
    data = _damage()
    data["current"]["start_hexes"].popitem()
    exc = refused(data)
    assert exc.field == "current.start_hexes" and exc.clauses == ("NOM-9.29",)


def test_nom_6_2_initiative_change_must_match_the_damage_taken() -> None:
    """NOM-6.2: `turn_ending` is set exactly when the initiative player has taken damage."""
    data = found(
        "ja",
        lambda s: s.stage == Stage.DAMAGE and s.current is not None and s.current.damage_done > 0,
    )
    data["turn_ending"] = not data["turn_ending"]
    exc = refused(data)
    assert exc.field == "turn_ending" and exc.clauses == ("NOM-6.2",)


# --- moves, demolition, support (NOM-8.1, NOM-OPT, NOM-9.17) -------------------------------------


def test_nom_8_1_moved_listing_an_enemy_unit_or_one_off_the_map_is_refused() -> None:
    """NOM-8.1: the units that moved this phase are the mover's, on the map."""
    data = start()
    data["moved"] = ["SU-9"]
    exc = refused(data)
    assert exc.clauses == (STAGE_RECORDS, "NOM-8.1") and exc.field == "moved[0]"
    data = start()
    data["moved"] = [JP_YAM]
    assert refused(data).clauses == (STAGE_RECORDS, "NOM-8.1")
    data = _damage()
    data["moved"] = [data["current"]["combat"]["attackers"][0]]
    assert refused(data).clauses == (STAGE_RECORDS, "NOM-8.1")


def test_nom_8_1_moved_must_name_known_units_once() -> None:
    """NOM-8.1: unknown ids and repeats in `moved` are input errors naming the entry."""
    data = start()
    data["moved"] = ["JP-NOBODY"]
    assert invalid(data).field == "moved[0]"
    data["moved"] = ["JP-KOB", "JP-KOB"]
    assert invalid(data).field == "moved"


def test_nom_opt_1_demolished_bridge_with_demolition_off_is_refused() -> None:
    """NOM-OPT.1: under JA (demolition off) the pontoon bridge is never blown."""
    data = start("ja")
    data["demolished"] = True
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("demolished", ("NOM-OPT.1",))
    en = start("en")
    en["demolished"] = True  # EN's standard rule: possible
    assert GAME.state_from_json(en).demolished


def test_nom_9_19_artillery_used_outside_a_soviet_combat_phase_is_refused() -> None:
    """NOM-9.17, NOM-9.19: the Artillery is marked used only from a Soviet declaration to the
    end of that Combat Phase (per_combat_phase)."""
    data = start()
    data["artillery_used"] = True
    exc = refused(data)
    assert exc.field == "artillery_used" and "NOM-9.19" in exc.clauses


def test_nom_9_17_support_of_a_japanese_attack_is_refused() -> None:
    """NOM-9.17: the Artillery supports Soviet attacks only."""
    data = found("ja", lambda s: s.stage == Stage.PICK and s.phasing == "JP")
    data["pending"][0]["support"] = True
    exc = refused(data)
    assert exc.field == "pending[0].support" and exc.clauses == ("NOM-9.17",)


# --- stages (NOM-5.1, NOM-9.8, NOM-5.4) ---------------------------------------------------------


def test_nom_9_8_pick_with_nothing_pending_is_refused() -> None:
    """NOM-9.8: the attacker picks among two or more pending combats; `pick` with none
    pending (where `legal` once reported a false rules gap) is refused."""
    data = found("ja", lambda s: s.stage == Stage.DECLARE)
    data["stage"] = "pick"
    exc = refused(data)
    assert exc.clauses == (STAGE_RECORDS, "NOM-9.8") and exc.field == "pending"


def test_nom_9_8_each_stages_records_only_in_their_stage() -> None:
    """NOM-5.1, NOM-9.8, NOM-6.2: combats pending in a Movement Phase, a combat under way at
    the declaration, an initiative change outside a combat, a move stage in a Combat Phase."""
    pending = _pending()
    data = start()
    data["pending"] = pending["pending"]
    assert refused(data).clauses[0] == STAGE_RECORDS
    data = found("ja", lambda s: s.stage == Stage.DECLARE)
    data["current"] = _damage()["current"]
    assert refused(data).field == "current"
    data = start()
    data["turn_ending"] = True
    assert refused(data).field == "turn_ending"
    data = start()
    data["phase"] = "ip_combat"
    exc = refused(data)
    assert exc.field == "stage" and exc.clauses == (STAGE_RECORDS, "NOM-5.1")


def test_nom_5_4_end_roll_only_in_the_turns_that_have_one() -> None:
    """NOM-5.4: the end-of-turn die is rolled at the end of Turns 6 and 7 only."""
    data = found("ja", lambda s: s.stage == Stage.END_ROLL)
    data["turn"] = 3
    data["initiative"] = "JP"
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("stage", ("NOM-5.4",))


def test_nom_5_4_end_rolled_only_under_the_at_change_reading() -> None:
    """NOM-5.4, AMB-NOM-5: the roll is made early only under end_roll_timing=at_change."""
    data = start()
    data["end_rolled"] = True
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("end_rolled", ("NOM-5.4",))


def test_nom_9_6_declaration_stage_with_no_contact_is_refused() -> None:
    """NOM-9.6, NOM-5.1: a Combat Phase with nobody in contact ends at once."""
    data = start()
    data["phase"] = "ip_combat"
    data["stage"] = "declare"
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("stage", ("NOM-9.6", "NOM-5.1"))


# --- the end of the game (NOM-4) -----------------------------------------------------------------


def test_nom_4_3_winner_contradicting_the_points_is_refused() -> None:
    """NOM-4.3, NOM-4.4: a game ended by the roll or the last turn is won on points."""
    data = found(
        "ja",
        lambda s: s.result is not None and s.result.clause in ("NOM-5.4", "NOM-5.5"),
    )
    data["result"]["winner"] = "JP" if data["result"]["winner"] != "JP" else "SU"
    exc = refused(data)
    assert exc.field == "result.winner" and exc.clauses == ("NOM-4.3", "NOM-4.4")


def test_nom_4_3_final_points_must_be_the_positions() -> None:
    """NOM-4.3, NOM-4.5: the result's points are the points of the final position."""
    data = found("ja", lambda s: s.result is not None)
    data["result"]["points"]["JP"] += 1
    exc = refused(data)
    assert exc.field == "result.points"
    assert exc.clauses[0] in (POINTS, "NOM-4.3")


def test_nom_4_1_sudden_death_decides_the_clause_and_the_winner() -> None:
    """NOM-4.1, NOM-4.2: a game with the Artillery eliminated is over, won by Japan; a game
    with both sudden-death units alive cannot have ended by them."""
    data = found("ja", lambda s: s.result is not None and s.result.clause == "NOM-4.1")
    data["result"]["winner"] = "SU"
    assert refused(data).clauses == (SUDDEN_DEATH, "NOM-4.1")
    data = found("ja", lambda s: s.result is not None and s.result.clause == "NOM-4.1")
    data["stage"], data["result"] = "declare", None
    assert refused(data).clauses[0] == SUDDEN_DEATH
    data = found(
        "ja",
        lambda s: s.result is not None and s.result.clause in ("NOM-5.4", "NOM-5.5"),
    )
    data["result"]["clause"] = "NOM-4.1"
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("result.clause", ("NOM-4.1",))


def test_nom_4_3_game_over_has_a_result_and_only_it() -> None:
    """NOM-4.3: a finished game has a result; a game in progress has none."""
    data = found("ja", lambda s: s.result is not None)
    data["result"] = None
    assert refused(data).field == "result"
    data = start()
    data["result"] = {
        "winner": "JP",
        "points": {"JP": 0, "SU": 0},
        "clause": "NOM-5.4",
        "reason": "no",
    }
    assert refused(data).field == "result"


def test_nom_4_5_derived_points_must_equal_the_units_points() -> None:
    """NOM-4.5, NOM-4.6: the `points` written for readers must be the units' points."""
    data = start()
    data["points"]["SU"] = 3
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("points", ("NOM-4.5", "NOM-4.6"))
    del data["points"]
    assert invalid(data).field == "points"


# --- units (NOM-2.4, NOM-2.5, NOM-3, NOM-9.24) ---------------------------------------------------


def test_nom_2_5_steps_beyond_the_counter_are_refused() -> None:
    """NOM-2.5, NOM-9.28: the JA Artillery has one step; no counter has three."""
    data = start()
    unit(data, SU_ART)["steps"] = 2
    exc = refused(data)
    assert exc.field == f"units[{INDEX[SU_ART]}].steps" and "NOM-2.5" in exc.clauses
    unit(data, SU_ART)["steps"] = 3
    assert invalid(data).field == f"units[{INDEX[SU_ART]}].steps"


def test_nom_9_24_eliminated_unit_on_the_map_is_refused() -> None:
    """NOM-9.24: a unit with no step left is off the map (NOM-P-OFF-MAP)."""
    data = start()
    unit(data, "SU-6-15")["steps"] = 0
    exc = refused(data)
    assert exc.clauses == (OFF_MAP, "NOM-9.24")


def test_nom_2_5_units_listed_once_in_order() -> None:
    """NOM-2.5: every unit once, in the counter list's order; unknown units are bad input."""
    data = start()
    data["units"].reverse()
    assert invalid(data).field == "units[0].id"
    data = start()
    data["units"].pop()
    assert invalid(data).field.startswith("units")
    data = start()
    data["units"][0]["id"] = "JP-NOBODY"
    assert invalid(data).field == "units[0].id"


def test_nom_2_4_hexes_are_four_ascii_digits() -> None:
    """NOM-2.4: a hex in Arabic-Indic digits (once read as 0505) is bad input."""
    data = start()
    data["units"][0]["hex"] = "٠٥٠٥"
    assert invalid(data).field == "units[0].hex"


def test_nom_8_8_withdrawn_only_under_the_lost_reading() -> None:
    """NOM-8.8, AMB-NOM-18: a reinforcement is lost only under reinforcement_timing=lost."""
    data = start()
    data["withdrawn"] = [JP_YAM]
    exc = refused(data)
    assert (exc.field, exc.clauses) == ("withdrawn[0]", ("NOM-8.8",))


# --- strict reading -----------------------------------------------------------------------------


def test_strict_fields_missing_unknown_and_booleans() -> None:
    """Missing fields, unknown fields and booleans for numbers are input errors naming the
    path; nothing defaults silently."""
    data = start()
    del data["current"]
    assert invalid(data).field == "current"
    data = start()
    data["extra"] = 1
    assert invalid(data).field == "extra"
    data = start()
    data["turn"] = True
    assert invalid(data).field == "turn"
    data = start()
    data["units"][0]["steps"] = False
    assert invalid(data).field == "units[0].steps"


def test_amb_variant_names_every_option_and_matches_its_preset() -> None:
    """A variant names the reading of every option, and names its preset if and only if it
    reads them as the preset does (a missing option once defaulted silently)."""
    data = start()
    del data["variant"]["options"]["tie"]
    assert invalid(data).field == "variant.options.tie"
    data = start()
    data["variant"]["options"]["tie"] = "draw"
    assert invalid(data).field == "variant.options.tie"
    data["variant"]["preset"] = None
    assert GAME.state_from_json(data).variant.is_("tie", "draw")
    data["variant"]["options"]["tie"] = "coin"
    assert invalid(data).field == "variant.options.tie"
    data = start()
    data["variant"]["preset"] = None  # exactly ja's readings: the preset is named
    assert invalid(data).field == "variant.preset"


def test_old_documents_keep_their_meaning() -> None:
    """A state written before strict reading (every field present) reads as it did."""
    for preset in ("ja", "en"):
        states = _play(preset, 0)
        for state in states[:: max(1, len(states) // 20)]:
            data = json.loads(json.dumps(GAME.state_to_json(state)))
            assert GAME.state_from_json(data) == state
