"""Shumshu states as versioned JSON, through the wire records of `wire.py`; actions are
`action_codec`, and `ShumshuCodec` serves both.

Decoding is three steps, each refusing with the JSON path of the bad value: the strict wire
decode (`kernel.wire.convert`: shape, types, bounds, unknown and missing fields), the ids the
schema cannot know (unit ids of the data file, hexes of the island, the units in the data's
order, the variant's readings), and the position check (`position.check_position`: what no
play of the rules could reach). Encoding writes the same records, so the JSON a state is
written as always validates against the published schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.errors import InvalidInput
from kernel.game import Outcome, WireTypes
from kernel.hexes import Hex, hex_name, parse_hex
from kernel.variants import Variant
from kernel.wire import convert, to_builtins
from specs.shumshu.formal.position import check_position
from specs.shumshu.io import wire
from specs.shumshu.io.action_codec import action_from_json, action_to_json
from specs.shumshu.rules.actions import (
    Action,
)
from specs.shumshu.rules.state import Combat, Fight, Loc, Piece, Sail, ShumshuState, Stage

if TYPE_CHECKING:
    from specs.shumshu.rules.board import Board
    from specs.shumshu.rules.reader import ShumshuRules


def _hex(h: Hex | None) -> str | None:
    return None if h is None else hex_name(h)


def _outcome(o: Outcome | None) -> OutcomeRecord | None:
    if o is None:
        return None
    return OutcomeRecord(winner=o.winner, points=dict(o.points), clause=o.clause, reason=o.reason)


def state_record(game: ShumshuRules, s: ShumshuState) -> wire.StateRecord:
    sail, fight = s.sail, s.fight
    return wire.StateRecord(
        format="wargame-kernel/state",
        version=1,
        game="shumshu",
        variant=VariantRecord(preset=s.variant.preset, options=dict(s.variant.choices)),
        turn=s.turn,
        side=s.side,  # type: ignore[arg-type]
        stage=s.stage.value,
        units=tuple(
            wire.PieceRecord(
                id=p.id,
                loc=p.loc.value,
                hex=_hex(p.hex),
                disrupted=p.disrupted,
                recover=p.recover,
                revealed=p.revealed,
            )
            for p in s.units
        ),
        ships=s.ships,
        air=s.air,
        air_used=s.air_used,
        air_turn=s.air_turn,
        at_arrived=s.at_arrived,
        beachhead=_hex(s.beachhead),
        replaced=s.replaced,
        moved=_ordered(game.board, s.moved),
        acted=_ordered(game.board, s.acted),
        sail=None
        if sail is None
        else wire.SailRecord(
            hex=_hex(sail.hex),
            party=sail.party,
            sailed=sail.sailed,
            lost_ship=sail.lost_ship,
            landed=sail.landed,
        ),
        pending=tuple(
            wire.CombatRecord(hex=hex_name(c.hex), attackers=c.attackers) for c in s.pending
        ),
        fight=None
        if fight is None
        else wire.FightRecord(
            hex=hex_name(fight.hex),
            attackers=fight.attackers,
            landing=fight.landing,
            defenders=fight.defenders,
            hold=fight.hold,
            press=fight.press,
            air=fight.air,
            banzai=fight.banzai,
            face=fight.face,
            result=fight.result,  # type: ignore[arg-type]
            retreating=fight.retreating,
            first_to=_hex(fight.first_to),
            winners=fight.winners,
        ),
        taken=tuple(sorted(s.taken)),  # type: ignore[arg-type]
        result=_outcome(s.result),
    )


def _ordered(b: Board, ids: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=b.order.__getitem__))


def state_to_json(game: ShumshuRules, s: ShumshuState) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(state_record(game, s))
    return data


# --- decoding -------------------------------------------------------------------------------------


class _Ids:
    """The checks the schema cannot make: ids and hexes of this data file, nothing twice."""

    def __init__(self, b: Board) -> None:
        self.b = b

    def unit(self, uid: str, where: str) -> str:
        if not self.b.data.has_unit(uid):
            raise InvalidInput(f"{where}: unknown unit {uid!r}", field=where)
        return uid

    def units(self, ids: Sequence[str], where: str) -> tuple[str, ...]:
        for i, uid in enumerate(ids):
            self.unit(uid, f"{where}[{i}]")
            if uid in ids[:i]:
                raise InvalidInput(f"{where}[{i}]: {uid} is listed twice", field=f"{where}[{i}]")
        return tuple(ids)

    def ordered(self, ids: Sequence[str], where: str) -> tuple[str, ...]:
        """Ids of a set, each once and in the data's order (the one way it is written)."""
        out = self.units(ids, where)
        order = self.b.order
        for i in range(1, len(out)):
            if order[out[i]] < order[out[i - 1]]:
                raise InvalidInput(
                    f"{where}[{i}]: a set of units is listed in the data's order",
                    field=f"{where}[{i}]",
                )
        return out

    def hex(self, text: str, where: str) -> Hex:
        h = parse_hex(text, field=where)
        if not self.b.on_island(h):
            raise InvalidInput(
                f"{where}: {text} is not a hex of Shumshu (SHU-SETUP.1)",
                field=where,
                clauses=("SHU-SETUP.1",),
            )
        return h

    def maybe_hex(self, text: str | None, where: str) -> Hex | None:
        return None if text is None else self.hex(text, where)


def variant_from_record(game: ShumshuRules, rec: VariantRecord, where: str = "variant") -> Variant:
    """A variant read exactly (`Catalogue.exact`): every option of the catalogue with one of
    its readings, and a preset named if and only if these are that preset's readings, so that
    the variant is written back as it was read."""
    return game.catalogue.exact(rec.preset, rec.options, where)


def state_from_json(game: ShumshuRules, data: Any) -> ShumshuState:
    """Decode strictly (InvalidInput naming the JSON path), then refuse what no play could
    reach (ImpossiblePosition naming the path and the clause)."""
    s = state_from_record(game, convert(data, wire.StateRecord))
    check_position(game.board, s)
    return s


def state_from_record(game: ShumshuRules, rec: wire.StateRecord) -> ShumshuState:
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
        where = f"units[{i}]"
        ids.unit(u.id, f"{where}.id")
        if u.id != spec.id:
            raise InvalidInput(
                f"{where}.id: units are listed once each in the data's order; expected "
                f"{spec.id!r} here, not {u.id!r}",
                field=f"{where}.id",
            )
        units.append(
            Piece(
                u.id,
                Loc(u.loc),
                ids.maybe_hex(u.hex, f"{where}.hex"),
                u.disrupted,
                u.recover,
                u.revealed,
            )
        )
    sail = None
    if rec.sail is not None:
        sail = Sail(
            ids.maybe_hex(rec.sail.hex, "sail.hex"),
            ids.units(rec.sail.party, "sail.party"),  # in rolling order (lander_order)
            rec.sail.sailed,
            rec.sail.lost_ship,
            rec.sail.landed,
        )
    pending = tuple(
        Combat(
            ids.hex(c.hex, f"pending[{i}].hex"), ids.ordered(c.attackers, f"pending[{i}].attackers")
        )
        for i, c in enumerate(rec.pending)
    )
    fight = None
    if rec.fight is not None:
        f = rec.fight
        fight = Fight(
            hex=ids.hex(f.hex, "fight.hex"),
            attackers=ids.ordered(f.attackers, "fight.attackers"),
            landing=f.landing,
            defenders=ids.ordered(f.defenders, "fight.defenders"),
            hold=f.hold,
            press=f.press,
            air=f.air,
            banzai=f.banzai,
            face=f.face,
            result=f.result,
            retreating=ids.ordered(f.retreating, "fight.retreating"),
            first_to=ids.maybe_hex(f.first_to, "fight.first_to"),
            winners=ids.ordered(f.winners, "fight.winners"),
        )
    result = None
    if rec.result is not None:
        r = rec.result
        for side in r.points:
            if side not in game.sides:
                raise InvalidInput(f"result.points: unknown side {side!r}", field="result.points")
        if r.winner not in (None, *game.sides):
            raise InvalidInput(f"result.winner: unknown side {r.winner!r}", field="result.winner")
        result = Outcome(r.winner, dict(r.points), r.clause, r.reason)
    return ShumshuState(
        variant=variant,
        turn=rec.turn,
        side=rec.side,
        stage=Stage(rec.stage),
        units=tuple(units),
        ships=rec.ships,
        air=rec.air,
        air_used=rec.air_used,
        air_turn=rec.air_turn,
        at_arrived=rec.at_arrived,
        beachhead=ids.maybe_hex(rec.beachhead, "beachhead"),
        replaced=rec.replaced,
        moved=frozenset(ids.ordered(rec.moved, "moved")),
        acted=frozenset(ids.ordered(rec.acted, "acted")),
        sail=sail,
        pending=pending,
        fight=fight,
        taken=frozenset(_taken(rec.taken)),
        result=result,
    )


def _taken(taken: Sequence[str]) -> tuple[str, ...]:
    if list(taken) != sorted(set(taken)):
        raise InvalidInput("taken: each star hex once, in order", field="taken")
    return tuple(taken)


def observation_record(data: dict[str, Any]) -> wire.ObservationRecord:
    """An observation (`observation.observe`) as its wire record: checks that the view the game
    hands out is of the published form."""
    return convert(data, wire.ObservationRecord, what="observation")


class ShumshuCodec:
    """The codec role (`kernel.roles.Codec`), built from the rules: states through the data's
    ids and the position check, actions through their wire record alone."""

    wire: WireTypes = WireTypes(
        state=wire.StateRecord,
        action=wire.ActionRecord,
        observation=wire.ObservationRecord,
    )
    """The wire records the codec decodes with and the published schemas come from."""

    def __init__(self, rules: ShumshuRules) -> None:
        self.rules = rules

    def state_to_json(self, s: ShumshuState) -> dict[str, Any]:
        return state_to_json(self.rules, s)

    def state_from_json(self, data: Any) -> ShumshuState:
        return state_from_json(self.rules, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)
