"""The solver layer against the plain-Python oracle (SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4).

`declare.declaration_problems` defines a legal declaration and `declare.legal_declarations`
enumerates them by backtracking; `combat_query` asks the solvers. On generated positions under
random readings of every option the declarations depend on, and on positions of real play,
the solver's declarations are the oracle's, each accepted by the definition; any set of
attacks is legal for the solver exactly when the definition finds nothing wrong, and then the
solver's explanation is empty, else it names clauses; a unit may join exactly when the oracle
can complete the declaration.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.shumshu.rules.combat_query import declaration_ok, declarations, explain, join_ok
from specs.shumshu.rules.declare import (
    Declaration,
    canonical,
    declaration_problems,
    extendable,
    front,
    legal_declarations,
)
from specs.shumshu.rules.state import JP, RU, ShumshuState, Stage
from tests.shumshu.positions import CATALOGUE, GAME, OPTIONS, B, position

REGION = ("0502", "0503", "0602", "0603", "0702", "0703", "0801", "0802", "0504", "0604", "0704")
RU_UNITS = ("RU-1-138", "RU-2-138", "RU-3-138", "RU-NI", "RU-ENG", "RU-373")
JP_UNITS = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-IB4")
DECLARE_OPTIONS = (
    "must_attack",
    "regiment_counts",
    "rgt_obligation",
    "move_and_attack",
    "could_move",
    "landed_units",
)


@st.composite
def declare_positions(draw: st.DrawFn) -> ShumshuState:
    side = draw(st.sampled_from([RU, JP]))
    holders = {x: draw(st.sampled_from([None, RU, JP])) for x in REGION}
    units: dict[str, str] = {}
    for uid in RU_UNITS + JP_UNITS:
        mine = [x for x, who in holders.items() if who == B.side_of[uid]]
        placed: bool = draw(st.booleans())
        if mine and placed:
            units[uid] = draw(st.sampled_from(mine))
    options = {o: draw(st.sampled_from(OPTIONS[o])) for o in DECLARE_OPTIONS}
    on_map = [u for u in units if not B.unit(u).is_decoy]
    disrupted = [u for u in on_map if draw(st.integers(0, 3)) == 0]
    moved = frozenset(u for u in units if B.side_of[u] == side and draw(st.integers(0, 3)) == 0)
    # turn 2: JP-IB4 may have come from Paramushir in turn 1 (SHU-REINF.2)
    s = position(
        units, side=side, options=options, disrupted=disrupted, moved=moved, turn=2, check=False
    )
    from attrs import evolve

    s = evolve(s, stage=Stage.DECLARE)
    GAME.check_position(s)
    return s


def _pair_sets(s: ShumshuState, rng: random.Random, n: int) -> list[Declaration]:
    """Random sets of attacks: each attacker nothing or one hex it touches (enemy or not)."""
    f = front(B, s)
    mine = [p for p in s.units if p.hex is not None and B.side_of[p.id] == s.side]
    out: list[Declaration] = []
    for _ in range(n):
        pairs: list[tuple[str, Hex]] = []
        for p in mine:
            assert p.hex is not None
            options = [None, *B.neighbors(p.hex), *f.contacts.get(p.id, ())]
            target = rng.choice(options)
            if target is not None:
                pairs.append((p.id, target))
        out.append(tuple(pairs))
    return out


def _agree(s: ShumshuState, rng: random.Random) -> None:
    oracle = legal_declarations(B, s)
    solver = set(itertools.islice(declarations(B, s), 5000))
    assert solver == oracle
    for decl in itertools.islice(sorted(oracle, key=len), 30):
        assert declaration_problems(B, s, decl) == [], decl
        assert declaration_ok(B, s, decl)
    for pairs in _pair_sets(s, rng, 12):
        ok = canonical(B, pairs) in oracle
        assert (declaration_problems(B, s, pairs) == []) == ok, pairs
        assert declaration_ok(B, s, pairs) == ok, pairs
        reasons = explain(B, s, pairs)
        assert (not reasons) == ok, (pairs, reasons)
        assert all(r.clauses for r in reasons)
    f = front(B, s)
    for a in f.attackers:
        for t in f.contacts[a]:
            assert join_ok(B, s, (), a, t) == extendable(B, s, ((a, t),))
    for decl in itertools.islice(oracle, 10):
        for k in range(len(decl)):
            prefix, (a, t) = decl[:k], decl[k]
            assert join_ok(B, s, prefix, a, t)
            assert extendable(B, s, (*prefix, (a, t)))


@settings(max_examples=60, deadline=None)
@given(s=declare_positions(), seed=st.integers(0, 2**16))
def test_shu_combat_4_solver_equals_oracle_on_generated_positions(
    s: ShumshuState, seed: int
) -> None:
    """SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4: the solver's declarations, legality checks and
    explanations agree with the definition and the oracle."""
    _agree(s, random.Random(seed))


def test_shu_combat_3_solver_equals_oracle_on_playout_positions() -> None:
    """SHU-COMBAT.3, SHU-COMBAT.4: the same on every declaration position of seeded games
    under random readings."""
    rng = random.Random(7)
    seen = 0
    for seed in range(12):
        play = random.Random(seed)
        choices = {o: play.choice(r) for o, r in OPTIONS.items()}
        s = GAME.initial_state(CATALOGUE.variant("draft", choices))
        while GAME.to_move(s) is not None:
            if s.stage is Stage.DECLARE and not s.pending:
                _agree(s, rng)
                seen += 1
            if GAME.to_move(s) == CHANCE:
                a = sample(GAME.chance_outcomes(s), play)
            else:
                a = play.choice(list(GAME.legal_actions(s)))
            s = GAME.apply(s, a)
    assert seen >= 12
