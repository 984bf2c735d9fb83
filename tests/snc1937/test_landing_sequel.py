"""What follows a landing combat (SNC-8.4.0.8, SNC-8.4.0.9, SNC-8.4.1.2, SNC-8.4.1.3): the 10th
Army's second hex of advance, the Chinese retreat it may force, and the readings of AMB-SNC-11
(retreat_blocked) and AMB-SNC-12 (landing_unpaid_losses, landing_is_attack)."""

from __future__ import annotations

from typing import Any

import attrs

from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import Advance, AdvanceOn, Declare, Done, Land, Retreat, Roll
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step
from specs.snc1937.rules.tables import locations, stacks

GAME = SNC()
HANGCHOW_BAY = "3417"  # the 10th Army's historical landing hex (SNC-8.4.1.1)


def H(text: str) -> Hex:
    return parse_hex(text)


def tenth_army() -> tuple[str, ...]:
    """The GT 7 group whose units advance two hexes (SNC-8.4.1.1), in the landing's order."""
    return tuple(
        sorted(
            u
            for u, r in GAME.tables.record.items()
            if r.restriction and r.restriction.advance_hexes
        )
    )


def landing_phase(
    units: dict[str, str], order: Order = Order.MOVE_FIGHT, **readings: str
) -> SNCState:
    """The Japanese Reinforcement Phase of GT 7 with only `units` (id -> hex) on the map, the
    garrison of Shanghai, and the 10th Army due at sea; everything else in the dead pile."""
    s = GAME.initial_state(CATALOGUE.variant("standard", readings))
    where = {u: H(h) for u, h in units.items()}
    where.setdefault("JP-G-SHANGHAI", H("3512"))
    army = tenth_army()
    dead = frozenset(GAME.tables.spec) - set(where) - set(army) - set(GAME.tables.jp_garrisons)
    s = attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=tuple(sorted((u, 7) for u in army)),
        dead=dead,
        turn=7,
        side=JP,
        jp_control=frozenset({H("3512")}),
    )
    s = GAME.apply(s, Declare(order))
    s = GAME.apply(s, Done())  # the First Operations Phase (a Move phase) ends
    while s.step == Step.REPLACE:
        s = GAME.apply(s, Done())
    assert s.phase == Phase.REINF and s.side == JP
    return s


def run(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def land_and_win(s: SNCState, at: str = HANGCHOW_BAY) -> SNCState:
    """Land the 10th Army at `at`, add no support, roll the die that hurts the Chinese most,
    and take every step loss and retreat with the first listed choice."""
    s = run(s, Land(tenth_army(), H(at)))
    while s.step in (Step.SUPPORT_A, Step.SUPPORT_D, Step.AIR_ASK):
        s = GAME.apply(s, Done() if s.step != Step.AIR_ASK else GAME.legal_actions(s)[-1])
    assert s.step == Step.ROLL
    s = GAME.apply(s, Roll(6))
    while s.step in (Step.LOSS_D, Step.LOSS_A, Step.RETREAT):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    return s


def test_snc_8_4_1_2_tenth_army_advances_a_second_hex() -> None:
    """SNC-8.4.1.2: after the landing combat at 3417 the 10th Army units in the landing hex may
    each advance into an adjacent hex free of Chinese units (3416, 3317, 3318); `Done` ends it."""
    s = land_and_win(landing_phase({"CH-G-F": HANGCHOW_BAY}))
    assert s.step == Step.ADVANCE_ON
    offered = {a.to for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn)}
    assert offered == {H("3416"), H("3317"), H("3318")}
    mover = next(a for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn))
    s = GAME.apply(s, AdvanceOn(mover.unit, H("3317")))
    assert locations(s.where)[mover.unit] == H("3317") and H("3317") in s.jp_control
    assert all(a.unit != mover.unit for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn))
    s = GAME.apply(s, Done())
    assert s.step in (Step.MAIN, Step.STACK) and s.combat is None


def test_snc_8_4_1_2_only_after_combat_and_only_the_10th_army() -> None:
    """SNC-8.4.1.2: a landing into an empty hex is no combat, so no second hex."""
    s = run(landing_phase({}), Land(tenth_army(), H(HANGCHOW_BAY)))
    assert s.step != Step.ADVANCE_ON
    assert not any(isinstance(a, AdvanceOn) for a in GAME.legal_actions(s))


def surrounded() -> dict[str, str]:
    """A garrison in 3417 and Chinese divisions in every hex next to it a unit may enter."""
    return {"CH-G-F": HANGCHOW_BAY, "CH-87D": "3416", "CH-88D": "3317", "CH-36D": "3318"}


def test_snc_8_4_1_3_into_a_chinese_coastal_hex_after_its_retreat() -> None:
    """SNC-8.4.1.3: with every adjacent hex Chinese-held, only the coastal ones (3416, 3318)
    are offered, not 3317; the Chinese there retreat one hex first, then the unit enters."""
    s = land_and_win(landing_phase(surrounded()))
    offered = {a.to for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn)}
    assert offered == {H("3416"), H("3318")}
    mover = next(a.unit for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn))
    s = GAME.apply(s, AdvanceOn(mover, H("3416")))
    assert s.step == Step.RETREAT and GAME.to_move(s) == CH
    retreat = GAME.legal_actions(s)[0]
    assert isinstance(retreat, Retreat) and retreat.unit == "CH-87D"
    s = GAME.apply(s, retreat)
    assert locations(s.where)["CH-87D"] == retreat.to
    assert locations(s.where)[mover] == H("3416")
    assert GAME.to_move(s) == JP


def test_amb_snc_11_retreat_blocked_eliminated_or_stays() -> None:
    """AMB-SNC-11 (SNC-8.4.0.9): a Chinese division that survives a landing at 3417 with
    Japanese units in every hex it could retreat to is eliminated (`eliminated`) and the 10th
    Army lands; under `stays` it stays, and the attackers stay at sea for a later GT."""
    boxed = {"CH-87D": HANGCHOW_BAY, "JP-3D-1": "3416", "JP-3D-2": "3317", "JP-3D-3": "3318"}
    for reading in ("eliminated", "stays"):
        s = run(landing_phase(boxed, retreat_blocked=reading), Land(tenth_army(), H("3417")))
        while s.step != Step.ROLL:
            s = GAME.apply(s, Done() if s.step != Step.AIR_ASK else GAME.legal_actions(s)[-1])
        assert s.combat is not None
        column = flow.odds_column(GAME.tables, s, s.combat)
        face = next(f for f in range(1, 7) if GAME.data.crt.result(column, f)[1] < 2)
        s = GAME.apply(s, Roll(face))
        while s.step in (Step.LOSS_D, Step.LOSS_A) or s.elite:
            if s.elite:
                assert s.elite == ("CH-87D",)  # eliminated: its return die (SNC-8.1.2)
            s = GAME.apply(s, Roll(6) if s.elite else GAME.legal_actions(s)[0])
        here = stacks(s.where).get(H(HANGCHOW_BAY), ())
        if reading == "eliminated":
            assert "CH-87D" not in locations(s.where)
            assert here and all(GAME.tables.spec[u].side == JP for u in here)
        else:
            assert here == ("CH-87D",)
            at_sea = {u for u, gt in s.trt if gt == 8}
            assert at_sea and at_sea <= set(tenth_army())


def test_amb_snc_12_attackers_that_do_not_fit_stay_at_sea() -> None:
    """AMB-SNC-12 landing_unpaid_losses: under `ignored` all the survivors land (the stacking
    check culls later); under `attackers_stay_at_sea` they come ashore one at a time while
    they fit (SNC-6.2.1) and the rest land a GT later."""
    s = land_and_win(landing_phase({"CH-G-F": HANGCHOW_BAY}))
    ashore = stacks(s.where)[H(HANGCHOW_BAY)]
    assert len(ashore) + len(s.dead & set(tenth_army())) == len(tenth_army())

    s = run(
        landing_phase({"CH-G-F": HANGCHOW_BAY}, landing_unpaid_losses="attackers_stay_at_sea"),
        Land(tenth_army(), H(HANGCHOW_BAY)),
    )
    while s.step != Step.ADVANCE:
        if s.step == Step.ROLL:
            s = GAME.apply(s, Roll(6))
        else:
            s = GAME.apply(s, GAME.legal_actions(s)[0] if s.step != Step.SUPPORT_A else Done())
    assert GAME.to_move(s) == JP
    while any(isinstance(a, Advance) for a in GAME.legal_actions(s)):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    landed = stacks(s.where)[H(HANGCHOW_BAY)]
    assert 0 < len(landed) < len(tenth_army())
    s = GAME.apply(s, Done())
    later = {u for u, gt in s.trt if gt == 8}
    assert later and later | set(landed) | (s.dead & set(tenth_army())) >= set(tenth_army())


def test_amb_snc_12_a_landing_counts_as_the_attack_of_the_second_phase() -> None:
    """AMB-SNC-12 landing_is_attack: under `counts` the units that landed by combat may not
    attack in the Second Operations Phase (SNC-10.0.7); under `separate` they may."""
    for reading, barred in (("separate", False), ("counts", True)):
        s = land_and_win(landing_phase({"CH-G-F": HANGCHOW_BAY}, landing_is_attack=reading))
        while s.step == Step.ADVANCE_ON:
            s = GAME.apply(s, Done())
        landed = set(stacks(s.where)[H(HANGCHOW_BAY)])
        while s.phase == Phase.REINF:
            s = GAME.apply(s, GAME.legal_actions(s)[-1])
        assert s.phase == Phase.OPS2 and s.ops_kind() == "fight"
        assert bool(landed & s.done) == barred, reading


def test_snc_8_4_1_2_a_second_unit_advances_into_the_hex_a_first_one_took() -> None:
    """SNC-8.4.1.2: "any adjacent hex not occupied by Chinese units": a hex another 10th Army
    unit has just advanced into is one. The unit offered that hex goes there (it once stayed
    in the landing hex with nothing changed, a step play could take for ever)."""
    s = land_and_win(landing_phase({"CH-G-F": HANGCHOW_BAY}))
    first, second = [a.unit for a in GAME.legal_actions(s) if isinstance(a, AdvanceOn)][:2]
    assert first != second
    s = GAME.apply(s, AdvanceOn(first, H("3317")))
    assert AdvanceOn(second, H("3317")) in GAME.legal_actions(s)
    after = GAME.apply(s, AdvanceOn(second, H("3317")))
    assert after != s
    assert locations(after.where)[second] == H("3317") == locations(after.where)[first]
    assert all(
        a.unit not in (first, second) for a in GAME.legal_actions(after) if isinstance(a, AdvanceOn)
    )
