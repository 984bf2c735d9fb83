"""Rattenkrieg states read from versioned JSON (`state_from_json`): the strict wire decode, then
the ids and repetitions the schema cannot know, then the position check, as the codec's docstring
(`specs.rattenkrieg.io.codec`) says. Apart from the encoding so that each module keeps one job.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.errors import InvalidInput
from kernel.game import Outcome
from kernel.variants import Variant
from specs.rattenkrieg.formal.position import check_position
from specs.rattenkrieg.io.wire import (
    AirSupportDraw,
    BombardmentDraw,
    CombatRecord,
    DrawRecord,
    HandDraw,
    PendingRecord,
    PickRecord,
    PlacedRecord,
    SniperPick,
    StateRecord,
    StepsDraw,
    decode,
)
from specs.rattenkrieg.rules.cards import in_order
from specs.rattenkrieg.rules.state import (
    HAND,
    Combat,
    Damage,
    DrawFor,
    PendingMove,
    Phase,
    Pick,
    Placed,
    RKState,
    Stage,
    Step,
    Unit,
)

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.board import Board
    from specs.rattenkrieg.rules.play import RattenkriegRules


class _Ids:
    """The checks the schema cannot make: ids of this data file, and nothing listed twice."""

    def __init__(self, b: Board) -> None:
        self.b = b

    def unit(self, uid: str, where: str) -> str:
        if uid not in self.b.specs:
            raise InvalidInput(f"{where}: unknown unit {uid!r}", field=where)
        return uid

    def maybe_unit(self, uid: str | None, where: str) -> str | None:
        return None if uid is None else self.unit(uid, where)

    def area(self, aid: str, where: str) -> str:
        if aid not in self.b.areas:
            known = ", ".join(self.b.areas)
            raise InvalidInput(f"{where}: unknown area {aid!r} (areas: {known})", field=where)
        return aid

    def cards(self, cards: Sequence[str], where: str) -> frozenset[str]:
        """A pile: distinct cards (RKS-2.4.1) in the reading order (by suit S, C, D, H, then
        rank A to K), the one order it is written in."""
        out = frozenset(cards)
        if len(out) != len(cards):
            i = next(i for i, c in enumerate(cards) if c in cards[:i])
            raise InvalidInput(
                f"{where}[{i}]: card {cards[i]} is listed twice (RKS-2.4.1)",
                field=f"{where}[{i}]",
                clauses=("RKS-2.4.1",),
            )
        if not in_order(cards):
            i = next(i for i in range(1, len(cards)) if not in_order(cards[i - 1 : i + 1]))
            raise InvalidInput(
                f"{where}[{i}]: cards are listed by suit (S, C, D, H), then rank (A to K)",
                field=f"{where}[{i}]",
            )
        return out

    def units(self, ids: Sequence[str], where: str) -> tuple[str, ...]:
        for i, uid in enumerate(ids):
            self.unit(uid, f"{where}[{i}]")
            if uid in ids[:i]:
                raise InvalidInput(f"{where}[{i}]: {uid} is listed twice", field=f"{where}[{i}]")
        return tuple(ids)

    def placed(self, p: PlacedRecord | None, where: str) -> Placed | None:
        if p is None:
            return None
        if p.origin != HAND:
            self.unit(p.origin, f"{where}.origin")
        return Placed(p.side, p.card, p.origin, p.open)


def variant_from_record(
    game: RattenkriegRules, rec: VariantRecord, where: str = "variant"
) -> Variant:
    """A variant read exactly (`Catalogue.exact`): every option of the catalogue with one of
    its readings, and a preset named if and only if these are that preset's readings, so that
    the variant is written back as it was read."""
    return game.catalogue.exact(rec.preset, rec.options, where)


def state_from_json(game: RattenkriegRules, data: Any) -> RKState:
    """Decode strictly (InvalidInput naming the JSON path), then refuse what no play could
    reach (ImpossiblePosition naming the path and the clause)."""
    s = state_from_record(game, decode(data, StateRecord))
    check_position(game, s)
    return s


def state_from_record(game: RattenkriegRules, rec: StateRecord) -> RKState:
    """The attrs state of a decoded record, its ids checked against the data file."""
    b = game.board
    ids = _Ids(b)
    variant = variant_from_record(game, rec.variant)
    if len(rec.units) != len(b.data.units):
        raise InvalidInput(
            f"units: {len(rec.units)} units listed, the data has {len(b.data.units)}",
            field="units",
        )
    units = []
    for i, (u, spec) in enumerate(zip(rec.units, b.data.units, strict=True)):
        if u.id != spec.id:  # the paths are built only for an error
            ids.unit(u.id, f"units[{i}].id")
            raise InvalidInput(
                f"units[{i}].id: units are listed once each in the data's order; "
                f"expected {spec.id!r} here, not {u.id!r}",
                field=f"units[{i}].id",
            )
        if u.area is not None and u.area not in b.areas:
            ids.area(u.area, f"units[{i}].area")
        steps = frozenset(u.steps)
        if len(steps) != len(u.steps) or not in_order(u.steps):
            ids.cards(u.steps, f"units[{i}].steps")
        units.append(Unit(u.id, u.area, steps, u.flipped, u.isolated))
    for a in rec.control:
        if a not in b.index:
            raise InvalidInput(
                f"control.{a}: not a Stalingrad Area (RKS-2.1.2)",
                field=f"control.{a}",
                clauses=("RKS-2.1.2",),
            )
    for a in b.stalingrad:
        if a not in rec.control:
            raise InvalidInput(
                f"control.{a}: every Stalingrad Area has a controller or null (RKS-3.6.1)",
                field=f"control.{a}",
                clauses=("RKS-3.6.1",),
            )
    eliminated = [
        (ids.unit(uid, f"eliminated[{i}][0]"), turn) for i, (uid, turn) in enumerate(rec.eliminated)
    ]
    if eliminated != sorted(eliminated):
        raise InvalidInput("eliminated: pairs are listed by unit id, then turn", field="eliminated")
    s = RKState(
        variant=variant,
        turn=rec.turn,
        phase=Phase(rec.phase),
        stage=Stage(rec.stage),
        player=rec.player,
        units=tuple(units),
        control=tuple(rec.control[a] for a in b.stalingrad),
        deck=ids.cards(rec.deck, "deck"),
        discards=ids.cards(rec.discards, "discards"),
        removed=ids.cards(rec.removed, "removed"),
        hand_ge=ids.cards(rec.hands.GE, "hands.GE"),
        hand_su=ids.cards(rec.hands.SU, "hands.SU"),
        exposed=ids.cards(rec.exposed, "exposed"),
        face_up=ids.cards(rec.face_up, "face_up"),
        eliminated=tuple(eliminated),
        passes=rec.passes,
        acting=ids.maybe_unit(rec.acting, "acting"),
        acted=rec.acted,
        recruited=rec.recruited,
        effects=tuple(rec.effects),
        pending=_pending(ids, rec.pending),
        combat=_combat(ids, rec.combat),
        damage=None
        if rec.damage is None
        else Damage(ids.unit(rec.damage.unit, "damage.unit"), rec.damage.cause),
        draws=tuple(_draw_for(ids, d, f"draws[{i}]") for i, d in enumerate(rec.draws)),
        pick=_pick_of(ids, rec.pick),
        result=_result(game, rec.result),
    )
    return s


def _pending(ids: _Ids, p: PendingRecord | None) -> PendingMove | None:
    if p is None:
        return None
    return PendingMove(
        ids.area(p.to, "pending.to"), ids.maybe_unit(p.escort, "pending.escort"), p.payments
    )


def _draw_for(ids: _Ids, d: DrawRecord, where: str) -> DrawFor:
    if isinstance(d, HandDraw):
        return DrawFor("hand", d.who)
    kind = {StepsDraw: "steps", BombardmentDraw: "bombardment", AirSupportDraw: "air_support"}
    return DrawFor(kind[type(d)], ids.unit(d.who, f"{where}.who"))


def _pick_of(ids: _Ids, p: PickRecord | None) -> Pick | None:
    if p is None:
        return None
    if isinstance(p, SniperPick):
        return Pick("sniper", p.who)
    return Pick("step", ids.unit(p.who, "pick.who"))


def _combat(ids: _Ids, c: CombatRecord | None) -> Combat | None:
    if c is None:
        return None
    return Combat(
        area=ids.area(c.area, "combat.area"),
        attacker=ids.unit(c.attacker, "combat.attacker"),
        step=Step(c.step),
        defender=ids.maybe_unit(c.defender, "combat.defender"),
        attack=ids.placed(c.attack, "combat.attack"),
        defence=ids.placed(c.defence, "combat.defence"),
        spent=tuple(
            p
            for i, raw in enumerate(c.spent)
            if (p := ids.placed(raw, f"combat.spent[{i}]")) is not None
        ),
        support=ids.maybe_unit(c.support, "combat.support"),
        raiser=c.raiser,
        raises=c.raises,
        effects=tuple(c.effects),
        refight=c.refight,
        loser=c.loser,
        isolation=c.isolation,
        staying=ids.units(c.staying, "combat.staying"),
        cause=c.cause,
    )


def _result(game: RattenkriegRules, r: OutcomeRecord | None) -> Outcome | None:
    if r is None:
        return None
    if r.winner is not None and r.winner not in game.sides:
        raise InvalidInput("result.winner: a side or null (RKS-4.1.1)", field="result.winner")
    for side in r.points:
        if side not in game.sides:
            raise InvalidInput(f"result.points.{side}: not a side", field=f"result.points.{side}")
    return Outcome(r.winner, tuple(r.points.items()), r.clause, r.reason)
