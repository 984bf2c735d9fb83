"""MANY grouping in Z3: each unit labelled by its combat; the search over combats in order.

A combat is a connected group of attackers and targets. A literal per combat (one per connected
group) grows exponentially with a dense front: thousands of groups at 12 attackers. Here each
unit carries a label instead, naming its combat by the combat's first attacker r (the canonical
labelling breaks the symmetry of combat names): la(b, r) "attacker b fights in r's combat",
lt(t, r) "target t is attacked in r's combat", only for units that can reach r through
attackers after r. A combat is connected: its targets hold it together (each of its attackers
touches one of them), so where r's combat can have only a few targets, every way to split the
set of its targets in two is bridged by one of its attackers (cuts); beyond that, a spanning
tree rooted at r, every other member naming a neighbour in its combat as parent at a smaller
depth (unary counters; attackers and targets alternate, so attackers count even steps and
targets odd ones). The formula grows with the contacts, not with the groups.

The search is the canonical order: attackers in order, each already placed in an earlier combat,
or idle, or first attacker of a combat. A combat is listed by its attackers then its targets as
sorted tuples: its next attacker (or none more) step by step, then the set of its targets at
once (few, and the same sets recur, so they are worked out once per attackers and free targets).
Plain bitmask reasoning on the group being formed (can it still be connected? does an attack-all
attacker have all its targets?) and on the obligations left (can every obliged attacker still
attack, every target that must be attacked still be reached?) drops the branches that cannot
hold a solution, so on most shapes no leaf fails. Once every target that must be attacked is,
and no other rule applies, Z3 is asked once whether any way to finish breaks a rule
(`combat_search`); the rest of a dense front is then listed without a check each.

The search's nodes are keys of what is left to place (the attackers still free, the targets
still attackable), so the same node met under many paths is worked out once.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

from solvers import smt
from solvers.queries.combat_masks import Unions, bits, lex_subsets
from solvers.queries.combat_search import Branch, Rules, Search
from solvers.queries.combat_shape import LocalCombat, Shape

CUT_TARGETS = 4  # connectivity by cuts up to this many possible targets, else a spanning tree

# search states, the first item naming the kind of node that comes next
NEXT_ATTACKER = 0  # (0, attacker, placed, used)
ATTACKERS = 1  # (1, first attacker, candidate index, members, placed, used)
TARGETS = 2  # (2, first attacker, members, placed, used)


class ManySearch(Search):
    def __init__(
        self, shape: Shape, rlimit: int = smt.DEFAULT_RLIMIT, *, formula: bool = True
    ) -> None:
        """`formula=False` makes the structure alone, without Z3 (for `count_structure`)."""
        self.shape = shape
        n, m = shape.n_attackers, shape.n_targets
        self.n = n
        near_a = [0] * n  # attacker -> mask of targets in contact
        near_t = [0] * m  # target -> mask of attackers in contact
        for a, t, _ in shape.contacts:
            near_a[a] |= 1 << t
            near_t[t] |= 1 << a
        self.near_a, self.near_t = near_a, near_t
        self.of_a, self.of_t = Unions(near_a), Unions(near_t)
        self.forced = sum(1 << a for a in shape.attack_all)  # must attack all their contacts
        self.must_a = sum(1 << a for a in shape.must_attack)
        self.must_t = sum(1 << t for t in shape.must_be_attacked)
        self.all_t = (1 << m) - 1
        self.all_a = (1 << n) - 1
        # the units that may share a combat with first attacker r
        self.team_a: dict[int, int] = {}
        self.team_t: dict[int, int] = {}
        for r in range(n):
            if near_a[r]:
                later = ((1 << n) - 1) & ~((1 << r) - 1)
                self.team_a[r], self.team_t[r] = self._reach(1 << r, later, (1 << m) - 1)
        self.engaged = sum(1 << b for b in self.team_a)  # attackers in contact with someone
        self.after = {r: bits(self.team_a[r] & ~(1 << r)) for r in self.team_a}
        self._target_sets: dict[tuple[int, int], list[tuple[int, list[Any], LocalCombat]]] = {}
        limits = dict(shape.hexside_limits)
        across: dict[int, set[int]] = {}
        for b, _, h in shape.contacts:
            if h in limits:
                across.setdefault(h, set()).add(b)
        # no rule beyond the structure and the obligations (none the search cannot see)
        self.only_targets = not shape.also_attack and not any(
            len(bs) > limits[h] for h, bs in across.items()
        )
        if formula:
            self._encode(rlimit)
        else:
            none: dict[tuple[int, int], Any] = _NoLiterals()
            self.la = self.lt = self.not_la = self.not_lt = none

    # --- structure -----------------------------------------------------------------------

    def _reach(self, start: int, attackers: int, targets: int) -> tuple[int, int]:
        """The attackers and targets connected to `start` through these (masks)."""
        of_a, of_t = self.of_a.of, self.of_t.of
        seen_a, seen_t, fresh = start & attackers, 0, start & attackers
        while fresh:
            new_t = of_a(fresh) & targets & ~seen_t
            seen_t |= new_t
            fresh = of_t(new_t) & attackers & ~seen_a
            seen_a |= fresh
        return seen_a, seen_t

    def _possible(self, members: int, pool: int, free_t: int) -> bool:
        """Whether a connected combat holds every attacker of `members`, drawing more from
        the attackers of `pool` and its targets from `free_t`."""
        forced = self.forced
        if self.of_a.of(members & forced) & ~free_t:
            return False
        pool &= ~members
        if pool & forced:
            for b in bits(pool & forced):
                if self.near_a[b] & ~free_t:
                    pool &= ~(1 << b)
        seen_a, seen_t = self._reach(members & -members, members | pool, free_t)
        return not members & ~seen_a and seen_t != 0

    def _alive(self, a: int, placed: int, used: int) -> bool:
        """Whether the attackers from `a` on that are not placed can still meet the
        obligations left: each obliged one has a free target, each target that must be
        attacked and is not yet has one of them in contact (necessary, not sufficient)."""
        free = self.engaged & ~placed & ~((1 << a) - 1)
        if self.must_t & ~used & ~self.of_a.of(free):
            return False
        return not self.must_a & free & ~self.of_t.of(self.all_t & ~used)

    def target_sets(self, members: int, free: int) -> list[tuple[int, list[Any], LocalCombat]]:
        """The target sets a combat of these attackers (first r) can have among the free
        targets in contact with them, in canonical order (by sorted tuple): each with the
        literals that say it, and the combat it makes."""
        key = (members, free)
        found = self._target_sets.get(key)
        if found is not None:
            return found
        near = self.of_a.of(members) & free
        required = self.of_a.of(members & self.forced)
        out: list[tuple[int, list[Any], LocalCombat]] = []
        if not required & ~near:
            low = members & -members
            r = low.bit_length() - 1
            atts = tuple(bits(members))
            lt, not_lt = self.lt, self.not_lt
            for ts in lex_subsets(bits(near)):
                if required & ~ts or members & ~self._reach(low, members, ts)[0]:
                    continue
                lits = [lt[t, r] if ts >> t & 1 else not_lt[t, r] for t in bits(near)]
                out.append((ts, lits, (atts, tuple(bits(ts)))))
        self._target_sets[key] = out
        return out

    # --- formula -------------------------------------------------------------------------

    def _encode(self, rlimit: int) -> None:
        shape, f = self.shape, smt.Formula()
        add, clause, t_or, at_most = f.add, f.clause, f.or_, f.at_most
        n, m = shape.n_attackers, shape.n_targets
        near_a, near_t = self.near_a, self.near_t
        la: dict[tuple[int, int], Any] = {}
        lt: dict[tuple[int, int], Any] = {}
        for r in sorted(self.team_a):
            for b in bits(self.team_a[r]):
                la[b, r] = f.var("a")
            for t in bits(self.team_t[r]):
                lt[t, r] = f.var("t")
        self.la, self.lt = la, lt
        labels_a: list[list[int]] = [[] for _ in range(n)]
        labels_t: list[list[int]] = [[] for _ in range(m)]
        for b, r in la:
            labels_a[b].append(r)
        for t, r in lt:
            labels_t[t].append(r)
        attacks = [[la[b, r] for r in labels_a[b]] for b in range(n)]
        attacked = [[lt[t, r] for r in labels_t[t]] for t in range(m)]
        for b in range(n):
            add(at_most(attacks[b], 1))
        for t in range(m):
            add(at_most(attacked[t], 1))
        # a combat exists when its first attacker is in it; each attacker sees one of its targets
        for (b, r), lit in la.items():
            if b != r:
                add(clause([lit], [la[r, r]]))
            add(clause([lit], [lt[t, r] for t in bits(near_a[b])]))
            if self.forced >> b & 1:
                for t in bits(near_a[b]):
                    add(clause([lit], [lt[t, r]]))
        # connectivity: only where a combat can have two attackers and two targets. The
        # targets of a combat hold it together (each attacker touches one): with few targets
        # possible, each way to split them is bridged by an attacker of the combat (cuts);
        # with more, a spanning tree.
        tree: set[int] = set()
        for r in self.team_a:
            if self.team_a[r].bit_count() == 1 or self.team_t[r].bit_count() == 1:
                continue
            if self.team_t[r].bit_count() <= CUT_TARGETS:
                self._cuts(f, r)
            else:
                tree.add(r)
        for (t, r), lit in lt.items():
            if r not in tree:
                add(clause([lit], [la[b, r] for b in bits(near_t[t] & self.team_a[r])]))
        if tree:
            self._tree(f, tree, labels_a, labels_t)
        for b in shape.must_attack:  # the search never leaves an obliged attacker idle
            add(t_or(attacks[b]))
        rules = Rules(f)
        for t in shape.must_be_attacked:
            rules.add(t_or(attacked[t]), [f.not_(x) for x in attacked[t]])
        for b, targets in shape.also_attack:
            for t in targets:
                hit, attacks_b = t_or(attacked[t]), t_or(attacks[b])
                rules.add(clause([attacks_b], [hit]), [attacks_b, f.not_(hit)])
        limits = dict(shape.hexside_limits)
        across: dict[int, dict[int, list[int]]] = {}
        for b, t, h in shape.contacts:
            if h in limits:
                across.setdefault(h, {}).setdefault(b, []).append(t)
        for h, by_attacker in sorted(across.items()):
            if len(by_attacker) <= limits[h]:
                continue  # the limit cannot bind
            crossing = []
            for b, across_h in sorted(by_attacker.items()):
                cross = f.var("x")
                crossing.append(cross)
                for r in labels_a[b]:
                    for t in across_h:
                        if (t, r) in lt:
                            add(clause([la[b, r], lt[t, r]], [cross]))
            # crossing is only bounded below by the literals, so "broken" may be found where
            # it is not: then the leaves are checked one by one (sound either way)
            rules.add(at_most(crossing, limits[h]), [f.at_least(crossing, limits[h] + 1)])
        self._solve(f, rules, rlimit)
        self.la, self.lt = la, lt
        self.not_la = {key: f.not_(x) for key, x in la.items()}
        self.not_lt = {key: f.not_(x) for key, x in lt.items()}

    def _cuts(self, f: smt.Formula, r: int) -> None:
        """For each set of r's targets the combat may have and each split of it in two, an
        attacker of the combat in contact with both sides."""
        la, lt = self.la, self.lt
        team = bits(self.team_t[r])
        for size in range(2, len(team) + 1):
            for chosen in itertools.combinations(team, size):
                others = [t for t in team if t not in chosen]
                when = [lt[t, r] for t in chosen]
                absent = [lt[t, r] for t in others]
                first, rest = chosen[0], chosen[1:]
                for k in range(len(rest)):  # the sides: `side` holds `first`, the rest the other
                    for extra in itertools.combinations(rest, k):
                        side = (first, *extra)
                        near_side = self.of_t.of(sum(1 << t for t in side))
                        near_other = self.of_t.of(sum(1 << t for t in chosen if t not in side))
                        bridges = bits(near_side & near_other & self.team_a[r])
                        f.add(f.clause(when, [*absent, *(la[b, r] for b in bridges)]))

    def _tree(
        self, f: smt.Formula, tree: set[int], labels_a: list[list[int]], labels_t: list[list[int]]
    ) -> None:
        """Each non-first member of a combat in `tree` has a parent in its combat, nearer the
        first attacker: attackers at even depth 2d, targets at odd depth 2d + 1, d <= depth."""
        add, clause = f.add, f.clause
        la, lt = self.la, self.lt
        depth = max(min(self.team_a[r].bit_count() - 1, self.team_t[r].bit_count()) for r in tree)
        in_tree_a = 0
        for r in tree:
            in_tree_a |= self.team_a[r]
        # ge_a[b][d-1]: attacker b at depth >= d (d = 1..depth); the same for targets
        ge_a = {b: f.vars("d", depth) for b in bits(in_tree_a)}
        ge_t = {t: f.vars("d", depth) for t in range(self.shape.n_targets) if labels_t[t]}
        for ge in (*ge_a.values(), *ge_t.values()):
            for d in range(depth - 1):
                add(clause([ge[d + 1]], [ge[d]]))
        parent_a: dict[tuple[int, int], Any] = {}  # (attacker, target): the target is its parent
        parent_t: dict[tuple[int, int], Any] = {}  # (target, attacker)
        for b in ge_a:
            for t in bits(self.near_a[b]):
                parent_a[b, t] = p = f.var("p")
                add(clause([p], [ge_a[b][0]]))
                for d in range(1, depth):
                    add(clause([p, ge_t[t][d - 1]], [ge_a[b][d]]))
                add(clause([p, ge_t[t][depth - 1]]))
                for r in labels_a[b]:
                    if r in tree:
                        add(clause([p, la[b, r]], [lt[t, r]]))
        for t in ge_t:
            for b in bits(self.near_t[t] & in_tree_a):
                parent_t[t, b] = p = f.var("p")
                for d in range(depth):
                    add(clause([p, ge_a[b][d]], [ge_t[t][d]]))
                for r in labels_t[t]:
                    if r in tree:
                        if (b, r) in la:
                            add(clause([p, lt[t, r]], [la[b, r]]))
                        else:
                            add(clause([p, lt[t, r]]))
        for (b, r), lit in la.items():
            if b != r and r in tree:
                add(clause([lit], [parent_a[b, t] for t in bits(self.near_a[b])]))
        for (t, r), lit in lt.items():
            if r in tree:
                parents = [parent_t[t, b] for b in bits(self.near_t[t] & self.team_a[r])]
                add(clause([lit], parents))

    # --- search --------------------------------------------------------------------------

    def root(self) -> Hashable:
        return self.after_key(0, 0, 0)

    def node(self, key: Any) -> list[Branch] | None:
        kind = key[0]
        if kind == NEXT_ATTACKER:
            return self._next_attacker(key)
        if kind == ATTACKERS:
            return self._attackers(key)
        return self._targets(key)

    def after_key(self, a: int, placed: int, used: int) -> tuple[int, int, int, int]:
        """The node where attacker `a` or the first after it not yet placed chooses, in a
        normal form: only what the rest of the search reads is kept (the attackers still
        free, and as used every target none of them can reach any more)."""
        free = self.engaged & ~placed & ~((1 << a) - 1)
        if not free:
            return (NEXT_ATTACKER, self.n, 0, 0)
        low = free & -free
        return (
            NEXT_ATTACKER,
            low.bit_length() - 1,
            ~free & self.all_a,
            used | ~self.of_a.of(free) & self.all_t,
        )

    def _next_attacker(self, key: Any) -> list[Branch] | None:
        """Idle, or first attacker of a combat."""
        _, a, placed, used = key
        if a == self.n:
            return None
        branches: list[Branch] = []
        if not self.must_a >> a & 1 and self._alive(a + 1, placed, used):
            branches.append(([self.not_la[a, a]], self.after_key(a + 1, placed, used), None))
        if self._possible(1 << a, self.team_a[a] & ~placed, self.team_t[a] & ~used):
            lead = (ATTACKERS, a, 0, 1 << a, placed, used)
            branches.append(([self.la[a, a]], lead, None))
        return branches

    def _attackers(self, key: Any) -> list[Branch]:
        """The next attacker of r's combat (the candidates before it not taken), or none."""
        _, r, i, members, placed, used = key
        after = self.after[r]
        free_t = self.team_t[r] & ~used
        open_ = [(k, c) for k, c in enumerate(after) if k >= i and not placed >> c & 1]
        la, not_la = self.la, self.not_la
        branches: list[Branch] = []
        if self._possible(members, 0, free_t):
            done = (TARGETS, r, members, placed, used)
            branches.append(([not_la[c, r] for _, c in open_], done, None))
        pool = 0
        for _, c in open_:
            pool |= 1 << c
        skipped: list[Any] = []
        for k, c in open_:
            pool &= ~(1 << c)
            if self._possible(members | 1 << c, pool, free_t):
                nxt = (ATTACKERS, r, k + 1, members | 1 << c, placed, used)
                branches.append(([*skipped, la[c, r]], nxt, None))
            skipped.append(not_la[c, r])
        if len(branches) == 1:
            return [((), branches[0][1], None)]
        return branches

    def _targets(self, key: Any) -> list[Branch]:
        """The targets of r's combat, a set at a time; then the combat is complete."""
        _, r, members, placed, used = key
        placed |= members
        alive = self._alive
        branches: list[Branch] = [
            (lits, self.after_key(r + 1, placed, used | ts), combat)
            for ts, lits, combat in self.target_sets(members, self.team_t[r] & ~used)
            if alive(r + 1, placed, used | ts)
        ]
        if len(branches) == 1:
            return [((), branches[0][1], branches[0][2])]
        return branches

    def settled(self, key: Any) -> bool:
        """Every target that must be attacked is, and no other rule applies."""
        used = key[3] if key[0] == NEXT_ATTACKER else key[-1]
        return self.only_targets and not self.must_t & ~used

    def leaf(self, key: Any, items: list[Any]) -> tuple[LocalCombat, ...]:
        return tuple(items)  # combats are formed in the order of their first attackers


class _NoLiterals(dict[tuple[int, int], Any]):
    """The literals of a search made without a formula: none (every lookup is None)."""

    def __missing__(self, key: tuple[int, int]) -> Any:
        return None
