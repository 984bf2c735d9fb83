"""Readable Rattenkrieg play logs: one line per action, headlines, and what an action caused
(cards revealed at judgement, damage, isolation, control changes, events, the result).

A log is written for an onlooker who sees every card: it is a record of the whole game, not a
player's view (that is `observe`). Events name the clause that made them happen. A side reads
the events of its own steps (`tools.service.logview`) as `events_for` tells them to it: the
same lines, with the cards it may not see left unnamed (RKS-8.6.1: the cards replaced by raises
lie face down under `discard_faces=revealed_only` or `face_down`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from specs.rattenkrieg.rules.actions import (
    Accept,
    Action,
    Attack,
    Defend,
    Designate,
    Discard,
    Draw,
    End,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pass,
    Pay,
    Pick,
    Place,
    Play,
    Recruit,
    Retreat,
    Sacrifice,
    Stand,
)
from specs.rattenkrieg.rules.cards import event_of, is_face, sort_cards
from specs.rattenkrieg.rules.state import GE, Combat, Phase, Placed, RKState, Stage, Step
from specs.rattenkrieg.rules.strength import bombard_strength, combat_strength, judgement

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

ARMY = {"GE": "German", "SU": "Soviet"}
EVENT_NAMES = {
    "air_support": ("Air Force Support", "RKS-9.3.1"),
    "assault_gun": ("Assault Gun", "RKS-9.4.1"),
    "engineer": ("Combat Engineer", "RKS-9.5.1"),
    "bombardment": ("Bombardment", "RKS-9.2.1"),
    "sniper": ("Sniper", "RKS-9.6.1"),
    "molotov": ("Molotov Cocktail", "RKS-9.7.1"),
    "chuikov": ("General Chuikov", "RKS-9.8.1"),
}
_PHASE = {
    Phase.SETUP: "Set-up (RKS-3.1.1 to RKS-3.4.2)",
    Phase.REINFORCEMENT: "Reinforcement Phase (RKS-5.1.1)",
    Phase.RECRUITING: "Recruiting Phase (RKS-10.1.1)",
}


_STEP_DRAW = {
    Phase.SETUP: "RKS-3.3.1",
    Phase.REINFORCEMENT: "RKS-6.1.2",
    Phase.PLAYER_TURNS: "RKS-7.5.1",
}


def headline(game: RattenkriegRules, s: RKState) -> str:
    """The turn, then the phase or the Player Turn: a log prints the lines that changed."""
    turn = f"== Turn {s.turn} =="
    if s.stage == Stage.OVER:
        return f"{turn}\n-- Game over --"
    if s.phase == Phase.PLAYER_TURNS:
        return f"{turn}\n-- {ARMY[s.player]} Player Turn (RKS-5.1.2) --"
    return f"{turn}\n-- {_PHASE[s.phase]} --"


def _unit(game: RattenkriegRules, s: RKState, unit: str) -> str:
    return f"{unit} ({game.board.name(game.board.unit(s, unit).area)})"


def describe(game: RattenkriegRules, s: RKState, action: Action) -> str:
    b = game.board
    who = game.to_move(s)
    match action:
        case Place(unit, area):
            return (
                f"SU: {unit} (strength {b.specs[unit].strength}) goes to {b.name(area)} (RKS-3.1.1)"
            )
        case Draw(card):
            head = s.draws[0]
            if head.kind == "steps":
                clause = _STEP_DRAW.get(s.phase, "RKS-3.3.1")
                if s.phase == Phase.REINFORCEMENT and b.side_of[head.who] != GE:
                    clause = "RKS-6.2.2"
                return f"deal: {card} becomes a step of {head.who} ({clause})"
            if head.kind == "hand":
                clause = "RKS-10.1.2" if s.phase == Phase.RECRUITING else "RKS-3.4.1"
                return f"deal: {card} to the {ARMY[head.who]} hand ({clause})"
            return f"draw for the {EVENT_NAMES[head.kind][0]} on {head.who}: {card}"
        case Pick(card):
            assert s.pick is not None
            if s.pick.kind == "sniper":
                return f"the Sniper picks {card} from the German hand at random (RKS-9.6.1)"
            return f"{s.pick.who} loses the step card picked at random: {card} (AMB-RKS-7)"
        case Designate(unit):
            return f"{who}: designates {_unit(game, s, unit)} to act (RKS-7.1.1)"
        case Recruit(unit):
            return f"{who}: {_unit(game, s, unit)} recruits a step and is flipped (RKS-7.5.1)"
        case Pass():
            return f"{who}: passes (RKS-5.1.2)"
        case Move(to, escort):
            assert s.acting is not None
            along = "" if escort is None else f" with {escort} (RKS-8.12.4)"
            return (
                f"{who}: {s.acting} moves {b.name(b.unit(s, s.acting).area)} -> {b.name(to)}{along}"
            )
        case Pay(card):
            where = "hand" if card in s.hand(s.player) else f"steps of {s.acting}"
            return f"{who}: pays {card} from the {where} to enter (RKS-7.3.1)"
        case Attack():
            again = " again (RKS-8.11.2)" if s.stage == Stage.CONTINUE else " (RKS-7.1.2)"
            assert s.acting is not None
            return f"{who}: {_unit(game, s, s.acting)} attacks{again}"
        case Event(card, target):
            kind = event_of(s.player, card)
            assert kind is not None
            name, clause = EVENT_NAMES[kind]
            if kind == "chuikov" and target is not None:
                return f"{who}: plays {card}, {name}: {target} is flipped face up (RKS-9.8.2)"
            on = "" if target is None else f" on {_unit(game, s, target)}"
            return f"{who}: plays {card}, {name}{on} ({clause})"
        case End():
            assert s.acting is not None
            return f"{who}: {s.acting} ends its action and is flipped (RKS-7.4.1)"
        case Defend(unit):
            return f"{who}: {unit} takes the combat (RKS-8.2.3)"
        case Play(card, support):
            assert s.combat is not None
            step = s.combat.step
            what = {Step.ATTACK: "attack", Step.DEFENCE: "defence", Step.RAISE: "raise"}[step]
            clause = {Step.ATTACK: "RKS-8.4.1", Step.DEFENCE: "RKS-8.5.2"}.get(step, "RKS-8.6.1")
            where = "hand" if card in s.hand(str(who)) else "steps"
            t34 = " + T-34 (RKS-8.12.3)" if support else ""
            return f"{who}: {what}: {card} from the {where}{t34} ({clause})"
        case Accept():
            return f"{who}: accepts the damage without contest (RKS-8.5.1)"
        case Stand():
            return f"{who}: no raise (RKS-8.6.1)"
        case Retreat(unit, to):
            return f"{who}: {unit} retreats {b.name(b.unit(s, unit).area)} -> {b.name(to)}, flipped"
        case LoseStep(unit, card):
            return f"{who}: {unit} loses a step{'' if card is None else ' ' + card} (RKS-8.9.1)"
        case Sacrifice(unit):
            return f"{who}: {unit} is eliminated instead (RKS-8.12.5)"
        case Isolate(unit):
            return f"{who}: {_unit(game, s, unit)} stays, isolated (RKS-8.10.1)"
        case Discard(cards, refill, draw):
            what = ", ".join(sort_cards(cards)) if cards else "nothing"
            keep = "" if refill else ", and does not refill (RKS-10.1.2)"
            if draw is not None:
                keep = f", and draws only {draw} (RKS-10.1.2)"
            return f"{who}: discards {what} (RKS-10.1.1){keep}"
    assert_never(action)


def events(
    game: RattenkriegRules,
    before: RKState,
    action: Action,
    after: RKState,
    side: str | None = None,
) -> list[str]:
    """What `action` caused besides itself, in the order it happened: as the referee sees it,
    or (`side`) naming only the cards that side may see."""
    out = _judgement(game, before, action, after, side)
    out += _bombardment(game, before, action, after)
    out += _units(game, before, after)
    out += _control(game, before, after)
    arrivals = _arrivals(game, before, after)
    reshuffled = before.discards and not after.discards and before.discards <= after.deck
    if before.deck != after.deck and reshuffled:
        out.append(
            f"the deck is used up: the {len(before.discards)} discards become the new deck "
            "(RKS-3.4.3)"
        )
    if after.stage == Stage.CONTINUE and before.stage != Stage.CONTINUE:
        out.append("both sides remain: the attacker must attack again or retreat (RKS-8.11.2)")
    if after.phase == Phase.RECRUITING and before.phase == Phase.PLAYER_TURNS:
        out.append("both players passed in succession: the Recruiting Phase (RKS-5.1.2)")
    turn_over = after.turn != before.turn or (after.stage == Stage.OVER != before.stage)
    if turn_over and before.phase == Phase.RECRUITING:
        out.append("every unit is turned face up (RKS-10.3.1)")
    if after.result is not None and before.result is None:
        r = after.result
        out.append(
            f"end of Turn {after.turn}: {ARMY[str(r.winner)]} victory ({r.clause}): {r.reason}"
        )
    elif after.turn != before.turn:
        out.append(f"Turn {after.turn} begins")
    return out + arrivals


def _judged(before: RKState, action: Action) -> tuple[str, str] | None:
    """The attack and defence cards judged because of this action, if it ends the raising."""
    c = before.combat
    if before.stage != Stage.COMBAT or c is None or c.step != Step.RAISE:
        return None
    assert c.attack is not None and c.defence is not None
    if isinstance(action, Stand):
        return c.attack.card, c.defence.card
    if isinstance(action, Play) and before.variant.is_("raising", "one_each") and c.raises + 1 >= 2:
        if c.raiser == c.attack.side:
            return action.card, c.defence.card
        return c.attack.card, action.card
    return None


def _seen(p: Placed, after: RKState, side: str | None) -> bool:
    """Whether `side` (None: the referee) may read the name of a card the raises replaced: its
    own, one laid open (General Chuikov, RKS-9.8.1), or one lying face up once discarded
    (`discard_faces`; RKS-8.6.1 lays the replaced cards face down under `revealed_only`)."""
    return side is None or p.side == side or p.open or p.card in after.face_up


def _lost(c: Combat, action: Action, judged: tuple[str, str]) -> list[Placed]:
    """The cards the raises replaced (RKS-8.6.1), the one the last raise replaced included."""
    lost = list(c.spent)
    if isinstance(action, Play) and action.card in judged:  # the last raise replaces a card too
        replaced = c.attack if judged[0] == action.card else c.defence
        if replaced is not None and replaced.card not in judged:
            lost.append(replaced)
    return lost


def _judgement(
    game: RattenkriegRules, before: RKState, action: Action, after: RKState, side: str | None
) -> list[str]:
    judged = _judged(before, action)
    if judged is None:
        return []
    c = before.combat
    assert c is not None and c.defender is not None
    b = game.board
    sa = combat_strength(b, before, c, c.attacker)
    sd = combat_strength(b, before, c, c.defender)
    a_side = b.side_of[c.attacker]
    winner, clause = judgement(before, judged[0], sa, a_side, judged[1], sd)
    text = (
        f"judgement: {c.attacker} shows {judged[0]} (strength {sa}), {c.defender} shows "
        f"{judged[1]} (strength {sd})"
    )
    lost = _lost(c, action, judged)
    named = [p.card for p in lost if _seen(p, after, side)]
    hidden = len(lost) - len(named)
    if hidden:  # RKS-8.6.1: laid face down, the reader sees how many
        named.append(f"{hidden} face down")
    if named:
        text += f"; lost with the raises: {', '.join(named)}"
    if winner == "tie":
        return [f"{text}: a tie, both fight again ({clause})"]
    won = c.attacker if winner == "attacker" else c.defender
    return [f"{text}: {won} wins ({clause})"]


def _bombardment(
    game: RattenkriegRules, before: RKState, action: Action, after: RKState
) -> list[str]:
    if not isinstance(action, Draw) or before.stage != Stage.DRAW:
        return []
    head = before.draws[0]
    if head.kind not in ("bombardment", "air_support"):
        return []
    hit = after.damage is not None or game.board.unit(after, head.who).area is None
    if is_face(action.card):
        why = "a face card, air support misses (RKS-9.3.1)"
        if head.kind == "bombardment":
            holds = "occupies" if hit else "does not occupy"
            why = f"a face card: {before.player} {holds} Mamayev Kurgan (RKS-9.2.3)"
    else:
        strength = bombard_strength(game.board, before, head.kind, head.who)
        why = f"{action.card} against strength {strength} (RKS-9.2.2)"
    return [f"{'hit' if hit else 'miss'}: {why}"]


def _units(game: RattenkriegRules, before: RKState, after: RKState) -> list[str]:
    b = game.board
    out = []
    for old, new in zip(before.units, after.units, strict=True):
        if old.area is not None and new.area is None:
            out.append(f"{old.id} is eliminated in {b.name(old.area)} (RKS-8.9.2)")
        if new.isolated and not old.isolated:
            out.append(f"{new.id} is isolated in {b.name(new.area)} (RKS-8.10.1)")
        if old.isolated and not new.isolated and new.area is not None:
            out.append(f"{new.id} is no longer isolated (RKS-8.10.6)")
        if old.flipped and not new.flipped and after.phase == before.phase == Phase.PLAYER_TURNS:
            out.append(f"{new.id} is face up again (RKS-9.8.2)")
    return out


def _arrivals(game: RattenkriegRules, before: RKState, after: RKState) -> list[str]:
    """Reinforcements entering their Rear (RKS-6.1.1, RKS-6.2.1) and the T-34's return."""
    b = game.board
    out = []
    for old, new in zip(before.units, after.units, strict=True):
        if old.area is None and new.area is not None and before.phase != Phase.SETUP:
            if b.is_tank(new.id):
                out.append(f"{new.id} returns to {b.name(new.area)} (RKS-6.3.1)")
            else:
                clause = "RKS-6.1.1" if b.side_of[new.id] == GE else "RKS-6.2.1"
                out.append(f"{new.id} enters the {b.name(new.area)} ({clause})")
    return out


def _control(game: RattenkriegRules, before: RKState, after: RKState) -> list[str]:
    b = game.board
    out = []
    for i, area in enumerate(b.stalingrad):
        if before.control[i] != after.control[i]:
            new = after.control[i]
            owner = "nobody (AMB-RKS-11)" if new is None else f"{ARMY[new]}"
            out.append(f"{b.name(area)} is now {owner}-controlled (RKS-3.6.2)")
    return out


class RattenkriegNarration:
    """The narration role (`kernel.roles.Narration`) of the rules it is built from."""

    def __init__(self, rules: RattenkriegRules) -> None:
        self.rules = rules

    def describe(self, state: RKState, action: Action) -> str:
        return describe(self.rules, state, action)

    def headline(self, state: RKState) -> str:
        return headline(self.rules, state)

    def events(self, before: RKState, action: Action, after: RKState) -> list[str]:
        return events(self.rules, before, action, after)

    def events_for(self, before: RKState, action: Action, after: RKState, side: str) -> list[str]:
        """The events as `side` may read them in its log (RKS-8.6.1: no face-down card named)."""
        return events(self.rules, before, action, after, side)
