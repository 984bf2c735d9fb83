"""Positions no play of the rules could reach, refused with the clause and the field: every one
of the 52 cards in exactly one place (RKS-2.4.1), no unit above its original steps (RKS-7.5.3),
no unit in the enemy Rear (RKS-3.5.1), control as the units make it (RKS-3.6.2), no isolated
unit in an Area its side controls (RKS-8.10.6), and a stage consistent with its data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kernel.errors import ImpossiblePosition
from specs.rattenkrieg.cards import DECK, sort_cards
from specs.rattenkrieg.control import control_by_definition
from specs.rattenkrieg.damage import remaining
from specs.rattenkrieg.sequence import rifle_to_place
from specs.rattenkrieg.state import Phase, RKState, Stage, Step

if TYPE_CHECKING:
    from specs.rattenkrieg.rules import Rattenkrieg


def _impossible(message: str, clause: str, field: str) -> ImpossiblePosition:
    return ImpossiblePosition(f"{message} ({clause})", clauses=(clause,), field=field)


def check_position(game: Rattenkrieg, s: RKState) -> None:
    """Refuse what no play of the rules could reach, naming the clause and the field."""
    b = game.board
    places: list[tuple[str, Iterable[str]]] = [
        ("deck", s.deck),
        ("discards", s.discards),
        ("removed", s.removed),
        ("hands.GE", s.hand_ge),
        ("hands.SU", s.hand_su),
        *((f"units[{i}].steps", u.steps) for i, u in enumerate(s.units)),
    ]
    if s.combat is not None:
        table = [s.combat.attack, s.combat.defence, *s.combat.spent]
        places.append(("combat", [p.card for p in table if p is not None]))
    seen: dict[str, str] = {}
    for where, cards in places:
        for card in cards:
            if card in seen:
                raise _impossible(
                    f"{card} is both in {seen[card]} and in {where}", "RKS-2.4.1", where
                )
            seen[card] = where
    if set(seen) != DECK:
        lost = sort_cards(DECK - set(seen))
        raise _impossible(f"cards are missing: {lost}", "RKS-2.4.1", "deck")
    if not s.exposed <= frozenset(c for u in s.units for c in u.steps):
        raise _impossible("only step cards can be exposed", "RKS-3.3.3", "exposed")
    gone = dict(s.eliminated)
    if not 1 <= s.turn <= 6:
        raise _impossible(f"there is no Turn {s.turn}", "RKS-4.1.2", "turn")
    for i, u in enumerate(s.units):
        spec = b.specs[u.id]
        where = f"units[{i}]"
        if len(u.steps) > spec.steps:
            raise _impossible(
                f"{u.id} has {len(u.steps)} steps, more than its original {spec.steps}",
                "RKS-7.5.3",
                f"{where}.steps",
            )
        if u.area is None:
            if u.steps or u.flipped or u.isolated:
                raise _impossible(
                    f"{u.id} is off the map with steps or markers", "RKS-3.3.2", where
                )
            continue
        if u.id in gone:
            raise _impossible(f"eliminated {u.id} is on the map", "RKS-8.9.2", f"{where}.area")
        if spec.arrives is not None and s.turn < spec.arrives:
            raise _impossible(
                f"{u.id} arrives on Turn {spec.arrives}", "RKS-6.1.1", f"{where}.area"
            )
        if u.area == b.enemy_rear(spec.side):
            raise _impossible(f"{u.id} is in the enemy Rear", "RKS-3.5.1", f"{where}.area")
        if u.isolated and (b.is_rear(u.area) or s.control[b.index[u.area]] == spec.side):
            raise _impossible(
                f"{u.id} is isolated in an Area its side controls",
                "RKS-8.10.6",
                f"{where}.isolated",
            )
    for i, area in enumerate(b.stalingrad):
        if control_by_definition(b, s, area, s.control[i]) != s.control[i]:
            raise _impossible(
                f"{area} must be controlled by the side whose units alone are there",
                "RKS-3.6.2",
                f"control.{area}",
            )
    _check_stage(game, s)


def _check_stage(game: Rattenkrieg, s: RKState) -> None:
    b = game.board
    stage = s.stage
    needs_acting = stage in (Stage.ACTIVE, Stage.PAY, Stage.COMBAT, Stage.CONTINUE)
    if needs_acting and (s.acting is None or b.unit(s, s.acting).area is None):
        raise _impossible(
            f"stage {stage.value} needs an acting unit on the map", "RKS-7.1.1", "acting"
        )
    if s.acting is not None and b.side_of[s.acting] != s.player:
        raise _impossible("the acting unit belongs to the player", "RKS-7.1.1", "acting")
    if s.passes not in (0, 1):
        raise _impossible("two passes in succession end the Player Turns", "RKS-5.1.2", "passes")
    wants = {
        "combat": stage in (Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION),
        "damage": stage == Stage.DAMAGE,
        "pending": stage == Stage.PAY,
        "draws": stage == Stage.DRAW,
        "pick": stage == Stage.PICK,
        "result": stage == Stage.OVER,
    }
    have = {
        "combat": s.combat is not None,
        "damage": s.damage is not None,
        "pending": s.pending is not None,
        "draws": bool(s.draws),
        "pick": s.pick is not None,
        "result": s.result is not None,
    }
    for key, want in wants.items():
        if want and not have[key]:
            raise _impossible(f"stage {stage.value} needs {key}", "RKS-5.1.1", key)
    _check_combat(game, s)
    if s.damage is not None and b.unit(s, s.damage.unit).area is None:
        raise _impossible("the damaged unit is not on the map", "RKS-8.9.1", "damage.unit")
    if s.damage is not None and s.damage.cause == "combat" and s.combat is None:
        raise _impossible("combat damage without a combat", "RKS-8.9.1", "damage")
    if s.pick is not None:
        pool = s.hand(s.pick.who) if s.pick.kind == "sniper" else b.unit(s, s.pick.who).steps
        if not pool or (s.pick.kind == "step" and s.damage is None):
            raise _impossible("nothing to pick from", "RKS-9.6.1", "pick")
    if stage == Stage.PLACE and not s.phase == Phase.SETUP:
        raise _impossible("Rifles are placed at set-up", "RKS-3.1.1", "stage")
    if stage == Stage.PLACE and rifle_to_place(b, s) is None:
        raise _impossible("no Rifle is left to place", "RKS-3.1.1", "stage")
    if stage == Stage.DRAW and not s.deck:
        raise _impossible("a draw from an empty deck", "RKS-3.4.3", "deck")
    if s.result is not None and stage != Stage.OVER:
        raise _impossible("only a finished game has a result", "RKS-4.1.1", "result")
    if (s.phase == Phase.OVER) != (stage == Stage.OVER):
        raise _impossible("the phase and stage disagree", "RKS-5.1.1", "phase")


def _check_combat(game: Rattenkrieg, s: RKState) -> None:
    """A combat's record must fit its step: who fights, which cards lie on the table."""
    b = game.board
    c = s.combat
    if c is None:
        return
    if s.acting != c.attacker:
        raise _impossible("the attacker is the acting unit", "RKS-8.2.2", "combat.attacker")
    a_side = b.side_of[c.attacker]
    if a_side != s.player:
        raise _impossible("the attacker is the player of the Player Turn", "RKS-8.1.3", "combat")
    in_area = b.unit(s, c.attacker).area == c.area
    if s.stage in (Stage.COMBAT, Stage.CONTINUE) and not in_area:
        raise _impossible("the attacker is not in the combat Area", "RKS-8.1.1", "combat.area")
    if c.defender is not None and b.side_of[c.defender] == a_side:
        raise _impossible("the defender is an enemy unit", "RKS-8.2.3", "combat.defender")
    if s.stage == Stage.COMBAT and c.defender is not None and b.unit(s, c.defender).area != c.area:
        raise _impossible("the defender is not in the combat Area", "RKS-8.1.1", "combat.defender")
    for label, p, side in (("attack", c.attack, a_side), ("defence", c.defence, None)):
        if p is None:
            continue
        owner = a_side if side is not None else ("SU" if a_side == "GE" else "GE")
        fighter = c.attacker if side is not None else c.defender
        if p.side != owner or p.origin not in ("hand", fighter):
            raise _impossible(
                f"the {label} card is not the right side's", "RKS-8.4.1", f"combat.{label}"
            )
    if s.stage != Stage.COMBAT:
        if s.stage in (Stage.CONTINUE, Stage.ISOLATION, Stage.DAMAGE) and c.defender is None:
            raise _impossible("a decided combat has a defender", "RKS-8.2.3", "combat.defender")
        if s.stage == Stage.ISOLATION and not remaining(b, s):
            raise _impossible("no remaining unit to decide for", "RKS-8.10.1", "stage")
        return
    chuikov = "chuikov" in c.effects
    want = {
        Step.CHOOSE: (c.defender is None, False, False),
        Step.ATTACK: (c.defender is not None, False, chuikov),
        Step.DEFENCE: (c.defender is not None, not chuikov, False),
        Step.RAISE: (c.defender is not None, True, True),
    }[c.step]
    ok = (
        want[0]
        and (c.attack is not None) == want[1]
        and (c.defence is not None) == want[2]
        and (c.raiser is not None) == (c.step == Step.RAISE)
    )
    if not ok:
        raise _impossible(
            f"combat step {c.step.value} does not fit its cards", "RKS-8.3.1", "combat"
        )
