"""Rattenkrieg states as versioned JSON. Every field is read strictly (an unknown id or a wrong
type names its JSON path), then the whole position is checked by `validate.check_position`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kernel.codec import (
    STATE_FORMAT,
    as_int,
    as_str,
    envelope,
    get_field,
    get_list,
    open_envelope,
    require_dict,
)
from kernel.errors import InvalidInput
from kernel.game import Outcome
from specs.rattenkrieg.cards import parse_card, sort_cards
from specs.rattenkrieg.state import (
    SIDES,
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
from specs.rattenkrieg.validate import check_position

if TYPE_CHECKING:
    from specs.rattenkrieg.rules import Rattenkrieg

DRAW_KINDS = ("steps", "hand", "bombardment", "air_support")
PICK_KINDS = ("sniper", "step")
DAMAGE_CAUSES = ("combat", "bombardment", "air_support")
EFFECTS = ("assault_gun", "engineer", "molotov", "chuikov")


def _cards(cards: Iterable[str]) -> list[str]:
    return sort_cards(cards)


def _placed(p: Placed | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"side": p.side, "card": p.card, "origin": p.origin, "open": p.open}


def public_fields(game: Rattenkrieg, s: RKState) -> dict[str, Any]:
    """The fields of a position both players see, as JSON: shared by the state's JSON and
    each side's observation, so the two cannot drift apart."""
    return {
        "variant": s.variant.to_json(),
        "turn": s.turn,
        "phase": s.phase.value,
        "stage": s.stage.value,
        "player": s.player,
        "control": {a: s.control[i] for i, a in enumerate(game.board.stalingrad)},
        "discards": _cards(s.discards),
        "removed": _cards(s.removed),
        "eliminated": [[u, t] for u, t in s.eliminated],
        "passes": s.passes,
        "acting": s.acting,
        "acted": s.acted,
        "recruited": s.recruited,
        "effects": list(s.effects),
        "pending": None
        if s.pending is None
        else {"to": s.pending.to, "escort": s.pending.escort, "payments": s.pending.payments},
        "damage": None if s.damage is None else {"unit": s.damage.unit, "cause": s.damage.cause},
        "draws": [{"kind": d.kind, "who": d.who} for d in s.draws],
        "pick": None if s.pick is None else {"kind": s.pick.kind, "who": s.pick.who},
        "result": None if s.result is None else s.result.to_json(),
    }


def state_to_json(game: Rattenkrieg, s: RKState) -> dict[str, Any]:
    c = s.combat
    body: dict[str, Any] = {
        **public_fields(game, s),
        "units": [
            {
                "id": u.id,
                "area": u.area,
                "steps": _cards(u.steps),
                "flipped": u.flipped,
                "isolated": u.isolated,
            }
            for u in s.units
        ],
        "deck": _cards(s.deck),
        "hands": {"GE": _cards(s.hand_ge), "SU": _cards(s.hand_su)},
        "exposed": _cards(s.exposed),
        "combat": None
        if c is None
        else {
            "area": c.area,
            "attacker": c.attacker,
            "step": c.step.value,
            "defender": c.defender,
            "attack": _placed(c.attack),
            "defence": _placed(c.defence),
            "spent": [_placed(p) for p in c.spent],
            "support": c.support,
            "raiser": c.raiser,
            "raises": c.raises,
            "effects": list(c.effects),
            "refight": c.refight,
            "loser": c.loser,
            "isolation": c.isolation,
            "staying": list(c.staying),
            "cause": c.cause,
        },
    }
    return envelope(STATE_FORMAT, game.name, body)


class _Reader:
    """Field readers that know the game's ids, so every unknown id names its JSON path."""

    def __init__(self, game: Rattenkrieg) -> None:
        self.b = game.board

    def unit(self, value: Any, where: str) -> str:
        uid = as_str(value, where)
        if uid not in self.b.specs:
            raise InvalidInput(f"unknown unit {uid!r}", field=where)
        return uid

    def area(self, value: Any, where: str) -> str:
        aid = as_str(value, where)
        if aid not in self.b.areas:
            raise InvalidInput(f"unknown area {aid!r}", field=where)
        return aid

    def maybe(self, kind: str, value: Any, where: str) -> str | None:
        if value is None:
            return None
        return self.unit(value, where) if kind == "unit" else self.area(value, where)

    def side(self, value: Any, where: str, *, allow_none: bool = False) -> str | None:
        if value is None and allow_none:
            return None
        if value not in SIDES:
            raise InvalidInput(f"field {where!r} must be GE or SU", field=where)
        return str(value)

    def cards(self, obj: dict[str, Any], key: str, path: str) -> frozenset[str]:
        cards = get_list(obj, key, parse_card, path)
        if len(set(cards)) != len(cards):
            raise InvalidInput("a card is listed twice", field=f"{path}.{key}")
        return frozenset(cards)

    def placed(self, raw: Any, where: str) -> Placed | None:
        if raw is None:
            return None
        obj = require_dict(raw, where)
        origin = as_str(obj.get("origin"), f"{where}.origin")
        if origin != "hand":
            self.unit(origin, f"{where}.origin")
        side = self.side(obj.get("side"), f"{where}.side")
        assert side is not None
        return Placed(
            side,
            parse_card(obj.get("card"), f"{where}.card"),
            origin,
            get_field(obj, "open", bool, where),
        )


def _enum(kind: type[Any], value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(m.value for m in kind)
        raise InvalidInput(f"field {where!r} must be one of {known}", field=where) from None


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise InvalidInput(f"field {where!r} must be one of {', '.join(allowed)}", field=where)
    return str(value)


def state_from_json(game: Rattenkrieg, data: Any) -> RKState:
    b = game.board
    r = _Reader(game)
    obj = open_envelope(data, STATE_FORMAT, game.name)
    variant = game.catalogue.variant_from_json(get_field(obj, "variant", object, "state"))

    units_in: dict[str, Unit] = {}
    for i, raw in enumerate(get_field(obj, "units", list, "state")):
        where = f"units[{i}]"
        rec = require_dict(raw, where)
        uid = r.unit(rec.get("id"), f"{where}.id")
        if uid in units_in:
            raise InvalidInput(f"unit {uid!r} is listed twice", field=f"{where}.id")
        units_in[uid] = Unit(
            uid,
            r.maybe("area", rec.get("area"), f"{where}.area"),
            r.cards(rec, "steps", where),
            get_field(rec, "flipped", bool, where),
            get_field(rec, "isolated", bool, where),
        )
    missing = set(b.specs) - set(units_in)
    if missing:
        raise InvalidInput(f"state lacks units {sorted(missing)}", field="units")
    units = tuple(units_in[u.id] for u in b.data.units)

    control_raw = require_dict(get_field(obj, "control", dict, "state"), "control")
    if set(control_raw) != set(b.stalingrad):
        raise InvalidInput("control must name every Stalingrad Area once", field="control")
    control = tuple(r.side(control_raw[a], f"control.{a}", allow_none=True) for a in b.stalingrad)
    hands = require_dict(get_field(obj, "hands", dict, "state"), "hands")
    eliminated: list[tuple[str, int]] = []
    for i, pair in enumerate(get_field(obj, "eliminated", list, "state")):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidInput("eliminated lists [unit, turn] pairs", field=f"eliminated[{i}]")
        eliminated.append(
            (r.unit(pair[0], f"eliminated[{i}]"), as_int(pair[1], f"eliminated[{i}]"))
        )

    combat = _combat(r, obj.get("combat"))
    pending_raw = obj.get("pending")
    pending = None
    if pending_raw is not None:
        p = require_dict(pending_raw, "pending")
        pending = PendingMove(
            r.area(p.get("to"), "pending.to"),
            r.maybe("unit", p.get("escort"), "pending.escort"),
            as_int(p.get("payments"), "pending.payments"),
        )
    damage_raw = obj.get("damage")
    damage = None
    if damage_raw is not None:
        d = require_dict(damage_raw, "damage")
        damage = Damage(
            r.unit(d.get("unit"), "damage.unit"),
            _choice(d.get("cause"), DAMAGE_CAUSES, "damage.cause"),
        )
    draws = []
    for i, raw in enumerate(get_field(obj, "draws", list, "state")):
        d = require_dict(raw, f"draws[{i}]")
        kind = _choice(d.get("kind"), DRAW_KINDS, f"draws[{i}].kind")
        who = (
            r.side(d.get("who"), f"draws[{i}].who")
            if kind == "hand"
            else r.unit(d.get("who"), f"draws[{i}].who")
        )
        assert who is not None
        draws.append(DrawFor(kind, who))
    pick_raw = obj.get("pick")
    pick = None
    if pick_raw is not None:
        p = require_dict(pick_raw, "pick")
        kind = _choice(p.get("kind"), PICK_KINDS, "pick.kind")
        who = (
            r.side(p.get("who"), "pick.who")
            if kind == "sniper"
            else r.unit(p.get("who"), "pick.who")
        )
        assert who is not None
        pick = Pick(kind, who)
    effects = tuple(
        _choice(e, EFFECTS, f"effects[{i}]")
        for i, e in enumerate(get_field(obj, "effects", list, "state"))
    )
    player = r.side(obj.get("player"), "player")
    assert player is not None
    s = RKState(
        variant=variant,
        turn=get_field(obj, "turn", int, "state"),
        phase=_enum(Phase, obj.get("phase"), "phase"),
        stage=_enum(Stage, obj.get("stage"), "stage"),
        player=player,
        units=units,
        control=control,
        deck=r.cards(obj, "deck", "state"),
        discards=r.cards(obj, "discards", "state"),
        removed=r.cards(obj, "removed", "state"),
        hand_ge=r.cards(hands, "GE", "hands"),
        hand_su=r.cards(hands, "SU", "hands"),
        exposed=r.cards(obj, "exposed", "state"),
        eliminated=tuple(sorted(eliminated)),
        passes=get_field(obj, "passes", int, "state"),
        acting=r.maybe("unit", obj.get("acting"), "acting"),
        acted=get_field(obj, "acted", bool, "state"),
        recruited=get_field(obj, "recruited", bool, "state"),
        effects=effects,
        pending=pending,
        combat=combat,
        damage=damage,
        draws=tuple(draws),
        pick=pick,
        result=_result(game, obj.get("result")),
    )
    check_position(game, s)
    return s


def _combat(r: _Reader, raw: Any) -> Combat | None:
    if raw is None:
        return None
    c = require_dict(raw, "combat")
    return Combat(
        area=r.area(c.get("area"), "combat.area"),
        attacker=r.unit(c.get("attacker"), "combat.attacker"),
        step=_enum(Step, c.get("step"), "combat.step"),
        defender=r.maybe("unit", c.get("defender"), "combat.defender"),
        attack=r.placed(c.get("attack"), "combat.attack"),
        defence=r.placed(c.get("defence"), "combat.defence"),
        spent=tuple(
            p
            for i, raw_p in enumerate(get_field(c, "spent", list, "combat"))
            if (p := r.placed(raw_p, f"combat.spent[{i}]")) is not None
        ),
        support=r.maybe("unit", c.get("support"), "combat.support"),
        raiser=r.side(c.get("raiser"), "combat.raiser", allow_none=True),
        raises=as_int(c.get("raises"), "combat.raises"),
        effects=tuple(
            _choice(e, EFFECTS, f"combat.effects[{i}]")
            for i, e in enumerate(get_field(c, "effects", list, "combat"))
        ),
        refight=get_field(c, "refight", bool, "combat"),
        loser=r.side(c.get("loser"), "combat.loser", allow_none=True),
        isolation=None
        if c.get("isolation") is None
        else _choice(c.get("isolation"), ("retreat",), "combat.isolation"),
        staying=tuple(get_list(c, "staying", r.unit, "combat")),
        cause=_choice(c.get("cause", "combat"), DAMAGE_CAUSES, "combat.cause"),
    )


def _result(game: Rattenkrieg, raw: Any) -> Outcome | None:
    if raw is None:
        return None
    res = require_dict(raw, "result")
    winner = res.get("winner")
    if winner not in (None, *game.sides):
        raise InvalidInput("result.winner must be a side or null", field="result.winner")
    return Outcome(winner, (), str(res.get("clause", "")), str(res.get("reason", "")))
