"""The position check: a Nomonhan position that no play of the rules can reach is refused.

`check_position` runs on every state the codec reads (and every state `apply` returns passes
it, which the closure tests check on real play). It refuses with `ImpossiblePosition` naming the
JSON path of the offending value and the clauses. Two kinds of check:

- The spec's state invariants that hold in the state's variant (`properties.invariants_for`):
  each is written once, in `invariants`, and proved over the symbolic model; a position that
  breaks one is refused with the property ID first among the clauses.
- What the invariants do not say: each stage's records agreeing with each other and with the
  pieces (combats between the right sides, a combat under way that began in contact, damage and
  advance within the dice, a result that follows from the clause and the points), counters
  within the rules' bounds, the turn within the game's length, the readings that allow a
  record at all. These are written here, each citing its clauses, and read the variant where
  the rules do.

Checks run in order, cheapest and most basic first, so that each can rely on the ones before
(ids known, units in data order, steps within the counter).

A pending combat whose units are no longer in contact is refused only where no play reaches
it. Combats are declared all at once, in contact (NOM-9.6, NOM-9.8), and before one is resolved
only the participants of the combat under way move: its losers retreat, its winners advance.
Where only participants advance (`advance_units=participants`, AMB-NOM-21; the `ja` preset) no
unit of another pending combat ever moves, so NOM-P-PENDING-IN-CONTACT holds and refuses the
position (`properties.HOLDS_UNDER`). Where any friendly counter may advance (`any_friendly`,
`en`), an advance may carry a unit of a pending combat out of contact (AMB-NOM-19; such a
combat is then cut down or resolved as `disturbed_combats` says), and a position does not
record whether a combat was resolved earlier in the phase: every stage with pending combats
(pick, roll, damage, advance) can follow one. So no such position is refused under
`any_friendly`, and `wargame verify` reports NOM-P-PENDING-IN-CONTACT as failing there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kernel.errors import ImpossiblePosition
from specs.nomonhan.formal.invariants import Breach
from specs.nomonhan.formal.position_combat import combat_sides, combats, current, declare, support
from specs.nomonhan.formal.properties import BREACHES, invariants_for
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.rules_object import NomonhanRules
from specs.nomonhan.rules.sequence import points, points_winner, sudden_death_condition
from specs.nomonhan.rules.state import NomonhanState, Stage
from specs.nomonhan.rules.strength import full_steps

Check = Callable[[Board, NomonhanState], Breach | None]


def check_position(board: Board, state: NomonhanState) -> None:
    """Refuse a position the rules cannot reach (ImpossiblePosition naming field and clauses)."""
    for check in _BEFORE:
        _refuse(check(board, state))
    for prop in invariants_for(state.variant):
        breach = BREACHES[prop.id](state)
        if breach is not None:
            raise ImpossiblePosition(
                f"{breach.message} (breaks {prop.id}: {', '.join(breach.clauses)})",
                field=breach.field,
                clauses=(prop.id, *breach.clauses),
            )
    for check in _AFTER:
        _refuse(check(board, state))


def _refuse(breach: Breach | None) -> None:
    if breach is not None:
        raise ImpossiblePosition(
            f"{breach.message} ({', '.join(breach.clauses)})",
            field=breach.field,
            clauses=breach.clauses,
        )


# --- the pieces ------------------------------------------------------------------------------


def _roster(board: Board, state: NomonhanState) -> Breach | None:
    """Every counter of the game once, in the counter list's order (NOM-2.5), and only known
    unit ids in the other records."""
    specs = board.data.units
    if len(state.units) != len(specs):
        return Breach("units", ("NOM-2.5",), f"the game has {len(specs)} units")
    for i, (u, spec) in enumerate(zip(state.units, specs, strict=True)):
        if u.id != spec.id:
            return Breach(f"units[{i}].id", ("NOM-2.5",), f"unit {i} is {spec.id}, not {u.id}")
    for path, uid in _unit_refs(state):
        if uid not in board.side_of:
            return Breach(path, ("NOM-2.5",), f"{uid!r} is no unit of this game")
    return None


def _unit_refs(state: NomonhanState) -> Iterator[tuple[str, str]]:
    """Every unit id a state names outside `units`, with its JSON path."""
    for name, ids in (("moved", state.moved), ("withdrawn", state.withdrawn)):
        for k, uid in enumerate(sorted(ids)):
            yield f"{name}[{k}]", uid
    for path, c in combats(state):
        for role in ("attackers", "defenders"):
            for k, uid in enumerate(getattr(c, role)):
                yield f"{path}.{role}[{k}]", uid
    cur = state.current
    if cur is not None:
        for uid, _ in cur.start_hexes:
            yield f"current.start_hexes.{uid}", uid
        for k, uid in enumerate(sorted(cur.retreated)):
            yield f"current.retreated[{k}]", uid


def _units(board: Board, state: NomonhanState) -> Breach | None:
    """Steps within the counter (NOM-2.5, NOM-9.24; one step for the JA Artillery, NOM-9.28),
    hexes on the map (NOM-2.4)."""
    for i, u in enumerate(state.units):
        spec = board.data.unit(u.id)
        full = full_steps(state.variant, spec)
        if not 0 <= u.steps <= full:
            return Breach(
                f"units[{i}].steps",
                ("NOM-2.5", "NOM-9.24"),
                f"{u.id} has {u.steps} steps; at full strength it has {full}",
            )
        if u.hex is not None and not board.on_map(u.hex):
            return Breach(f"units[{i}].hex", ("NOM-2.4",), f"hex {u.hex} is not on the map")
    return None


def _turn_limit(board: Board, state: NomonhanState) -> Breach | None:
    """JA's game ends after the last box of the turn track (NOM-5.5, AMB-NOM-4)."""
    last = board.data.turn_boxes
    if state.variant.is_("game_end", "turn8") and state.turn > last:
        return Breach(
            "turn",
            ("NOM-5.5",),
            f"the game ends after Turn {last} (game_end=turn8), so there is no Turn {state.turn}",
        )
    return None


def _withdrawn(board: Board, state: NomonhanState) -> Breach | None:
    """A reinforcement is lost only under `reinforcement_timing=lost`, when its turn gave its
    side no Movement Phase, at that turn's end; it never arrived (NOM-8.8, AMB-NOM-18)."""
    lost = state.variant.is_("reinforcement_timing", "lost")
    for k, uid in enumerate(sorted(state.withdrawn)):
        spec = board.data.unit(uid)
        u = state.unit(uid)
        where = f"withdrawn[{k}]"
        if not lost:
            return Breach(
                where, ("NOM-8.8",), "no reinforcement is ever lost in this variant (AMB-NOM-18)"
            )
        if spec.gt is None:
            return Breach(where, ("NOM-8.8",), f"{uid} is no reinforcement")
        if u.hex is not None or u.steps != full_steps(state.variant, spec):
            return Breach(where, ("NOM-8.8",), f"{uid} arrived, so it was not lost")
        ip_then = "JP" if spec.gt % 2 == 1 else "SU"
        if spec.side == ip_then:
            return Breach(
                where,
                ("NOM-8.8", "NOM-6.5"),
                f"{uid} is {ip_then}'s, the initiative player of Turn {spec.gt}, which always has "
                "a Movement Phase",
            )
        turn_over = state.stage in (Stage.END_ROLL, Stage.OVER) and state.current is None
        if state.turn < spec.gt or (state.turn == spec.gt and not turn_over):
            return Breach(where, ("NOM-8.8",), f"{uid} is lost only once Turn {spec.gt} is over")
    return None


def _demolition(board: Board, state: NomonhanState) -> Breach | None:
    """The pontoon bridge is blown only where demolition is in force (NOM-OPT.1), and under
    the JA optional rule only once a Japanese unit is reduced (NOM-OPT.2; steps never come
    back)."""
    if not state.demolished:
        return None
    v = state.variant
    if v.is_("demolition", "off") or board.map.pontoon is None:
        return Breach(
            "demolished",
            ("NOM-OPT.1",),
            "pontoon demolition is not in force in this variant (demolition=off)",
        )
    if v.is_("demolition", "optional_ja") and not any(
        u.steps < full_steps(v, board.data.unit(u.id))
        for u in state.units
        if board.side_of[u.id] == "JP"
    ):
        return Breach(
            "demolished",
            ("NOM-OPT.2",),
            "the JA optional demolition needs a reduced Japanese unit, and none has lost a step",
        )
    return None


# --- the turn and its end --------------------------------------------------------------------


def _initiative_change(board: Board, state: NomonhanState) -> Breach | None:
    """An initiative change happens at the first damage point the initiative player takes
    (NOM-6.2): under `finish_combat` its combat then goes on with the change pending; under
    `immediate` the turn ends at once (AMB-NOM-6). The end-of-turn roll may be made at the
    change (AMB-NOM-5, `end_roll_timing=at_change`), once (NOM-5.4)."""
    cur = state.current
    v = state.variant
    if cur is not None and cur.loser is not None:
        hit = cur.loser == state.initiative and cur.damage_done > 0
        if v.is_("initiative_change", "immediate") and hit:
            return Breach(
                "current.damage_done",
                ("NOM-6.2",),
                "the initiative player has taken damage, which ends the turn at once "
                "(initiative_change=immediate)",
            )
        if hit != state.turn_ending:
            return Breach(
                "turn_ending",
                ("NOM-6.2",),
                "the initiative changes exactly when an initiative player's unit has retreated "
                "or lost a step in combat",
            )
    rolls = board.data.end_roll
    if state.stage == Stage.END_ROLL and state.turn not in rolls:
        return Breach(
            "stage",
            ("NOM-5.4",),
            f"the end-of-turn die is rolled only at the end of Turns {sorted(rolls)}",
        )
    at_change = v.is_("end_roll_timing", "at_change")
    combat_goes_on = state.turn_ending and state.stage in (Stage.DAMAGE, Stage.ADVANCE)
    if state.end_rolled and not (
        at_change and state.turn in rolls and (combat_goes_on or state.stage == Stage.OVER)
    ):
        return Breach(
            "end_rolled",
            ("NOM-5.4",),
            "the end-of-turn roll is made early only at an initiative change, in a turn that has "
            "one, while that combat goes on (end_roll_timing=at_change, AMB-NOM-5)",
        )
    if at_change and combat_goes_on and state.turn in rolls and not state.end_rolled:
        return Breach(
            "end_rolled",
            ("NOM-5.4",),
            "at the initiative change of this turn the end-of-turn die was rolled "
            "(end_roll_timing=at_change, AMB-NOM-5)",
        )
    return None


def _result(board: Board, state: NomonhanState) -> Breach | None:
    """A finished game has a result and only it (NOM-4.3); the result follows from its clause:
    a sudden death with its winner (NOM-4.1, NOM-4.2), or the end-of-turn roll (NOM-5.4) or the
    last turn (NOM-5.5) with the points deciding (NOM-4.3, NOM-4.4); its points are the points
    of the position (NOM-4.5, NOM-4.6)."""
    result = state.result
    if (state.stage == Stage.OVER) != (result is not None):
        return Breach(
            "result",
            ("NOM-4.3",),
            "a finished game has a result" if result is None else "only a finished game has one",
        )
    if result is None:
        return None
    score = points(board, state)
    if dict(result.points) != score:
        return Breach(
            "result.points",
            ("NOM-4.3", "NOM-4.5", "NOM-4.6"),
            f"the final points are the position's, {score}, not {dict(result.points)}",
        )
    met = sudden_death_condition(board, state)
    if result.clause in ("NOM-4.1", "NOM-4.2"):
        if met is None or met[0] != result.clause:
            return Breach(
                "result.clause",
                (result.clause,),
                f"the game cannot have ended by {result.clause}: its condition is not met",
            )
        return None  # the winner follows from the condition (NOM-P-SUDDEN-DEATH)
    if met is not None:
        return Breach(
            "result.clause",
            (met[0],),
            f"{met[1]}: the game ended there ({met[0]}), not by {result.clause}",
        )
    if result.clause == "NOM-5.4" and state.turn not in board.data.end_roll:
        return Breach(
            "result.clause",
            ("NOM-5.4",),
            f"no end-of-turn die is rolled in Turn {state.turn}",
        )
    if result.clause == "NOM-5.5" and not (
        state.variant.is_("game_end", "turn8") and state.turn == board.data.turn_boxes
    ):
        return Breach(
            "result.clause",
            ("NOM-5.5",),
            f"the game ends automatically only after Turn {board.data.turn_boxes} (game_end=turn8)",
        )
    winner, why = points_winner(state, score)
    if result.winner != winner:
        return Breach(
            "result.winner",
            ("NOM-4.3", "NOM-4.4"),
            f"on {why} the winner is {winner or 'nobody'}, not {result.winner or 'nobody'}",
        )
    return None


_BEFORE: tuple[Check, ...] = (_roster, _units, _turn_limit)
"""What every other check relies on: known units in order, steps and hexes in bounds."""
_AFTER: tuple[Check, ...] = (
    _withdrawn,
    _demolition,
    combat_sides,
    support,
    declare,
    current,
    _initiative_change,
    _result,
)
"""The records agreeing with each other and with the pieces, once the invariants hold (so
that, for one, a combat under way is known to be at a combat stage with its loser set)."""


class NomonhanPositionCheck:
    """The position check role (`kernel.roles.PositionCheck`) of the rules it is built from."""

    def __init__(self, rules: NomonhanRules) -> None:
        self.rules = rules

    def check_position(self, state: NomonhanState) -> None:
        """Refuse a position no play can reach, naming the JSON path and the clauses; the
        spec's invariants that hold in the state's variant included."""
        check_position(self.rules.board, state)
