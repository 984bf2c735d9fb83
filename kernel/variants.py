"""Ambiguity made explicit: options with named readings, variants and presets.

Where a rules text is ambiguous, has a gap, or two texts of one game differ, the rule becomes an
`Option` whose `Reading`s each cite their clauses and source. A `Variant` picks one reading per
option; a preset is a named variant. Rules code asks `variant.reading("option")` and branches on
the reading's name, so no ambiguous point is ever decided silently in code.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from kernel.errors import InvalidInput

_asked: list[Counter[str]] = []  # the open `consultations` blocks, innermost last


@contextlib.contextmanager
def consultations() -> Iterator[Counter[str]]:
    """Count, inside the block, how often rules code asks for each option's reading: a search
    can then tell whether the situation an option governs ever arose. (Measurement only; no
    rule sees it.)"""
    counter: Counter[str] = Counter()
    _asked.append(counter)
    try:
        yield counter
    finally:
        _asked.pop()  # blocks nest, so the innermost is this one


@attrs.frozen
class Reading:
    """One interpretation of an option: a name, what it says, and where it comes from."""

    name: str
    summary: str
    source: str
    clauses: tuple[str, ...] = ()
    unplayed: str = ""  # why the rules cannot play it yet ("" when they do): it is refused


@attrs.frozen
class Option:
    """An ambiguous or disputed rule, with every reading the kernel implements."""

    name: str
    question: str
    clauses: tuple[str, ...]
    readings: tuple[Reading, ...]
    ambiguity: str | None = None  # catalogue entry (AMB-NOM-n), or None for one found here

    def reading(self, name: str) -> Reading:
        for r in self.readings:
            if r.name == name:
                return r
        known = ", ".join(r.name for r in self.readings)
        raise InvalidInput(
            f"option {self.name!r} has no reading {name!r} (readings: {known})",
            field=f"variant.options.{self.name}",
            clauses=self.clauses,
        )

    def playable(self, name: str) -> Reading:
        """The reading, refused when it is catalogued but the rules cannot play it yet (a
        variant never reads a reading the code ignores)."""
        r = self.reading(name)
        if r.unplayed:
            raise InvalidInput(
                f"option {self.name!r}: reading {name!r} is catalogued but not played: "
                f"{r.unplayed}",
                field=f"variant.options.{self.name}",
                clauses=r.clauses or self.clauses,
            )
        return r

    def played(self) -> tuple[Reading, ...]:
        """The readings a variant may choose."""
        return tuple(r for r in self.readings if not r.unplayed)


# Where a reading comes from, as catalogues name it.
NOTE = "catalogue kernel note"
ALT = "catalogue reading"
TEXT = "text, read literally"
HERE = "found here"


def option(
    name: str, ambiguity: str | None, question: str, clauses: tuple[str, ...], *readings: Reading
) -> Option:
    """An option as the games' catalogues write it: one the ambiguity catalogue does not list
    (`ambiguity` None) says "(found here)" in its question."""
    if ambiguity is None:
        question = f"{question} (found here)"
    return Option(
        name=name, question=question, clauses=clauses, readings=readings, ambiguity=ambiguity
    )


def reading(name: str, summary: str, source: str, *clauses: str, unplayed: str = "") -> Reading:
    """A reading with its one-line summary, its source and the clauses that support it
    (`unplayed`: why the rules cannot play it yet)."""
    return Reading(name, summary, source, clauses, unplayed)


@attrs.frozen(cache_hash=True)
class Variant:
    """A reading chosen for every option of one game; hashable, so it can live in a state
    (its hash is kept: every new state hashes its variant, about fifty pairs)."""

    game: str
    preset: str | None
    choices: tuple[tuple[str, str], ...]  # sorted (option, reading) pairs
    _lookup: dict[str, str] = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_lookup", dict(self.choices))

    def reading(self, option: str) -> str:
        for counter in _asked:  # open `consultations` blocks, usually none
            counter[option] += 1
        try:
            return self._lookup[option]
        except KeyError:
            raise KeyError(f"variant of {self.game} has no option {option!r}") from None

    def is_(self, option: str, reading: str) -> bool:
        """True when this variant reads `option` as `reading` (the rules code's one question)."""
        return self.reading(option) == reading

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": dict(self.choices)}


@attrs.frozen
class Catalogue:
    """All options of a game and its presets; validates and builds variants."""

    game: str
    options: tuple[Option, ...]
    presets: Mapping[str, Mapping[str, str]]
    default_preset: str = ""
    _exact: dict[tuple[str | None, tuple[tuple[str, str], ...]], Variant] = attrs.field(
        init=False, factory=dict, eq=False, hash=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.game}: duplicate option names")
        for preset, chosen in self.presets.items():
            missing = set(names) - set(chosen)
            extra = set(chosen) - set(names)
            if missing or extra:
                raise ValueError(f"{self.game} preset {preset}: missing {missing}, extra {extra}")
            for option, reading in chosen.items():
                self.option(option).playable(reading)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidInput(f"{self.game} has no option {name!r}", field=f"variant.options.{name}")

    def preset(self, name: str) -> Variant:
        if name not in self.presets:
            known = ", ".join(sorted(self.presets))
            raise InvalidInput(
                f"{self.game} has no preset {name!r} (presets: {known})", field="variant"
            )
        return self._variant(name, self.presets[name])

    def variant(self, preset: str | None, overrides: Mapping[str, str] | None = None) -> Variant:
        """A preset (the default one when None) with some options overridden. The result is
        named as a preset exactly when its readings are that preset's (the given preset first,
        then any other), so one variant has one form: the form the strict codecs read."""
        name = preset or self.default_preset
        base = dict(self.preset(name).choices)
        for option, reading in (overrides or {}).items():
            self.option(option).playable(reading)
            base[option] = reading
        return self._variant(self._preset_named(name, base), base)

    def _preset_named(self, first: str, chosen: Mapping[str, str]) -> str | None:
        if dict(self.presets[first]) == chosen:
            return first
        for name in sorted(self.presets):
            if dict(self.presets[name]) == chosen:
                return name
        return None

    def exact(
        self, preset: str | None, options: Mapping[str, str], where: str = "variant"
    ) -> Variant:
        """A variant read strictly from a document: every option of the catalogue with one of
        its readings, and a preset named if and only if these are its readings, so that the
        variant is written back exactly as it was read. Variants repeat from state to state,
        so each form is checked once. Refusals name the field (`where.options.<name>`)."""
        key = (preset, tuple(sorted(options.items())))
        known = self._exact.get(key)
        if known is None:
            known = self._check_exact(preset, options, where)
            if len(self._exact) < 256:
                self._exact[key] = known
        return known

    def _check_exact(self, preset: str | None, options: Mapping[str, str], where: str) -> Variant:
        names = [o.name for o in self.options]
        for name, reading in options.items():
            if name not in names:
                raise InvalidInput(
                    f"{where}.options: {self.game} has no option {name!r}",
                    field=f"{where}.options.{name}",
                )
            if self.option(name).reading(reading).unplayed:
                raise InvalidInput(
                    f"{where}.options.{name}: reading {reading!r} is catalogued but not "
                    f"played: {self.option(name).reading(reading).unplayed}",
                    field=f"{where}.options.{name}",
                )
        missing = [n for n in names if n not in options]
        if missing:
            raise InvalidInput(
                f"{where}.options lacks option(s) {', '.join(missing)}: a state names every "
                "reading",
                field=f"{where}.options.{missing[0]}",
            )
        if preset is not None:
            chosen = self.preset(preset).choices
            differing = sorted(o for o, r in chosen if options[o] != r)
            if differing:
                raise InvalidInput(
                    f"{where}: readings of {', '.join(differing)} are not preset {preset!r}'s; "
                    "a variant that changes a preset has preset null",
                    field=f"{where}.options.{differing[0]}",
                )
        else:
            for name, readings in self.presets.items():
                if dict(readings) == options:
                    raise InvalidInput(
                        f"{where}: these are exactly the readings of preset {name!r}; name it",
                        field=f"{where}.preset",
                    )
        return self._variant(preset, options)

    def variant_from_json(self, data: Any) -> Variant:
        """Read `{"preset": ..., "options": {...}}` (or a bare preset name)."""
        if isinstance(data, str):
            return self.preset(data)
        if not isinstance(data, dict):
            raise InvalidInput("variant must be a preset name or an object", field="variant")
        options = data.get("options", {})
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()
        ):
            raise InvalidInput("variant.options must map names to readings", field="variant")
        preset = data.get("preset")
        if preset is not None and not isinstance(preset, str):
            raise InvalidInput("variant.preset must be a string", field="variant.preset")
        return self.variant(preset, options)

    def _variant(self, preset: str | None, chosen: Mapping[str, str]) -> Variant:
        return Variant(self.game, preset, tuple(sorted(chosen.items())))

    def name_of(self, variant: Variant) -> str:
        """A preset's name, or the nearest preset with the readings that differ from it
        ("ja with combat_grouping=one_defender"), for titles and reports."""
        if variant.preset is not None:
            return variant.preset
        chosen = dict(variant.choices)

        def changes(preset: str) -> list[str]:
            return [
                f"{o}={r}" for o, r in sorted(chosen.items()) if self.presets[preset].get(o) != r
            ]

        nearest = min(sorted(self.presets), key=lambda p: len(changes(p)))
        return f"{nearest} with {', '.join(changes(nearest))}"

    def differing(self, a: str, b: str) -> Iterable[tuple[Option, str, str]]:
        """The options on which two presets read differently."""
        for o in self.options:
            ra, rb = self.presets[a][o.name], self.presets[b][o.name]
            if ra != rb:
                yield o, ra, rb
