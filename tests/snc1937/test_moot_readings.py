"""SNC's own proofs that reading pairs cannot differ under its data and presets
(`specs.snc1937.formal.moot_readings`), each with the control where it must fail: a board,
chart or preset under which the readings do part."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from solvers.checking.explore import differential, reading_variant
from solvers.checking.game_proofs import game_proof, reading_proofs
from specs.snc1937.formal import moot_readings
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.combat_query import crossable
from specs.snc1937.rules.odds import landing_strength
from tests.snc1937.assembled import rules_of
from tools.registry import get_game

GAME = get_game("snc1937")
RULES = rules_of(GAME)
CAT = GAME.catalogue
SPEC = Path(__file__).resolve().parents[2] / "specs" / "snc1937"
PROVED = {
    "yangtze_hexside_combat": {"rules/odds.py", "rules/combat_query.py"},
    "unstated_terrain": {"rules/column_shifts.py"},
    "terrain_cap_scope": {"rules/column_shifts.py"},
    "naval_inland_basis": {"rules/fire_support.py"},
    "loss_order": {"rules/losses.py", "rules/loss_query.py"},
    "snlf_partial_division": {"rules/stacking.py", "rules/stacking_query.py"},
    "overrun_entry": {"rules/overrun_steps.py"},
    "road_creek_scope": {"rules/movement.py"},
    "landing_halving_base": {"rules/odds.py", "rules/combat_steps.py"},
}
"""Each proved option and the rules modules that read it (by name or through the function
the proof asks: `combat_query.crossable` reads yangtze_hexside_combat via `odds`)."""


def _pair(option: str, **others: str) -> tuple[Variant, Variant]:
    """standard (with `others`) under its own reading of `option` and under the other one."""
    own = CAT.preset("standard").reading(option)
    other = next(r.name for r in CAT.option(option).readings if r.name != own)
    if not others:
        return (
            reading_variant(CAT, "standard", option, own),
            reading_variant(CAT, "standard", option, other),
        )
    return (
        CAT.variant("standard", {**others, option: own}),
        CAT.variant("standard", {**others, option: other}),
    )


def _readers(option: str) -> set[str]:
    """The modules of the rules that name `option` (the proofs' own and the catalogue's
    aside; the symbolic model is no part of play)."""
    found = set()
    for path in (SPEC / "rules").glob("*.py"):
        if re.search(rf"[\"']{option}[\"']", path.read_text()):
            found.add(f"rules/{path.name}")
    return found


def test_each_proof_covers_every_rules_module_that_reads_its_option() -> None:
    """A proof compares the functions that read the option; no other rules module may read it
    (loss_query.py and stacking_query.py are the solver-layer twins the proofs name)."""
    for option, modules in PROVED.items():
        named = _readers(option)
        assert named <= modules, (option, named)
    assert set(reading_proofs(GAME)) == set(PROVED)


def test_snc_9_4_6_yangtze_hexside_combat_moot_without_a_yangtze_hexside() -> None:
    """SNC-9.4.6, SNC-10.4.1.9 (AMB-SNC-24): no hexside of the map data is a Yangtze hexside,
    so both readings let the same attacks cross; a board with one makes the proof fail."""
    va, vb = _pair("yangtze_hexside_combat")
    assert moot_readings.yangtze_hexside_combat(RULES, va, vb) is not None
    a, b = parse_hex("3510"), parse_hex("3511")

    class _WithYangtze(Board):
        def side_kind(self, x: Hex, y: Hex) -> str | None:
            return "yangtze" if {x, y} == {a, b} else super().side_kind(x, y)

    board = _WithYangtze(RULES.data)
    assert crossable(RULES.data, board, a, b, va) != crossable(RULES.data, board, a, b, vb)
    assert moot_readings.yangtze_hexside_combat(RULES, va, vb, board) is None


def test_snc_10_4_1_2_unstated_terrain_moot_while_rice_paddy_gives_no_shift() -> None:
    """SNC-10.4.1.2, SNC-10.4.1.3 (AMB-SNC-4): the TEC data gives paddy 0L and the water
    terrain nothing, so every hex shifts alike; a TEC giving paddy 1L makes the proof fail."""
    va, vb = _pair("unstated_terrain")
    assert moot_readings.unstated_terrain(RULES, va, vb) is not None
    data = RULES.data
    tec = attrs.evolve(data.tec, defence={**data.tec.defence, ("CH", "paddy"): 1})
    assert moot_readings.unstated_terrain(RULES, va, vb, attrs.evolve(data, tec=tec)) is None


def test_snc_10_4_1_1_terrain_cap_scope_moot_since_no_overrun_enters_a_town_or_city() -> None:
    """SNC-10.4.1.1, SNC-9.6.5, SNC-9.6.1 (AMB-SNC-3): no overrun goes into a city or town,
    and no other terrain gives more than 1L, so the overrun's 1L never passes the cap with
    it; with cities counted as overrun targets (2L + 1L) the proof fails."""
    va, vb = _pair("terrain_cap_scope")
    assert moot_readings.terrain_cap_scope(RULES, va, vb) is not None
    board = RULES.board
    assert moot_readings.terrain_cap_scope(RULES, va, vb, board.is_land) is None


def test_snc_11_4_2_naval_inland_basis_moot_while_the_estuary_is_yangtze() -> None:
    """SNC-11.4.2: under estuary_is_yangtze=yes every land hex is one hex inland from the
    Yangtze alike under both readings; under no, hex 2503 is not, and the proof fails."""
    va, vb = _pair("naval_inland_basis")
    assert moot_readings.naval_inland_basis(RULES, va, vb) is not None
    va, vb = _pair("naval_inland_basis", estuary_is_yangtze="no")
    assert moot_readings.naval_inland_basis(RULES, va, vb) is None


def test_snc_10_5_2_1_loss_order_moot_under_the_current_cf() -> None:
    """SNC-10.5.2.1 to SNC-10.5.2.3 (AMB-SNC-28): measured by the current CF no unit with one
    step left is stronger than a full two-step unit of its side, so the next loss falls
    alike; measured by the printed CF (a reduced 5-CF division against the 3-CF two-step
    Wusong garrison) it does not, and the proof fails."""
    va, vb = _pair("loss_order")
    assert moot_readings.loss_order(RULES, va, vb) is not None
    va, vb = _pair("loss_order", strength_measure="printed_cf")
    assert moot_readings.loss_order(RULES, va, vb) is None


def test_snc_6_2_2_snlf_partial_division_moot_while_any_five_japanese_may_stack() -> None:
    """SNC-6.2.1, SNC-6.2.2 (AMB-SNC-9): under japanese_stack=five_any the SNLF grouping is
    never asked; under division_plus_one the readings part and the proof fails."""
    va, vb = _pair("snlf_partial_division")
    assert moot_readings.snlf_partial_division(RULES, va, vb) is not None
    va, vb = _pair("snlf_partial_division", japanese_stack="division_plus_one")
    assert moot_readings.snlf_partial_division(RULES, va, vb) is None


def test_snc_9_6_1_overrun_entry_moot_while_an_overrun_costs_entry_plus_one() -> None:
    """SNC-9.6.1, SNC-9.6.6 (AMB-SNC-25): under overrun_cost=entry_plus_one a group that
    clears the overrun hex goes on alike under both readings; under one_mp the entry cost
    is paid under pays_entry only, and the proof fails."""
    va, vb = _pair("overrun_entry")
    assert moot_readings.overrun_entry(RULES, va, vb) is not None
    va, vb = _pair("overrun_entry", overrun_cost="one_mp")
    assert moot_readings.overrun_entry(RULES, va, vb) is None


def test_snc_9_5_1_1_road_creek_scope_moot_while_roads_keep_the_creek_cost() -> None:
    """SNC-9.5.1.1, SNC-9.4.5 (AMB-SNC-23): under road_and_creek=roads_keep_creek_cost no road
    bridges a creek, so every step costs the same under both readings; under
    roads_negate_creek a unit without the road rate crosses free under every_unit only, and
    the proof fails."""
    va, vb = _pair("road_creek_scope")
    assert moot_readings.road_creek_scope(RULES, va, vb) is not None
    va, vb = _pair("road_creek_scope", road_and_creek="roads_negate_creek")
    assert moot_readings.road_creek_scope(RULES, va, vb) is None


def test_snc_8_4_0_5_landing_halving_base_moot_while_no_landing_survivor_stays_at_sea() -> None:
    """SNC-8.4.0.5, SNC-2.2.1.11, SNC-8.4.0.9: the readings part only for a reduced landing
    attacker; under landing_unpaid_losses=ignored and retreat_blocked=eliminated every
    survivor of a landing comes ashore, so none lands again reduced. Under
    retreat_blocked=stays (a blocked defender stays, the attackers wait at sea) or
    attackers_stay_at_sea the proof fails; and the halving itself does part the readings
    for a reduced unit (a two-step unit: its front or back CF, halved)."""
    va, vb = _pair("landing_halving_base")
    assert moot_readings.landing_halving_base(RULES, va, vb) is not None
    for option, reading in (
        ("retreat_blocked", "stays"),
        ("landing_unpaid_losses", "attackers_stay_at_sea"),
    ):
        va, vb = _pair("landing_halving_base", **{option: reading})
        assert moot_readings.landing_halving_base(RULES, va, vb) is None, option
    data = RULES.data
    unit = next(u for u in data.units if u.side == "JP" and u.reduced is not None)
    both = _pair("landing_halving_base")
    strengths = {landing_strength(data, [unit.id], {unit.id}, v) for v in both}
    assert unit.reduced is not None
    assert strengths == {unit.cf // 2, unit.reduced // 2}
    assert len(strengths) == 2


def test_the_explorer_reports_each_proved_pair_equivalent_with_its_proof() -> None:
    """The explorer asks the game's proof before any search: each proved pair is equivalent
    under standard with the proof as its detail (counts only: no search runs)."""
    for option in PROVED:
        [f] = differential(GAME, CAT.option(option), budget=None, games=0, exhaustive_cap=1)
        va, vb = _pair(option)
        assert f.verdict == "equivalent", (option, f.detail)
        assert f.detail == game_proof(GAME, option, va, vb)
        assert f.detail.startswith("proved by the game over its data")
