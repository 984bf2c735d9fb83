"""The words of an explore report: where two readings part, what each allows or does there,
and what happens next, told from a finding's witness (`account`), with the helpers the
report's pictures share (the differing actions described, the ids they name)."""

from __future__ import annotations

import json
from typing import Any

from kernel.codec import dump_json
from kernel.errors import WargameError
from kernel.roles import AssembledGame
from solvers.checking.differences import Finding, rebind
from solvers.checking.explore import reading_variant


def ids_named(values: tuple[str, ...]) -> set[str]:
    """Strings inside the differing actions' JSON: unit ids and hex numbers to highlight."""
    out: set[str] = set()
    for text in values:
        try:
            data = json.loads(text.split(" p=")[0])
        except ValueError:
            continue
        stack = [data]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
            elif isinstance(x, str):
                out.add(x)
    return out


def describe_values(
    game: AssembledGame[Any, Any], state: Any, values: tuple[str, ...]
) -> tuple[str, ...]:
    lines = []
    for text in values[:14]:
        body, _, p = text.partition(" p=")  # a chance outcome carries its probability
        try:
            action = game.action_from_json(json.loads(body))
            lines.append(game.describe(state, action) + (f" (probability {p})" if p else ""))
        except (ValueError, WargameError):  # other non-actions: as they are
            lines.append(text[:110])
    if len(values) > 14:
        lines.append(f"... and {len(values) - 14} more")
    return tuple(lines) or ("(none)",)


def states_of(game: AssembledGame[Any, Any], f: Finding) -> tuple[Any, Any]:
    """The witness position under reading A and under reading B."""
    assert f.witness is not None
    a = game.state_from_json(f.witness.state)
    vb = reading_variant(game.catalogue, f.preset, f.option, f.reading_b)
    return a, rebind(game, a, vb)


def _listed(items: list[str], most: int = 6) -> str:
    """Items joined in words, the first `most` of them."""
    shown = items[:most]
    more = f"; and {len(items) - most} more" if len(items) > most else ""
    return "; ".join(shown) + more


def _field_diffs(label: str, x: dict[str, Any], y: dict[str, Any], ra: str, rb: str) -> list[str]:
    """One line per field whose value differs between the readings' records."""
    return [
        f"{label}{field}: {_value(x.get(field))} under {ra}, {_value(y.get(field))} under {rb}"
        for field in sorted(set(x) | set(y))
        if x.get(field) != y.get(field)
    ]


def _value(x: Any) -> str:
    text = dump_json(x)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _changes(game: AssembledGame[Any, Any], a: Any, b: Any, ra: str, rb: str) -> list[str]:
    """How two positions differ, field by field in words: per unit (by id) for lists of
    units, what one has and the other lacks for lists of names, both values otherwise."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    out: list[str] = []
    for k in sorted(set(ja) | set(jb)):
        x, y = ja.get(k), jb.get(k)
        if k == "variant" or x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            if all(isinstance(i, dict) and "id" in i for i in x + y):
                xs = {i["id"]: i for i in x}
                ys = {i["id"]: i for i in y}
                for uid in sorted(set(xs) | set(ys)):
                    out += _field_diffs(f"{uid} ", xs.get(uid, {}), ys.get(uid, {}), ra, rb)
                continue
            if all(not isinstance(i, (dict, list)) for i in x + y):
                only_x = [str(i) for i in x if i not in y]
                only_y = [str(i) for i in y if i not in x]
                out.append(
                    f"{k}: {', '.join(only_x) or 'nothing'} only under {ra}; "
                    f"{', '.join(only_y) or 'nothing'} only under {rb}"
                )
                continue
        if isinstance(x, dict) and isinstance(y, dict):
            out += _field_diffs(f"{k}.", x, y, ra, rb)
            continue
        if x is None or y is None:
            shown = "set" if isinstance(x or y, (dict, list)) else _value(x if y is None else y)
            x_said, y_said = (shown, "none") if y is None else ("none", shown)
            out.append(f"{k}: {x_said} under {ra}, {y_said} under {rb}")
            continue
        out.append(f"{k}: {_value(x)} under {ra}, {_value(y)} under {rb}")
    return out


def _ended(outcome: Any) -> str:
    if outcome is None:
        return "the game goes on"
    who = outcome.winner or "nobody"
    return f"the game is over, {who} wins ({outcome.clause}: {outcome.reason})"


def _next(
    game: AssembledGame[Any, Any], state: Any, other: Any, text: str, ra: str, rb: str
) -> str:
    """What happens when the side to move takes an action only reading `ra` allows: its
    events there, and why reading `rb` refuses it."""
    try:
        action = game.action_from_json(json.loads(text))
        after = game.apply(state, action)
    except (ValueError, WargameError):
        return ""
    said = game.describe(state, action)
    events = game.events(state, action, after)
    then = "; ".join(events) if events else "no event"
    then += f"; {_ended(game.outcome(after))}"
    why = ""
    try:
        game.apply(other, action)
    except WargameError as exc:
        missing = [c for c in exc.clauses if c not in exc.message]
        cited = f" ({', '.join(missing)})" if missing else ""
        why = f" Under {rb} the rules refuse it: {exc.message}{cited}."
    return f"What happens next: if “{said}” is played under {ra}: {then}.{why}"


def setup_changes(game: AssembledGame[Any, Any], f: Finding) -> list[str]:
    """How the two readings' set-ups differ, in words."""
    cat = game.catalogue
    va = reading_variant(cat, f.preset, f.option, f.reading_a)
    vb = reading_variant(cat, f.preset, f.option, f.reading_b)
    a, b = game.initial_state(va), game.initial_state(vb)
    return _changes(game, a, b, f.reading_a, f.reading_b) or ["(no field differs)"]


def account(game: AssembledGame[Any, Any], f: Finding) -> list[str]:
    """In plain words: where the two readings part, what each allows or does there, and what
    happens next (from the finding's witness); no lines without a witness."""
    w = f.witness
    if w is None:
        return []
    d = w.difference
    ra, rb = f.reading_a, f.reading_b
    if d.kind == "setup":
        return [
            "The two readings set the game up differently, before any action: "
            f"{_listed(setup_changes(game, f), 8)}."
        ]
    a, b = states_of(game, f)
    side = game.to_move(a)
    n = len(w.log)
    frm = origin(w.start, w.start_after, w.removed)
    where = f"After {n} action{'s' if n != 1 else ''} from {frm}" if n else f"At {frm}"
    if d.kind == "actions":
        out = [f"{where}, {side} is to move, and the readings allow different actions."]
        for reading, only, here in ((ra, d.only_a, a), (rb, d.only_b, b)):
            if only:
                allowed = list(describe_values(game, here, only))
                out.append(f"Only under {reading}, {side} may play: {_listed(allowed)}.")
            else:
                out.append(f"Under {reading}, nothing is allowed that the other refuses.")
        for reading, other_name, only, here, other in (
            (ra, rb, d.only_a, a, b),
            (rb, ra, d.only_b, b, a),
        ):
            if only:
                following = _next(game, here, other, only[0], reading, other_name)
                if following:
                    out.append(following)
                break
        return out
    if d.kind == "result_of_action":
        try:
            action = game.action_from_json(json.loads(d.only_a[0]))
            na, nb = game.apply(a, action), game.apply(b, action)
        except (ValueError, IndexError, WargameError):
            return [f"{where}: {d.detail}."]
        said = game.describe(a, action)
        out = [
            f"{where}, {side} is to move; the action “{said}” is allowed by both readings but "
            "leads to different positions."
        ]
        for reading, before, after in ((ra, a, na), (rb, b, nb)):
            events = game.events(before, action, after)
            then = "; ".join(events) if events else "no event"
            out.append(f"Under {reading}: {then}; {_ended(game.outcome(after))}.")
        changes = _changes(game, na, nb, ra, rb)
        if changes:
            out.append(f"The positions then differ in: {_listed(changes, 8)}.")
        return out
    if d.kind == "to_move":
        return [
            f"{where}, a different side is to move: {d.only_a[0]} under {ra}, "
            f"{d.only_b[0]} under {rb}."
        ]
    if d.kind == "outcome":
        return [
            f"{where}, the result differs: under {ra}, {_ended(game.outcome(a))}; "
            f"under {rb}, {_ended(game.outcome(b))}."
        ]
    if d.kind == "chance":
        out = [f"{where}, chance decides, and the outcomes or their odds differ."]
        for reading, only, here in ((ra, d.only_a, a), (rb, d.only_b, b)):
            if only:
                shown = _listed(list(describe_values(game, here, only[:2])), 2)
                more = f" (and {len(only) - 2} more)" if len(only) > 2 else ""
                out.append(
                    f"Under {reading}, {len(only)} outcome(s) the other reading does not give "
                    f"so{more}, such as: {shown}."
                )
        return out
    return [f"{where}: {d.detail}."]


def origin(start: Any, after: int, removed: tuple[str, ...]) -> str:
    """Where a log starts, in plain words: the set-up, the set-up without the units a shrink
    took off it ("the set-up without JP-3, JP-7"), or the position that many actions into
    play without them (where the rules take no unit out at the set-up)."""
    if start is None:
        return "the set-up"
    without = f" without {', '.join(removed)}" if removed else ""
    if after:
        return f"the position {after} action{'s' if after != 1 else ''} into play{without}"
    return f"the set-up{without}" if removed else "a position of its own (its start)"
