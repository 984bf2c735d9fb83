"""Why a proposed combat assignment is illegal, in rules a player can look up.

Two layers. A combat that is not a combat at all (a unit out of contact, a broken group, a unit
that never attacks) is refused by inspection: such a combat has no literal in the encoding. Any
other proposal is fixed as assumptions on the whole problem's Z3 encoding, each rule added under
a label naming the rule and the unit; a minimal unsat core gives the rules broken together.
Those rules are then set aside and the check repeated, so independent violations are all named.
"""

from __future__ import annotations

from collections.abc import Hashable

from solvers import smt
from solvers.queries.combat import MANY, Assignment, Combat, CombatProblem, Reason
from solvers.queries.combat_shape import connected, localise
from solvers.queries.combat_z3 import ShapeEncoding


def _structural(problem: CombatProblem, assignment: Assignment) -> tuple[list[Reason], Assignment]:
    """The reasons some combats are not combats at all, and the combats that are."""
    rules = problem.rules
    out: list[Reason] = []
    kept: list[Combat] = []
    attackers = set(problem.attackers) - problem.static
    targets = set(problem.targets)
    supporters = {s.id for s in problem.supporters}
    contact = {(c.attacker, c.target) for c in problem.contacts}
    name = problem.name
    attacking = [a for c in assignment for a in set(c.attackers)]
    for a in sorted(set(attacking)):
        if attacking.count(a) > 1:
            out.append(rules.attack_once.format(unit=name(a)))
    defending = [t for c in assignment for t in set(c.targets)]
    for t in sorted(set(defending)):
        if defending.count(t) > 1:
            out.append(rules.defend_once.format(target=name(t)))
    for combat in assignment:
        bad = False
        before = len(out)
        if not combat.attackers or not combat.targets:
            out.append(rules.grouping)
            continue
        for a in combat.attackers:
            if a in problem.static:
                out.append(rules.static.format(unit=name(a)))
                bad = True
            elif a not in attackers:
                out.append(rules.not_in_front.format(unit=name(a)))
                bad = True
        for t in combat.targets:
            if t not in targets:
                out.append(rules.not_in_front.format(unit=name(t)))
                bad = True
        for s in combat.supporters:
            if s not in supporters:
                out.append(rules.not_in_front.format(unit=name(s)))
                bad = True
        if bad:
            continue
        for a in sorted(set(combat.attackers)):  # the same unit twice in one combat
            if combat.attackers.count(a) > 1:
                out.append(rules.attack_once.format(unit=name(a)))
        for t in sorted(set(combat.targets)):
            if combat.targets.count(t) > 1:
                out.append(rules.defend_once.format(target=name(t)))
        for a in combat.attackers:
            if not any((a, t) in contact for t in combat.targets):
                out.append(rules.contact.format(unit=name(a), target=name(combat.targets[0])))
        for t in combat.targets:
            if not any((a, t) in contact for a in combat.attackers):
                out.append(rules.contact.format(unit=name(combat.attackers[0]), target=name(t)))
        if len(out) > before:
            continue
        if problem.grouping != MANY:
            if len(combat.targets) != 1:
                out.append(rules.grouping)
            if len(out) == before:
                kept.append(combat)
            continue
        reach = {
            i: {j for j, t in enumerate(combat.targets) if (a, t) in contact}
            for i, a in enumerate(combat.attackers)
        }
        if len(set(combat.attackers)) == len(combat.attackers) and not connected(
            tuple(range(len(combat.attackers))), tuple(range(len(combat.targets))), reach
        ):
            out.append(rules.grouping)
        for a in combat.attackers:
            mine = {t for (x, t) in contact if x == a}
            if a in problem.attack_all and not mine <= set(combat.targets):
                out.append(rules.attack_all.format(unit=name(a)))
        if len(out) == before:
            kept.append(combat)
    return out, tuple(kept)


def explain(problem: CombatProblem, assignment: Assignment) -> list[Reason]:
    """The rules `assignment` breaks (empty when it is legal), each naming its clauses."""
    proposal = assignment
    reasons, assignment = _structural(problem, assignment)
    attackers = [a for a in problem.attackers if a not in problem.static]
    comp = localise(problem, attackers, list(problem.targets))
    enc = ShapeEncoding(comp.shape, prefix="x")
    a_index = {a: i for i, a in enumerate(comp.attackers)}
    t_index = {t: i for i, t in enumerate(comp.targets)}
    index = {c: i for i, c in enumerate(enc.candidates)}

    chosen: dict[int, list[str]] = {}  # literal -> supporters of its combat
    for combat in assignment:
        atts = tuple(sorted(a_index[a] for a in combat.attackers))
        tgts = tuple(sorted(t_index[t] for t in combat.targets))
        if problem.grouping == MANY:
            lits = [index[(atts, tgts)]] if (atts, tgts) in index else []
        else:
            lits = [index[((a,), tgts)] for a in atts if ((a,), tgts) in index]
        if not lits:  # not a combat of this problem at all: never silently dropped
            return _unique([*reasons, problem.rules.grouping])
        for i in lits:
            chosen.setdefault(i, []).extend(combat.supporters)
    # A unit named in a refused combat is not charged again with the obligation of the role it
    # was named in (to attack, to be attacked, to be attacked too): the refusal already says
    # what is wrong with it.
    kept = set(assignment)
    waived: list[Hashable] = [
        *(
            ("must_attack", a_index[a])
            for c in proposal
            if c not in kept
            for a in c.attackers
            if a in a_index
        ),
        *(
            (kind, t_index[t])
            for c in proposal
            if c not in kept
            for t in c.targets
            if t in t_index
            for kind in ("must_be_attacked", "also_attack")
        ),
    ]
    solver = smt.Solver()
    labels: list[Hashable] = []

    def add(formula: smt.Bool, label: Hashable = None) -> None:
        if label is None:
            solver.add(formula)
        elif label not in waived:
            solver.add(formula, label)
            labels.append(label)

    for term, label in enc.constraints():
        add(smt.parse_formula(enc.declarations, term), label)
    assumptions = [lit if i in chosen else smt.not_(lit) for i, lit in enumerate(enc.lits)]

    # Supporters: s[k][i] = supporter k supports the combat of literal i.
    for k, sup in enumerate(problem.supporters):
        sv = [smt.bool_var(f"s{k}_{i}") for i in range(len(enc.lits))]
        for i, lit in enumerate(enc.lits):
            add(smt.implies(sv[i], lit))
            atts, tgts = enc.candidates[i]
            units = {comp.attackers[a] for a in atts} | {comp.targets[t] for t in tgts}
            if problem.grouping == MANY and sup.unavailable is None and sup.reach.isdisjoint(units):
                add(smt.not_(sv[i]), ("support_range", k))
        if problem.grouping != MANY:
            # One combat per target: supporting it means supporting all its literals.
            for t in range(comp.shape.n_targets):
                group = enc.by_target[t]
                for i in group:
                    for j in group:
                        add(smt.implies(smt.and_([sv[i], enc.lits[j]]), sv[j]))
                in_reach = comp.targets[t] in sup.reach
                for i in group:
                    if not in_reach and sup.unavailable is None:
                        others = [
                            enc.lits[j]
                            for j in group
                            if comp.attackers[enc.candidates[j][0][0]] in sup.reach
                        ]
                        add(smt.implies(sv[i], smt.or_(others)), ("support_range", k))
            firsts = [smt.or_(sv[i] for i in enc.by_target[t]) for t in range(comp.shape.n_targets)]
        else:
            firsts = sv
        add(smt.at_most(firsts, sup.max_combats), ("support_once", k))
        if sup.unavailable is not None:
            add(smt.and_(smt.not_(x) for x in sv), ("support_unavailable", k))
        for i in range(len(enc.lits)):
            wanted = i in chosen and sup.id in chosen[i]
            assumptions.append(sv[i] if wanted else smt.not_(sv[i]))

    found = [label for core in smt.disjoint_cores(solver, assumptions, labels) for label in core]
    return _unique(
        [
            *reasons,
            *(_reason(problem, comp.attackers, comp.targets, comp.hexsides, x) for x in found),
        ]
    )


def why_none(problem: CombatProblem) -> list[Reason]:
    """Why no assignment at all is legal (empty when one is): the obligations that collide,
    as minimal unsat cores of the rules' labelled constraints, each core's rules named once.
    Support is optional and adds no obligation, so it is left out."""
    attackers = [a for a in problem.attackers if a not in problem.static]
    comp = localise(problem, attackers, list(problem.targets))
    enc = ShapeEncoding(comp.shape, prefix="x")
    solver = smt.Solver()
    labels: list[Hashable] = []
    for term, label in enc.constraints():
        formula = smt.parse_formula(enc.declarations, term)
        if label is None:
            solver.add(formula)
        else:
            solver.add(formula, label)
            labels.append(label)
    found = [label for core in smt.disjoint_cores(solver, [], labels) for label in core]
    if not found and solver.check([]):
        return []
    reasons = [_reason(problem, comp.attackers, comp.targets, comp.hexsides, x) for x in found]
    # What the candidate combats leave out is part of every core too: a unit that never
    # attacks, in contact with a target that must be attacked, and the grouping rule's shapes.
    core_targets = {comp.targets[x[1]] for x in found if isinstance(x, tuple) and x[0] in _TARGET}
    attacked = {c.target for c in problem.contacts if c.attacker not in problem.static}
    if problem.static and core_targets - attacked:  # no unit that may attack can reach it
        names = ", ".join(problem.name(a) for a in sorted(problem.static))
        reasons.append(problem.rules.static.format(unit=names))
    if enc.lits:
        reasons.append(problem.rules.grouping)
    return _unique(reasons)


_TARGET = ("must_be_attacked", "defend_once", "also_attack")


def _reason(
    problem: CombatProblem,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    hexsides: tuple[str, ...],
    label: object,
) -> Reason:
    assert isinstance(label, tuple)
    kind, i = label[0], label[1]
    rules = problem.rules
    name = problem.name
    if kind == "attack_once":
        return rules.attack_once.format(unit=name(attackers[i]))
    if kind == "must_attack":
        return problem.must_attack[attackers[i]]
    if kind == "must_be_attacked":
        return problem.must_be_attacked[targets[i]]
    if kind == "defend_once":
        return rules.defend_once.format(target=name(targets[i]))
    if kind == "attack_all":
        return rules.attack_all.format(unit=name(attackers[i]))
    if kind == "also_attack":
        return rules.also_attack.format(target=name(targets[i]))
    if kind == "hexside_limit":
        limit = problem.hexside_limits[hexsides[i]]
        return rules.hexside_limit.format(hexside=hexsides[i], limit=limit)
    sup = problem.supporters[i]
    if kind == "support_once":
        return rules.support_once.format(unit=name(sup.id), limit=sup.max_combats)
    if kind == "support_range":
        return rules.support_range.format(unit=name(sup.id))
    assert kind == "support_unavailable" and sup.unavailable is not None
    return sup.unavailable


def _unique(reasons: list[Reason]) -> list[Reason]:
    out: list[Reason] = []
    for r in reasons:
        if r not in out:
            out.append(r)
    return out
