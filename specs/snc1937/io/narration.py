"""Readable SNC play logs: one line per action, headlines and the events an action causes.

A log names units by their ids and actions as `codec.action_text` writes them; a battle's
line shows how the players work it out (strengths, odds, each shift with its clause, the
final column, the die and the steps lost), and events name the clause that made them happen.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from specs.snc1937.io import codec
from specs.snc1937.rules.actions import Action, Join, Move, Overrun, Roll, Strike
from specs.snc1937.rules.odds import column_label
from specs.snc1937.rules.state import MF_MOBILE, Combat, SNCState, Step
from specs.snc1937.rules.tables import Tables, battle, crt

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules


def describe(game: SNCRules, s: SNCState, action: Action) -> str:
    side = game.to_move(s) or ""
    return f"{side}: {codec.action_text(action)}{_overrun_note(s, action)}{_group_note(s, action)}"


def _group_note(s: SNCState, action: Action) -> str:
    """What a step of a group formed unit by unit stands for (SNC-9.0.10, SNC-9.6.2;
    AMB-SNC-44): a unit opening or joining it, its first hex together."""
    if isinstance(action, Join) and s.step == Step.MAIN:
        return " (opens a group to move together, SNC-9.0.10)"
    if isinstance(action, Join) and s.step == Step.GROUP:
        return f" (joins {', '.join(s.moving)} to move together, SNC-9.0.10, SNC-9.6.2)"
    if isinstance(action, Move) and s.step == Step.GROUP:
        return " (the group's first hex together, SNC-9.0.10, SNC-9.6.2)"
    if isinstance(action, Move) and s.overrun_next == "owed":
        return " (together toward its overrun, SNC-9.6.2)"
    return ""


def _overrun_note(s: SNCState, action: Action) -> str:
    """What an overrun step stands for, from what both sides see (the combat is open): the
    group joined unit by unit and launched (SNC-9.6.2, SNC-9.6.1)."""
    c = s.combat
    if isinstance(action, Overrun) and s.step == Step.MAIN:
        return " (SNC-9.6.1)"
    if c is None or not c.overrun or s.step != Step.JOIN:
        return ""
    if isinstance(action, Join):
        return f" (to the group overrunning {c.target}, SNC-9.6.2)"
    if isinstance(action, Strike):
        return f" (the group overruns {c.target}, SNC-9.6.1)"
    return ""


def headline(s: SNCState) -> str:
    lines = [f"GT {s.turn}", f"{s.side} player turn", f"{s.phase.value}"]
    return "\n".join(lines)


def events(t: Tables, before: SNCState, action: Action, after: SNCState) -> list[str]:
    """What `action` caused: an overrun launched, the battle its die decided, the units
    eliminated, the end of the game."""
    out = []
    c = before.combat
    if isinstance(action, Roll) and before.step == Step.ROLL and c is not None:
        out.append(combat_line(t, before, c, action.face))
    launched = after.combat
    if (
        launched is not None
        and launched.overrun
        and after.step != Step.JOIN
        and (before.combat is None or before.step == Step.JOIN)
    ):
        out.append(overrun_line(before, after, launched))
    gone = after.dead - before.dead
    if gone:
        out.append(f"eliminated: {', '.join(sorted(gone))} (SNC-2.2.1.13)")
    if after.result is not None and before.result is None:
        out.append(f"game over: {after.result.reason} ({after.result.clause})")
    return out


def overrun_line(before: SNCState, after: SNCState, c: Combat) -> str:
    """An overrun launched: by whom (declared openly, SNC-10.0.5) and its MP (SNC-9.6.1,
    SNC-9.6.3); not from where, which the other side need not see (SNC-6.3.1)."""
    start = before.mp if before.moving else 2 * MF_MOBILE
    paid = Fraction(start - after.mp, 2)
    return (
        f"overrun of {c.target} by {', '.join(c.attackers)}: {paid} MP paid, "
        f"{Fraction(after.mp, 2)} left; the group stops to fight it (SNC-9.6.1, SNC-9.6.3)"
    )


def combat_line(t: Tables, s: SNCState, c: Combat, face: int) -> str:
    """The battle as the players work it out: strengths, odds, each shift with its clause,
    the final column, the die and the steps lost (SNC-10.3.x, SNC-10.4.x, SNC-10.5.x)."""
    found = battle(t, s, c)
    kind = "landing" if c.landing else "overrun" if c.overrun else "attack"
    shifts = ", ".join(
        f"{'+' if x.columns > 0 else ''}{x.columns} {x.why} ({x.clause})" for x in found.shifts
    )
    lost_a, lost_d = crt(t, s, c, face)
    return (
        f"{kind} on {c.target}: {found.attack}:{found.defence}, "
        f"{column_label(found.base)}{'; ' + shifts if shifts else ''}; final {found.label}; "
        f"die {face}: attacker loses {lost_a}, defender {lost_d} (SNC-10.5.0.1)"
    )


class SNCNarration:
    """The narration role (`kernel.roles.Narration`), built from the rules."""

    def __init__(self, rules: SNCRules) -> None:
        self.rules = rules

    def describe(self, s: SNCState, action: Action) -> str:
        return describe(self.rules, s, action)

    def headline(self, s: SNCState) -> str:
        return headline(s)

    def events(self, before: SNCState, action: Action, after: SNCState) -> list[str]:
        return events(self.rules.tables, before, action, after)
