"""Rattenkrieg Stalingrad as OpenSpiel games: `python_wargame_rattenkrieg_<preset>`, one name per
preset, so each name is one fixed ruleset with its own GameType.

The game hides the hands and the step cards (RKS-3.3.3, RKS-3.4.1) and the cards put down in
combat (RKS-8.4.1), so the GameType says imperfect information, and observations come from
`game.observe` only. Every action is one id but the Recruiting Phase discard (RKS-10.1.1), a
subset of the hand: it is built card by card, in the cards' reading order, and ends with a
commit id that says what happens to the refill (RKS-10.1.2). Its choices are walked lazily
(`DiscardTree`, over the kernel's own `legal.DiscardChoices`), never listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kernel.spiel_codec import IdRanges, LegalTree, Spec, preset_specs, table_tree
from specs.rattenkrieg.io.tensor import CARDS, ObservationTensor
from specs.rattenkrieg.rules.actions import (
    Accept,
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
from specs.rattenkrieg.rules.cards import MAX_HAND
from specs.rattenkrieg.rules.legal import DiscardChoices

MAX_GAME_LENGTH = 3000
"""The declared cap on player decisions (sub-decisions included). The rules end the game after
Turn 6 (RKS-4.1.2) but bound no Player Turn: a unit may move between friendly-controlled Areas
endlessly (RKS-7.2.1), and the Player Turns go on until two passes in succession (RKS-5.1.2).
Random play through this adapter (a uniform choice among the legal ids) ends well within it:
284 to 542 decisions over 200 seeded games of each preset, so the cap leaves a margin of more
than five times the longest."""


class RattenkriegCodec(ObservationTensor):
    """Rattenkrieg's ids (U = the counters in data order, A = the Areas in data order, Rears
    included, C = the 52 cards in reading order):

    player ids, in this order: place (U*A), designate (U), recruit (U), pass, move (A*(1+U):
    the destination, then no escort or the T-34 moving along), pay (C), attack, event
    (C*(1+U): the card, then no target or the target unit), end, defend (U), play (C*2: without
    and with the T-34's support), accept, stand, retreat (U*A), lose step (U*(C+1): the card,
    or the last column when it is picked at random), sacrifice (U), isolate (U), then the
    discard's sub-decisions: discard card (C), and its commits: refill, no refill, partial
    refill of 1..MAX_HAND cards. A discard is its cards in ascending id order, then one commit.

    chance ids: draw card c -> c, pick card c -> C + c."""

    def __init__(self, game: Any) -> None:
        b = game.board
        self.units: list[str] = [u.id for u in b.data.units]
        self.unit_ix = {u: i for i, u in enumerate(self.units)}
        self.areas: list[str] = list(b.areas)
        self.area_ix = {a: i for i, a in enumerate(self.areas)}
        self.stalingrad: list[str] = list(b.stalingrad)
        self.card_ix = {c: i for i, c in enumerate(CARDS)}
        u, a, c = len(self.units), len(self.areas), len(CARDS)
        sizes = [
            ("place", u * a),
            ("designate", u),
            ("recruit", u),
            ("pass", 1),
            ("move", a * (1 + u)),
            ("pay", c),
            ("attack", 1),
            ("event", c * (1 + u)),
            ("end", 1),
            ("defend", u),
            ("play", c * 2),
            ("accept", 1),
            ("stand", 1),
            ("retreat", u * a),
            ("lose_step", u * (c + 1)),
            ("sacrifice", u),
            ("isolate", u),
            ("discard", c),
            ("commit_refill", 1),
            ("commit_no_refill", 1),
            ("commit_draw", MAX_HAND),
        ]
        self.ids = IdRanges(sizes)
        self.base, self.ranges = self.ids.base, self.ids.ranges
        self.num_distinct_actions = self.ids.total
        self.max_chance_outcomes = 2 * c
        self.sub_first = self.base["discard"]
        self.commit_first = self.base["commit_refill"]
        self.atomic_ids = self._make_atomic_ids()
        self._layout()

    # --- ids -----------------------------------------------------------------------------------

    def tokens(self, action: Any) -> tuple[int, ...]:
        atomic = self.atomic_ids.get(type(action))
        if atomic is not None:
            return (atomic(action),)
        if type(action) is Discard:
            b, cx = self.base, self.card_ix
            cards = sorted(b["discard"] + cx[x] for x in action.cards)
            return (*cards, self._commit(action.refill, action.draw))
        raise TypeError(f"not a Rattenkrieg player action: {action!r}")

    def _make_atomic_ids(self) -> dict[type, Callable[[Any], int]]:
        """The id of every action but the discard, by its class (a dispatch on the class: the
        adapter encodes every legal action of every state it reaches)."""
        b, ux, ax, cx = self.base, self.unit_ix, self.area_ix, self.card_ix
        A, U, C = len(self.areas), len(self.units), len(CARDS)

        def unit(kind: str) -> Callable[[Any], int]:
            first = b[kind]
            return lambda a: first + ux[a.unit]

        def one(kind: str) -> Callable[[Any], int]:
            first = b[kind]
            return lambda a: first

        def opt(x: str | None) -> int:
            return 0 if x is None else 1 + ux[x]

        return {
            Place: lambda a: b["place"] + ux[a.unit] * A + ax[a.area],
            Designate: unit("designate"),
            Recruit: unit("recruit"),
            Pass: one("pass"),
            Move: lambda a: b["move"] + ax[a.to] * (1 + U) + opt(a.escort),
            Pay: lambda a: b["pay"] + cx[a.card],
            Attack: one("attack"),
            Event: lambda a: b["event"] + cx[a.card] * (1 + U) + opt(a.target),
            End: one("end"),
            Defend: unit("defend"),
            Play: lambda a: b["play"] + cx[a.card] * 2 + int(a.support),
            Accept: one("accept"),
            Stand: one("stand"),
            Retreat: lambda a: b["retreat"] + ux[a.unit] * A + ax[a.to],
            LoseStep: lambda a: (
                b["lose_step"] + ux[a.unit] * (C + 1) + (C if a.card is None else cx[a.card])
            ),
            Sacrifice: unit("sacrifice"),
            Isolate: unit("isolate"),
        }

    def _commit(self, refill: bool, draw: int | None) -> int:
        """RKS-10.1.2: the refill, none, or (`refill_amount=partial`) `draw` cards."""
        if draw is not None:
            if not refill or not 1 <= draw <= MAX_HAND:
                raise ValueError(f"no discard commit for refill={refill}, draw={draw}")
            return self.base["commit_draw"] + draw - 1
        return self.base["commit_refill" if refill else "commit_no_refill"]

    def choice_commit(self, choice: int) -> int:
        """The commit id of `DiscardChoices`' refill choice `choice`: 0 the refill, 1 none,
        c >= 2 a partial refill of c - 1 cards (`legal._discard`)."""
        return self._commit(choice != 1, choice - 1 if choice >= 2 else None)

    def discard_of(self, cards: Sequence[str], commit: int) -> Discard:
        """The discard a commit id ends (inverse of `_commit`)."""
        b = self.base
        if commit == b["commit_refill"]:
            return Discard(frozenset(cards), True)
        if commit == b["commit_no_refill"]:
            return Discard(frozenset(cards), False)
        return Discard(frozenset(cards), True, commit - b["commit_draw"] + 1)

    def chance_id(self, action: Any) -> int:
        match action:
            case Draw(card):
                return self.card_ix[card]
            case Pick(card):
                return len(CARDS) + self.card_ix[card]
        raise TypeError(f"not a Rattenkrieg chance action: {action!r}")

    def chance_string(self, token: int) -> str:
        kind, card = divmod(token, len(CARDS))
        return f"{('draw', 'pick')[kind]} {CARDS[card]}"

    def token_string(self, token: int) -> str:
        return self._name(*self.ids.find(token))

    def _name(self, kind: str, k: int) -> str:
        A, U, C = len(self.areas), len(self.units), len(CARDS)

        def opt(i: int, word: str) -> str:
            return "" if i == 0 else f" {word} {self.units[i - 1]}"

        match kind:
            case "place" | "retreat":
                return f"{kind} {self.units[k // A]} to {self.areas[k % A]}"
            case "designate" | "recruit" | "defend" | "sacrifice" | "isolate":
                return f"{kind} {self.units[k]}"
            case "move":
                return f"move to {self.areas[k // (1 + U)]}{opt(k % (1 + U), 'with')}"
            case "pay" | "discard":
                return f"{kind} {CARDS[k]}"
            case "event":
                return f"event {CARDS[k // (1 + U)]}{opt(k % (1 + U), 'on')}"
            case "play":
                return f"play {CARDS[k // 2]}{' with support' if k % 2 else ''}"
            case "lose_step":
                unit, card = divmod(k, C + 1)
                return f"lose step {self.units[unit]} " + (
                    "at random" if card == C else CARDS[card]
                )
            case "commit_refill":
                return "discard: commit, refill"
            case "commit_no_refill":
                return "discard: commit, no refill"
            case "commit_draw":
                return f"discard: commit, draw {k + 1}"
        return kind

    # --- the legal sequences -------------------------------------------------------------------
    def legal_tree(self, game: Any, state: Any) -> LegalTree:
        """The discard's subsets walked lazily (`DiscardTree`); elsewhere the table of the
        legal actions, each one id."""
        legal = game.legal_actions(state)
        return self.lazy_tree(legal) or table_tree(self, legal)

    def lazy_tree(self, legal: Sequence[Any]) -> DiscardTree | None:
        """The Recruiting Phase discard's own walk (its subsets are too many to list), or None
        for any other list of legal actions."""
        return DiscardTree(self, legal) if isinstance(legal, DiscardChoices) else None

    # the observation tensor is `ObservationTensor`'s (`specs.rattenkrieg.io.tensor`)


class DiscardTree:
    """The legal Recruiting Phase discards (RKS-10.1.1, RKS-10.1.2) as a `LegalTree`: a
    discard's ids are its cards in ascending order, then its commit. The walk reads only the
    kernel's `DiscardChoices` blocks (how many cards may be discarded, and with how many
    refill choices each), so it costs time polynomial in the hand, never 2^len(hand)."""

    def __init__(self, codec: RattenkriegCodec, choices: DiscardChoices) -> None:
        self.codec = codec
        self.choices = choices
        self.hand_ids = [codec.base["discard"] + codec.card_ix[x] for x in choices.hand]
        if self.hand_ids != sorted(self.hand_ids):
            raise AssertionError("the hand is not in the cards' reading order")
        self.refills = {k: refills for k, refills, _ in choices.blocks}

    def _cards(self, prefix: tuple[int, ...]) -> int | None:
        """The hand position after the last card of `prefix` (a strictly ascending run of hand
        cards), or None when `prefix` is not such a run."""
        at = 0
        for token in prefix:
            try:
                at = self.hand_ids.index(token, at) + 1
            except ValueError:
                return None
        return at

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        at = self._cards(prefix)
        if at is None:
            return []
        j, n = len(prefix), len(self.hand_ids)
        # a card at hand position p leaves n - p - 1 cards after it: some legal size k must fit
        out = [
            self.hand_ids[p]
            for p in range(at, n)
            if any(j + 1 <= k <= j + 1 + (n - p - 1) for k in self.refills)
        ]
        return out + [self.codec.choice_commit(ch) for ch in range(self.refills.get(j, 0))]

    def action_at(self, prefix: tuple[int, ...]) -> Discard | None:
        if (
            not prefix
            or not self.codec.commit_first <= prefix[-1] < self.codec.num_distinct_actions
        ):
            return None
        if self._cards(prefix[:-1]) is None:
            return None
        cards = [CARDS[t - self.codec.base["discard"]] for t in prefix[:-1]]
        action = self.codec.discard_of(cards, prefix[-1])
        return action if action in self.choices else None


def specs(game: Any) -> list[Spec]:
    """One game per preset of `game` (the assembled game; the codec reads its rules)."""
    return preset_specs(game, RattenkriegCodec(game.rules), lambda variant: MAX_GAME_LENGTH)
