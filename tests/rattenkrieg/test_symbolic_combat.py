"""RKS-P-COMBAT proved whole over Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`,
`specs.rattenkrieg.formal.symbolic_combat`): the proof under the readings its step rules follow,
each
of its step rules needed, its formal statement false on hand-made positions that break the
property but not RKS-P-COMBATANTS (and true on the positions play reaches beside them),
hand-made steps that break a rule caught with the rule's clause, and combats with General
Chuikov, the T-34's support, raises and remaining units model steps."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kernel.playout import play
from solvers.checking import prover, refinement
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE
from specs.rattenkrieg.formal.verification import (
    COMBAT,
    COMBATANTS,
    Link,
    properties,
    symbolic_model,
)
from specs.rattenkrieg.rules.actions import Attack, Defend, Event, Move, Pass, Play, Retreat
from specs.rattenkrieg.rules.state import GE, HAND, SU, Combat, Damage, Placed, RKState, Stage, Step
from tests.rattenkrieg.positions import CATALOGUE, GAME, GAME_RULES, GREAR, active, draw, run
from tests.rattenkrieg.symbolic_helpers import verdict_without
from tests.sizes import cases, size

BOARD = GAME_RULES.board
RLIMIT = 50_000_000
FOLLOWED = {  # the readings the new step rules depend on, away from the presets
    "lost_step": "random",
    "bombard_isolation": "yes",
    "isolation_choice": "per_unit",
    "t34_support": "defence_only",
    "chuikov_raises": "declaration_only",
}
RULES = [
    "a round begins with the table empty",
    "a declaration (`play`) is the only step",
    "as play enters a combat's damage",
    "a remaining unit's decision",
]
MORE_RULES = [
    "no combat record, none of its step",
    "a lost step's pick",
    "as play enters the continuation",
    "as play enters a combat's remaining units' decisions",
    "a bombarded unit's record exists only",
]
SELECTED: list[str] = cases(RULES, MORE_RULES)
GAMES = size(1, 12)
"""Seeded plays from each hand-made combat (25 steps each)."""


def test_rks_8_6_2_combat_is_proved_under_the_readings_its_rules_follow() -> None:
    """RKS-8.6.2, RKS-8.10.1, RKS-8.12.3, RKS-9.8.1 (AMB-RKS-7 iii, AMB-RKS-16, AMB-RKS-20 iii,
    AMB-RKS-15): with random lost steps, a bombarded unit's remaining units deciding one by one,
    the T-34 supporting only in defence and the German raising face down under Chuikov,
    RKS-P-COMBAT is still proved by 1-induction (the presets prove it in `wargame verify`)."""
    link = Link(CATALOGUE.variant("standard", FOLLOWED))
    v = prover.check(link.system, link.formal()[COMBAT], rlimit=RLIMIT)
    assert (v.status, v.method) == ("proved", "1-induction"), v.detail


def test_rks_8_6_2_no_statement_where_raises_have_no_limit() -> None:
    """RKS-8.6.2 (AMB-RKS-6): under raising=alternating a round may spend more cards than the
    model has places for, so RKS-P-COMBAT has no formal statement there (it stays tested);
    under one_each (both presets) it has one."""
    alternating = Link(CATALOGUE.variant("standard", {"raising": "alternating"}))
    assert COMBAT not in alternating.formal() and COMBATANTS in alternating.formal()
    assert COMBAT in Link(CATALOGUE.preset("standard")).formal()


@pytest.mark.parametrize("start", SELECTED)
def test_rks_8_4_1_the_combat_proof_rests_on_each_of_its_rules(start: str) -> None:
    """RKS-8.3.1, RKS-8.4.1, RKS-8.9.1, RKS-8.10.1, RKS-8.2.2, RKS-8.11.2: without any one of
    the step rules added for it, RKS-P-COMBAT is no longer inductive (Z3 answers: no limit
    hit). Under the readings of `FOLLOWED`, where a lost step's pick follows a combat's damage
    and a bombarded unit's remaining units decide."""
    v = verdict_without(CATALOGUE.variant("standard", FOLLOWED), start, COMBAT)
    assert v.status != "proved", v.detail
    assert v.method != "solver" and "not inductive" in v.detail, v.detail


# --- hand-made combats -----------------------------------------------------------------------


def _chuikov(**options: str) -> RKState:
    """Rifle-2 attacks 71 in Gorodishche (German-held, the T-34 there too) under General
    Chuikov: the German declares first, face up (RKS-9.8.1)."""
    units = {
        "Rifle-2": ("orlovka", ["2H"]),
        "71": ("gorodishche", ["2C", "9C"]),
        "T-34": ("gorodishche", []),
    }
    hands = {SU: ["KH", "5H", "7D"], GE: ["3C", "4S", "6S"]}
    s = active("Rifle-2", units, hands=hands, control={"gorodishche": GE}, options=options)
    return run(s, Event("KH"), Move("gorodishche"))


def _support(**options: str) -> RKState:
    """Rifle-2 attacks in Orlovka with the T-34 beside it, 71 and 295 there to choose from."""
    units = {
        "71": ("orlovka", ["2C", "3S"]),
        "295": ("orlovka", ["5S"]),
        "Rifle-2": ("orlovka", ["4H"]),
        "T-34": ("orlovka", []),
    }
    hands = {SU: ["5H", "6D"], GE: ["7C"]}
    s = active("Rifle-2", units, control={"orlovka": SU}, hands=hands, options=options)
    return run(s, Attack())


def _defended(**options: str) -> RKState:
    """71 enters Orlovka, held by Rifle-2, Rifle-3, 13th Guards and the T-34: the Soviet
    chooses the defender, and his other units decide after a loss (RKS-8.10.1)."""
    units = {
        "71": (GREAR, ["2C", "3S"]),
        "Rifle-2": ("orlovka", ["4H"]),
        "Rifle-3": ("orlovka", ["6H"]),
        "13Gds": ("orlovka", ["9D", "8H"]),
        "T-34": ("orlovka", []),
    }
    s = active("71", units, hands={SU: ["5H", "6D"], GE: ["7C", "8C"]}, options=options)
    return run(s, Move("orlovka"))


def _bombarded(**options: str) -> RKState:
    """Rifle-2 bombards 71 in Gorodishche, where 295 and 389 stand too, and hits: under
    bombard_isolation=yes 71's retreat leaves them to decide (AMB-RKS-16)."""
    units = {
        "Rifle-2": ("gorodishche", ["2H"]),
        "71": ("gorodishche", []),
        "295": ("gorodishche", ["5C"]),
        "389": ("gorodishche", ["6C"]),
    }
    options = {**options, "bombard_isolation": "yes"}
    s = active("Rifle-2", units, hands={SU: ["JS"]}, control={"gorodishche": GE}, options=options)
    return draw(run(s, Event("JS", "71")), "5D")


def _alone(s: RKState, unit: str) -> RKState:
    """`s` with every enemy of the attacker in its Area but `unit` gone."""
    assert s.combat is not None
    for u in BOARD.units_in(s, s.combat.area, SU):
        if u.id != unit:
            s = BOARD.update(s, u.id, area=None, steps=frozenset())
    return s


def _holds(pid: str, s: RKState) -> bool:
    link = symbolic_model(s.variant)
    statement = link.formal()[pid]
    assert isinstance(statement, prover.Invariant)
    return bool(statement.holds(CONCRETE, concrete_frame(link.system.variables, link.project(s))))


def _check(pid: str) -> Callable[[RKState], bool]:
    prop = next(p for p in properties() if p.id == pid)
    assert prop.state_check is not None
    return prop.state_check


def _combat(s: RKState, **kw: Any) -> RKState:
    assert s.combat is not None
    return attrs.evolve(s, combat=attrs.evolve(s.combat, **kw))


def _declared() -> RKState:
    """Under Chuikov the German has put 2C down face up; the Soviet attacker declares next."""
    s = run(_chuikov(), Play("2C"))
    assert s.combat is not None and s.combat.step == Step.ATTACK and s.combat.defence is not None
    assert s.combat.defence.open
    return s


def _raising() -> RKState:
    """Both have declared under Chuikov; the German raises first (AMB-RKS-20 iii)."""
    s = run(_declared(), Play("5H"))
    assert s.combat is not None and s.combat.step == Step.RAISE and s.combat.raiser == GE
    return s


def _lost() -> RKState:
    """71's attack on Orlovka: the Soviet chose Rifle-2, which lost and retreated into
    Tractor Works; Rifle-3 and 13th Guards remain to decide (RKS-8.10.1)."""
    s = run(_defended(), Defend("Rifle-2"))
    s = attrs.evolve(s, stage=Stage.ISOLATION)
    s = BOARD.update(s, "Rifle-2", area="tractor-works", flipped=True)
    return _combat(s, step=Step.ATTACK, attack=None, defence=None, loser=SU)


BROKEN: dict[str, Callable[[], RKState]] = {
    "a raise out of turn": lambda: _combat(_raising(), raiser=SU),
    "a German card face down under Chuikov": lambda: _combat(
        _declared(), defence=Placed(GE, "2C", "71", open=False)
    ),
    "a Soviet card open": lambda: _combat(_raising(), attack=Placed(SU, "5H", HAND, open=True)),
    "a card from the other fighter's steps": lambda: _combat(
        _declared(), defence=Placed(GE, "2C", "Rifle-2", open=True)
    ),
    "the T-34 supporting with no Soviet card down": lambda: _combat(_declared(), support="T-34"),
    "the defender gone from the Area in a round": lambda: BOARD.update(
        _declared(), "71", area=GREAR
    ),
    "a choice among one enemy unit": lambda: _alone(_defended(), "Rifle-2"),
    "the winner's fighter damaged": lambda: attrs.evolve(
        BOARD.update(_lost(), "Rifle-2", area="orlovka", flipped=False),
        stage=Stage.DAMAGE,
        damage=Damage("71", "combat"),
    ),
    "the defender still in the Area as the others decide": lambda: BOARD.update(
        _lost(), "Rifle-2", area="orlovka"
    ),
    "an isolated unit staying": lambda: BOARD.update(
        _combat(_lost(), staying=("Rifle-3",)), "Rifle-3", isolated=True
    ),
    "a continuation with a loser": lambda: attrs.evolve(_lost(), stage=Stage.CONTINUE),
    "a bombarded unit's record under bombard_isolation=no": lambda: attrs.evolve(
        _lost(),
        combat=Combat("orlovka", "71", Step.CHOOSE, defender="Rifle-2", cause="bombardment"),
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_rks_8_3_1_the_combat_statement_is_false_where_its_property_is(name: str) -> None:
    """RKS-8.3.1, RKS-8.6.2, RKS-9.8.1, RKS-8.4.1, RKS-8.12.3, RKS-8.1.1, RKS-8.2.3, RKS-8.9.1,
    RKS-8.10.1, RKS-8.11.2, AMB-RKS-16: each position breaks RKS-P-COMBAT but not its part
    RKS-P-COMBATANTS, and the formal statement of RKS-P-COMBAT over its projection fails too
    (it says no less), while RKS-P-COMBATANTS's holds."""
    bad = BROKEN[name]()
    assert _check(COMBATANTS)(bad) and not _check(COMBAT)(bad)
    assert _holds(COMBATANTS, bad)
    assert not _holds(COMBAT, bad)


def test_rks_8_3_1_the_combat_statement_holds_where_play_goes() -> None:
    """RKS-8.3.1, RKS-9.8.1: the positions the broken ones are made from, reached by the rules
    (or, for the remaining units, made to fit), satisfy RKS-P-COMBAT and its statement."""
    good = [_chuikov(), _declared(), _raising(), _support(), _defended(), _lost(), _bombarded()]
    for s in [*good, run(_bombarded(), Retreat("71", GREAR))]:
        assert _check(COMBAT)(s), s.combat
        assert _holds(COMBAT, s), s.combat


def _mutated(s: RKState, rng: random.Random) -> RKState:
    """`s` with one or two of its combat record's fields, its stage or a unit's Area changed
    at random (a position play need not reach)."""
    assert s.combat is not None
    c = s.combat
    units = [u.id for u in s.units]

    def card() -> Placed | None:
        if rng.random() < 0.3:
            return None
        return Placed(rng.choice([GE, SU]), "2C", rng.choice([HAND, *units]), rng.random() < 0.5)

    for _ in range(rng.randint(1, 2)):
        change = rng.randrange(11)
        changes: dict[int, dict[str, Any]] = {
            0: {"step": rng.choice(list(Step))},
            1: {"attack": card()},
            2: {"defence": card()},
            3: {"spent": tuple(p for p in (card(),) if p is not None)},
            4: {"raiser": rng.choice([None, GE, SU]), "raises": rng.randint(0, 2)},
            5: {"loser": rng.choice([None, GE, SU])},
            6: {"staying": tuple(rng.sample(units, rng.randint(0, 2)))},
            7: {"isolation": rng.choice([None, "retreat"])},
            8: {"support": rng.choice([None, "T-34"])},
        }
        c = attrs.evolve(c, **changes.get(change, {}))
        if change == 9:
            stages = [Stage.COMBAT, Stage.DAMAGE, Stage.ISOLATION, Stage.CONTINUE]
            s = attrs.evolve(s, stage=rng.choice(stages))
        if change == 10:
            s = BOARD.update(s, rng.choice(units), area=rng.choice([None, *BOARD.index]))
    return attrs.evolve(s, combat=c)


def _reached(start: RKState) -> list[RKState]:
    """The positions with a combat record a seeded play from `start` reaches in 25 steps."""
    seen: list[RKState] = []
    play(GAME, start, random.Random(0), max_steps=25, on_step=lambda b, a, s: seen.append(s))
    return [s for s in seen if s.combat is not None]


def test_rks_8_4_1_the_combat_statement_never_holds_where_its_property_fails() -> None:
    """RKS-8.4.1, RKS-8.6.2, RKS-8.10.1, RKS-9.8.1: on positions of seeded combats (Chuikov,
    the T-34's support, remaining units, a bombardment) with their record, stage or a unit's
    Area changed at random, the formal statement of RKS-P-COMBAT holds only where the property
    does (it implies the predicate); both verdicts occur."""
    rng = random.Random(0)
    verdicts: Counter[tuple[bool, bool]] = Counter()
    for options in ({}, FOLLOWED):
        for make in (_chuikov, _support, _defended, _bombarded):
            for s in _reached(make(**options)):
                for _ in range(size(8, 60)):
                    bad = _mutated(s, rng)
                    try:
                        fits = _check(COMBAT)(bad)
                    except AssertionError:  # `combat_fits` assumes damage in the damage stage
                        continue
                    holds = _holds(COMBAT, bad)
                    assert fits or not holds, (bad.stage, bad.combat)
                    verdicts[holds, fits] += 1
    assert verdicts[True, True] and verdicts[False, False], verdicts


# --- hand-made steps that break a rule ---------------------------------------------------------


def _clauses(before: RKState, after: RKState) -> tuple[str, ...]:
    link = Link(before.variant)
    link.known_step(before, Pass(), after)
    m = refinement.check_step(link, before, Pass(), after, "hand-made step")
    return () if m is None else m.clauses


def test_rks_9_8_1_a_declaration_left_face_down_under_chuikov_is_caught() -> None:
    """RKS-9.8.1, RKS-8.4.1: the German's first card under Chuikov goes down face up and the
    Soviet attacker declares next (`play`), a model step; the same card face down is caught."""
    s = _chuikov()
    right = run(s, Play("2C"))
    assert _clauses(s, right) == ()
    assert right.combat is not None and right.combat.defence is not None
    hidden = _combat(right, defence=attrs.evolve(right.combat.defence, open=False))
    assert "RKS-8.4.1" in _clauses(s, hidden)


def test_rks_8_10_1_a_staying_unit_moved_is_caught() -> None:
    """RKS-8.10.1: a remaining unit decided to stay keeps its place while the others decide;
    the step that also moves it is caught."""
    s = _lost()
    stays = _combat(s, staying=("Rifle-3",))
    assert _clauses(s, stays) == ()
    moved = BOARD.update(stays, "Rifle-3", area="tractor-works")
    assert "RKS-8.10.1" in _clauses(s, moved)


# --- combats played on: every step a model step --------------------------------------------


def _played(start: RKState, seen: Counter[str]) -> None:
    """Seeded plays from `start`, each step checked to be a model step and each position to
    satisfy RKS-P-COMBAT and its statement; what the combats had on the table counted."""
    link = symbolic_model(start.variant)
    statement = link.formal()[COMBAT]
    assert isinstance(statement, prover.Invariant)
    prop = _check(COMBAT)

    def on_step(before: RKState, action: Any, after: RKState) -> None:
        m = refinement.check_step(link, before, action, after, str(action))
        assert m is None, str(m)
        frame = concrete_frame(link.system.variables, link.project(after))
        assert statement.holds(CONCRETE, frame) and prop(after)
        c = after.combat
        if c is not None:
            tabled = [p for p in (c.attack, c.defence, *c.spent) if p is not None]
            kinds = {
                "open": any(p.open for p in tabled),
                "spent": bool(c.spent),
                "support": c.support is not None,
                "bombarded": c.cause != "combat",
                "decided": bool(c.staying) or c.isolation is not None,
            }
            seen.update(k for k, v in kinds.items() if v)

    for seed in range(GAMES):
        play(GAME, start, random.Random(seed), max_steps=25, on_step=on_step)


def test_rks_8_12_3_combats_with_chuikov_support_and_remaining_units_are_model_steps() -> None:
    """RKS-8.12.3, RKS-9.8.1, RKS-8.6.2, RKS-8.10.1, AMB-RKS-16: seeded plays from combats
    under General Chuikov, with the T-34 beside the attacker or among the defenders, and after
    a bombardment, under the presets' readings and those of `FOLLOWED`: every step is a model
    step, and on every position reached the statement agrees with the property."""
    seen: Counter[str] = Counter()
    for options in ({}, FOLLOWED):
        for make in (_chuikov, _support, _defended, _bombarded):
            _played(make(**options), seen)
    assert set(seen) == {"open", "spent", "support", "bombarded", "decided"}, seen
