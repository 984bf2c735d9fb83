"""What each side sees of Rattenkrieg, written once over the symbolic model, and the proof that
nothing hidden leaks into it (RKS-P-NO-LEAK; RKS-3.3.3, RKS-3.4.1, RKS-3.4.3, RKS-8.4.1,
RKS-8.5.2, RKS-8.7.1, AMB-RKS-7, AMB-RKS-16).

**The observation over the model** (`View.observe`) is `io.observation.observe(state, side)`
read over what the model carries (`specs.rattenkrieg.formal.symbolic`): the open board and
records as they are (the Turn, phase, stage, player, acting unit and its flags, control, every
unit's Area, step count, markers and elimination record, the events in force, the waiting
move, the damage, the queued draws, the pick, the result, the combat record with each card on
the table as its side, origin and openness), the hand sizes and the deck's size; of the 52
cards, those lying face up in the discards and out of play and those exposed (AMB-RKS-7), and
the sizes of the two piles. `noleak_record.from_observation` reads the same components off the
observation record, and tests/rattenkrieg/test_no_leak_proof.py holds the two equal on every
position of seeded playouts.

What the model does not carry is left out, not guessed: which card is in which hand, on which
unit or face down on the combat table (the model knows per card only whether it is face up,
out of play, removed, exposed or a unit's step). So the side's own hand and step cards and the
identity of its own cards on the table are not components here, and the two sides'
observations over the model are the same terms: what differs between them in `observe` is
exactly what the model has no variable for. The hidden part of the model is what the
observation does not read: where each face-down card lies (a unit's step, out of play,
removed, or none of these: the deck, a hand, the table), the cards each side has on the table
from its hand, the actors of the last step and the derived records (`worded`, `dealing`,
`arrivals`, `refills`, `placing`).

**The observable part of a step** (`View.label`). The model's one schema takes the whole next
state as its choice; there is no action to name. What a face-to-face game shows of any step
is the open table after it: the board, the records, the card counts of each hand and of the
deck, each card put on the combat table as its side, origin and openness, and of the cards
only those lying face up after the step, where they lie (discards or out of play), and which
are exposed; plus how many cards went to (or left) each pile, seen as cards crossing the
table, face up or down. The kind of step is the phase, stage and player it is taken from. A
card drawn by either side, laid face down or discarded face down shows only in these counts.

That is not the observation after the step: the label never reads the pile sizes after, only
their changes, and names no card but those face up after; the observation's face-up sets and
pile sizes are derived from the per-card flags of the whole model (face-down cards included),
so the proof must show that nothing of the face-down cards' places reaches them. The rest of the
observation, the open table, the label names as it is after the step, so there the proof adds
nothing: its content is the cards' part (`CardsPart`, proved on its own in the tests). A
planted observer that shows one face-down card's place, or a label that leaves out the pile
changes, is refuted (the tests), so the property is not empty. No lemma is needed: equal
observations are inductive alone (`statement`). The two sides' views are the same terms, so
`BothSides` asks the solver once (`alike`).

**Witness games.** A refutation over this model is a pair of model steps, which over an
over-approximation are seldom steps of the rules; `witness_games` takes two witness games from
pairs of real games instead (seeded playouts and their twins with a hidden card swapped), the
first position where they are alike to the side and their next steps part its views.

**The face_down reading.** The model encodes `discard_faces=face_down` (no card ever turns face
up, a step rule of `symbolic_cards`); the statement is the same and is proved under it too
(the tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kernel.properties import Property
from solvers import smt
from solvers.checking.noninterference import Label, Leak, NoLeak
from solvers.checking.noninterference import observation as observation_of
from solvers.checking.prover import DEFAULT_RLIMIT
from solvers.checking.system import Schema, System, choice_frame, concrete_frame, schema_named
from solvers.checking.terms import CONCRETE, Frame, Ops
from solvers.checking.unroll import template
from solvers.checking.verdicts import Trace, Verdict
from specs.rattenkrieg.formal.symbolic import Model
from specs.rattenkrieg.formal.symbolic_combat import FIELDS, RECORD, SLOTS, slot, stay
from specs.rattenkrieg.formal.symbolic_state import (
    EVENT_KINDS,
    NEXT,
    at,
    ceff,
    ctl,
    eff,
    elim,
    eturn,
    face,
    flip,
    hand,
    iso,
    steps,
)
from specs.rattenkrieg.rules.state import SIDES

NO_LEAK = "RKS-P-NO-LEAK"
CLAUSES = ("RKS-3.3.3", "RKS-3.4.1", "RKS-3.4.3", "RKS-8.4.1", "RKS-8.5.2", "RKS-8.7.1")
BOOLS = frozenset({"acted", "recruited", "passes", "pending", "dcombat", "dair", "refight"})
BOOLS |= frozenset({"ciso", "cair"})
RECORDS = (
    "turn",
    "phase",
    "stage",
    "player",
    "acting",
    "acted",
    "recruited",
    "passes",
    "won",
    "deck",
    "pending",
    "pto",
    "escort",
    "payments",
    "dunit",
    "dcombat",
    "dair",
    "ndraws",
    "dkind",
    "dwho",
    "pick",
    "pwho",
    "fight",
    "attacker",
    "refight",
    "cunit",
    "cdef",
    "csup",
    "carea",
    *RECORD,
    "ciso",
    "cair",
)
"""The model's record variables both sides see as they are (`public_fields`, the combat)."""


def discarded_face_up(c: str) -> str:
    return f"fd.{c}"


def removed_face_up(c: str) -> str:
    return f"fr.{c}"


def exposed(c: str) -> str:
    return f"exp.{c}"


DISCARDS, REMOVED = "discards", "removed"
"""The piles' sizes (`discard_count`, `removed_count`)."""


def public(m: Model) -> tuple[tuple[str, bool], ...]:
    """The model variables the observation shows as they are, each with whether it is a
    Boolean: the records, control, the hand sizes, the events in force, every unit and the
    cards on the combat table (side, origin, openness; RKS-8.4.1, RKS-9.8.1)."""
    out = [(v, v in BOOLS) for v in RECORDS]
    out += [(hand(side), False) for side in SIDES]
    out += [(ctl(a), False) for a in m.stalingrad]
    out += [(eff(k), False) for k in EVENT_KINDS] + [(ceff(k), False) for k in EVENT_KINDS]
    for u in m.units:
        out += [(at(u), False), (steps(u), False), (elim(u), False), (eturn(u), False)]
        out += [(flip(u), True), (iso(u), True), (stay(u), True)]
    for x in SLOTS:
        out += [(slot(x, f), f in ("on", "open")) for f in FIELDS]
    return tuple(out)


def _value(f: Frame[Any, Any], name: str, is_bool: bool) -> Any:
    return f.b(name) if is_bool else f.i(name)


def _piles(o: Ops[Any, Any], f: Frame[Any, Any], m: Model, prefix: str = "") -> tuple[Any, Any]:
    """How many cards lie in the discards and out of play (RKS-3.4.3): out of play and not
    removed, and removed."""
    out = [f.b(prefix + face("out", c)) for c in m.cards]
    gone = [f.b(prefix + face("gone", c)) for c in m.cards]
    kept = o.count(o.all([x, o.not_(g)]) for x, g in zip(out, gone, strict=True))
    return kept, o.count(gone)


class View:
    """What `side` sees of the model: the observation of a state and the observable part of
    a step (the module docstring says what each holds and why)."""

    def __init__(self, m: Model, side: str) -> None:
        self.m, self.side = m, side

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        m = self.m
        out: dict[str, Any] = {name: _value(s, name, b) for name, b in public(m)}
        for c in m.cards:
            up, x, gone = (s.b(face(k, c)) for k in ("up", "out", "gone"))
            out[discarded_face_up(c)] = o.all([up, x, o.not_(gone)])  # RKS-8.7.1
            out[removed_face_up(c)] = o.all([up, gone])  # RKS-3.4.3, AMB-RKS-7 iv
            out[exposed(c)] = s.b(face("exp", c))  # AMB-RKS-7 i: seen by both
        out[DISCARDS], out[REMOVED] = _piles(o, s, m)
        return out

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> Label:
        """The phase, stage and player the step is taken from; the open table after it; the
        cards face up after it, where they lie, and the exposed ones; the piles' changes."""
        m = self.m
        terms: list[Any] = [s.i("phase"), s.i("stage"), s.i("player")]
        terms += [_value(c, NEXT + name, b) for name, b in public(m)]
        for card in m.cards:
            up2, out2, gone2 = (c.b(NEXT + face(k, card)) for k in ("up", "out", "gone"))
            where = o.add([o.ite(out2, 1, 0), o.ite(gone2, 2, 0), o.num(1)])
            terms.append(o.ite(up2, where, 0))  # RKS-8.7.1: a card face up is seen
            terms.append(c.b(NEXT + face("exp", card)))  # AMB-RKS-7 i
        before, after = _piles(o, s, m), _piles(o, c, m, NEXT)
        terms += [o.sub(a, b) for a, b in zip(after, before, strict=True)]
        return schema.name, tuple(terms)


class CardsPart(View):
    """One part of the statement, cheap to prove on its own: the cards' part of the
    observation (the face-up and exposed cards, the piles' sizes) and of the observable part
    (the kind of step, the cards face up after it, the exposed ones, the piles' changes).
    The rest of the observation is the open table, which the observable part names as it is
    after the step; this part is where the face-down cards' places could reach a side."""

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        names = {n for n, _ in public(self.m)}
        return {k: v for k, v in super().observe(o, s).items() if k not in names}

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> Label:
        name, terms = super().label(o, schema, s, c)
        return name, (*terms[:3], *terms[3 + len(public(self.m)) :])


UNCOVERED = (
    "over what the model carries: which card is in which hand, on which unit or face down on "
    "the table is not in the model, so a side's own hand, step cards and table cards are "
    "checked over whole games by the history harness (tests/hidden), not here"
)
"""What the proof does not cover, said in its verdict."""


@attrs.frozen
class BothSides:
    """RKS-P-NO-LEAK: non-interference for each side's `View` (a `prover.Relational`); proved
    when every side's is, else the first verdict that is not a proof. Where the sides'
    observations and observable parts are the same terms over the model (as they are: the
    model has no variable that one side sees and the other does not), one proof is the
    other's, and it is asked once."""

    views: tuple[View, ...]

    def verdict(self, system: System, rlimit: int = DEFAULT_RLIMIT) -> Verdict:
        seconds, details = 0.0, []
        views = self.views[:1] if alike(system, self.views) else self.views
        for view in views:
            v = NoLeak(view).verdict(system, rlimit)
            seconds += v.seconds
            if v.status != "proved":
                return attrs.evolve(v, detail=f"{view.side}: {v.detail}", seconds=seconds)
            details.append(f"{view.side}: {v.detail}")
        if len(views) < len(self.views):
            sides = ", ".join(v.side for v in self.views)
            details.append(f"the same observation and observable parts for {sides}")
        details.append(UNCOVERED)
        return Leak("proved", "self-composition", "; ".join(details), seconds=seconds)


def _terms(system: System, view: View) -> tuple[dict[str, Any], Label]:
    t = template(system)
    schema = system.schemas[0]
    return dict(view.observe(smt.Z3, t.cur)), view.label(smt.Z3, schema, t.cur, t.choice)


def _one(a: Any, b: Any) -> bool:
    """`a` and `b` are one term (Python constants equal, Z3 terms structurally equal)."""
    if isinstance(a, bool | int) or isinstance(b, bool | int):
        return type(a) is type(b) and bool(a == b)
    return bool(a.eq(b))


def alike(system: System, views: Sequence[View]) -> bool:
    """Every view's observation and observable part of the one schema are the same terms."""
    if len(system.schemas) != 1:
        return False
    (obs, (kind, seen)), *rest = (_terms(system, v) for v in views)
    for obs2, (kind2, seen2) in rest:
        if obs.keys() != obs2.keys() or kind != kind2 or len(seen) != len(seen2):
            return False
        if not all(_one(obs[n], obs2[n]) for n in obs):
            return False
        if not all(_one(a, b) for a, b in zip(seen, seen2, strict=True)):
            return False
    return True


def no_leak(presets: Sequence[str]) -> Property:
    """RKS-P-NO-LEAK as a property of the rules, expected to hold under every preset."""
    return Property(
        NO_LEAK,
        CLAUSES,
        "Nothing hidden leaks: from two positions a side cannot tell apart, two steps it sees "
        "alike lead to positions it still cannot tell apart (non-interference, each side), "
        "for the observation `observe` shows of what the symbolic model carries: the open "
        "board and records, the card counts, the face-up and exposed cards and the piles' "
        "sizes (not the cards of a hand, of a unit's steps or on the table, which the model "
        "has no variable for; the history harness compares whole games for those)",
        "invariant",
        dict.fromkeys(presets, "holds"),
        formal="self-composition over the model: equal observations before, equal observable "
        "parts of the two steps (the open table after, the cards face up after, the piles' "
        "changes) imply equal observations after, for each side (specs.rattenkrieg.formal."
        "noleak)",
    )


def statement(m: Model) -> BothSides:
    """RKS-P-NO-LEAK over the model, for each side; no lemma (equal observations are
    inductive alone)."""
    return BothSides(tuple(View(m, side) for side in SIDES))


def observation(m: Model, side: str, state: Mapping[str, int | bool]) -> dict[str, Any]:
    """`View.observe` of a concrete model state."""
    return observation_of(m, View(m, side), state)


def seen(system: System, view: Any, path: Trace, i: int) -> tuple[dict[str, Any], Label]:
    """The observation before step `i` of `path` and that step's observable part, as values."""
    name, choice = path.steps[i]
    schema = schema_named(system, name)
    before = concrete_frame(system.variables, path.states[i])
    label: Label = view.label(CONCRETE, schema, before, choice_frame(schema, choice))
    return observation_of(system, view, path.states[i]), label


def witness_games(
    system: System, view: Any, paths: Sequence[tuple[Trace, Trace]]
) -> tuple[Trace, Trace] | None:
    """Two witness games of a leak taken from pairs of real games (model paths of seeded
    playouts and their twins): the first position where the two are alike to `view` (equal
    observations, reached by steps with equal observable parts) and their next steps, with
    equal observable parts, lead to observations that differ. Both games are the paths' own
    prefixes, so the rules replay them (`ni.reachable_pair` asks the solver for the last step,
    which over this over-approximating model is a model step but seldom one of the rules)."""
    for a, b in paths:
        for i in range(min(len(a.steps), len(b.steps))):
            (obs_a, label_a), (obs_b, label_b) = seen(system, view, a, i), seen(system, view, b, i)
            if obs_a != obs_b or label_a != label_b:
                break
            after_a = observation_of(system, view, a.states[i + 1])
            if after_a != observation_of(system, view, b.states[i + 1]):
                return _cut(a, i + 1), _cut(b, i + 1)
    return None


def _cut(path: Trace, n: int) -> Trace:
    """The first `n` steps of `path`."""
    return Trace(path.states[: n + 1], path.steps[:n])
