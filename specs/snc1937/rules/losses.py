"""Taking step losses: the legal ways a side may absorb a CRT result, and the amphibious landing
combat's special loss and retreat procedure.

`loss_choices` lists every outcome the apportioning rules allow (SNC-10.5.2.1 to
SNC-10.5.2.3), the owner choosing among them; losses beyond the force's steps are simply lost
(SNC-10.5.1.3). `landing_outcome` applies SNC-8.4.0.7 to SNC-8.4.0.9 once the Chinese have
chosen their losses and where their survivors retreat.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import Hex, hex_name, hex_neighbors
from kernel.variants import Variant
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.odds import current_cf


def printed_steps(spec: UnitSpec, variant: Variant) -> int:
    """A counter's steps at full strength (SNC-2.2.1.11). `static_steps` (AMB-SNC-33):
    `counter_data` gives two steps to every counter printed on both sides (the Wusong garrison
    of section 12); `elite_only` only to Japanese and Chinese elite units."""
    if spec.steps == 2 and variant.is_("static_steps", "elite_only"):
        return 2 if spec.side == "JP" or spec.arm == "elite" else 1
    return spec.steps  # SNC-2.2.1.11: one or two steps, as the counter is printed


def steps_left(spec: UnitSpec, reduced: Collection[str], variant: Variant) -> int:
    """Steps a unit on the map still has: one fewer once flipped to its reduced side."""
    full = printed_steps(spec, variant)
    return full - 1 if full == 2 and spec.id in reduced else full


def is_japanese_garrison(spec: UnitSpec) -> bool:
    """A Japanese static unit, which takes the last steps lost (SNC-10.5.2.3)."""
    return spec.side == "JP" and spec.is_static


@attrs.frozen
class LossOutcome:
    """One legal way to take losses: the units eliminated, the surviving units newly flipped,
    and the steps the force could not absorb (ignored, SNC-10.5.1.3)."""

    eliminated: tuple[str, ...]
    flipped: tuple[str, ...]
    unabsorbed: int = 0

    def reduced_after(self, reduced: Collection[str]) -> frozenset[str]:
        """The `reduced` set after this outcome (eliminated units leave it)."""
        return (frozenset(reduced) | frozenset(self.flipped)) - frozenset(self.eliminated)


def _candidates(
    state: tuple[tuple[str, int, int, bool, bool], ...], variant: Variant
) -> tuple[int, ...]:
    """Indices of the units that may lose the next step. Each entry is (id, steps left, strength
    (by `strength_measure`), full two-step, Japanese garrison)."""
    alive = [i for i, e in enumerate(state) if e[1] > 0]
    pool = [i for i in alive if not state[i][4]] or alive  # SNC-10.5.2.3: garrisons last
    if variant.is_("loss_order", "strongest_first"):
        # AMB-SNC-28 (b): strongest first; among equals, two-step units are reduced first
        top = max(state[i][2] for i in pool)
        pool = [i for i in pool if state[i][2] == top]
        two = [i for i in pool if state[i][3]]
        return tuple(two or pool)
    # AMB-SNC-28 (a): every two-step unit reduced before any one-step unit is eliminated
    # (SNC-10.5.2.1), the strongest first within each class (SNC-10.5.2.2)
    two = [i for i in pool if state[i][3]]
    pool = two or pool
    top = max(state[i][2] for i in pool)
    return tuple(i for i in pool if state[i][2] == top)


def _entries(
    specs: Iterable[UnitSpec], reduced: Collection[str], variant: Variant
) -> tuple[tuple[str, int, int, bool, bool], ...]:
    """The `_candidates` entries of the units, in the order given."""
    printed = variant.is_("strength_measure", "printed_cf")
    return tuple(
        (
            s.id,
            steps_left(s, reduced, variant),
            s.cf if printed else current_cf(s, reduced),
            steps_left(s, reduced, variant) == 2,
            is_japanese_garrison(s),
        )
        for s in specs
    )


def next_loss(
    data: SNCData, variant: Variant, units: Iterable[str], reduced: Collection[str]
) -> tuple[str, ...]:
    """The units (sorted ids) that may lose the next single step, the owner choosing among
    them: the first step of every outcome of `loss_choices` (SNC-10.5.2.1 to SNC-10.5.2.3;
    loss_order, strength_measure of AMB-SNC-28). Units with no step left are not listed."""
    entries = _entries([data.unit(u) for u in sorted(set(units))], reduced, variant)
    if all(e[1] == 0 for e in entries):
        return ()  # SNC-10.5.1.3: no step left to lose; the rest is ignored
    return tuple(entries[i][0] for i in _candidates(entries, variant))


def loss_choices(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    steps: int,
) -> tuple[LossOutcome, ...]:
    """Every legal way for the units of one side in one battle to lose `steps` steps, sorted.

    Losses are taken one step at a time. `loss_order` (AMB-SNC-28): `two_step_first` reduces
    every full two-step unit before any one-step unit is eliminated (SNC-10.5.2.1), the
    strongest first within each class (SNC-10.5.2.2); `strongest_first` takes the strongest
    unit first whatever its steps. `strength_measure` (AMB-SNC-28): `current_cf` measures the
    CF the counter shows, `printed_cf` the CF printed on its front, flipped or not. Japanese
    garrisons are always the last steps (SNC-10.5.2.3). Units equally strong are the owner's
    choice, so each tie is a separate outcome. Steps beyond the force's total are ignored
    (SNC-10.5.1.3).
    """
    specs = [data.unit(u) for u in sorted(set(units))]
    printed = variant.is_("strength_measure", "printed_cf")
    start = _entries(specs, reduced, variant)
    reduced_cf = {
        s.id: s.cf if printed or s.reduced is None else s.reduced for s in specs
    }  # the strength a unit is measured by once flipped
    total = sum(e[1] for e in start)

    @functools.cache
    def walk(
        state: tuple[tuple[str, int, int, bool, bool], ...], left: int
    ) -> frozenset[tuple[tuple[str, int, int, bool, bool], ...]]:
        if left == 0 or all(e[1] == 0 for e in state):
            return frozenset({state})
        out: set[tuple[tuple[str, int, int, bool, bool], ...]] = set()
        for i in _candidates(state, variant):
            uid, n, _cf, _two, garrison = state[i]
            # SNC-2.2.1.12: a full two-step unit flips to its reduced side; SNC-2.2.1.13:
            # anything else is eliminated
            entry = (uid, n - 1, reduced_cf[uid] if n == 2 else 0, False, garrison)
            out |= walk((*state[:i], entry, *state[i + 1 :]), left - 1)
        return frozenset(out)

    outcomes = set()
    for end in walk(start, max(0, steps)):
        eliminated = tuple(e[0] for e in end if e[1] == 0)
        flipped = tuple(
            e[0] for e, s in zip(end, start, strict=True) if 0 < e[1] < s[1] and s[1] == 2
        )
        # SNC-10.5.1.3: steps beyond the force's total are ignored (`unabsorbed`)
        outcomes.add(LossOutcome(eliminated, flipped, max(0, steps - total)))
    return tuple(sorted(outcomes, key=lambda o: (o.eliminated, o.flipped)))


def loss_problem(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    steps: int,
    chosen: LossOutcome,
) -> str | None:
    """Why `chosen` is not a legal way to take `steps` losses (clauses named), or None."""
    if chosen in loss_choices(data, variant, units, reduced, steps):
        return None
    return (
        f"losses must reduce two-step units first, the strongest first, Japanese garrisons "
        f"last (SNC-10.5.2.1, SNC-10.5.2.2, SNC-10.5.2.3); {chosen} is not one of them"
    )


# --- the amphibious landing combat -------------------------------------------------------------


@attrs.frozen
class LandingOutcome:
    """What a landing combat leaves (SNC-8.4.0.7 to SNC-8.4.0.9).

    `chinese` is the Chinese losses taken first; `garrison_eliminated` the surviving Chinese
    static units, whose steps are eliminated rather than retreated; `retreats` each surviving
    Chinese unit with its hex one hex away; `retreat_eliminated` survivors with no hex to go to
    (AMB-SNC-11); `japanese_steps` the steps the attackers must lose (the CRT result, plus one
    if any Chinese unit was left in the hex), each legal way in `japanese_choices`; the
    attackers surviving the chosen one advance into the landing hex (`advancing`)."""

    chinese: LossOutcome
    garrison_eliminated: tuple[str, ...]
    retreats: tuple[tuple[str, Hex], ...]
    retreat_eliminated: tuple[str, ...]
    japanese_steps: int
    japanese_choices: tuple[LossOutcome, ...]

    def advancing(self, attackers: Iterable[str], japanese: LossOutcome) -> tuple[str, ...]:
        """The attackers that advance into the landing hex after `japanese` losses, one of
        `japanese_choices` (SNC-8.4.0.8, SNC-8.4.0.9)."""
        if japanese not in self.japanese_choices:
            raise IllegalAction(
                f"{japanese} is not a legal way to take the landing losses (SNC-8.4.0.9, "
                "SNC-10.5.2.1)",
                clauses=("SNC-8.4.0.9", "SNC-10.5.2.1"),
            )
        return tuple(sorted(set(attackers) - set(japanese.eliminated)))


def landing_outcome(
    data: SNCData,
    variant: Variant,
    landing_hex: Hex,
    attackers: Iterable[str],
    defenders: Iterable[str],
    reduced: Collection[str],
    result: tuple[int, int],
    chinese: LossOutcome,
    retreat: Mapping[str, Hex | None],
) -> LandingOutcome:
    """Resolve a landing combat's losses (SNC-8.4.0.7 to SNC-8.4.0.9).

    The Chinese losses come first (SNC-8.4.0.7): `chinese` must be a legal way to take the
    defender's result. If no Chinese unit is left, the Japanese take the attacker's result and
    advance (SNC-8.4.0.8). Otherwise surviving Chinese garrison (static) steps are eliminated,
    the other survivors retreat one hex from `landing_hex` to `retreat[unit]` (chosen by the
    Chinese player from the legal hexes, which the caller works out; None when there is none,
    and the unit is eliminated, AMB-SNC-11), and the Japanese lose the result plus one step
    (SNC-8.4.0.9).

    Steps the landing force cannot pay are dropped (SNC-10.5.1.3, AMB-SNC-12 (ii)); they show
    as `unabsorbed` in each Japanese choice. Whether survivors that would overstack the landing
    hex stay at sea (AMB-SNC-12 (iv)) is for the stacking check of the caller.
    """
    attackers, defenders = sorted(set(attackers)), sorted(set(defenders))
    attack_loss, defence_loss = result
    problem = loss_problem(data, variant, defenders, reduced, defence_loss, chinese)
    if problem is not None:
        raise IllegalAction(problem, clauses=("SNC-8.4.0.7", "SNC-10.5.2.1"))
    survivors = [u for u in defenders if u not in chinese.eliminated]
    garrisons = tuple(u for u in survivors if data.unit(u).is_static)
    movers = [u for u in survivors if not data.unit(u).is_static]
    for u in movers:
        if u not in retreat:
            raise IllegalAction(
                f"{u} must retreat one hex from the landing hex (SNC-8.4.0.9)",
                clauses=("SNC-8.4.0.9",),
            )
        to = retreat[u]
        if to is not None and to not in hex_neighbors(landing_hex):
            raise IllegalAction(
                f"{u} retreats one hex from {hex_name(landing_hex)}, not to {hex_name(to)} "
                "(SNC-8.4.0.9)",
                clauses=("SNC-8.4.0.9",),
            )
    retreats = tuple((u, h) for u in movers if (h := retreat[u]) is not None)
    stuck = tuple(u for u in movers if retreat[u] is None)
    japanese_steps = attack_loss + (1 if survivors else 0)
    after = chinese.reduced_after(reduced)
    choices = loss_choices(data, variant, attackers, after, japanese_steps)
    return LandingOutcome(chinese, garrisons, retreats, stuck, japanese_steps, choices)
