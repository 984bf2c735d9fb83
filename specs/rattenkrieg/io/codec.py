"""Rattenkrieg states as versioned JSON, through the wire records of `wire.py`.

Decoding (`codec_decoding`) is three steps, each refusing with the JSON path of the bad value: the
strict wire decode (`kernel.wire.convert`: shape, types, bounds, unknown and missing fields), the
ids and repetitions the schema cannot know (unit and Area ids of the data file, a card or unit
listed twice, the units in the data's order, the variant's readings), and the position check
(`validate.check_position`: what no play of the rules could reach). Encoding writes the same
records, so the JSON a state is written as always validates against the published schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.game import Outcome, WireTypes
from specs.rattenkrieg.io.actions import action_from_json, action_to_json
from specs.rattenkrieg.io.codec_decoding import state_from_json
from specs.rattenkrieg.io.wire import (
    AirSupportDraw,
    BombardmentDraw,
    CombatRecord,
    DamageRecord,
    DrawRecord,
    HandDraw,
    HandsRecord,
    PendingRecord,
    PickRecord,
    PlacedRecord,
    SniperPick,
    StateRecord,
    StepPick,
    StepsDraw,
    UnitRecord,
    card,
    card_list,
    json_data,
)
from specs.rattenkrieg.io.wire_actions import ActionRecord
from specs.rattenkrieg.io.wire_observation import ObservationRecord
from specs.rattenkrieg.rules.actions import Action
from specs.rattenkrieg.rules.state import (
    DrawFor,
    Pick,
    Placed,
    RKState,
)

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

_DRAWS: dict[str, Any] = {
    "steps": StepsDraw,
    "hand": HandDraw,
    "bombardment": BombardmentDraw,
    "air_support": AirSupportDraw,
}


def _placed(p: Placed | None) -> PlacedRecord | None:
    if p is None:
        return None
    return PlacedRecord(side=p.side, card=card(p.card), origin=p.origin, open=p.open)  # type: ignore[arg-type]


def _draw(d: DrawFor) -> DrawRecord:
    record: DrawRecord = _DRAWS[d.kind](who=d.who)
    return record


def _pick(p: Pick | None) -> PickRecord | None:
    if p is None:
        return None
    return SniperPick(who="GE") if p.kind == "sniper" else StepPick(who=p.who)


def _outcome(o: Outcome | None) -> OutcomeRecord | None:
    if o is None:
        return None
    return OutcomeRecord(winner=o.winner, points=dict(o.points), clause=o.clause, reason=o.reason)


def public_fields(game: RattenkriegRules, s: RKState) -> dict[str, Any]:
    """The fields of a position both players see, as wire values: shared by the state's record
    and each side's observation, so the two cannot drift apart."""
    return {
        "variant": VariantRecord(preset=s.variant.preset, options=dict(s.variant.choices)),
        "turn": s.turn,
        "phase": s.phase.value,
        "stage": s.stage.value,
        "player": s.player,
        "control": {a: s.control[i] for i, a in enumerate(game.board.stalingrad)},
        "eliminated": list(s.eliminated),
        "passes": s.passes,
        "acting": s.acting,
        "acted": s.acted,
        "recruited": s.recruited,
        "effects": list(s.effects),
        "pending": None
        if s.pending is None
        else PendingRecord(to=s.pending.to, escort=s.pending.escort, payments=s.pending.payments),
        "damage": None
        if s.damage is None
        else DamageRecord(unit=s.damage.unit, cause=s.damage.cause),  # type: ignore[arg-type]
        "draws": [_draw(d) for d in s.draws],
        "pick": _pick(s.pick),
        "result": _outcome(s.result),
    }


def state_record(game: RattenkriegRules, s: RKState) -> StateRecord:
    """The wire record of a state."""
    c = s.combat
    combat = None
    if c is not None:
        combat = CombatRecord(
            area=c.area,
            attacker=c.attacker,
            step=c.step.value,
            defender=c.defender,
            attack=_placed(c.attack),
            defence=_placed(c.defence),
            spent=[p for x in c.spent if (p := _placed(x)) is not None],
            support=c.support,
            raiser=c.raiser,  # type: ignore[arg-type]
            raises=c.raises,
            effects=list(c.effects),  # type: ignore[arg-type]
            refight=c.refight,
            loser=c.loser,  # type: ignore[arg-type]
            isolation=c.isolation,  # type: ignore[arg-type]
            staying=list(c.staying),
            cause=c.cause,  # type: ignore[arg-type]
        )
    return StateRecord(
        format="wargame-kernel/state",
        version=1,
        game="rattenkrieg",
        **public_fields(game, s),
        discards=card_list(s.discards),
        removed=card_list(s.removed),
        face_up=card_list(s.face_up),
        units=[
            UnitRecord(
                id=u.id,
                area=u.area,
                steps=card_list(u.steps),
                flipped=u.flipped,
                isolated=u.isolated,
            )
            for u in s.units
        ],
        deck=card_list(s.deck),
        hands=HandsRecord(GE=card_list(s.hand_ge), SU=card_list(s.hand_su)),
        exposed=card_list(s.exposed),
        combat=combat,
    )


def state_to_json(game: RattenkriegRules, s: RKState) -> dict[str, Any]:
    data: dict[str, Any] = json_data(state_record(game, s))
    return data


class RattenkriegCodec:
    """The codec role (`kernel.roles.Codec`) of the rules it is built from: states through the
    wire records of `wire.py`, actions through `io.actions`."""

    wire: WireTypes = WireTypes(
        state=StateRecord,
        action=ActionRecord,
        observation=ObservationRecord,
    )
    """The wire records the codec decodes with and the published schemas come from."""

    def __init__(self, rules: RattenkriegRules) -> None:
        self.rules = rules

    def state_to_json(self, state: RKState) -> dict[str, Any]:
        return state_to_json(self.rules, state)

    def state_from_json(self, data: Any) -> RKState:
        return state_from_json(self.rules, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)
