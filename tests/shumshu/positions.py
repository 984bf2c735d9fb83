"""Building Shumshu test positions by hand, and driving them through the rules.

`position` puts the listed units where they are named (a hex, or "pool", "gone", "removed",
"sea"); the rest are where a game after set-up has them: Japanese set-up pieces eliminated
(decoys removed until next turn), the Paramushir units and the Russians waiting off the map,
regiments unformed. Every position built is checked by the game's position check, so a test
never starts from a position the rules could not reach.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from kernel.roles import AssembledGame
from kernel.variants import Variant
from specs.shumshu import PACKAGE
from specs.shumshu.game import Shumshu
from specs.shumshu.rules.actions import Action, Commit, Done, Hold, Join, Roll
from specs.shumshu.rules.effects import recovery_turn
from specs.shumshu.rules.state import JP, RU, Loc, Piece, ShumshuState, Stage

GAME: AssembledGame[ShumshuState, Action] = PACKAGE.assemble()


def _rules() -> Shumshu:
    rules = GAME.rules
    assert isinstance(rules, Shumshu)
    return rules


RULES = _rules()
"""The rules object itself, for what only it has (its board, its data)."""
B = RULES.board
CATALOGUE = GAME.catalogue
OPTIONS = {o.name: [r.name for r in o.readings] for o in CATALOGUE.options}

_LOC = {"pool": Loc.POOL, "gone": Loc.GONE, "removed": Loc.REMOVED, "sea": Loc.SEA}


def h(text: str) -> Hex:
    return parse_hex(text)


def variant(**options: str) -> Variant:
    """Preset `draft` with some options read otherwise."""
    return CATALOGUE.variant("draft", options)


def position(
    units: dict[str, str],
    *,
    stage: Stage = Stage.MOVE,
    side: str = RU,
    turn: int = 1,
    options: dict[str, str] | None = None,
    disrupted: Iterable[str] = (),
    revealed: Iterable[str] = (),
    check: bool = True,
    **fields: Any,
) -> ShumshuState:
    """A position; see the module docstring. `disrupted` units recover when the rules say for
    a disruption in this player-turn."""
    v = variant(**(options or {}))
    placed: dict[str, Piece] = {}
    for spec in B.data.units:
        where = units.get(spec.id)
        if where is None:
            if spec.is_regiment:
                loc = Loc.UNFORMED
            elif spec.setup == "shumshu":
                loc = Loc.REMOVED if spec.is_decoy else Loc.GONE
            else:
                loc = Loc.POOL
            recover = turn + 1 if loc is Loc.REMOVED else 0
            placed[spec.id] = Piece(
                spec.id, loc, recover=recover, revealed=loc is not Loc.POOL and spec.side == JP
            )
        elif where in _LOC:
            loc = _LOC[where]
            recover = turn + 1 if loc is Loc.REMOVED else 0
            placed[spec.id] = Piece(
                spec.id,
                loc,
                recover=recover,
                revealed=loc in (Loc.GONE, Loc.REMOVED) and spec.side == JP,
            )
        else:
            placed[spec.id] = Piece(spec.id, Loc.MAP, h(where))
    for spec in B.data.units:
        if spec.is_regiment and placed[spec.id].loc is Loc.MAP:
            for bn in B.data.battalions_of(spec.id):
                placed[bn] = Piece(bn, Loc.IN_REGIMENT)
    s = ShumshuState(
        variant=v,
        turn=turn,
        side=side,
        stage=stage,
        units=tuple(placed[u.id] for u in B.data.units),
        ships=fields.pop("ships", 3),
        **fields,
    )
    for uid in revealed:
        s = _set(s, uid, revealed=True)
    for uid in disrupted:
        side_of = B.side_of[uid]
        loc = s.piece(uid).loc
        s = _set(s, uid, disrupted=True, recover=recovery_turn(s, side_of), revealed=side_of == JP)
        assert loc in (Loc.MAP, Loc.SEA)
    if check:
        GAME.check_position(s)
    return s


def _set(s: ShumshuState, uid: str, **fields: Any) -> ShumshuState:
    return attrs.evolve(
        s, units=tuple(attrs.evolve(p, **fields) if p.id == uid else p for p in s.units)
    )


def apply_all(s: ShumshuState, *actions: Action) -> ShumshuState:
    for a in actions:
        s = GAME.apply(s, a)
        GAME.check_position(s)
    return s


def legal(s: ShumshuState) -> list[Action]:
    return list(GAME.legal_actions(s))


def refused(s: ShumshuState, action: Action) -> tuple[str, ...]:
    """The clauses named when `action` is refused; fails the test if it is accepted."""
    try:
        GAME.apply(s, action)
    except IllegalAction as exc:
        assert exc.clauses, exc
        return exc.clauses
    raise AssertionError(f"{action} was accepted")


def attack(
    s: ShumshuState, joins: list[tuple[str, str]], face: int, **commit: bool
) -> ShumshuState:
    """From a MOVE stage: end movement, join the attackers, resolve the one combat with no
    No Retreat! and the given commitment, and roll `face`. Stops where a choice remains."""
    s = apply_all(s, Done())
    for unit, hex_ in sorted(joins, key=lambda j: B.order[j[0]]):
        s = apply_all(s, Join(unit, h(hex_)))
    s = apply_all(s, Done())
    return through_roll(s, face, **commit)


def through_roll(s: ShumshuState, face: int, hold: bool = False, **commit: bool) -> ShumshuState:
    """From the current combat step: No Retreat! (if asked), the attacker's commitment, then
    the die."""
    if s.stage is Stage.HOLD:
        s = apply_all(s, Hold(hold))
    if s.stage is Stage.COMMIT:
        s = apply_all(s, Commit(**commit))
    assert s.stage is Stage.ROLL, s.stage
    return apply_all(s, Roll(face))


def hexes_of(s: ShumshuState) -> dict[str, str]:
    return {p.id: str(p.hex) for p in s.units if p.hex is not None}


def loc_of(s: ShumshuState, uid: str) -> Loc:
    return s.piece(uid).loc
