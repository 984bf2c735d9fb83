"""Readings that change only what a side is shown (issue 33, item 2): the explorer compares
each side's observation under both readings where the positions are the same
(`solvers.checking.observed`), and a difference is a witness that replays from the set-up.

SNC `attackers_seen` (SNC-6.3.1, SNC-10.0.5, SNC-10.3.0.1) is read only where a side's view
is built: under declared_open the defender is shown every declared attacker, under tops_only
only those on top of their stacks. Every search runs on counts only (`budget=None`).
"""

from __future__ import annotations

import functools
from typing import Any

from kernel.variants import Variant
from solvers.checking.corpus import Corpus, build_corpus
from solvers.checking.differences import OBSERVATION, Witness, same_position, seen_differently
from solvers.checking.explore import differential, reading_variant
from solvers.checking.observed import FOUND_BY, observed, shown_by_io
from tools.registry import get_game

SNC = get_game("snc1937")
OPTION = "attackers_seen"
SEEDS, STEPS = 1, 600  # one seeded game per preset: its first combats come within 600 steps
POSITIONS = 60  # corpus positions observed: the first declared attack stands within them


@functools.cache
def _corpus() -> Corpus:
    return build_corpus(SNC, seeds=SEEDS, max_steps=STEPS)


def _variants() -> tuple[str, Variant, Variant]:
    cat = SNC.catalogue
    preset = cat.default_preset
    return (
        preset,
        reading_variant(cat, preset, OPTION, "declared_open"),
        reading_variant(cat, preset, OPTION, "tops_only"),
    )


def _replayed(w: Witness, va: Variant, vb: Variant) -> tuple[Any, Any]:
    """The witness log followed from the set-up under both readings: every action legal
    under both (the rules refuse an illegal one), every position the same."""
    a, b = SNC.initial_state(va), SNC.initial_state(vb)
    for data in w.log:
        action = SNC.action_from_json(data)
        a, b = SNC.apply(a, action), SNC.apply(b, action)
        assert same_position(SNC, a, b)
    return a, b


def test_snc_6_3_1_snc_10_0_5_attackers_seen_differ_in_what_the_defender_is_shown() -> None:
    """SNC-10.0.5, SNC-10.3.0.1 against SNC-6.3.1 read for the attacker's stacks too: at a
    declared attack whose attackers stand under another unit's counter, the defender is shown
    every declared attacker under declared_open and only the tops under tops_only; the
    witness is reached by a log legal under both readings to the same position."""
    preset, va, vb = _variants()
    found = observed(SNC, _corpus(), va, vb, OPTION, preset, positions=POSITIONS)
    w = found.witness
    assert w is not None, found.said(POSITIONS)
    assert w.found_by == FOUND_BY and w.difference.kind == OBSERVATION
    a, b = _replayed(w, va, vb)
    defender = w.difference.only_a[0]
    assert defender != a.side  # the side shown less is the one not attacking
    declared = set(a.combat.attackers)
    open_view = set(SNC.observe(a, defender)["combat"]["attackers"])
    tops_view = set(SNC.observe(b, defender)["combat"]["attackers"])
    assert open_view == declared  # SNC-10.0.5: every declared attacker named
    assert tops_view < declared  # SNC-6.3.1: a unit beneath its stack's top is not shown
    # the attacker sees its own units alike under both readings
    assert seen_differently(SNC, a, b, (a.side,)) is None
    assert defender in w.difference.detail and "combat.attackers" in w.difference.detail


def test_snc_6_3_1_the_same_reading_shows_the_same_things() -> None:
    """The control: the preset's reading against itself is shown alike at every position
    observed, so no witness comes of the comparison (it cannot invent one)."""
    preset, va, _ = _variants()
    found = observed(SNC, _corpus(), va, va, OPTION, preset, positions=POSITIONS)
    assert found.witness is None and found.asked > 0


def test_snc_6_3_1_the_explorer_finds_attackers_seen_differ_on_counts() -> None:
    """SNC-6.3.1, SNC-10.0.5: the rules never ask for attackers_seen, so every position,
    action and result is the same under both readings; the explorer, on counts only, finds
    the pair differ by what the defender is shown, and says so."""
    option = SNC.catalogue.option(OPTION)
    [f] = differential(
        SNC,
        option,
        budget=None,
        games=1,
        max_steps=20,
        exhaustive_cap=1,
        corpus=_corpus(),
        corpus_positions=POSITIONS,
        steer_nodes=4,
        situation_nodes=4,
    )
    assert f.verdict == "differ", f.detail
    assert f.witness is not None and f.witness.difference.kind == OBSERVATION
    assert "observation compared under both readings" in f.detail
    _, va, vb = _variants()
    _replayed(f.witness, va, vb)


def test_an_option_no_view_names_spends_nothing_on_observations_snc_0_0_4() -> None:
    """SNC-0.0.4 (crt_5to1_six) is read by the CRT lookup only: no module building a side's
    view names it, so no position is observed for it (its pairs keep that time for the
    searches that can find its difference); the views name attackers_seen."""
    preset, va, _ = _variants()
    assert shown_by_io(SNC, OPTION) and not shown_by_io(SNC, "crt_5to1_six")
    found = observed(SNC, _corpus(), va, va, "crt_5to1_six", preset, positions=POSITIONS)
    assert (found.witness, found.observed, found.asked) == (None, 0, 0)
