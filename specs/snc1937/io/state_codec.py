"""SNC states as versioned JSON, through the wire record `wire.StateRecord`.

Split from `codec` (actions, and the codec role that joins both): a state written as its record
(`state_record`, `state_to_json`) and read back strictly (`state_from_json`: shape and types by
`kernel.wire.convert`, then the ids and hexes against the data by `Ids`, then the position check,
`position.check_position`). Encoding writes the same record, so what is written always decodes
again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.errors import InvalidInput
from kernel.game import Outcome
from kernel.hexes import Hex, hex_name, parse_hex
from kernel.wire import convert, to_builtins
from specs.snc1937.formal.position import check_position
from specs.snc1937.io import wire
from specs.snc1937.rules.state import Combat, Order, Phase, SNCState, Step

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules
    from specs.snc1937.rules.tables import Tables


def _hexes(hs: Iterable[Hex]) -> tuple[str, ...]:
    return tuple(hex_name(h) for h in sorted(hs))


def _outcome(o: Outcome | None) -> OutcomeRecord | None:
    if o is None:
        return None
    return OutcomeRecord(winner=o.winner, points=dict(o.points), clause=o.clause, reason=o.reason)


def combat_record(c: Combat | None) -> wire.CombatRecord | None:
    if c is None:
        return None
    return wire.CombatRecord(
        target=hex_name(c.target),
        attackers=c.attackers,
        landing=c.landing,
        support_a=c.support_a,  # type: ignore[arg-type]
        support_d=c.support_d,  # type: ignore[arg-type]
        aborted=c.aborted,
        face=c.face,
        loss_a=c.loss_a,
        loss_d=c.loss_d,
        defenders=c.defenders,
        won=c.won,
        overrun=c.overrun,
        second=None if c.second is None else hex_name(c.second),
        second_unit=c.second_unit,
    )


def state_record(t: Tables, s: SNCState) -> wire.StateRecord:
    order = t.order.__getitem__
    return wire.StateRecord(
        format="wargame-kernel/state",
        version=1,
        game="snc1937",
        variant=VariantRecord(preset=s.variant.preset, options=dict(s.variant.choices)),
        turn=s.turn,
        side=s.side,  # type: ignore[arg-type]
        phase=s.phase.value,
        step=s.step.value,
        order=None if s.order is None else s.order.value,
        where=tuple(wire.PlacedRecord(unit=u, hex=hex_name(h)) for u, h in s.where),
        trt=tuple(wire.BoxRecord(unit=u, gt=gt) for u, gt in s.trt),
        dead=tuple(sorted(s.dead, key=order)),
        reduced=tuple(sorted(s.reduced, key=order)),
        jp_control=_hexes(s.jp_control),
        done=tuple(sorted(s.done, key=order)),
        attacked=_hexes(s.attacked),
        used=s.used,
        jp_support_ops1=s.jp_support_ops1,
        ch_air=s.ch_air,
        ch_air_used=s.ch_air_used,
        replacements=s.replacements,
        arrived=tuple(sorted(s.arrived, key=order)),
        movable=tuple(sorted(s.movable, key=order)),
        moving=s.moving,
        mp=s.mp,
        combat=combat_record(s.combat),
        roll=s.roll,
        elite=s.elite,
        stack_hexes=tuple(hex_name(h) for h in s.stack_hexes),
        after_stack=s.after_stack,  # type: ignore[arg-type]
        result=_outcome(s.result),
        overrun_next=s.overrun_next,  # type: ignore[arg-type]
        overrun_target=None if s.overrun_target is None else hex_name(s.overrun_target),
        overrun_hexes=_hexes(s.overrun_hexes),
        culled=tuple(wire.PlacedRecord(unit=u, hex=hex_name(h)) for u, h in s.culled),
        on_top=s.on_top,
        topped=tuple(sorted(s.topped, key=order)),
        checked=_hexes(s.checked),
    )


def state_to_json(game: SNCRules, s: SNCState) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(state_record(game.tables, s))
    return data


class Ids:
    """The checks the schema cannot make: ids and hexes of this data set."""

    def __init__(self, t: Tables) -> None:
        self.t = t

    def unit(self, uid: str, where: str) -> str:
        if uid not in self.t.spec:
            raise InvalidInput(f"{where}: unknown unit {uid!r}", field=where)
        return uid

    def units(self, ids: Sequence[str], where: str) -> tuple[str, ...]:
        for i, uid in enumerate(ids):
            self.unit(uid, f"{where}[{i}]")
        if len(set(ids)) != len(ids):
            raise InvalidInput(f"{where}: a unit is listed twice", field=where)
        return tuple(ids)

    def ordered(self, ids: Sequence[str], where: str) -> frozenset[str]:
        """A set, written once each in the data's order (the one way it is written)."""
        out = self.units(ids, where)
        keys = [self.t.order[u] for u in out]
        if keys != sorted(keys):
            raise InvalidInput(
                f"{where}: a set of units is listed in the data's order", field=where
            )
        return frozenset(out)

    def hex(self, text: str, where: str) -> Hex:
        h = parse_hex(text, field=where)
        if not self.t.board.on_map(h):
            raise InvalidInput(f"{where}: {text} is not a hex of the map", field=where)
        return h

    def hexes(self, texts: Sequence[str], where: str) -> tuple[Hex, ...]:
        out = tuple(self.hex(x, f"{where}[{i}]") for i, x in enumerate(texts))
        if list(out) != sorted(set(out)):
            raise InvalidInput(f"{where}: hexes are listed once each, in order", field=where)
        return out


def state_from_json(game: SNCRules, data: Any) -> SNCState:
    """Decode strictly, then refuse what no play could reach (ImpossiblePosition)."""
    s = state_from_record(game, convert(data, wire.StateRecord))
    check_position(game.tables, s)
    return s


def state_from_record(game: SNCRules, rec: wire.StateRecord) -> SNCState:
    t = game.tables
    ids = Ids(t)
    variant = game.catalogue.exact(rec.variant.preset, rec.variant.options, "variant")
    where = tuple(
        (ids.unit(p.unit, f"where[{i}].unit"), ids.hex(p.hex, f"where[{i}].hex"))
        for i, p in enumerate(rec.where)
    )
    if [u for u, _ in where] != sorted({u for u, _ in where}):
        raise InvalidInput("where: units are listed once each, sorted by id", field="where")
    trt = tuple((ids.unit(b.unit, f"trt[{i}].unit"), b.gt) for i, b in enumerate(rec.trt))
    if list(trt) != sorted(set(trt)) or len({u for u, _ in trt}) != len(trt):
        raise InvalidInput("trt: units are listed once each, sorted", field="trt")
    combat = None
    if rec.combat is not None:
        c = rec.combat
        combat = Combat(
            target=ids.hex(c.target, "combat.target"),
            attackers=ids.units(c.attackers, "combat.attackers"),
            landing=c.landing,
            support_a=tuple(c.support_a),
            support_d=tuple(c.support_d),
            aborted=c.aborted,
            face=c.face,
            loss_a=c.loss_a,
            loss_d=c.loss_d,
            defenders=ids.units(c.defenders, "combat.defenders"),
            won=c.won,
            overrun=c.overrun,
            second=None if c.second is None else ids.hex(c.second, "combat.second"),
            second_unit=(
                None if c.second_unit is None else ids.unit(c.second_unit, "combat.second_unit")
            ),
        )
    result = None
    if rec.result is not None:
        r = rec.result
        result = Outcome(r.winner, tuple(r.points.items()), r.clause, r.reason)
    if list(rec.used) != sorted(rec.used):
        raise InvalidInput("used: markers are listed sorted", field="used")
    return SNCState(
        variant=variant,
        turn=rec.turn,
        side=rec.side,
        phase=Phase(rec.phase),
        step=Step(rec.step),
        order=None if rec.order is None else Order(rec.order),
        where=where,
        trt=trt,
        dead=ids.ordered(rec.dead, "dead"),
        reduced=ids.ordered(rec.reduced, "reduced"),
        jp_control=frozenset(ids.hexes(rec.jp_control, "jp_control")),
        done=ids.ordered(rec.done, "done"),
        attacked=frozenset(ids.hexes(rec.attacked, "attacked")),
        used=tuple(rec.used),
        jp_support_ops1=rec.jp_support_ops1,
        ch_air=rec.ch_air,
        ch_air_used=rec.ch_air_used,
        replacements=rec.replacements,
        arrived=ids.ordered(rec.arrived, "arrived"),
        movable=ids.ordered(rec.movable, "movable"),
        moving=ids.units(rec.moving, "moving"),
        mp=rec.mp,
        combat=combat,
        roll=rec.roll,
        elite=ids.units(rec.elite, "elite"),
        stack_hexes=tuple(ids.hex(h, f"stack_hexes[{i}]") for i, h in enumerate(rec.stack_hexes)),
        after_stack=rec.after_stack,
        result=result,
        overrun_next=rec.overrun_next,
        overrun_target=(
            None if rec.overrun_target is None else ids.hex(rec.overrun_target, "overrun_target")
        ),
        overrun_hexes=frozenset(ids.hexes(rec.overrun_hexes, "overrun_hexes")),
        culled=tuple(
            (ids.unit(p.unit, f"culled[{i}].unit"), ids.hex(p.hex, f"culled[{i}].hex"))
            for i, p in enumerate(rec.culled)
        ),
        on_top=ids.units(rec.on_top, "on_top"),
        topped=ids.ordered(rec.topped, "topped"),
        checked=ids.hexes(rec.checked, "checked"),
    )
