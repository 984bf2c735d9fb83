"""The choices the first build made without an option, and two catalogue readings it
approximated: each is now an option with a test per reading that fails if the reading is not
honoured, or is shown forced by the text (the sentence quoted in the test's docstring).

Options added: landing_obligation, decoy_discovery, decoy_only_attack (AMB-SHU-21 iv),
ship_load, sunk_passengers, strike_when (AMB-SHU-23), eliminated_face, friendly_landing,
lander_order, decoy_return_moves, reform (AMB-SHU-10 iv). Preset `draft` keeps the first
build's behaviour.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import attrs

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.shumshu.rules import landing
from specs.shumshu.rules.actions import (
    Advance,
    AirRoll,
    Defend,
    Done,
    Embark,
    Hold,
    Join,
    LandAt,
    Move,
    Replace,
    ReturnDecoy,
    Roll,
    Strike,
)
from specs.shumshu.rules.declare import front, legal_declarations
from specs.shumshu.rules.effects import recover
from specs.shumshu.rules.odds import odds
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import obliged_hexes
from tests.shumshu.positions import (
    CATALOGUE,
    GAME,
    OPTIONS,
    B,
    apply_all,
    attack,
    h,
    legal,
    position,
    refused,
    through_roll,
)

FAR = {"JP-IB1": "0205"}  # a Japanese unit far from the landings


def sailing(units: dict[str, str] | None = None, **kw: Any) -> ShumshuState:
    return position(units if units is not None else FAR, stage=Stage.SAIL, **kw)


def to_sea(s: ShumshuState, at: str | None, *units: str) -> ShumshuState:
    """Pick the hex (None: deliveries), embark, sail; stops at the Ki-43's choice if any."""
    s = apply_all(s, *([LandAt(h(at))] if at else []), *(Embark(u) for u in units))
    if s.stage is Stage.SAIL:
        s = apply_all(s, Done())
    return s


def land(s: ShumshuState, at: str, *units: str) -> ShumshuState:
    """As `to_sea`, the Ki-43 staying home."""
    s = to_sea(s, at, *units)
    return apply_all(s, Strike(False)) if s.stage is Stage.AIR else s


# --- must-attack and landers (landing_obligation, found here) ---------------------------------


def test_shu_combat_4_landing_obligation_at_sea() -> None:
    """SHU-COMBAT.4, SHU-LAND.2, `landing_obligation=at_sea` (draft): landers attack from the
    sea and oblige nobody, so a landing next to undisrupted Japanese pieces is allowed."""
    s = sailing({"JP-IB1": "0702", "JP-DC1": "0802"})
    assert LandAt(h("0801")) in legal(s)
    s = land(s, "0801", "RU-1-138")
    assert s.stage is Stage.ROLL


def test_shu_combat_4_landing_obligation_coastal_neighbours() -> None:
    """SHU-COMBAT.4, `landing_obligation=coastal_neighbours`: the coastal hexes next to the
    landing hex count as next to the landers, who attack only the landing hex: no landing next
    to undisrupted Japanese pieces there (a decoy too); a disrupted unit, or one inland, does
    not bar it."""
    opts = {"landing_obligation": "coastal_neighbours"}
    s = sailing({"JP-IB1": "0702"}, options=opts)
    assert LandAt(h("0801")) not in legal(s) and LandAt(h("0901")) in legal(s)
    assert refused(s, LandAt(h("0801"))) == ("SHU-COMBAT.4",)
    decoy = sailing({"JP-DC1": "0802", "JP-IB1": "0205"}, options=opts)
    assert LandAt(h("0801")) not in legal(decoy)
    shaken = sailing({"JP-IB1": "0702"}, options=opts, disrupted=["JP-IB1"])
    assert LandAt(h("0801")) in legal(shaken)
    inland = sailing({"JP-IB1": "0703"}, options=opts)  # next to 0602, but not on the coast
    assert LandAt(h("0602")) in legal(inland)


# --- decoys found (decoy_discovery, found here; decoy_only_attack, AMB-SHU-21 iv) --------------

# RU-138 (6) and RU-NI (3) against JP-IB1 (3) in clear 0602: 3:1, a 1 is DE, a 4 is D (the
# Russians read the right-hand number, AMB-SHU-1).
STACK = {"RU-138": "0502", "RU-NI": "0502", "JP-IB1": "0602", "JP-DC1": "0602", "JP-IB2": "0205"}
AT_STACK = [("RU-138", "0602"), ("RU-NI", "0602")]


def _declared(
    units: dict[str, str], joins: list[tuple[str, str]], turn: int = 1, **opts: str
) -> ShumshuState:
    s = apply_all(position(units, turn=turn, options=opts), Done())
    for unit, where in sorted(joins, key=lambda j: B.order[j[0]]):
        s = apply_all(s, Join(unit, h(where)))
    return apply_all(s, Done())


def test_shu_combat_6_decoy_discovery_when_its_hex_is_attacked() -> None:
    """SHU-COMBAT.6, SHU-COMBAT.5, `decoy_discovery=hex_attacked` (draft): the attack finds
    the decoy stacked with a unit at once, whatever the result."""
    s = _declared(STACK, AT_STACK)
    assert s.piece("JP-DC1").loc is Loc.REMOVED and s.stage is Stage.HOLD
    s = through_roll(s, 4)  # D: the unit stays
    assert s.piece("JP-DC1").loc is Loc.REMOVED


def test_shu_combat_6_decoy_discovery_only_when_alone() -> None:
    """SHU-COMBAT.6, `decoy_discovery=when_alone`: a decoy stacked with a unit stays face down
    while the unit holds the hex (D), and is discovered once a result leaves it alone (DE)."""
    s = _declared(STACK, AT_STACK, decoy_discovery="when_alone")
    assert s.piece("JP-DC1").loc is Loc.MAP
    held = through_roll(s, 4)
    assert held.piece("JP-DC1").loc is Loc.MAP and "JP-DC1" not in {
        u["id"] for u in GAME.observe(held, RU)["units"]
    }
    cleared = through_roll(s, 1)
    assert cleared.piece("JP-IB1").loc is Loc.GONE
    assert cleared.piece("JP-DC1").loc is Loc.REMOVED and cleared.stage is Stage.ADVANCE


def test_shu_combat_6_decoy_discovery_when_alone_in_a_landing() -> None:
    """SHU-LAND.7 with `decoy_discovery=when_alone`: the decoy stays while the unit defends the
    landing hex, leaves when a DR clears it, and the lander lands."""
    units = {"JP-IB1": "0602", "JP-DC1": "0602"}
    s = land(sailing(units, options={"decoy_discovery": "when_alone"}), "0602", "RU-NI")
    assert s.stage is Stage.HOLD and s.piece("JP-DC1").loc is Loc.MAP
    s = apply_all(s, Hold(False), Roll(1))  # 3 against 3, 1:1: DR, the Russians rout
    s = apply_all(s, *(a for a in legal(s)[:1]))
    assert s.piece("JP-DC1").loc is Loc.REMOVED and s.piece("RU-NI").hex == h("0602")


def test_shu_combat_6_an_attack_on_decoys_only_is_an_automatic_de() -> None:
    """SHU-COMBAT.6, SHU-COMBAT.13, `decoy_only_attack=automatic_de` (draft, AMB-SHU-21 iv
    note): the attackers of a decoy-only hex are victors and may advance into it."""
    s = _declared({"RU-1-138": "0502", "JP-DC1": "0602", "JP-IB1": "0205"}, [("RU-1-138", "0602")])
    assert s.stage is Stage.ADVANCE and Advance("RU-1-138", h("0602")) in legal(s)


def test_shu_combat_6_an_attack_on_decoys_only_has_no_result() -> None:
    """SHU-COMBAT.6, `decoy_only_attack=no_result`: the decoy is found, but the attack has no
    result: no advance, and the attacker stays where it was."""
    s = _declared(
        {"RU-1-138": "0502", "JP-DC1": "0602", "JP-IB1": "0205"},
        [("RU-1-138", "0602")],
        decoy_only_attack="no_result",
    )
    assert s.piece("JP-DC1").loc is Loc.REMOVED
    assert s.stage is not Stage.ADVANCE and s.side == JP
    assert s.piece("RU-1-138").hex == h("0502")


def _decoy_back(**opts: str) -> ShumshuState:
    """Turn 2, the Japanese player-turn: JP-DC1, found last turn, comes back at hex 33."""
    s = position(
        {"RU-1-138": "0801", "JP-IB1": "0205", "JP-DC1": "removed"},
        side=JP,
        turn=2,
        options={"decoy_return": "hex_33", **opts},
        check=False,
    )
    s = attrs.evolve(
        s,
        stage=Stage.DECOY,
        units=tuple(attrs.evolve(p, recover=2) if p.id == "JP-DC1" else p for p in s.units),
    )
    GAME.check_position(s)
    s = apply_all(s, ReturnDecoy("JP-DC1", h("0303")))
    assert s.stage is Stage.MOVE and s.piece("JP-DC1").hex == h("0303")
    return s


def test_shu_combat_6_a_returned_decoy_may_move() -> None:
    """SHU-COMBAT.6, SHU-MOVE.1, `decoy_return_moves=may_move` (draft): the decoy comes back
    before the Japanese movement and may move then."""
    assert Move("JP-DC1", h("0403")) in legal(_decoy_back())


def test_shu_combat_6_a_returned_decoys_return_is_its_move() -> None:
    """SHU-COMBAT.6, `decoy_return_moves=return_is_move`: coming back was its move."""
    s = _decoy_back(decoy_return_moves="return_is_move")
    assert not any(isinstance(a, Move) and a.unit == "JP-DC1" for a in legal(s))
    assert refused(s, Move("JP-DC1", h("0403"))) == ("SHU-MOVE.1",)


# --- what a capability carries (ship_load, found here) -----------------------------------------


def _three_on_two(**opts: str) -> ShumshuState:
    """Three landers on two capabilities (landing_size=three), the Ki-43 striking."""
    s = sailing(ships=2, options={"landing_size": "three", **opts})
    s = to_sea(s, "0801", "RU-1-138", "RU-2-138", "RU-3-138")
    return apply_all(s, Strike(True))


def test_shu_air_2_ship_load_one_unit() -> None:
    """SHU-AIR.2, SHU-LAND.2, `ship_load=one_unit` (draft): each unit is a load of its own, so
    the best roll sinks one unit, each with 1/18."""
    s = _three_on_two()
    outcomes = dict(GAME.chance_outcomes(s))
    assert [outcomes[AirRoll(6, u)] for u in ("RU-1-138", "RU-2-138", "RU-3-138")] == [
        Fraction(1, 18)
    ] * 3
    t = apply_all(s, AirRoll(6, "RU-1-138"))
    assert t.piece("RU-1-138").loc is Loc.GONE and t.piece("RU-3-138").loc is Loc.POOL
    assert t.sail is not None and t.sail.party == ("RU-2-138", "RU-3-138")


def test_shu_air_2_ship_load_shared() -> None:
    """SHU-AIR.2 ("sinks one landing ship/capacity and passengers"), `ship_load=shared`: the
    three landers are shared out over the two capabilities (1st and 3rd, 2nd); the best roll
    sinks one capability, 1/12 each, with all its passengers."""
    s = _three_on_two(ship_load="shared")
    outcomes = dict(GAME.chance_outcomes(s))
    assert outcomes[AirRoll(6, "RU-1-138")] == outcomes[AirRoll(6, "RU-2-138")] == Fraction(1, 12)
    assert AirRoll(6, "RU-3-138") not in outcomes and sum(outcomes.values()) == 1
    t = apply_all(s, AirRoll(6, "RU-1-138"))
    assert t.piece("RU-1-138").loc is Loc.GONE and t.piece("RU-3-138").loc is Loc.GONE
    assert t.sail is not None and t.sail.party == ("RU-2-138",) and t.ships == 1


# --- units lost at sea (sunk_passengers, found here; the worst roll and AE, forced) ------------

SHORE = {"RU-2-138": "0801", "JP-IB1": "0205"}


def _sunk_delivery(**opts: str) -> ShumshuState:
    """RU-1-138 sails to the beachhead on an AM turn and the Ki-43 sinks it."""
    s = position(SHORE, stage=Stage.SAIL, turn=3, beachhead=h("0801"), options=opts)
    s = to_sea(s, None, "RU-1-138")
    return apply_all(s, Strike(True), AirRoll(6, "RU-1-138"))


def test_shu_air_2_sunk_passengers_are_eliminated() -> None:
    """SHU-AIR.2, SHU-REPL.1, `sunk_passengers=eliminated` (draft): a battalion the Ki-43
    sinks counts as eliminated and may be replaced at the beachhead."""
    s = _sunk_delivery()
    assert s.piece("RU-1-138").loc is Loc.GONE
    assert s.stage is Stage.REPLACE and Replace("RU-1-138") in legal(s)


def test_shu_air_2_sunk_passengers_lost_for_good() -> None:
    """SHU-AIR.2 ("permanently sinks one landing ship/capacity and passengers"),
    `sunk_passengers=lost_for_good`: the battalion is lost for good, never replaced."""
    s = _sunk_delivery(sunk_passengers="lost_for_good")
    assert s.piece("RU-1-138").loc is Loc.SUNK
    assert s.stage is Stage.MOVE and not landing.replacements(B, s)


def test_shu_land_3_the_text_says_the_worst_roll_eliminates() -> None:
    """SHU-LAND.3 forces it: "the worst possible die roll eliminates one unit and
    (permanently) one of the three naval landing capabilities" - the unit is eliminated (the
    parenthesis makes only the capability permanent), so an infantry battalion lost so may be
    replaced (SHU-REPL.1: "1 elimed Russ inf bn may be replaced per turn"), under either
    reading of `sunk_passengers`; and "AE = Attackers Eliminated" eliminates a lander too."""
    for reading in OPTIONS["sunk_passengers"]:
        s = land(sailing(options={"sunk_passengers": reading}), "0801", "RU-1-138", "RU-2-138")
        s = apply_all(s, Roll(6), Roll(3))  # the worst roll, then a landing
        assert s.piece("RU-1-138").loc is Loc.GONE and s.beachhead == h("0801")
        assert s.stage is Stage.REPLACE and Replace("RU-1-138") in legal(s)
    ae = land(sailing({"JP-IB1": "0602", "JP-IB2": "0602"}), "0602", "RU-ENG")
    ae = apply_all(ae, Hold(False), Roll(5))  # 1 against 6: 1:3, a 5 is AE
    assert ae.piece("RU-ENG").loc is Loc.GONE


# --- the Ki-43 when nothing sails (strike_when, AMB-SHU-23) ------------------------------------


def test_shu_air_2_strike_when_nothing_sails() -> None:
    """SHU-AIR.2, `strike_when=every_russian_turn` (draft, AMB-SHU-23 and AMB-SHU-27 notes):
    the Ki-43 may strike in a Russian player-turn in which nobody sails."""
    s = apply_all(sailing(), Done())
    assert s.stage is Stage.AIR and GAME.to_move(s) == JP
    t = apply_all(s, Strike(True), AirRoll(6, None))
    assert t.ships == 2


def test_shu_air_2_strike_only_on_ships_at_sea() -> None:
    """SHU-AIR.2, `strike_when=ships_at_sea`: no strike unless units sail this player-turn."""
    s = apply_all(sailing(options={"strike_when": "ships_at_sea"}), Done())
    assert s.stage is Stage.MOVE and s.ships == 3
    t = to_sea(sailing(options={"strike_when": "ships_at_sea"}), "0801", "RU-1-138")
    assert t.stage is Stage.AIR


# --- eliminated Japanese units (eliminated_face, found here) -----------------------------------

# Five Japanese units in 0602 in turn 2 (JP-IB4 arrived from Paramushir in turn 1), four
# defending; RU-138 (6) and RU-NI (3) against 11: 1:2, a 1 is DR, and No Retreat! turns it
# into DE for every unit of the hex (AMB-SHU-6, AMB-SHU-11).
FIVE = {
    "RU-138": "0502",
    "RU-NI": "0502",
    **{u: "0602" for u in ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-IB4")},
}


def _five_eliminated(**opts: str) -> ShumshuState:
    s = _declared(FIVE, AT_STACK, turn=2, **opts)  # JP-IB4 came from Paramushir in turn 1
    assert s.stage is Stage.DEFENDERS
    s = apply_all(s, Defend(("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1")))
    s = through_roll(s, 1, hold=True)
    assert all(s.piece(u).loc is Loc.GONE for u in FIVE if u.startswith("JP"))
    return s


def test_shu_combat_5_eliminated_units_face_up() -> None:
    """SHU-COMBAT.5, `eliminated_face=face_up` (draft): every Japanese unit eliminated is
    turned face up, even the one that did not defend."""
    s = _five_eliminated()
    assert "JP-IB4" in {u["id"] for u in GAME.observe(s, RU)["units"]}


def test_shu_combat_5_eliminated_units_as_they_were() -> None:
    """SHU-COMBAT.5, `eliminated_face=as_it_was`: the four defenders were revealed and leave
    face up; the fifth, never in the defence, leaves face down."""
    s = _five_eliminated(eliminated_face="as_it_was")
    seen = {u["id"] for u in GAME.observe(s, RU)["units"]}
    assert {"JP-IB1", "JP-TK1"} <= seen and "JP-IB4" not in seen
    assert GAME.state_from_json(GAME.state_to_json(s)) == s


# --- landing where the Russians are (friendly_landing, found here) -----------------------------

HELD = {"RU-NI": "0801", "JP-IB1": "0205"}  # Russians ashore, the beachhead lost elsewhere


def test_shu_land_3_friendly_landing_unopposed() -> None:
    """SHU-LAND.3 ("even if the hex is empty"), `friendly_landing=unopposed` (draft): landers
    on a Russian-held hex roll as on an empty one; the worst roll still costs unit and ship."""
    s = land(sailing(HELD, turn=2), "0801", "RU-1-138")
    assert s.stage is Stage.ROLL
    assert apply_all(s, Roll(6)).piece("RU-1-138").loc is Loc.GONE


def test_shu_land_2_friendly_landing_not_allowed() -> None:
    """SHU-LAND.2 ("each Russian unit individually attacking the coastal hex"),
    `friendly_landing=not_allowed`: no landing on a hex the Russians hold."""
    s = sailing(HELD, turn=2, options={"friendly_landing": "not_allowed"})
    assert LandAt(h("0801")) not in legal(s) and LandAt(h("0901")) in legal(s)
    assert refused(s, LandAt(h("0801"))) == ("SHU-LAND.2",)


def test_shu_land_1_friendly_landing_without_a_roll() -> None:
    """SHU-LAND.1, `friendly_landing=no_roll`: nobody is attacked; the landers come ashore
    without a roll and the hex becomes the beachhead."""
    s = sailing(HELD, turn=2, options={"friendly_landing": "no_roll"})
    s = land(s, "0801", "RU-1-138", "RU-2-138")
    assert s.stage is not Stage.ROLL and s.beachhead == h("0801")
    assert s.piece("RU-1-138").hex == s.piece("RU-2-138").hex == h("0801")
    assert s.ships == 3


# --- who rolls first (lander_order, found here) ------------------------------------------------


def test_shu_land_2_landers_roll_in_the_counter_lists_order() -> None:
    """SHU-LAND.2, `lander_order=data_order` (draft): landers embark, and so roll, in the
    counter list's order."""
    s = apply_all(sailing(), LandAt(h("0801")), Embark("RU-NI"))
    assert Embark("RU-1-138") not in legal(s)
    assert refused(s, Embark("RU-1-138")) == ("SHU-LAND.2", "SHU-REINF.3")


def test_shu_land_2_landers_roll_in_the_order_the_russians_choose() -> None:
    """SHU-LAND.2, `lander_order=russian_choice`: the Russians embark the landers in the order
    they roll: the naval infantry first here."""
    s = sailing(options={"lander_order": "russian_choice"})
    s = land(s, "0801", "RU-NI", "RU-1-138")
    assert s.stage is Stage.ROLL and s.fight is not None and s.fight.attackers == ("RU-NI",)
    assert GAME.state_from_json(GAME.state_to_json(s)) == s


# --- regiments after a loss (reform, AMB-SHU-10 iv) --------------------------------------------

# RU-1-138 (2) alone against JP-IB1 (3): 1:2, a 6 is AE.
LOSS = {"RU-1-138": "0502", "JP-IB1": "0602", "RU-2-138": "0801", "RU-3-138": "0801"}


def _lost_battalion(**opts: str) -> ShumshuState:
    s = attack(position(LOSS, options=opts), [("RU-1-138", "0602")], 6)
    assert s.piece("RU-1-138").loc is Loc.GONE
    return s


def test_shu_rgt_1_a_regiment_may_form_from_replaced_battalions() -> None:
    """SHU-RGT.1 ("3 UnDisrupted inf Battalions from the same rgt on a hex together"),
    `reform=may_rejoin` (draft): after a battalion's loss the regiment may still form, from
    the replaced battalion with the two others."""
    s = _lost_battalion()
    assert s.piece("RU-138").loc is Loc.UNFORMED
    back = attrs.evolve(
        s, units=tuple(_at(p, "0801") if p.id == "RU-1-138" else p for p in s.units)
    )
    assert [r for r, _ in landing.formable(B, back)] == ["RU-138"]


def test_shu_rgt_1_a_regiment_never_forms_after_a_loss() -> None:
    """SHU-RGT.1, SHU-REPL.1, `reform=not_after_loss`: once a battalion is eliminated the
    regiment is gone for good, even when three battalions stand together again."""
    s = _lost_battalion(reform="not_after_loss")
    assert s.piece("RU-138").loc is Loc.GONE
    back = attrs.evolve(
        s, units=tuple(_at(p, "0801") if p.id == "RU-1-138" else p for p in s.units)
    )
    assert landing.formable(B, back) == []
    GAME.check_position(s)


def _at(p: Any, where: str) -> Any:
    return attrs.evolve(p, loc=Loc.MAP, hex=h(where))


# --- the swamp and landings (landing_swamp; tests/shumshu/test_landing_decoy_choices.py) ------


def test_shu_combat_12_the_swamp_shift_applies_to_a_landing() -> None:
    """SHU-COMBAT.12, SHU-COMBAT.8, `landing_swamp=applies` (draft): the text exempts landings
    from the mountain only - "Except for a landing, add 1 defense factor to a hex of dfndrs on
    a mountain" - while "Dfdrs on swamp drop attack 1 column too" has no exception, so a
    landing on swamp 0505 is shifted. The other reading (`exempt`) is tested beside the
    option's other cases."""
    s = land(sailing({"JP-IB1": "0505"}), "0505", "RU-NI")
    assert s.fight is not None
    s = apply_all(s, Hold(False)) if s.stage is Stage.HOLD else s
    assert s.fight is not None
    assert (-1, "SHU-COMBAT.12") in odds(B, s, s.fight).shifts


# --- the two catalogue readings that looked approximated ---------------------------------------


def _literal_same_combat(s: ShumshuState) -> set[tuple[tuple[str, Hex], ...]]:
    """AMB-SHU-14 (b) read literally on one-hex combats: every attacker may attack any enemy
    hex next to it within the hexside limits, and the undisrupted Japanese pieces (or Russian
    regiments) next to an attacker must be in its own combat - that is, in its target hex."""
    wide = attrs.evolve(
        s,
        variant=CATALOGUE.variant("draft", dict(s.variant.choices) | {"must_attack": "same_phase"}),
    )
    f = front(B, wide)
    obliged = obliged_hexes(B, s, s.side)
    out = set()
    for targets in itertools.product(*([None, *f.contacts[a]] for a in f.attackers)):
        pairs = tuple((a, t) for a, t in zip(f.attackers, targets, strict=True) if t is not None)
        across = Counter(f.hexsides[p] for p in pairs)
        if any(n > f.limit for n in across.values()):
            continue
        near = {a: {n for n in B.neighbors(s.piece(a).hex) if n in obliged} for a, _ in pairs}  # type: ignore[arg-type]
        if all(near[a] <= {t} for a, t in pairs):
            out.add(pairs)
    return out


def test_shu_combat_4_same_combat_is_the_literal_reading_on_one_hex_combats() -> None:
    """SHU-COMBAT.4, AMB-SHU-14 (b) "it must be included in the same combat". A combat here is
    against one hex, as the text's every combat sentence is: "attack into it" (SHU-COMBAT.2),
    "a hex of dfndrs on a mountain" (SHU-COMBAT.8), "if attacked hex within friendly artillery
    range" (SHU-COMBAT.10), "Victors can advance into defdr's hex" (SHU-COMBAT.13), and the
    defender limit is per hex ("may defend it", SHU-STACK.3). So an obliged hex is in an
    attacker's combat exactly when it is that combat's hex: the implemented rule (a unit next
    to an obliged hex may only attack it; next to two, it cannot attack) is reading (b) itself,
    not an approximation. A combat against several hexes would need rules the text never gives
    (whose terrain, range, No Retreat! and advance), so it is no reading of this text. Checked
    against the literal statement on hand-made and played positions."""
    rng = random.Random(7)
    hand = position(
        {
            "RU-1-138": "0602",
            "RU-2-138": "0602",
            "RU-NI": "0503",
            "JP-IB1": "0702",
            "JP-IB2": "0603",
            "JP-DC1": "0703",
        },
        options={"must_attack": "same_combat"},
        disrupted=["JP-IB2"],
        stage=Stage.DECLARE,
    )
    states = [hand]
    for seed in range(6):
        s = GAME.initial_state(CATALOGUE.variant("draft", {"must_attack": "same_combat"}))
        rng = random.Random(seed)
        for _ in range(900):
            if GAME.to_move(s) is None:
                break
            if s.stage is Stage.DECLARE and not s.pending:
                states.append(s)
            if GAME.to_move(s) == CHANCE:
                s = GAME.apply(s, sample(GAME.chance_outcomes(s), rng))
            else:
                s = GAME.apply(s, rng.choice(legal(s)))
    assert len(states) > 3
    for s in states:
        assert legal_declarations(B, s) == _literal_same_combat(s)


def test_shu_land_7_the_sea_box_is_the_sea_the_landers_came_from() -> None:
    """SHU-LAND.7, SHU-LAND.10, AMB-SHU-4 (b) "the units land disrupted in an adjacent sea
    box". This kernel's map has no sea hexes and no sea boxes (the text draws none); the sea
    is where the Russians wait "off-board ... to land" (SHU-SETUP.3), and "if no Russ units
    land ... they can try another or same hex with surviving units in later turn"
    (SHU-LAND.10), so once the failed lander can act again nothing ties it to the hex it
    missed. What (b) adds is the disruption: "D-ed unit cannot move or attack"
    (SHU-DISRUPT.1), and a landing is an attack (SHU-LAND.2), so it waits, disrupted, until it
    recovers when Russian units do (SHU-DISRUPT.4) and is then one more unit at sea waiting to
    land: the sea box reading implemented, in full."""
    units = {"JP-IB1": "0602"}
    s = land(sailing(units, options={"failed_landing": "sea_box"}), "0602", "RU-NI")
    s = apply_all(s, Hold(False), Roll(4))  # D: the hex holds
    p = s.piece("RU-NI")
    assert p.loc is Loc.SEA and p.disrupted and not landing.available(B, s, "RU-NI")
    assert s.piece("JP-IB1").disrupted
    # still at sea through its own player-turn; back with the others at the end of the first
    # Japanese combat phase after it (ru_recovery=first_after)
    assert recover(B, s, RU).piece("RU-NI").loc is Loc.SEA
    assert recover(B, attrs.evolve(s, side=JP), RU).piece("RU-NI").loc is Loc.POOL
    nxt = position({"JP-IB1": "0602", "RU-NI": "pool"}, stage=Stage.SAIL, turn=2)
    assert LandAt(h("0801")) in legal(nxt) and Embark("RU-NI") in legal(
        apply_all(nxt, LandAt(h("0801")))
    )
    ret = land(sailing(units), "0602", "RU-NI")
    ret = apply_all(ret, Hold(False), Roll(4))
    assert ret.piece("RU-NI").loc is Loc.POOL and not ret.piece("RU-NI").disrupted
