"""Why an action is refused: `IllegalAction` naming the rule it breaks and its clauses.

Legality itself is the listing's (`rules.SNC.legal_actions`); these are the messages for what
it leaves out, by action kind, and the clause of each step (`STEP_CLAUSE`) for an action out of
place. A refused overrun step (`Overrun`, and `Join` or `Strike` while an overrun's group is
declared) gets its own reason from `overrun_steps.why_not`, naming SNC-9.6.x.
"""

from __future__ import annotations

from kernel.errors import IllegalAction
from specs.snc1937.rules.actions import (
    Action,
    Attack,
    Delay,
    Done,
    Join,
    Land,
    Loss,
    Move,
    Overrun,
    Place,
    Replace,
    Support,
)
from specs.snc1937.rules.state import Phase, SNCState, Step

STEP_CLAUSE = {
    Step.MAIN: "SNC-5.0.2",
    Step.JOIN: "SNC-10.0.5",
    Step.GROUP: "SNC-9.0.10",
    Step.SUPPORT_A: "SNC-11.1.1",
    Step.AIR_ASK: "SNC-11.3.1",
    Step.AIR_ROLL: "SNC-11.3.2",
    Step.SUPPORT_D: "SNC-11.1.4",
    Step.ROLL: "SNC-10.5.0.1",
    Step.LOSS_D: "SNC-10.5.2.1",
    Step.RETREAT: "SNC-8.4.0.9",
    Step.LOSS_A: "SNC-10.5.2.1",
    Step.ADVANCE: "SNC-10.5.3.5",
    Step.STACK: "SNC-6.0.4",
    Step.ELITE_ROLL: "SNC-8.1.2",
    Step.REPLACE: "SNC-8.3.4",
    Step.AIR_DEFENCE: "SNC-11.3.3",
    Step.INTERDICT_ROLL: "SNC-11.2.1",
    Step.INTERDICT: "SNC-11.2.2",
    Step.REINF_MOVE: "SNC-8.2.2",
    Step.ADVANCE_ON: "SNC-8.4.1.2",
}
"""The clause that says what is decided at each step."""


def illegal(message: str, *clauses: str) -> IllegalAction:
    return IllegalAction(f"{message} ({', '.join(clauses)})", clauses=clauses)


def refusal(s: SNCState, action: Action) -> IllegalAction:
    """Why `action` is refused in `s`: the rule it breaks, with its clauses; an action of a
    kind the step does not take names the step's clause (`STEP_CLAUSE`)."""
    if s.phase == Phase.DECLARE:
        return illegal(f"{s.side} first declares his phase order for this player turn", "SNC-5.3.1")
    if s.phase in (Phase.OPS1, Phase.OPS2):
        if isinstance(action, Move) and s.ops_kind() != "move":
            return illegal("no movement in a Fight phase", "SNC-5.3.2", "SNC-9.0.5")
        if isinstance(action, Attack) and s.ops_kind() != "fight":
            return illegal("no attack in a Move phase", "SNC-5.3.2", "SNC-10.0.1")
    if isinstance(action, Done) and s.phase == Phase.REINF:
        return illegal("reinforcements due this GT must be placed or delayed first", "SNC-5.4.1")
    found = _broken_rule(action)
    if found is not None:
        return found
    return illegal(
        f"a {type(action).__name__} action is not allowed now ({s.phase.value}, {s.step.value})",
        STEP_CLAUSE[s.step],
    )


def _broken_rule(action: Action) -> IllegalAction | None:
    """The rule an action of this kind breaks where the listing leaves it out, if the kind has
    one to name."""
    match action:
        case Move():
            return illegal(
                f"{', '.join(action.units)} cannot move to {action.to}: units of one hex, "
                "not yet moved, within their 8 MP, stopping on entering an EZOC, never "
                "into an enemy hex",
                "SNC-9.0.1",
                "SNC-7.2.1",
                "SNC-9.0.12",
            )
        case Overrun():
            return illegal(
                f"{action.target} cannot be overrun: Japanese units that start their move in "
                "one hex and move together, in a Move phase, against an adjacent Chinese hex "
                "that is no city or town, with the MP for it (entering plus 1)",
                "SNC-9.6.1",
                "SNC-9.6.2",
            )
        case Attack():
            return illegal(
                f"{action.target} cannot be attacked: an enemy hex next to a unit that has "
                "not attacked, not yet attacked this phase",
                "SNC-10.0.1",
                "SNC-10.0.8",
            )
        case Join():
            return illegal(
                f"{action.unit} cannot join: a non-static unit next to the target that has "
                "not attacked this phase",
                "SNC-10.0.7",
                "SNC-10.2.1",
            )
        case Place():
            return illegal(
                f"{action.unit} cannot arrive at {action.hex}: its listed hex or (from GT 3) "
                "a railroad hex with a LoC, never next to a Japanese unit",
                "SNC-8.2.1",
                "SNC-8.2.4",
            )
        case Land():
            return illegal(
                "a landing takes this GT's next group, whole, to one of its landing hexes, "
                "never against Chinese units a landing of this phase attacked already",
                "SNC-8.4.0.3",
                "SNC-8.4.1.1",
                "SNC-10.0.8",
            )
        case Delay():
            return illegal(
                "reinforcements must arrive this GT (reinforcement_delay=mandatory)",
                "SNC-5.4.1",
                "SNC-8.0.2",
            )
        case Loss():
            return illegal(
                f"{action.unit} cannot take this step: two-step units first, then the "
                "strongest; Japanese garrisons last",
                "SNC-10.5.2.1",
                "SNC-10.5.2.2",
                "SNC-10.5.2.3",
            )
        case Replace():
            return illegal(
                f"{action.unit} cannot be rebuilt: a reduced unit with a LoC to a landing "
                "hex, two steps per GT from GT 3",
                "SNC-8.3.1",
                "SNC-8.3.5",
            )
        case Support():
            return illegal(
                f"no {action.kind} marker may be added: one per category per combat, if "
                "one is left",
                "SNC-11.1.3",
                "SNC-11.1.5",
            )
    return None
