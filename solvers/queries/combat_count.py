"""Exact counts of a shape's solutions without enumerating them.

Forward dynamic programmes over the attackers in order. The state keeps only what later
attackers can still change; a unit leaves it after the last attacker that reads it, its
obligations checked then. On a front the open set stays small, so astronomically many
assignments are counted in milliseconds. The result is a histogram: for each vector of
"combats within reach of supporter k", how many solutions have it, which is what the support
choices multiply.
- ONE_TARGET (`combat_count_one.count_one_target`): which open targets are attacked (and, per
  supporter, within its reach), the targets an attack has made compulsory, the use of each
  limited hexside.
- MANY (`count_many`): each open target's combat and the part of it connected so far, which
  combats have an attacker and which supporters reach them, the same obligations and limits.
  Identical targets (same contacts, obligations, hexsides, supporters) are interchangeable, so
  states equal up to a permutation of them are merged: a complete component of 16 units, with
  billions of assignments, is counted in a second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

import attrs

from solvers.queries.combat_shape import Shape

Histogram = Counter[tuple[int, ...]]


# --- MANY ----------------------------------------------------------------------------------

# A frontier state: the label of each open target (idle, or its combat and, within the
# combat, the part of it connected so far), then per open combat whether it has an attacker
# and which supporters reach it, the targets not yet met that an attack made compulsory, the
# use of each limited hexside still open, and the combats within each supporter's reach so far.
_Idle = -1
ManyState = tuple[
    tuple[tuple[int, int], ...],  # (target, label): label _Idle or combat * _PARTS + part
    tuple[tuple[bool, int], ...],  # per combat: (has an attacker, supporters reaching it)
    int,  # mask of targets not yet met that must be attacked (also-attack)
    tuple[tuple[int, int], ...],  # (hexside, attackers across it)
    tuple[int, ...],  # combats within each supporter's reach, closed so far
]
_PARTS = 1 << 16


def _normal(
    frontier: list[tuple[int, int]],
    combats: list[tuple[bool, int]],
    required: int,
    uses: dict[int, int],
    totals: tuple[int, ...],
    alike: dict[int, int] | None = None,
) -> ManyState:
    """Combats and their parts renumbered by first appearance over the open targets in order,
    so that states equal up to names are one state. With `alike` (target -> its class of
    identical targets: same contacts, obligations, hexsides, supporters), the labels of each
    class are also handed out in sorted order: a permutation of identical targets, which
    changes no count, so that states equal up to one are one state (symmetry breaking)."""
    state = _renumber(frontier, combats, required, uses, totals)
    if alike is None:
        return state
    front, kept = state[0], state[1]
    # each part by the classes of its targets, each combat by its own and its parts'
    parts: dict[int, list[int]] = {}
    for t, lab in front:
        if lab != _Idle:
            parts.setdefault(lab, []).append(alike[t])
    part_sig = {lab: tuple(sorted(cls)) for lab, cls in parts.items()}
    by_combat: dict[int, list[int]] = {}
    for lab in parts:
        by_combat.setdefault(lab // _PARTS, []).append(lab)
    combat_sig = {
        g: (kept[g], tuple(sorted(part_sig[lab] for lab in labs))) for g, labs in by_combat.items()
    }
    order = sorted(by_combat, key=lambda g: combat_sig[g])
    relabel: dict[int, int] = {_Idle: _Idle}
    for new_g, g in enumerate(order):
        for new_p, lab in enumerate(sorted(by_combat[g], key=lambda x: part_sig[x])):
            relabel[lab] = new_g * _PARTS + new_p
    # the labels of each class of identical targets, handed out in sorted order
    members: dict[int, list[int]] = {}
    for i, (t, _) in enumerate(front):
        members.setdefault(alike[t], []).append(i)
    out = [(t, relabel[lab]) for t, lab in front]
    for rows in members.values():
        if len(rows) > 1:
            labels = sorted(out[i][1] for i in rows)
            for i, lab in zip(rows, labels, strict=True):
                out[i] = (out[i][0], lab)
    return (tuple(out), tuple(kept[g] for g in order), *state[2:])


def _renumber(
    frontier: list[tuple[int, int]],
    combats: list[tuple[bool, int]] | tuple[tuple[bool, int], ...],
    required: int,
    uses: dict[int, int],
    totals: tuple[int, ...],
) -> ManyState:
    combat_of: dict[int, int] = {}
    part_of: dict[int, int] = {}
    out: list[tuple[int, int]] = []
    kept: list[tuple[bool, int]] = []
    for t, label in frontier:
        if label == _Idle:
            out.append((t, _Idle))
            continue
        g = label // _PARTS
        if g not in combat_of:
            combat_of[g] = len(combat_of)
            kept.append(combats[g])
        if label not in part_of:
            part_of[label] = sum(1 for x in part_of if x // _PARTS == g)
        out.append((t, combat_of[g] * _PARTS + part_of[label]))
    return (tuple(out), tuple(kept), required, tuple(sorted(uses.items())), totals)


def count_many(
    shape: Shape, reach_attackers: list[frozenset[int]], reach_targets: list[frozenset[int]]
) -> Histogram:
    """Solutions of a MANY `shape` by number of combats each supporter could reach.

    A forward dynamic programme over the attackers in order (a transfer matrix along the
    front). A target enters the state at its first attacker in contact, labelled idle or with
    a combat (one already open, or a new one) as a part of its own; an attacker then stays
    idle or joins the combat of one of its targets, joining the parts of that combat it
    touches; a target leaves after the last attacker that reads it. A part that leaves while
    its combat has other parts open can never be joined to them: that state dies. A combat
    whose last target leaves is complete: it needs an attacker, and it is counted against the
    supporters that reach it. The state holds only the open targets (a few along a front), so
    a 16-attacker front is counted in a fraction of a second."""
    lay = _layout(shape, reach_attackers, reach_targets)
    if lay is None:
        return Counter()
    states: dict[ManyState, int] = {((), (), 0, (), (0,) * len(reach_attackers)): 1}
    for a in range(shape.n_attackers):
        for t in sorted(lay.enter[a]):
            states = _enter(lay, t, states)
        states = _attack(lay, a, states)
    out: Histogram = Counter()
    for (frontier, combats, required, _, totals), ways in states.items():
        if not frontier and not combats and not required:
            out[totals] += ways
    return out


@attrs.frozen
class _Layout:
    """A MANY shape laid out for `count_many`'s sweep over its attackers."""

    near: list[list[int]]  # each attacker's targets in contact
    touched: list[list[int]]  # each target's attackers in contact
    hexside_of: dict[tuple[int, int], int]  # (attacker, target) -> the hexside between
    limits: dict[int, int]  # limited hexside -> attackers it lets across
    h_last: dict[int, int]  # limited hexside -> the last attacker across it
    also: dict[int, tuple[int, ...]]  # attacker -> the targets its attack makes compulsory
    must_a: set[int]  # attackers that must attack
    must_t: set[int]  # targets that must be attacked
    forced: set[int]  # attackers that attack all their targets if any
    last: dict[int, int]  # target -> the last attacker that reads it (contact or also-attack)
    enter: list[list[int]]  # per attacker: the targets it is the first in contact with
    leave: list[list[int]]  # per attacker: the targets it is the last to read
    bits_a: list[int]  # per attacker: the supporters that reach it, as a mask
    bits_t: list[int]  # per target: the supporters that reach it, as a mask
    alike: dict[int, int]  # target -> its class of identical targets (`_normal`)


def _layout(
    shape: Shape, reach_attackers: list[frozenset[int]], reach_targets: list[frozenset[int]]
) -> _Layout | None:
    """The layout of `shape`, or None when it has no solution (a unit that must attack or be
    attacked has no contact)."""
    n, m, k = shape.n_attackers, shape.n_targets, len(reach_attackers)
    near: list[list[int]] = [[] for _ in range(n)]
    touched: list[list[int]] = [[] for _ in range(m)]
    hexside_of: dict[tuple[int, int], int] = {}
    for a, t, h in shape.contacts:
        near[a].append(t)
        touched[t].append(a)
        hexside_of[a, t] = h
    limits = dict(shape.hexside_limits)
    h_last: dict[int, int] = {}
    for a, _, h in shape.contacts:
        if h in limits:
            h_last[h] = max(h_last.get(h, -1), a)
    also = dict(shape.also_attack)
    must_a, must_t, forced = (
        set(shape.must_attack),
        set(shape.must_be_attacked),
        set(shape.attack_all),
    )
    if any(not touched[t] for t in must_t) or any(not near[a] for a in must_a):
        return None
    last = {t: max(touched[t]) for t in range(m) if touched[t]}
    for a, ts in also.items():
        for t in ts:
            if t in last:
                last[t] = max(last[t], a)
    enter: list[list[int]] = [[] for _ in range(n)]
    leave: list[list[int]] = [[] for _ in range(n)]
    for t, at in last.items():
        enter[min(touched[t])].append(t)
        leave[at].append(t)
    bits_a = [sum(1 << s for s in range(k) if a in reach_attackers[s]) for a in range(n)]
    bits_t = [sum(1 << s for s in range(k) if t in reach_targets[s]) for t in range(m)]
    alike = _classes(
        [
            (
                tuple(touched[t]),
                t in must_t,
                tuple(sorted(a for a, ts in also.items() if t in ts)),
                tuple(hexside_of[a, t] for a in touched[t]),
                bits_t[t],
            )
            for t in range(m)
        ]
    )
    return _Layout(
        near=near,
        touched=touched,
        hexside_of=hexside_of,
        limits=limits,
        h_last=h_last,
        also=also,
        must_a=must_a,
        must_t=must_t,
        forced=forced,
        last=last,
        enter=enter,
        leave=leave,
        bits_a=bits_a,
        bits_t=bits_t,
        alike=alike,
    )


def _enter(lay: _Layout, t: int, states: dict[ManyState, int]) -> dict[ManyState, int]:
    """Target `t` enters: idle (unless it must be attacked), in an open combat as a part of
    its own, or in a new combat."""
    grown: dict[ManyState, int] = {}
    bit = 1 << t
    for (frontier, combats, required, uses, totals), ways in states.items():
        options: list[tuple[int, list[tuple[bool, int]]]] = []
        if t not in lay.must_t and not required & bit:
            options.append((_Idle, list(combats)))
        for g in range(len(combats)):
            parts = {lab % _PARTS for _, lab in frontier if lab != _Idle and lab // _PARTS == g}
            now = list(combats)
            now[g] = (now[g][0], now[g][1] | lay.bits_t[t])
            options.append((g * _PARTS + len(parts), now))
        options.append((len(combats) * _PARTS, [*combats, (False, lay.bits_t[t])]))
        for label, now in options:
            key = _normal(
                [*frontier, (t, label)], now, required & ~bit, dict(uses), totals, lay.alike
            )
            grown[key] = grown.get(key, 0) + ways
    return grown


_Placed = tuple[list[tuple[int, int]], list[tuple[bool, int]], int, dict[int, int]]
"""A state's frontier, combats, required targets and hexside uses once an attacker is placed."""


def _attack(lay: _Layout, a: int, states: dict[ManyState, int]) -> dict[ManyState, int]:
    """Attacker `a`: idle (unless it must attack), or in the combat of one of its targets;
    then the targets it is the last to read leave."""
    moved: dict[ManyState, int] = {}
    for state, ways in states.items():
        frontier, combats, required, uses, totals = state
        label_of = dict(frontier)
        mine = [label_of[t] for t in lay.near[a]]
        choices: list[int | None] = [] if a in lay.must_a else [None]
        choices.extend(sorted({lab // _PARTS for lab in mine if lab != _Idle}))
        for choice in choices:
            placed: _Placed | None = (list(frontier), list(combats), required, dict(uses))
            if choice is not None:
                placed = _join(lay, a, choice, state, label_of, mine)
            if placed is None:
                continue
            front, now, req, use = placed
            result = _leave(front, now, req, use, totals, lay.leave[a], lay.h_last, a, lay.alike)
            if result is not None:
                moved[result] = moved.get(result, 0) + ways
    return moved


def _join(
    lay: _Layout, a: int, g: int, state: ManyState, label_of: dict[int, int], mine: list[int]
) -> _Placed | None:
    """Attacker `a` in combat `g`: the parts of `g` it touches (`mine`: its targets' labels)
    joined into one, the targets its attack makes compulsory required, the limited hexsides
    it crosses into `g` used; None when a rule forbids it (an attack-all attacker with a
    target outside `g`, a compulsory target left idle or gone, a hexside over its limit)."""
    frontier, combats, required, uses, _ = state
    if a in lay.forced and any(lab == _Idle or lab // _PARTS != g for lab in mine):
        return None
    joined = {lab for lab in mine if lab != _Idle and lab // _PARTS == g}
    into = min(joined)
    front = [(t, into if lab in joined else lab) for t, lab in frontier]
    now = list(combats)
    now[g] = (True, now[g][1] | lay.bits_a[a])
    for t in lay.also.get(a, ()):
        if t in label_of:
            if label_of[t] == _Idle:
                return None
        elif t in lay.last and min(lay.touched[t]) > a:
            required |= 1 << t
        else:
            return None
    crossed = {
        lay.hexside_of[a, t]
        for t in lay.near[a]
        if lay.hexside_of[a, t] in lay.limits
        and label_of[t] != _Idle
        and label_of[t] // _PARTS == g
    }
    use = dict(uses)
    for h in crossed:
        use[h] = use.get(h, 0) + 1
        if use[h] > lay.limits[h]:
            return None
    return front, now, required, use


def _leave(
    frontier: list[tuple[int, int]],
    combats: list[tuple[bool, int]],
    required: int,
    uses: dict[int, int],
    totals: tuple[int, ...],
    leaving: list[int],
    h_last: dict[int, int],
    a: int,
    alike: dict[int, int],
) -> ManyState | None:
    """The state once the targets no later attacker reads have left (None: it dies)."""
    gone = set(leaving)
    rest = [(t, lab) for t, lab in frontier if t not in gone]
    staying = {lab for _, lab in rest if lab != _Idle}
    going = {lab for t, lab in frontier if t in gone and lab != _Idle} - staying
    totals_now = list(totals)
    for g in sorted({lab // _PARTS for lab in going}):
        if any(lab // _PARTS == g for lab in staying):
            return None  # a part closes apart from the rest of its combat
        if sum(1 for lab in going if lab // _PARTS == g) > 1:
            return None  # the combat closes in pieces
        has_attacker, reach = combats[g]
        if not has_attacker:
            return None
        for s in range(len(totals_now)):
            if reach >> s & 1:
                totals_now[s] += 1
    for h in [h for h, at in h_last.items() if at == a]:
        uses.pop(h, None)
    return _normal(rest, combats, required, uses, tuple(totals_now), alike)


def _classes(signatures: list[Hashable]) -> dict[int, int]:
    """Each index -> the first index with the same signature."""
    first: dict[Hashable, int] = {}
    return {i: first.setdefault(sig, i) for i, sig in enumerate(signatures)}
