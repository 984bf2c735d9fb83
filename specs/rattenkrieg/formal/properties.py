"""Rattenkrieg's properties: what the rules must keep true in every position and step, for
tests, playouts, the prover (kernel.properties) and the position check.

Each invariant is written once, as a function that finds where a position breaks it (the JSON
field, the clause and what is wrong, a `Breach`) or returns None. Its `Property.state_check`
is that function's "no breach"; `validate.check_position` runs the same functions on every
position it reads and names the field, the clause and the property ID of the first breach.
Each invariant finder may assume that the invariants before it in `invariants(b)` hold.

Expected verdicts are per preset. Every invariant here is stated so that it holds under every
reading (where it depends on one, its statement says which), so each is expected to hold under
every preset, and the random-variant playouts check them under random readings. Play can go on
without end (RKS-7.2.1: a unit "may move endlessly" between friendly-controlled Areas), so
`RKS-P-ENDS` is expected to fail; the witness is a lasso found by `kernel.playout`.
`RKS-P-LOOP` shows why everything else ends: no step of the Player Turn loop adds face-up units
or hand cards, and every activation or recruit flips a unit, so the number of Player Turns that
are not passes is bounded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from kernel.properties import Property, Verdict
from specs.rattenkrieg.data.variants import PRESETS
from specs.rattenkrieg.io.wire import MAX_HAND
from specs.rattenkrieg.rules import activation, combat, damage, sequence
from specs.rattenkrieg.rules.actions import Designate, Move, Recruit
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.control import defined_control
from specs.rattenkrieg.rules.sources import combat_cards, payment_cards
from specs.rattenkrieg.rules.state import (
    GE,
    HAND,
    PLAYER_TURN_STAGES,
    SU,
    Combat,
    Phase,
    Placed,
    RKState,
    Stage,
    Step,
    other,
)


@attrs.frozen
class Breach:
    """Where a position breaks an invariant: the JSON field, the clause, and what is wrong."""

    field: str
    clause: str
    message: str


@attrs.frozen
class Invariant:
    """An invariant property and the function that finds its breach in a position."""

    prop: Property
    find: Callable[[RKState], Breach | None]


def card_places(s: RKState) -> Counter[str]:
    """How many places hold each card: deck, discards, out of play, hands, steps, the table."""
    places: Counter[str] = Counter()
    for pile in (s.deck, s.discards, s.removed, s.hand_ge, s.hand_su):
        places.update(pile)
    for u in s.units:
        places.update(u.steps)
    if s.combat is not None:
        c = s.combat
        places.update(p.card for p in (c.attack, c.defence, *c.spent) if p is not None)
    return places


def cards_accounted(s: RKState) -> bool:
    """Each of the 52 cards is in exactly one place (RKS-2.4.1, RKS-3.4.2)."""
    places = card_places(s)
    return set(places) == DECK and all(n == 1 for n in places.values())


def actors(action: Any) -> frozenset[str]:
    """The units an action makes act (RKS-P-FLIPPED): the unit designated (RKS-7.1.1) or
    recruiting (RKS-7.5.1), the T-34 moving along (RKS-8.12.4)."""
    if isinstance(action, Designate | Recruit):
        return frozenset({action.unit})
    if isinstance(action, Move) and action.escort is not None:
        return frozenset({action.escort})
    return frozenset()


def loop_measure(s: RKState) -> int:
    """Face-up units on the map, plus hand cards, plus hand cards on the combat table (which
    may go back to the hand, AMB-RKS-7 ii)."""
    face_up = sum(1 for u in s.units if u.area is not None and not u.flipped)
    table = 0
    if s.combat is not None:
        c = s.combat
        table = sum(
            1 for p in (c.attack, c.defence, *c.spent) if p is not None and p.origin == HAND
        )
    return face_up + len(s.hand_ge) + len(s.hand_su) + table


# Which stages each phase has (RKS-5.1.1), and which records each stage has.
PHASE_STAGES: dict[Phase, frozenset[Stage]] = {
    Phase.SETUP: frozenset({Stage.PLACE, Stage.DRAW}),
    Phase.REINFORCEMENT: frozenset({Stage.DRAW}),
    Phase.PLAYER_TURNS: frozenset(PLAYER_TURN_STAGES),
    Phase.RECRUITING: frozenset({Stage.DISCARD, Stage.DRAW}),
    Phase.OVER: frozenset({Stage.OVER}),
}
FIGHTING = frozenset({Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION})
ACTING = frozenset(
    {Stage.ACTIVE, Stage.PAY, Stage.COMBAT, Stage.DAMAGE, Stage.ISOLATION, Stage.CONTINUE}
)
EVENTS_OF = {GE: ("assault_gun", "engineer"), SU: ("molotov", "chuikov")}  # RKS-9.1.1, 9.1.2
NEXT_COMBAT = ("engineer", "molotov", "chuikov")  # RKS-9.5.1, RKS-9.7.1, RKS-9.8.1


def _phase_breach(s: RKState) -> Breach | None:
    """Where the phase itself is out of sequence (RKS-5.1.1, RKS-3.1.1, RKS-4.1.1): a stage
    the phase does not have, set-up outside Turn 1 or not the Soviet's, a Reinforcement Phase
    in Turn 1, the end before Turn 6."""
    stage, phase = s.stage, s.phase
    if stage not in PHASE_STAGES[phase]:
        return Breach("stage", "RKS-5.1.1", f"the {phase.value} phase has no {stage.value}")
    if phase == Phase.SETUP and (s.turn != 1 or s.player != SU):
        return Breach("player", "RKS-3.1.1", "set-up is Turn 1, the Soviet placing first")
    if phase == Phase.REINFORCEMENT and s.turn < 2:
        return Breach("turn", "RKS-5.1.1", "Reinforcement Phases begin in Turn 2")
    if phase == Phase.OVER and s.turn != sequence.LAST_TURN:
        return Breach("turn", "RKS-4.1.1", "the game ends at the end of Turn 6")
    return None


def _table(c: Combat) -> list[Placed]:
    return [p for p in (c.attack, c.defence, *c.spent) if p is not None]


def _table_clear(c: Combat) -> bool:
    return c.attack is None and c.defence is None and not c.spent and c.raiser is None


def invariants(b: Board) -> tuple[Invariant, ...]:
    """The invariants, bound to one map and counter set, in the order the position check
    runs them."""
    holds: dict[str, Verdict] = dict.fromkeys(PRESETS, "holds")

    def unit_at(uid: str) -> int:
        return b.unit_index[uid]

    def where(s: RKState, uid: str) -> str | None:
        return b.unit(s, uid).area

    # --- the cards -----------------------------------------------------------------------------

    def cards(s: RKState) -> Breach | None:
        places: list[tuple[str, Iterable[str]]] = [
            ("deck", s.deck),
            ("discards", s.discards),
            ("removed", s.removed),
            ("hands.GE", s.hand_ge),
            ("hands.SU", s.hand_su),
            *((f"units[{i}].steps", u.steps) for i, u in enumerate(s.units)),
        ]
        if s.combat is not None:
            places.append(("combat", [p.card for p in _table(s.combat)]))
        seen: dict[str, str] = {}
        for field, pile in places:
            for card in pile:
                if card not in DECK:
                    return Breach(field, "RKS-2.4.1", f"{card!r} is not one of the 52 cards")
                if card in seen:
                    return Breach(field, "RKS-2.4.1", f"{card} is both in {seen[card]} and here")
                seen[card] = field
        if len(seen) != len(DECK):
            lost = sort_cards(DECK - set(seen))
            return Breach("deck", "RKS-2.4.1", f"cards are missing: {lost}")
        return None

    def steps(s: RKState) -> Breach | None:
        for i, u in enumerate(s.units):
            most = b.specs[u.id].steps
            if len(u.steps) > most:
                clause = "RKS-8.12.1" if b.is_tank(u.id) else "RKS-7.5.3"
                return Breach(
                    f"units[{i}].steps",
                    clause,
                    f"{u.id} has {len(u.steps)} steps, more than its original {most}",
                )
        return None

    def hands(s: RKState) -> Breach | None:
        first_turn = s.turn == 1 and s.phase in (Phase.SETUP, Phase.PLAYER_TURNS)
        for side in (GE, SU):
            n = len(s.hand(side))
            if n > MAX_HAND:
                return Breach(
                    f"hands.{side}",
                    "RKS-10.2.1",
                    f"{n} cards: no hand holds more than {MAX_HAND} (RKS-3.4.1, RKS-10.1.2)",
                )
            if first_turn and n > sequence.START_HAND[side]:
                return Breach(
                    f"hands.{side}",
                    "RKS-3.4.1",
                    f"{n} cards before the first Recruiting Phase: {side} was dealt "
                    f"{sequence.START_HAND[side]} and hands do not grow in Player Turns",
                )
        return None

    def faces(s: RKState) -> Breach | None:
        out_of_play = s.discards | s.removed
        if not s.face_up <= out_of_play:
            return Breach(
                "face_up",
                "RKS-3.4.3",
                f"{sort_cards(s.face_up - out_of_play)} lie face up but are not discarded",
            )
        reading = s.variant.reading("discard_faces")
        if reading == "face_up" and s.face_up != out_of_play:
            return Breach("face_up", "RKS-3.4.3", "every discard lies face up (discard_faces)")
        if reading == "face_down" and s.face_up:
            return Breach("face_up", "RKS-3.3.3", "every discard lies face down (discard_faces)")
        on_units = frozenset(c for u in s.units for c in u.steps)
        if not s.exposed <= on_units:
            return Breach("exposed", "RKS-3.3.3", "only step cards can be exposed")
        if s.exposed and not s.variant.is_("played_step", "returned"):
            return Breach(
                "exposed",
                "RKS-3.3.3",
                "step cards are seen by both sides only when a judged step goes back "
                "(played_step=returned, AMB-RKS-7 i)",
            )
        if s.removed and not s.variant.is_("used_steps", "removed"):
            return Breach(
                "removed",
                "RKS-3.4.3",
                "cards leave the game only by used_steps=removed (AMB-RKS-7 iv)",
            )
        return None

    # --- the map -------------------------------------------------------------------------------

    def rears_respected(s: RKState) -> Breach | None:
        for i, u in enumerate(s.units):
            if u.area is not None and u.area == b.enemy_rear(b.side_of[u.id]):
                return Breach(f"units[{i}].area", "RKS-3.5.1", f"{u.id} is in the enemy Rear")
        return None

    def units_accounted(s: RKState) -> Breach | None:
        gone: dict[str, int] = {}
        for i, (uid, turn) in enumerate(s.eliminated):
            spec = b.specs[uid]
            if uid in gone:
                return Breach(f"eliminated[{i}]", "RKS-8.9.2", f"{uid} is eliminated twice")
            if turn > s.turn:
                return Breach(
                    f"eliminated[{i}]",
                    "RKS-4.1.2",
                    f"{uid} eliminated in Turn {turn}, a future one",
                )
            if turn < (spec.arrives or 1):
                return Breach(
                    f"eliminated[{i}]",
                    "RKS-6.1.1" if spec.side == GE else "RKS-6.2.1",
                    f"{uid} eliminated in Turn {turn}, before it arrived in Turn {spec.arrives}",
                )
            if b.unit(s, uid).area is not None:
                return Breach(
                    f"units[{unit_at(uid)}].area", "RKS-8.9.2", f"eliminated {uid} is on the map"
                )
            gone[uid] = turn
        placing = s.stage == Stage.PLACE
        for i, u in enumerate(s.units):
            spec = b.specs[u.id]
            due = spec.arrives is None or spec.arrives <= s.turn
            arrival = "RKS-6.1.1" if spec.side == GE else "RKS-6.2.1"
            if u.area is None:
                if u.steps or u.flipped or u.isolated:
                    return Breach(
                        f"units[{i}]", "RKS-3.3.2", f"{u.id} is off the map with steps or markers"
                    )
                if u.id in gone or (spec.type == "rifle" and placing):
                    continue
                if spec.arrives is not None and not due:
                    continue
                if spec.type == "rifle":
                    clause = "RKS-3.1.1"
                elif spec.arrives is not None:
                    clause = arrival
                else:
                    clause = "RKS-3.2.1" if spec.side == GE else "RKS-3.1.2"
                return Breach(
                    f"units[{i}].area",
                    clause,
                    f"{u.id} is neither on the map nor eliminated, and is not still to come",
                )
            if not due:
                return Breach(f"units[{i}].area", arrival, f"{u.id} arrives in Turn {spec.arrives}")
        return None

    def control_defined(s: RKState) -> Breach | None:
        uncontrolled = s.variant.is_("contested_control", "uncontrolled")
        defined = defined_control(b, s)
        for i, area in enumerate(b.stalingrad):
            if s.control[i] is None and not uncontrolled:
                return Breach(
                    f"control.{area}",
                    "RKS-3.6.1",
                    "every Area starts Soviet and keeps a controller (AMB-RKS-11 a)",
                )
            if defined[i] != s.control[i]:
                return Breach(
                    f"control.{area}",
                    "RKS-3.6.2",
                    f"{area} must be controlled by the side whose units alone are there",
                )
        for i, u in enumerate(s.units):
            if not u.isolated or u.area is None:
                continue
            if b.is_rear(u.area) or s.control[b.index[u.area]] == b.side_of[u.id]:
                return Breach(
                    f"units[{i}].isolated",
                    "RKS-8.10.6",
                    f"{u.id} is isolated in an Area its side controls",
                )
        return None

    # --- the sequence of play ------------------------------------------------------------------

    def sequenced(s: RKState) -> Breach | None:
        stage, phase = s.stage, s.phase
        if (breach := _phase_breach(s)) is not None:
            return breach
        if (
            phase in (Phase.REINFORCEMENT, Phase.OVER)
            and s.player != sequence.recruiting_order(s)[1]
        ):
            return Breach(
                "player",
                "RKS-10.1.1",
                "the player last to refill in the Recruiting Phase is still the player",
            )
        if phase != Phase.PLAYER_TURNS and s.passes:
            return Breach("passes", "RKS-5.1.2", "passes are counted only in the Player Turns")
        records: list[tuple[str, bool, bool, str]] = [
            # (field, present, allowed here, clause)
            (
                "combat",
                s.combat is not None,
                stage in FIGHTING
                or (
                    stage in (Stage.DAMAGE, Stage.PICK)
                    and s.damage is not None
                    and s.damage.cause == "combat"
                ),
                "RKS-8.2.2" if s.acting is None else "RKS-8.3.1",
            ),
            (
                "damage",
                s.damage is not None,
                stage == Stage.DAMAGE
                or (stage == Stage.PICK and s.pick is not None and s.pick.kind == "step"),
                "RKS-8.9.1",
            ),
            ("pending", s.pending is not None, stage == Stage.PAY, "RKS-7.3.1"),
            ("draws", bool(s.draws), stage == Stage.DRAW, "RKS-3.4.3"),
            ("pick", s.pick is not None, stage == Stage.PICK, "RKS-9.6.1"),
            ("result", s.result is not None, stage == Stage.OVER, "RKS-4.1.1"),
        ]
        needed = {
            "combat": stage in FIGHTING,
            "damage": stage == Stage.DAMAGE,
            "pending": stage == Stage.PAY,
            "draws": stage == Stage.DRAW,
            "pick": stage == Stage.PICK,
            "result": stage == Stage.OVER,
        }
        for field, present, allowed, clause in records:
            if present and not allowed:
                return Breach(field, clause, f"stage {stage.value} has no {field}")
            if needed[field] and not present:
                return Breach(field, clause, f"stage {stage.value} needs {field}")
        if s.damage is not None and (s.damage.cause == "combat") != (s.combat is not None):
            return Breach("damage.cause", "RKS-8.9.1", "combat damage comes with its combat")
        return _acting(s) or _flips(s)

    def stages(s: RKState) -> Breach | None:
        """The part of `sequenced` proved over the abstraction (RKS-P-STAGES): each phase has
        its stages, set-up is Turn 1 with the Soviet player, Reinforcement Phases come from
        Turn 2, the game ends in Turn 6, and a result, a move waiting for its card and queued
        draws exist exactly in their stages. The rest of `sequenced` (the combat, damage and
        pick records, the acting unit, the flips, the passes, the player after the Recruiting
        Phase) is proved with it, from step rules of its own (RKS-P-SEQUENCE)."""
        stage, phase = s.stage, s.phase
        if (breach := _phase_breach(s)) is not None:
            return breach
        for field, present, here, clause in (
            ("result", s.result is not None, Stage.OVER, "RKS-4.1.1"),
            ("pending", s.pending is not None, Stage.PAY, "RKS-7.3.1"),
            ("draws", bool(s.draws), Stage.DRAW, "RKS-3.4.3"),
        ):
            if present != (stage == here):
                return Breach(field, clause, f"{field} exactly in stage {here.value}")
        idle = phase != Phase.PLAYER_TURNS or stage in (Stage.PLAYER_TURN, Stage.PLACE)
        aimed = s.draws[0].kind in ("bombardment", "air_support") if s.draws else False
        if stage in ACTING or (stage == Stage.DRAW and not idle and aimed):
            if s.acting is None:
                return Breach("acting", "RKS-7.1.1", f"stage {stage.value} needs an acting unit")
        elif (idle or stage in (Stage.DISCARD, Stage.OVER, Stage.DRAW)) and s.acting is not None:
            return Breach("acting", "RKS-7.1.1", f"stage {stage.value} has no acting unit")
        if s.acting is not None and b.side_of[s.acting] != s.player:
            return Breach("acting", "RKS-7.1.1", "the acting unit belongs to the player")
        return None

    def _acting(s: RKState) -> Breach | None:
        stage = s.stage
        if stage in ACTING:
            need: bool | None = True
        elif stage == Stage.DRAW:
            kind = s.draws[0].kind if s.draws else ""
            need = s.phase == Phase.PLAYER_TURNS and kind in ("bombardment", "air_support")
        elif stage == Stage.PICK:
            need = True if s.pick is not None and s.pick.kind == "step" else None
        else:
            need = False
        if s.acting is None:
            if need:
                return Breach("acting", "RKS-7.1.1", f"stage {stage.value} needs an acting unit")
            if s.acted or s.effects:
                field = "acted" if s.acted else "effects"
                return Breach(field, "RKS-7.1.2", "only an acting unit operates")
        else:
            if need is False:
                return Breach("acting", "RKS-7.1.1", f"stage {stage.value} has no acting unit")
            u = b.unit(s, s.acting)
            if b.side_of[s.acting] != s.player:
                return Breach("acting", "RKS-7.1.1", "the acting unit belongs to the player")
            if u.area is None or u.flipped:
                return Breach(
                    "acting", "RKS-7.4.2", "the acting unit is on the map and not yet flipped"
                )
            in_combat = stage in (Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION, Stage.DAMAGE)
            if not s.acted and (in_combat or stage in (Stage.DRAW, Stage.PICK)):
                return Breach("acted", "RKS-7.1.2", "the acting unit has operated by now")
        if s.recruited:
            if s.phase != Phase.PLAYER_TURNS or not s.variant.is_("recruit_turn", "extra"):
                return Breach(
                    "recruited",
                    "RKS-7.5.1",
                    "a recruit leaves the Player Turn to the player only by AMB-RKS-18 b",
                )
            if stage == Stage.DRAW and s.acting is None:
                return Breach("recruited", "RKS-7.5.1", "one recruit per Player Turn")
        return None

    def _flips(s: RKState) -> Breach | None:
        if s.phase not in (Phase.SETUP, Phase.REINFORCEMENT, Phase.OVER):
            return None
        late = s.variant.is_("arrival_state", "flipped")
        for i, u in enumerate(s.units):
            spec = b.specs[u.id]
            if s.phase == Phase.SETUP and (u.flipped or u.isolated):
                return Breach(f"units[{i}]", "RKS-7.4.1", "no unit is flipped before it acts")
            arrived = spec.revives_in is not None or (
                s.phase == Phase.REINFORCEMENT and spec.arrives == s.turn
            )
            if u.flipped and not (late and arrived):
                return Breach(
                    f"units[{i}].flipped",
                    "RKS-10.3.1",
                    f"{u.id} is flipped, but the Recruiting Phase turned every unit face up",
                )
        return None

    def set_up(s: RKState) -> Breach | None:
        """Set-up as RKS-3.1.1 to RKS-3.4.2 lay it out: the units where they start, the Rifles
        placed one by one on the Normal Areas, the cards dealt in order."""
        if s.phase != Phase.SETUP:
            return None
        if s.eliminated or s.discards or s.removed or s.exposed or s.face_up:
            return Breach("discards", "RKS-3.4.2", "at set-up every card is dealt or in the deck")
        for i, area in enumerate(b.stalingrad):
            if s.control[i] != SU:
                return Breach(f"control.{area}", "RKS-3.6.1", "the Soviets control every Area")
        held: list[str] = []
        for i, u in enumerate(s.units):
            spec = b.specs[u.id]
            if spec.type == "rifle":
                if u.area is not None:
                    held.append(u.area)
            elif u.area != spec.setup:
                return Breach(f"units[{i}].area", "RKS-3.2.1", f"{u.id} starts in {spec.setup}")
        placed = sorted(held, key=lambda a: b.normal_areas.index(a) if a in b.normal_areas else -1)
        if placed != list(b.normal_areas[: len(held)]):
            return Breach("units", "RKS-3.1.1", "Rifles go one by one on the Normal Areas")
        if s.stage == Stage.PLACE:
            if sequence.rifle_to_place(b, s) is None:
                return Breach("stage", "RKS-3.1.1", "no Rifle is left to place")
            if any(u.steps for u in s.units) or s.hand_ge or s.hand_su:
                return Breach("units", "RKS-3.3.1", "steps and hands are dealt after placing")
            return None
        if sequence.rifle_to_place(b, s) is not None:
            return Breach("stage", "RKS-3.1.1", "the deal follows the placing of every Rifle")
        return _dealt(s, sequence.deal_queue(b, s), sequence.START_HAND)

    def _dealt(s: RKState, queue: list[Any], hands: dict[str, int]) -> Breach | None:
        """The queued draws are what remains of `queue`, and what was dealt is its start."""
        rest = list(s.draws)
        if rest != queue[len(queue) - len(rest) :]:
            return Breach("draws", "RKS-3.3.1", "the cards are dealt in order (RKS-3.3.1)")
        waiting = Counter((d.kind, d.who) for d in rest)
        full = Counter((d.kind, d.who) for d in queue)
        for i, u in enumerate(s.units):
            want = full[("steps", u.id)]
            if want and len(u.steps) + waiting[("steps", u.id)] != want:
                return Breach(f"units[{i}].steps", "RKS-3.3.1", f"{u.id} is dealt {want} steps")
        for side, n in hands.items():
            if len(s.hand(side)) + waiting[("hand", side)] != n:
                return Breach(f"hands.{side}", "RKS-3.4.1", f"{side} is dealt {n} cards")
        return None

    def draws_fit(s: RKState) -> Breach | None:
        """Each queued draw is one the rules make at this point (RKS-3.3.1, RKS-6.1.2,
        RKS-6.2.2, RKS-7.5.1, RKS-9.2.2, RKS-9.3.1, RKS-10.1.2)."""
        if s.stage != Stage.DRAW:
            return None
        if not s.deck:
            return Breach("deck", "RKS-3.4.3", "a draw from an empty deck")
        if s.phase == Phase.REINFORCEMENT:
            return _dealt(s, sequence.arrival_queue(b, s.turn), {})
        if s.phase == Phase.RECRUITING:
            target = sequence.refill_target(b, s, s.player)
            if any(d.kind != "hand" or d.who != s.player for d in s.draws):
                return Breach("draws", "RKS-10.1.2", "the player refills his own hand")
            filled = len(s.hand(s.player)) + len(s.draws)
            # RKS-10.1.2 (option refill_amount=partial: fewer cards than the target)
            if filled != target and not (
                filled < target and s.variant.is_("refill_amount", "partial")
            ):
                return Breach("draws", "RKS-10.1.2", f"the hand is filled up to {target}")
            return None
        if s.phase != Phase.PLAYER_TURNS:
            return None
        if len(s.draws) != 1:
            return Breach("draws", "RKS-3.4.3", "in the Player Turns one card is drawn at a time")
        d = s.draws[0]
        if d.kind == "hand":
            return Breach("draws", "RKS-10.1.2", "hands are filled only in the Recruiting Phase")
        if b.side_of.get(d.who) is None:
            return Breach("draws[0].who", "RKS-3.4.3", f"{d.who} is not a unit")
        u = b.unit(s, d.who)
        if d.kind == "steps":
            spec = b.specs[d.who]
            if (
                b.side_of[d.who] != s.player
                or u.area != b.rear[s.player]
                or not u.flipped
                or len(u.steps) >= spec.steps
            ):
                return Breach(
                    "draws[0].who",
                    "RKS-7.5.1",
                    "a recruit is a flipped unit of the player in his Rear, below its steps",
                )
            return None
        return _target(s, d.kind, d.who, "draws[0].who")

    def _target(s: RKState, kind: str, target: str, field: str) -> Breach | None:
        """A bombardment's or Air Force Support's target, where the event found it (RKS-9.2.1,
        RKS-9.2.4, RKS-9.2.5, RKS-9.3.1)."""
        clause = "RKS-9.2.1" if kind == "bombardment" else "RKS-9.3.1"
        if s.acting is None:
            return Breach("acting", clause, "a bombardment is the acting unit's event")
        here = where(s, s.acting)
        t = b.unit(s, target)
        if kind == "air_support" and s.player != GE:
            return Breach(field, "RKS-9.3.1", "Air Force Support is a German event")
        if b.side_of[target] == s.player or t.area is None or here is None:
            return Breach(field, clause, f"{target} is not an enemy unit on the map")
        if t.area != here and t.area not in b.adjacent[here]:
            return Breach(field, clause, f"{target} is neither in the acting unit's Area nor next")
        if t.area == b.enemy_rear(s.player):
            return Breach(field, "RKS-9.2.4", "units in the enemy Rear are not bombarded")
        if kind == "bombardment" and s.player == GE and b.is_tank(target):
            return Breach(field, "RKS-9.2.5", "the Germans do not bombard the T-34")
        return None

    # --- the acting unit's operations ----------------------------------------------------------

    def pending_fits(s: RKState) -> Breach | None:
        """A move waiting for its card: into an adjacent empty enemy Area (RKS-7.3.1), with a
        face-up T-34 of the same Area moving along (RKS-8.12.4), and a card to pay with."""
        p = s.pending
        if p is None:
            return None
        assert s.acting is not None
        mover = b.unit(s, s.acting)
        assert mover.area is not None
        if mover.isolated:
            return Breach("pending", "RKS-8.10.3", "an isolated unit does not move")
        if p.to not in b.adjacent[mover.area] or p.to == b.enemy_rear(s.player):
            return Breach("pending.to", "RKS-7.2.1", f"{p.to} is not an Area the unit may enter")
        if activation.entry(b, s, s.player, p.to) != "pay":
            return Breach("pending.to", "RKS-7.3.1", f"entering {p.to} costs no card")
        if p.escort is not None:
            e = b.unit(s, p.escort)
            if (
                s.player != SU
                or not b.is_tank(p.escort)
                or p.escort == s.acting
                or e.area != mover.area
                or e.flipped
                or e.isolated
            ):
                return Breach(
                    "pending.escort",
                    "RKS-8.12.4",
                    f"{p.escort} is not a face-up T-34 moving along from the same Area",
                )
        if p.payments > activation.payments_for(s, p.escort):
            return Breach("pending.payments", "RKS-7.3.1", "one card pays for the move")
        if not any(activation.pay_problem(b, s, c) is None for c, _ in payment_cards(b, s)):
            return Breach("pending", "RKS-7.3.1", "there is no card to pay with")
        return None

    def effects_fit(s: RKState) -> Breach | None:
        """Events in force are the acting side's (RKS-9.1.1, RKS-9.1.2), two cards of each at
        most (one by effect_stacking=once), Assault Gun never on a Panzer (RKS-9.4.1), and the
        "next combat" ones pass into that combat (RKS-9.5.1, RKS-9.7.1, RKS-9.8.1)."""
        c = s.combat
        mine = EVENTS_OF[s.player]
        for i, e in enumerate(s.effects):
            if e not in mine:
                return Breach(f"effects[{i}]", "RKS-9.1.1", f"{e} is not a {s.player} event")
        if "assault_gun" in s.effects and s.acting and b.specs[s.acting].type == "panzer":
            return Breach("effects", "RKS-9.4.1", "Assault Gun does nothing for a Panzer")
        fighting = c is not None and c.cause == "combat"
        # RKS-8.11.2 (option reattack_events=effects: played before the re-attack, they wait)
        waiting = s.stage == Stage.CONTINUE and s.variant.is_("reattack_events", "effects")
        if fighting and not waiting and any(e in NEXT_COMBAT for e in s.effects):
            return Breach("effects", "RKS-9.5.1", "a 'next combat' event passes into the combat")
        in_combat: tuple[str, ...] = ()
        if c is not None:
            in_combat = c.effects
            theirs = EVENTS_OF[b.side_of[c.attacker]]
            for i, e in enumerate(c.effects):
                if e not in theirs or e not in NEXT_COMBAT:
                    return Breach(
                        f"combat.effects[{i}]", "RKS-9.1.1", f"{e} is not the attacker's event"
                    )
            if c.refight and c.effects and s.variant.is_("effect_duration", "first_round"):
                return Breach("combat.effects", "RKS-8.7.4", "the event lasted one round only")
            if c.cause != "combat" and c.effects:
                return Breach("combat.effects", "RKS-9.2.2", "a bombardment is no combat")
        most = 1 if s.variant.is_("effect_stacking", "once") else 2
        counts = Counter((*s.effects, *in_combat))
        for e, n in counts.items():
            if n > most:
                return Breach("effects", "RKS-9.1.1", f"{n} cards of {e} (there are {most})")
        return None

    # --- combat --------------------------------------------------------------------------------

    def combat_fits(s: RKState) -> Breach | None:
        """A combat's record fits its stage and step: who fights where, the cards on the table
        and whose they are, the raises, the T-34's support (RKS-8.1.1 to RKS-8.7.5,
        RKS-8.10.4, RKS-8.12.2, RKS-8.12.3, RKS-9.8.1)."""
        c = s.combat
        if c is None:
            return None
        a_side = b.side_of[c.attacker]
        if c.area not in b.index:
            return Breach("combat.area", "RKS-3.5.1", "combats are fought in Stalingrad Areas")
        if s.acting != c.attacker:
            return Breach("combat.attacker", "RKS-8.2.2", "the attacker is the acting unit")
        if c.defender is not None and b.side_of[c.defender] == a_side:
            return Breach("combat.defender", "RKS-8.2.3", "the defender is an enemy unit")
        if c.support is not None and (b.side_of[c.support] != SU or not b.is_tank(c.support)):
            return Breach("combat.support", "RKS-8.12.3", "only a T-34 supports")
        for i, uid in enumerate(c.staying):
            if b.side_of[uid] == a_side or where(s, uid) != c.area or b.unit(s, uid).isolated:
                return Breach(
                    f"combat.staying[{i}]",
                    "RKS-8.10.1",
                    f"{uid} is not a remaining defender in the Area",
                )
        if c.isolation is not None and not s.variant.is_("isolation_choice", "all_together"):
            return Breach("combat.isolation", "RKS-8.10.1", "per_unit decides unit by unit")
        if c.cause != "combat":
            return _bombarded(s, c)
        attacker_here = where(s, c.attacker) == c.area
        defender_here = c.defender is not None and where(s, c.defender) == c.area
        if not attacker_here:
            return Breach("combat.area", "RKS-8.1.1", "the attacker is in the combat Area")
        deciding = (c.staying or c.isolation is not None) and s.stage != Stage.ISOLATION
        if deciding:
            return Breach("combat.staying", "RKS-8.10.1", "remaining units decide in isolation")
        if s.stage == Stage.COMBAT:
            return _round(s, c, defender_here)
        if c.defender is None:
            return Breach("combat.defender", "RKS-8.2.3", "a decided combat has a defender")
        if not _table_clear(c):
            return Breach("combat.attack", "RKS-8.6.1", "after the result the cards are lost")
        if s.stage == Stage.CONTINUE:
            if c.loser is not None:
                return Breach("combat.loser", "RKS-8.11.2", "the next combat has no loser yet")
            return None
        if c.loser is None:
            return Breach("combat.loser", "RKS-8.9.1", "the combat has a loser by now")
        if s.stage == Stage.ISOLATION:
            if c.loser == a_side or defender_here:
                return Breach(
                    "combat.defender",
                    "RKS-8.10.1",
                    "the defending unit lost and left the Area before the others decide",
                )
            return None
        # DAMAGE, or the random pick of the step lost (AMB-RKS-7 iii)
        assert s.damage is not None
        if not defender_here:
            return Breach("combat.defender", "RKS-8.1.1", "the defender is in the combat Area")
        loser = combat.fighter(b, c, c.loser)
        if s.damage.unit != loser:
            return Breach("damage.unit", "RKS-8.9.1", f"the losing unit {loser} takes damage")
        return None

    def combatants(s: RKState) -> Breach | None:
        """The part of `combat_fits` proved first over the abstraction (RKS-P-COMBATANTS): a
        combat is fought in a Stalingrad Area, its attacker is the acting unit, its defender an
        enemy unit, its support a Soviet T-34 (RKS-3.5.1, RKS-8.2.2, RKS-8.2.3, RKS-8.12.3). The
        rest of `combat_fits` (the units present, the remaining units, the step, the cards on the
        table, their origins and openness, the raises, the bombarded record) is proved with it as
        RKS-P-COMBAT under raising=one_each (both presets), and tested on playouts otherwise."""
        c = s.combat
        if c is None:
            return None
        if c.area not in b.index:
            return Breach("combat.area", "RKS-3.5.1", "combats are fought in Stalingrad Areas")
        if s.acting != c.attacker:
            return Breach("combat.attacker", "RKS-8.2.2", "the attacker is the acting unit")
        if c.defender is not None and b.side_of[c.defender] == b.side_of[c.attacker]:
            return Breach("combat.defender", "RKS-8.2.3", "the defender is an enemy unit")
        if c.support is not None and (b.side_of[c.support] != SU or not b.is_tank(c.support)):
            return Breach("combat.support", "RKS-8.12.3", "only a T-34 supports")
        return None

    def _bombarded(s: RKState, c: Combat) -> Breach | None:
        """The remaining units of a bombarded unit's side (AMB-RKS-16, bombard_isolation=yes)."""
        ok = (
            s.stage == Stage.ISOLATION
            and s.variant.is_("bombard_isolation", "yes")
            and c.step == Step.CHOOSE
            and c.defender is not None
            and where(s, c.defender) != c.area
            and _table_clear(c)
            and c.loser is None
            and c.raises == 0
            and c.support is None
            and not c.refight
            and (c.cause == "bombardment" or a_side_of(c) == GE)
            and any(not u.isolated for u in b.units_in(s, c.area, other(b.side_of[c.defender])))
        )
        if not ok:
            return Breach(
                "combat.cause",
                "RKS-9.2.2",
                "after a bombardment only its target's remaining units decide (AMB-RKS-16)",
            )
        return None

    def a_side_of(c: Combat) -> str:
        return b.side_of[c.attacker]

    def _round(s: RKState, c: Combat, defender_here: bool) -> Breach | None:
        """A round of declarations and raises (RKS-8.3.1)."""
        a_side = b.side_of[c.attacker]
        if c.loser is not None:
            return Breach("combat.loser", "RKS-8.7.1", "the cards are not judged yet")
        if c.step == Step.CHOOSE:
            if c.defender is not None or _table(c) or c.raiser or c.raises or c.support:
                return Breach("combat", "RKS-8.2.3", "the defender has not chosen his unit yet")
            if len(combat.defenders(b, s, c.area, c.attacker)) < 2:
                return Breach("combat.step", "RKS-8.2.3", "the defender chooses among several")
            return None
        if not defender_here:
            return Breach("combat.defender", "RKS-8.1.1", "the defender is in the combat Area")
        chuikov = "chuikov" in c.effects
        want = {
            Step.ATTACK: (False, chuikov),
            Step.DEFENCE: (not chuikov, False),
            Step.RAISE: (True, True),
        }[c.step]
        if (c.attack is not None, c.defence is not None) != want:
            return Breach("combat", "RKS-8.3.1", f"combat step {c.step.value} has other cards")
        if (c.raiser is not None) != (c.step == Step.RAISE):
            return Breach("combat.raiser", "RKS-8.6.1", "a raiser only while raising")
        if c.raises != len(c.spent) or (c.step != Step.RAISE and c.raises):
            return Breach("combat.raises", "RKS-8.6.1", "each raise replaced one card")
        if c.step == Step.ATTACK and not combat_cards(b, s, c.attacker):
            return Breach("combat.step", "RKS-8.4.1", "the attacker has a card to declare with")
        first = a_side
        if chuikov and s.variant.is_("chuikov_raises", "german_first"):
            first = GE
        if c.step == Step.RAISE:
            if s.variant.is_("raising", "one_each") and c.raises > 1:
                return Breach("combat.raises", "RKS-8.6.2", "one raise each (AMB-RKS-6)")
            if c.raiser != (first if c.raises % 2 == 0 else other(first)):
                return Breach("combat.raiser", "RKS-8.6.2", "the raisers take turns")
        for i, p in enumerate(c.spent):
            if p.side != (first if i % 2 == 0 else other(first)):
                return Breach(f"combat.spent[{i}]", "RKS-8.6.2", "raises alternate")
        return _cards_on_table(s, c, chuikov)

    def _cards_on_table(s: RKState, c: Combat, chuikov: bool) -> Breach | None:
        a_side = b.side_of[c.attacker]
        assert c.defender is not None
        fighter = {a_side: c.attacker, other(a_side): c.defender}
        german_first = s.variant.is_("chuikov_raises", "german_first")
        labelled = [
            *((f"combat.spent[{i}]", p) for i, p in enumerate(c.spent)),
            ("combat.attack", c.attack),
            ("combat.defence", c.defence),
        ]
        ge_cards = 0
        su_card = False
        for field, p in labelled:
            if p is None:
                continue
            unit = fighter[p.side]
            current = p is c.attack or p is c.defence
            if current and p.side != (a_side if p is c.attack else other(a_side)):
                return Breach(f"{field}.side", "RKS-8.4.1", "the card is the other side's")
            if p.origin not in (HAND, unit):
                return Breach(f"{field}.origin", "RKS-8.4.1", f"from the hand or {unit}'s steps")
            if p.origin == unit and b.specs[unit].steps == 0:
                return Breach(f"{field}.origin", "RKS-8.12.2", f"{unit} has no step cards")
            if p.origin == HAND and b.unit(s, unit).isolated:
                return Breach(f"{field}.origin", "RKS-8.10.4", f"isolated {unit} uses its steps")
            if p.side == GE:
                ge_cards += 1
                should = chuikov and (ge_cards == 1 or german_first)
            else:
                su_card = True
                should = False
            if p.open != should:
                return Breach(f"{field}.open", "RKS-9.8.1", "only General Chuikov opens cards")
        if c.support is not None:
            defending = a_side != SU
            ok = (
                su_card
                and where(s, c.support) == c.area
                and c.support != fighter[SU]
                and not (not defending and s.variant.is_("t34_support", "defence_only"))
            )
            if not ok:
                return Breach(
                    "combat.support", "RKS-8.12.3", "a T-34 of the Area adds to the Soviet card"
                )
        return None

    # --- after the result ----------------------------------------------------------------------

    def aftermath(s: RKState) -> Breach | None:
        """Damage, the remaining units and the continuation wait for a decision the rules ask
        for (RKS-8.9.1, RKS-8.9.2, RKS-8.10.1, RKS-8.10.2, RKS-8.11.2, RKS-9.2.2, RKS-9.6.1)."""
        d = s.damage
        if d is not None:
            u = b.unit(s, d.unit)
            if u.area is None:
                return Breach("damage.unit", "RKS-8.9.1", "the damaged unit is not on the map")
            if d.cause != "combat":
                if b.is_tank(d.unit):
                    return Breach("damage.unit", "RKS-8.12.1", "a bombarded T-34 is eliminated")
                found = _target(s, d.cause, d.unit, "damage.unit")
                if found is not None:
                    return found
            if s.stage == Stage.DAMAGE and not damage.damage_choices(b, s):
                return Breach("damage", "RKS-8.9.2", f"{d.unit} has no choice: it is eliminated")
        p = s.pick
        if p is not None:
            if p.kind == "step":
                if d is None or p.who != d.unit or not s.variant.is_("lost_step", "random"):
                    return Breach("pick", "RKS-8.9.1", "a random step is picked from the damaged")
                if not b.unit(s, p.who).steps:
                    return Breach("pick", "RKS-8.9.1", f"{p.who} has no step to lose")
            else:
                if s.player != SU or p.who != GE or not s.hand_ge:
                    return Breach("pick", "RKS-9.6.1", "the Sniper picks from the German hand")
                if s.acting is None and not s.variant.is_("event_timing", "player_turn_too"):
                    return Breach("pick", "RKS-9.1.3", "the Sniper is the acting unit's event")
        c = s.combat
        if c is None:
            return None
        if s.stage == Stage.ISOLATION:
            left = damage.remaining(b, s)
            if not left or not damage.retreat_areas(b, s, left[0], "isolation"):
                return Breach(
                    "combat.staying",
                    "RKS-8.10.2",
                    "a unit with nowhere to retreat is isolated at once: nothing to decide",
                )
        if s.stage == Stage.CONTINUE:
            if not damage.enemies_remain(b, s):
                return Breach("combat", "RKS-8.11.2", "no enemy remains: the combat is over")
            retreats = damage.retreat_areas(b, s, c.attacker, "continuation")
            if not combat_cards(b, s, c.attacker) and not retreats:
                return Breach("combat", "RKS-8.11.2", "the attacker can neither fight nor go")
        return None

    def picks(s: RKState) -> Breach | None:
        """The part of `aftermath` proved over the abstraction (RKS-P-PICKS): the damaged unit
        is on the map; a bombarded one is no T-34 (it is eliminated) and fits as its event's
        target; a random step pick is the damaged unit's under lost_step=random and it has a
        step; the Sniper's pick is the Soviet's from a non-empty German hand, for the acting
        unit unless under event_timing=player_turn_too (RKS-8.9.1, RKS-8.12.1, RKS-9.2.1,
        RKS-9.6.1). The rest of `aftermath` (whether damage has a choice, the remaining units'
        retreats, the continuation) is proved with it as RKS-P-AFTERMATH."""
        d = s.damage
        if d is not None and b.unit(s, d.unit).area is None:
            return Breach("damage.unit", "RKS-8.9.1", "the damaged unit is not on the map")
        if d is not None and d.cause != "combat":
            if b.is_tank(d.unit):
                return Breach("damage.unit", "RKS-8.12.1", "a bombarded T-34 is eliminated")
            found = _target(s, d.cause, d.unit, "damage.unit")
            if found is not None:
                return found
        p = s.pick
        if p is None:
            return None
        if p.kind == "step":
            if d is None or p.who != d.unit or not s.variant.is_("lost_step", "random"):
                return Breach("pick", "RKS-8.9.1", "a random step is picked from the damaged")
            if not b.unit(s, p.who).steps:
                return Breach("pick", "RKS-8.9.1", f"{p.who} has no step to lose")
            return None
        if s.player != SU or p.who != GE or not s.hand_ge:
            return Breach("pick", "RKS-9.6.1", "the Sniper picks from the German hand")
        if s.acting is None and not s.variant.is_("event_timing", "player_turn_too"):
            return Breach("pick", "RKS-9.1.3", "the Sniper is the acting unit's event")
        return None

    def result_fits(s: RKState) -> Breach | None:
        """The result is the victory condition's at the end of Turn 6 (RKS-4.1.1)."""
        if s.result is None:
            return None
        due = sequence.victory(b, s).result
        if s.result != due:
            return Breach("result", "RKS-4.1.1", f"the result at this position is {due}")
        return None

    def inv(
        pid: str, clauses: tuple[str, ...], statement: str, find: Callable[[RKState], Any]
    ) -> Invariant:
        prop = Property(
            pid,
            clauses,
            statement,
            "invariant",
            holds,
            state_check=lambda s: find(s) is None,
        )
        return Invariant(prop, find)

    return (
        inv(
            "RKS-P-CARDS",
            ("RKS-2.4.1", "RKS-3.4.2", "RKS-3.4.3"),
            "the 52 cards are always all accounted for: each is in the deck, the discards, a "
            "hand, a unit's steps, on the combat table, or out of play",
            cards,
        ),
        inv(
            "RKS-P-STEPS",
            ("RKS-3.3.1", "RKS-7.5.3", "RKS-8.12.1"),
            "no unit ever has more steps than at set-up",
            steps,
        ),
        inv(
            "RKS-P-HAND",
            ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
            "no hand holds more than 4 cards, and before the first Recruiting Phase no more "
            "than was dealt: hands grow only by the deal and the refill",
            hands,
        ),
        inv(
            "RKS-P-FACES",
            ("RKS-3.3.3", "RKS-3.4.3", "RKS-8.7.1"),
            "the face-up cards are discarded or removed ones, all of them or none as "
            "`discard_faces` says; exposed step cards and removed cards exist only by the "
            "readings of AMB-RKS-7 that make them",
            faces,
        ),
        inv("RKS-P-REAR", ("RKS-3.5.1",), "no unit is ever in the enemy Rear", rears_respected),
        inv(
            "RKS-P-UNITS",
            ("RKS-3.1.1", "RKS-3.2.1", "RKS-6.1.1", "RKS-6.2.1", "RKS-8.9.2", "RKS-6.3.1"),
            "every unit is on the map, eliminated once in a turn played since it arrived, "
            "still to come as a reinforcement, or a Rifle still to be placed",
            units_accounted,
        ),
        inv(
            "RKS-P-CONTROL",
            ("RKS-3.6.1", "RKS-3.6.2", "RKS-3.6.3", "RKS-8.10.6"),
            "control follows the definition: an Area whose counted (non-isolated) units are of "
            "one side belongs to it, an Area has no controller only by AMB-RKS-11 b, and no "
            "unit is isolated where its own side controls",
            control_defined,
        ),
        inv(
            "RKS-P-SEQUENCE",
            ("RKS-5.1.1", "RKS-5.1.2", "RKS-7.1.1", "RKS-8.2.2", "RKS-10.3.1"),
            "each phase has its stages and each stage its records: a combat, damage, a pending "
            "move, queued draws, a random pick, an acting unit and a result appear only where "
            "the rules make them (proved whole; its part RKS-P-STAGES is proved first)",
            sequenced,
        ),
        inv(
            "RKS-P-STAGES",
            ("RKS-5.1.1", "RKS-3.1.1", "RKS-4.1.1", "RKS-7.3.1", "RKS-3.4.3"),
            "the part of RKS-P-SEQUENCE proved first over the abstraction: each phase has its "
            "stages, set-up is Turn 1 with the Soviet player, Reinforcement Phases come from "
            "Turn 2 and the game ends in Turn 6; a result, a move waiting for its card and "
            "queued draws exist exactly in their stages",
            stages,
        ),
        inv(
            "RKS-P-SETUP",
            ("RKS-3.1.1", "RKS-3.1.2", "RKS-3.2.1", "RKS-3.3.1", "RKS-3.4.1", "RKS-3.6.1"),
            "during set-up the units stand where they start, the Rifles go one by one on the "
            "Normal Areas, and the steps and hands are dealt in order",
            set_up,
        ),
        inv(
            "RKS-P-DRAWS",
            ("RKS-3.4.3", "RKS-6.1.2", "RKS-6.2.2", "RKS-7.5.1", "RKS-9.2.2", "RKS-10.1.2"),
            "every queued draw is one the rules make at that point: a reinforcement's steps, a "
            "refill up to the hand's target, a recruit's step, a bombardment's card",
            draws_fit,
        ),
        inv(
            "RKS-P-PAY",
            ("RKS-7.3.1", "RKS-8.12.4", "RKS-8.10.3"),
            "a move waiting for its card enters an adjacent empty enemy Area, and there is a "
            "card to pay with",
            pending_fits,
        ),
        inv(
            "RKS-P-EFFECTS",
            ("RKS-9.1.1", "RKS-9.1.2", "RKS-9.4.1", "RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1"),
            "the events in force are the acting side's, at most as many as there are cards",
            effects_fit,
        ),
        inv(
            "RKS-P-COMBAT",
            ("RKS-8.1.1", "RKS-8.2.2", "RKS-8.2.3", "RKS-8.3.1", "RKS-8.6.1", "RKS-8.12.3"),
            "a combat's record fits its stage and step: the acting unit attacks an enemy unit "
            "of its Area, the cards on the table are the fighters' own, raises alternate "
            "(proved over the abstraction with its part RKS-P-COMBATANTS under raising=one_each, "
            "both presets; tested on playouts under raising=alternating)",
            combat_fits,
        ),
        inv(
            "RKS-P-COMBATANTS",
            ("RKS-8.2.2", "RKS-8.2.3", "RKS-8.12.3", "RKS-3.5.1"),
            "the part of RKS-P-COMBAT proved first over the abstraction: a combat is fought in a "
            "Stalingrad Area, its attacker is the acting unit, its defender an enemy unit, its "
            "support a Soviet T-34",
            combatants,
        ),
        inv(
            "RKS-P-AFTERMATH",
            ("RKS-8.9.1", "RKS-8.9.2", "RKS-8.10.2", "RKS-8.11.2", "RKS-9.2.2", "RKS-9.6.1"),
            "damage, a random pick, the remaining units and the continuation each wait for a "
            "decision the rules ask for (proved over the abstraction with its part RKS-P-PICKS)",
            aftermath,
        ),
        inv(
            "RKS-P-PICKS",
            ("RKS-8.9.1", "RKS-8.12.1", "RKS-9.2.1", "RKS-9.6.1"),
            "the part of RKS-P-AFTERMATH proved over the abstraction: the damaged unit is on "
            "the map and, if bombarded, no T-34 and its event's target, a random step pick is "
            "the damaged unit's (lost_step=random) and it has a step, the Sniper picks for the "
            "Soviet from a non-empty German hand",
            picks,
        ),
        inv(
            "RKS-P-RESULT",
            ("RKS-4.1.1",),
            "a finished game's result is the victory condition's",
            result_fits,
        ),
    )


def properties(b: Board) -> tuple[Property, ...]:
    """The properties, bound to one map and counter set."""
    holds: dict[str, Verdict] = dict.fromkeys(PRESETS, "holds")
    fails: dict[str, Verdict] = dict.fromkeys(PRESETS, "fails")

    def flipped_idle(before: RKState, action: Any, after: RKState) -> bool:
        return not any(b.unit(before, u).flipped for u in actors(action))

    def loop_never_grows(before: RKState, action: Any, after: RKState) -> bool:
        if not (before.phase == after.phase == Phase.PLAYER_TURNS and before.turn == after.turn):
            return True
        return loop_measure(after) <= loop_measure(before)

    return (
        *(i.prop for i in invariants(b)),
        Property(
            "RKS-P-FLIPPED",
            ("RKS-7.4.2", "RKS-7.5.2", "RKS-8.12.4", "RKS-10.3.1", "RKS-9.8.2"),
            "a flipped unit takes no action (is not designated, does not recruit, does not "
            "move along) until it is turned face up in the Recruiting Phase or by Chuikov",
            "step",
            holds,
            step_check=flipped_idle,
        ),
        Property(
            "RKS-P-LOOP",
            ("RKS-5.1.2", "RKS-7.4.1", "RKS-7.5.1", "RKS-9.8.2"),
            "no step of the Player Turn loop raises face-up units plus hand cards, and each "
            "activation or recruit flips a unit: only boundedly many Player Turns are not passes",
            "step",
            holds,
            step_check=loop_never_grows,
        ),
        Property(
            "RKS-P-ENDS",
            ("RKS-5.1.2", "RKS-7.2.1"),
            "the Player Turn loop always ends: fails, because a unit may shuttle between two "
            "friendly-controlled Areas without end (RKS-7.2.1)",
            "ends",
            fails,
        ),
    )
