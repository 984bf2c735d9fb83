"""The variants a reading pair is explored under: a preset with one option read another way,
named as a preset where its readings are exactly one's, and the pairs of readings the rules
play (the explorer, its report and the tests build their variants here), and those they do
not (a reading catalogued but not implemented: `Reading.unplayed`)."""

from __future__ import annotations

from collections.abc import Iterator

from kernel.variants import Catalogue, Option, Variant


def reading_variant(cat: Catalogue, preset: str, option: str, reading: str) -> Variant:
    """`preset` with `option` read as `reading`; named as a preset when its readings are
    exactly one's (the form the strict codecs read: a variant with no preset name may not
    spell out a preset)."""
    return named(cat, cat.variant(preset, {option: reading}))


def named(cat: Catalogue, variant: Variant) -> Variant:
    """`variant`, named as the preset whose readings are exactly its own, if one is."""
    if variant.preset is None:
        chosen = dict(variant.choices)
        for name, readings in cat.presets.items():
            if dict(readings) == chosen:
                return cat.preset(name)
    return variant


def reading_pairs(option: Option, default: str) -> Iterator[tuple[str, str]]:
    """Each other reading the rules play against the preset's."""
    for r in option.played():
        if r.name != default:
            yield default, r.name


def unplayed_pairs(option: Option, default: str) -> Iterator[tuple[str, str, str]]:
    """Each reading catalogued but not played against the preset's, with why the rules
    cannot play it (`Reading.unplayed`): no variant may choose it, so no search compares it."""
    for r in option.readings:
        if r.unplayed and r.name != default:
            yield default, r.name, r.unplayed
