"""Exact counts of a ONE_TARGET shape's solutions (`count_one_target`).

Split from `combat_count` (which keeps the MANY programme and the `Histogram` both return):
a forward dynamic programme over the attackers in order, whose state is which open targets are
attacked (and, per supporter, within its reach), the targets an attack has made compulsory and
the use of each limited hexside.
"""

from __future__ import annotations

from collections import Counter

from solvers.queries.combat_count import Histogram
from solvers.queries.combat_shape import Shape


def count_one_target(
    shape: Shape, reach_attackers: list[frozenset[int]], reach_targets: list[frozenset[int]]
) -> Histogram:
    """Solutions of `shape` by number of combats each supporter could reach."""
    n = shape.n_attackers
    k = len(reach_attackers)
    reach = [shape.reach(a) for a in range(n)]
    hexside_of = {(a, t): h for a, t, h in shape.contacts}
    also = dict(shape.also_attack)
    last: dict[int, int] = {}
    for a, tgt, _ in shape.contacts:
        last[tgt] = max(last.get(tgt, -1), a)
    for a, ts in shape.also_attack:
        for tgt in ts:
            last[tgt] = max(last.get(tgt, -1), a)
    must = set(shape.must_be_attacked)
    if any(x not in last for x in must):
        return Counter()
    closing: dict[int, list[int]] = {}
    for target, at in last.items():
        closing.setdefault(at, []).append(target)
    limits = dict(shape.hexside_limits)
    h_last: dict[int, int] = {}
    for a, _, h in shape.contacts:
        if h in limits:
            h_last[h] = max(h_last.get(h, -1), a)
    must_attack = set(shape.must_attack)
    attack_all = {a for a in shape.attack_all if len(reach[a]) > 1}

    # state: (hit targets, frozenset of (target, supporter) reached, required targets,
    #         hexside uses as sorted pairs, totals per supporter)
    State = tuple[
        frozenset[int],
        frozenset[tuple[int, int]],
        frozenset[int],
        tuple[tuple[int, int], ...],
        tuple[int, ...],
    ]
    states: dict[State, int] = {(frozenset(), frozenset(), frozenset(), (), (0,) * k): 1}
    for a in range(n):
        options: list[int | None] = [] if a in must_attack else [None]
        if a not in attack_all:
            options.extend(reach[a])
        nxt: dict[State, int] = {}
        for (hit, reached, required, uses, totals), ways in states.items():
            for t in options:
                h_hit, h_reached, h_required, h_uses = hit, reached, required, dict(uses)
                if t is not None:
                    h_hit = hit | {t}
                    h_reached = reached | {
                        (t, s) for s in range(k) if a in reach_attackers[s] or t in reach_targets[s]
                    }
                    h_required = required | set(also.get(a, ()))
                    h = hexside_of.get((a, t), -1)
                    if h in limits:
                        h_uses[h] = h_uses.get(h, 0) + 1
                        if h_uses[h] > limits[h]:
                            continue
                new_totals = list(totals)
                ok = True
                for done in closing.get(a, ()):
                    attacked = done in h_hit
                    if not attacked and (done in must or done in h_required):
                        ok = False
                        break
                    if attacked:
                        for s in range(k):
                            if (done, s) in h_reached:
                                new_totals[s] += 1
                    h_hit = h_hit - {done}
                    h_reached = frozenset(x for x in h_reached if x[0] != done)
                    h_required = h_required - {done}
                if not ok:
                    continue
                for h in [h for h, at in h_last.items() if at == a]:
                    h_uses.pop(h, None)
                key: State = (
                    frozenset(h_hit),
                    frozenset(h_reached),
                    frozenset(h_required),
                    tuple(sorted(h_uses.items())),
                    tuple(new_totals),
                )
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    out: Histogram = Counter()
    for (_, _, _, _, totals), ways in states.items():
        out[totals] += ways
    return out
