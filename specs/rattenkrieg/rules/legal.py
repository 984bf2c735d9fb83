"""Legality, written once: for every stage, the actions worth asking about, and the clause an
action breaks. `legal_actions` keeps the candidates without a problem; `apply` refuses an action
with its problem.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from specs.rattenkrieg.rules import activation, combat, damage, eventcards
from specs.rattenkrieg.rules.actions import (
    Accept,
    Action,
    Attack,
    Defend,
    Designate,
    Discard,
    End,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pass,
    Pay,
    Place,
    Play,
    Recruit,
    Retreat,
    Sacrifice,
    Stand,
)
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import event_of, sort_cards
from specs.rattenkrieg.rules.sequence import refill_target, rifle_to_place
from specs.rattenkrieg.rules.sources import combat_cards, event_cards, payment_cards
from specs.rattenkrieg.rules.state import SU, RKState, Stage, Step, other

Problem = tuple[str, str]

STAGE_CLAUSE = {
    Stage.PLACE: "RKS-3.1.1",
    Stage.DRAW: "RKS-3.4.3",
    Stage.PICK: "RKS-9.6.1",
    Stage.PLAYER_TURN: "RKS-7.1.1",
    Stage.ACTIVE: "RKS-7.1.2",
    Stage.PAY: "RKS-7.3.1",
    Stage.COMBAT: "RKS-8.3.1",
    Stage.DAMAGE: "RKS-8.9.1",
    Stage.ISOLATION: "RKS-8.10.1",
    Stage.CONTINUE: "RKS-8.11.2",
    Stage.DISCARD: "RKS-10.1.1",
    Stage.OVER: "RKS-4.1.1",
}


def candidates(b: Board, s: RKState) -> Sequence[Action]:
    """Every action that could be legal at this stage, in a stable order; the discards as the
    lazy `DiscardChoices`, never listed."""
    match s.stage:
        case Stage.PLACE:
            area = rifle_to_place(b, s)
            return [Place(r, area) for r in b.rifles if area and b.unit(s, r).area is None]
        case Stage.PLAYER_TURN:
            mine = [u.id for u in s.units if b.side_of[u.id] == s.player]
            out: list[Action] = [Designate(u) for u in mine]
            out += [Recruit(u) for u in mine]
            out.append(Pass())
            return out + _events(b, s)
        case Stage.ACTIVE:
            assert s.acting is not None
            here = b.unit(s, s.acting).area
            assert here is not None
            tanks = [u.id for u in b.units_in(s, here, SU) if b.is_tank(u.id)]
            out = []
            for to in b.adjacent[here]:
                out.append(Move(to))
                out += [Move(to, t) for t in tanks if t != s.acting]
            out.append(Attack())
            # RKS-7.1.2: the acting unit's operations: movement, combat, event, pass (End)
            return [*out, *_events(b, s), End()]
        case Stage.PAY:
            return [Pay(c) for c, _ in payment_cards(b, s)]
        case Stage.COMBAT:
            c = s.combat
            assert c is not None
            if c.step == Step.CHOOSE:  # RKS-8.2.3: the defender chooses which unit fights
                return [Defend(u) for u in combat.defenders(b, s, c.area, c.attacker)]
            unit = combat.fighter(b, c, combat.to_move(b, c))
            assert unit is not None
            cards = [card for card, _ in combat_cards(b, s, unit)]
            out = [Play(card, support) for card in cards for support in (False, True)]
            if c.step == Step.RAISE:
                out.append(Stand())
            return [*out, Accept()]
        case Stage.DAMAGE:
            return damage.damage_choices(b, s)
        case Stage.ISOLATION:
            return damage.isolation_choices(b, s)
        case Stage.CONTINUE:
            assert s.combat is not None
            retreats = damage.retreat_areas(b, s, s.combat.attacker, "continuation")
            return [Attack(), *(Retreat(s.combat.attacker, a) for a in retreats), *_events(b, s)]
        case Stage.DISCARD:
            return discard_choices(b, s)
    return []


def _events(b: Board, s: RKState) -> list[Action]:
    out: list[Action] = []
    for card, _ in event_cards(b, s):
        kind = event_of(s.player, card)
        if kind in ("bombardment", "air_support"):
            targets: list[str | None] = [u.id for u in s.units if b.side_of[u.id] != s.player]
        elif kind == "chuikov":
            targets = [None, *(u.id for u in s.units if b.side_of[u.id] == SU)]
        else:
            targets = [None]
        out += [Event(card, t) for t in targets]
    return out


def check_ids(b: Board, action: Action) -> None:
    """Unknown unit and Area ids are input errors naming the JSON field, not rule breaches."""
    for field in ("unit", "escort", "target"):
        value = getattr(action, field, None)
        if isinstance(value, str):
            b.check_unit(value, f"action.{field}")
    for field in ("to", "area"):
        value = getattr(action, field, None)
        if isinstance(value, str):
            b.check_area(value, f"action.{field}")


def problem(b: Board, s: RKState, action: Action) -> Problem | None:
    """The clause `action` breaks in `s`, or None when it is legal. Chance actions are checked
    by the caller against the chance outcomes."""
    stage = s.stage
    match action:
        case Place(unit, area) if stage == Stage.PLACE:
            if unit not in b.rifles or b.unit(s, unit).area is not None:
                return "RKS-3.1.1", f"{unit} is not a Rifle waiting to be placed"
            if area != rifle_to_place(b, s):
                return (
                    "RKS-3.1.1",
                    f"Rifles go one by one on every Normal Area; next is {rifle_to_place(b, s)}",
                )
            return None
        case Designate(unit) if stage == Stage.PLAYER_TURN:
            return activation.designate_problem(b, s, unit)
        case Recruit(unit) if stage == Stage.PLAYER_TURN:
            return activation.recruit_problem(b, s, unit)
        case Pass() if stage == Stage.PLAYER_TURN:
            return activation.pass_problem(b, s)
        case Event(card, target) if stage in (Stage.PLAYER_TURN, Stage.ACTIVE, Stage.CONTINUE):
            return eventcards.event_problem(b, s, card, target)
        case Move(to, escort) if stage == Stage.ACTIVE:
            return activation.move_problem(b, s, to, escort)
        case Attack() if stage in (Stage.ACTIVE, Stage.CONTINUE):
            return activation.attack_problem(b, s)
        case End() if stage == Stage.ACTIVE:
            return activation.end_problem(b, s)
        case Pay(card) if stage == Stage.PAY:
            return activation.pay_problem(b, s, card)
        case Defend(unit) if stage == Stage.COMBAT and _step(s) == Step.CHOOSE:
            return combat.choose_defender_problem(b, s, unit)
        case Play(card, support) if stage == Stage.COMBAT and _step(s) != Step.CHOOSE:
            return combat.play_problem(b, s, card, support)
        case Accept() if stage == Stage.COMBAT and _step(s) != Step.CHOOSE:
            return combat.accept_problem(b, s)
        case Stand() if stage == Stage.COMBAT:
            if _step(s) != Step.RAISE:
                return "RKS-8.6.1", "declining to raise comes after both declarations"
            return None
        case Retreat() | LoseStep() | Sacrifice() if stage == Stage.DAMAGE:
            return _choice_problem(b, s, action, damage.damage_choices(b, s), "RKS-8.9.1")
        case Retreat() | Isolate() if stage == Stage.ISOLATION:
            return _choice_problem(b, s, action, damage.isolation_choices(b, s), "RKS-8.10.1")
        case Retreat(unit, to) if stage == Stage.CONTINUE:
            assert s.combat is not None
            if unit != s.combat.attacker:
                return "RKS-8.11.2", f"only the attacker {s.combat.attacker} retreats now"
            return damage.retreat_problem(b, s, unit, to, "continuation")
        case Discard(cards, refill, draw) if stage == Stage.DISCARD:
            return _discard_problem(b, s, cards, refill, draw)
    return STAGE_CLAUSE[stage], f"a {type(action).__name__} is not allowed at stage {stage.value}"


def _step(s: RKState) -> Step:
    assert s.combat is not None
    return s.combat.step


def _choice_problem(
    b: Board, s: RKState, action: Action, choices: list[Action], clause: str
) -> Problem | None:
    if action in choices:
        return None
    unit = getattr(action, "unit", "")
    if isinstance(action, Sacrifice):
        return "RKS-8.12.5", f"{unit} did not take part in a lost combat"
    if isinstance(action, Retreat):
        if any(getattr(a, "unit", None) == unit for a in choices):
            why = "isolation" if s.stage == Stage.ISOLATION else "damage"
            found = damage.retreat_problem(b, s, unit, action.to, why)
            if found is not None:
                return found
        if s.damage is not None and s.damage.cause != "combat":
            return "RKS-9.2.2", "this bombardment damage is a step loss (AMB-RKS-16 b)"
        return clause, f"{unit} cannot retreat into {action.to} now"
    if isinstance(action, LoseStep):
        return "RKS-8.9.1", f"{unit} cannot lose that step card"
    return clause, f"{unit} is not the unit to decide for now"


class DiscardChoices(Sequence[Action]):
    """The legal Recruiting Phase discards (RKS-10.1.1, RKS-10.1.2, AMB-RKS-19) as a lazy
    sequence: any subset of the hand, by size and then in the order of `combinations`, each
    with the refill or (when the hand would be below its target) without it, and with
    `partial` each partial refill too (`refill_amount=partial`). Its length is a sum of
    binomial coefficients and its i-th element is found by unranking, so listing, counting,
    sampling and membership cost time polynomial in the hand, never 2^len(hand)."""

    def __init__(
        self, hand: Sequence[str], target: int, keep_at_most: int | None, partial: bool = False
    ) -> None:
        self.hand = tuple(hand)
        self.target = target
        n = len(self.hand)
        low = 0 if keep_at_most is None else max(0, n - keep_at_most)
        # (discarded count, refill choices, first index) for each block of equal-sized discards
        self.blocks: list[tuple[int, int, int]] = []
        start = 0
        for k in range(low, n + 1):
            missing = target - (n - k)
            # RKS-10.1.2 (option refill_amount): all or nothing, or also 1 to missing-1 cards
            refills = (1 + missing if partial else 2) if missing > 0 else 1
            self.blocks.append((k, refills, start))
            start += comb(n, k) * refills
        self.length = start

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError(index)
        for k, refills, start in reversed(self.blocks):
            if index >= start:
                rank, choice = divmod(index - start, refills)
                return _discard(self._unrank(k, rank), choice)
        raise AssertionError("unreachable")

    def _unrank(self, k: int, rank: int) -> list[str]:
        """The `rank`-th k-subset of the hand in `itertools.combinations` order."""
        out: list[str] = []
        n = len(self.hand)
        i = 0
        while k:
            with_i = comb(n - i - 1, k - 1)  # subsets that take hand[i] next
            if rank < with_i:
                out.append(self.hand[i])
                k -= 1
            else:
                rank -= with_i
            i += 1
        return out

    def __iter__(self) -> Iterator[Action]:
        for k, refills, _ in self.blocks:
            for cards in combinations(self.hand, k):
                for choice in range(refills):
                    yield _discard(cards, choice)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Discard) or not action.cards <= frozenset(self.hand):
            return False
        k = len(action.cards)
        for bk, refills, _ in self.blocks:
            if k != bk:
                continue
            if action.draw is not None:
                return action.refill and 1 <= action.draw <= refills - 2
            return action.refill or refills >= 2
        return False

    def __repr__(self) -> str:
        return f"DiscardChoices({len(self)} discards of a {len(self.hand)}-card hand)"


def _discard(cards: Sequence[str], choice: int) -> Discard:
    """The discard of `cards` with refill choice `choice`: 0 the refill, 1 none, c >= 2 a
    partial refill of c - 1 cards (`refill_amount=partial`)."""
    if choice < 2:
        return Discard(frozenset(cards), choice == 0)
    return Discard(frozenset(cards), True, choice - 1)


def discard_choices(b: Board, s: RKState) -> DiscardChoices:
    """The legal discards of the player at a Recruiting Phase discard (`DiscardChoices`):
    under AMB-RKS-19 b (`hand_limit=hard_limit`) he keeps at most the refill target; under
    `refill_amount=partial` he may draw fewer cards than the refill (RKS-10.1.2)."""
    target = refill_target(b, s, s.player)
    limit = target if s.variant.is_("hand_limit", "hard_limit") else None
    partial = s.variant.is_("refill_amount", "partial")
    return DiscardChoices(sort_cards(s.hand(s.player)), target, limit, partial)


def _discard_problem(
    b: Board, s: RKState, cards: frozenset[str], refill: bool, draw: int | None = None
) -> Problem | None:
    """Any hand cards may be discarded (RKS-10.1.1); a hard hand limit makes the player discard
    down to it (AMB-RKS-19 b). Declining the refill is a choice only when there is one to make
    (RKS-10.1.2), so that each decision has one action; so is a partial refill, which draws
    fewer cards than the refill, under `refill_amount=partial`."""
    hand = s.hand(s.player)
    if not cards <= hand:
        return "RKS-10.1.1", f"{sort_cards(cards - hand)} not in {s.player}'s hand"
    if not refill and len(hand - cards) >= refill_target(b, s, s.player):
        return "RKS-10.1.2", "the hand is not below the refill target: there is nothing to decline"
    if draw is not None:
        missing = refill_target(b, s, s.player) - len(hand - cards)
        if s.variant.is_("refill_amount", "all_or_nothing"):
            # RKS-10.1.2 (option refill_amount=all_or_nothing; partial: any number up to it)
            return "RKS-10.1.2", "the hand is supplied up to the target or not at all"
        if not refill or not 1 <= draw < missing:
            return "RKS-10.1.2", f"a partial refill draws at least 1 and fewer than {missing}"
    if s.variant.is_("hand_limit", "hard_limit"):
        limit = refill_target(b, s, s.player)
        if len(hand - cards) > limit:
            return "RKS-10.2.1", f"a hand may keep at most {limit} cards (AMB-RKS-19 b)"
    return None


def side_to_move(b: Board, s: RKState) -> str:
    """The deciding side at a non-chance stage."""
    match s.stage:
        case Stage.COMBAT:
            assert s.combat is not None
            return combat.to_move(b, s.combat)
        case Stage.DAMAGE:
            assert s.damage is not None
            return b.side_of[s.damage.unit]
        case Stage.ISOLATION:
            assert s.combat is not None
            return other(b.side_of[s.combat.attacker])
    return s.player
