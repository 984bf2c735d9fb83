"""`wargame explore`: run the ambiguity explorer and the gap search, print a table, and write
the report (`--report DIR`: index.html, results.json, one SVG and two replayable logs per
witness, `wargame play GAME --replay DIR/<name>-a.json` reaching the witness position).

One corpus of seeded games of every preset is played per run and shared by every reading pair
and by the search for clauses no play reached (`solvers.checking.corpus`). The pairs a first round
leaves unknown are searched again with the time the settled ones did not use (`second_round`),
so the pairs still end within pairs x budget. Win rates of the
differing pairs are added after the run, outside its budget (`tools.explore_winrates`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import InvalidInput
from kernel.roles import AssembledGame
from solvers.checking.corpus import CORPUS_SECONDS, Corpus, build_corpus
from solvers.checking.differences import Finding
from solvers.checking.explore import differential
from solvers.checking.gaps import (
    PLAY_SECONDS,
    STUCK_SECONDS,
    Gap,
    model_stuck,
    no_action_and_endless,
    stuck_readings,
)
from solvers.checking.shrink import shrink_finding
from solvers.checking.steer_corpus import STEER_CORPUS_SECONDS, extend_corpus
from solvers.checking.steer_reach import STEER_REACH_SECONDS, steer_unreached
from solvers.checking.unplayed import UNPLAYED
from solvers.checking.unreached import (
    UNREACHED_SECONDS,
    Unreached,
    seeded_play,
    settle_unreached,
    unreached_clauses,
)
from solvers.checking.unread import unread_findings
from tools.explore_pages import (
    Files,
    finding_part,
    gap_part,
    page,
    unreached_part,
    unreached_section,
)
from tools.progress import Progress
from tools.verify import spec_verification

FIXED_SECONDS = 120.0
"""What a run may spend besides its pairs' searches: the run ends within pairs x budget +
this (issue 33, item 5), under any load."""
REPORT_SECONDS = 25.0
"""Of `FIXED_SECONDS`, what is kept for the command's start and for writing the report after
the searches (a picture, two logs and an account of every witness: about 20 s for SNC's 44
witnesses on a loaded machine), which no deadline can cut short: the searches' fixed parts
share the rest."""
SHRINK_SECONDS = 10.0
"""The witnesses' shrinking, all together, at most (a count of replays bounds each too)."""


@attrs.define
class FixedClock:
    """The run's fixed part (corpus, shrinking, gap and clause searches): the run's time
    less what its pairs may take (pairs x budget, `paired`), against `total` seconds. Each
    part ends at its own cap or when the account runs out, whichever comes first, so a part
    that overran, or pairs that took longer than their budgets (a loaded machine), shorten
    the parts after them rather than break the run's promise."""

    start: float
    total: float = FIXED_SECONDS - REPORT_SECONDS
    paired: float = 0.0  # seconds the pairs searched so far may take: pairs x budget

    def left(self) -> float:
        """Seconds the fixed part has left."""
        spent = time.perf_counter() - self.start - self.paired
        return max(0.0, self.total - spent)

    def until(self, cap: float) -> float:
        """The deadline (a `time.perf_counter()` value) of a part given `cap` seconds."""
        return time.perf_counter() + min(cap, self.left())


def explore(
    game: AssembledGame[Any, Any],
    option: str | None,
    preset: str | None,
    budget: float,
    progress: Progress | None = None,
    clock: FixedClock | None = None,
) -> tuple[list[Finding], list[Gap], list[Unreached]]:
    """Every reading pair of the options asked (a moot pair again under the other presets),
    then, for all options, the gap search and the clauses no play reached. `progress` hears
    (steps done, steps in all, what runs now) before each step; `clock` keeps the fixed part
    within its account (`FixedClock`: one is started here unless given)."""
    cat = game.catalogue
    options = [o for o in cat.options if option is None or o.name == option]
    if not options:
        known = ", ".join(o.name for o in cat.options)
        raise InvalidInput(f"unknown option {option!r} (options: {known})", field="OPTION")
    if preset is not None and preset not in cat.presets:
        raise InvalidInput(f"unknown preset {preset!r}", field="--preset")
    clock = clock or FixedClock(time.perf_counter())
    spec = spec_verification(game)
    models = None if spec is None else spec.symbolic_model
    total = len(options) + 1 + (len(game.presets()) + 1 if option is None else 0)
    tell: Progress = progress or (lambda done, total, now: None)
    # seeded games of every preset, played once and shared by every pair: each pair starts
    # where its option takes effect (solvers.checking.from_corpus)
    tell(0, total, "a corpus of seeded games")
    corpus = build_corpus(game, deadline=clock.until(CORPUS_SECONDS))
    # options no corpus game met: one steered search toward all of them, shared by the pairs
    later = clock.until(STEER_CORPUS_SECONDS)
    corpus = extend_corpus(game, corpus, [o.name for o in options], deadline=later)
    findings = _pairs(game, options, preset, budget, models, corpus, tell, total)
    # the pairs left unknown again, with the time the settled ones did not use
    tell(len(options), total, "the unknown pairs again")
    findings = second_round(game, findings, budget, models, corpus)
    clock.paired += budget * sum(1 for f in findings if f.verdict != UNPLAYED)
    # each witness shrunk to the shortest log that still shows its difference (a count of
    # replays bounds it, and the fixed part's clock); the gap search looks past the
    # witnesses as found too
    end = clock.until(SHRINK_SECONDS)
    shrunk = [shrink_finding(game, f, deadline=end) for f in findings]
    changed = [s for f, s in zip(findings, shrunk, strict=True) if s is not f]
    gaps: list[Gap] = stuck_readings(game, findings + changed)
    findings = shrunk
    # a search aimed at stuck positions: Z3 over the model of each preset (all options) or of
    # each reading of the one option asked, within the run's slack
    under: list[tuple[str, tuple[str, str] | None]] = [(p, None) for p in game.presets()]
    if option is not None:
        first = preset or next(iter(cat.presets))
        under = [(first, (o.name, r.name)) for o in options for r in o.played()]
    tell(len(options), total, "stuck positions on the model")
    stuck = min(STUCK_SECONDS, clock.left())
    gaps.extend(model_stuck(game, models, under, budget=stuck / len(under)))
    unreached: list[Unreached] = []
    if option is None:
        unreached = _unreached(
            game, corpus, models, budget, gaps, tell, (len(options), total), clock
        )
    tell(total, total, "done")
    return findings, gaps, unreached


def _pairs(
    game: AssembledGame[Any, Any],
    options: list[Any],
    preset: str | None,
    budget: float,
    models: Any,
    corpus: Corpus,
    tell: Progress,
    total: int,
) -> list[Finding]:
    """The first round: every reading pair of `options` (a moot pair again under the other
    presets)."""
    cat = game.catalogue
    findings: list[Finding] = []
    for i, o in enumerate(options):
        tell(i, total, o.name)
        # an option no rule reads is proved equivalent without a search (solvers.checking.unread);
        # a pair the game proves the same over its data is too, inside `differential`
        # (solvers.checking.game_proofs)
        found = unread_findings(game, o, preset) or differential(
            game, o, preset=preset, budget=budget, models=models, corpus=corpus
        )
        # a pair equivalent only because its rule is off there: also under the other presets
        others = {p for f in found if f.moot for p in cat.presets if p != f.preset}
        for p in sorted(others):
            found.extend(
                differential(game, o, preset=p, budget=budget, models=models, corpus=corpus)
            )
        findings.extend(found)
    return findings


def _unreached(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    models: Any,
    budget: float,
    gaps: list[Gap],
    tell: Progress,
    steps: tuple[int, int],
    clock: FixedClock,
) -> list[Unreached]:
    """The gap search's play (its gaps added to `gaps`) and the clauses no play reached,
    each part within its cap and what the fixed part's `clock` has left."""
    done, total = steps

    def games() -> None:
        """The gap search's play, then seeded random play: clause reach is measured over
        both (`solvers.checking.reach`)."""
        start, n = time.perf_counter(), len(game.presets())
        end = clock.until(PLAY_SECONDS)
        for j, name in enumerate(game.presets()):
            tell(done + 1 + j, total, f"gaps under {name}")
            share = start + (end - start) * (j + 1) / (2 * n)  # half of it for the gaps
            found = no_action_and_endless(
                game, name, games=8, max_steps=2000, restarts=2, deadline=share
            )
            gaps.extend(found)
        seeded_play(game, 20, deadline=end)()

    dead = unreached_clauses(game, games)
    tell(total - 1, total, "clauses no play reached")
    # play steered toward each from the corpus first; Z3 over the model for the rest
    why: dict[str, str] = {}  # what steered play found of each clause it did not reach
    unreached, dead = steer_unreached(
        game, corpus, dead, deadline=clock.until(STEER_REACH_SECONDS), why=why
    )
    left = min(UNREACHED_SECONDS, clock.left())
    unreached += settle_unreached(game, dead, models, budget, total_budget=left, why=why)
    return unreached


SECOND_AT_LEAST = 2.0
"""A second round gives each unknown pair at least this many times the first round's budget,
or none at all (a search as short as the first would only repeat it)."""


CORPUS_POSITIONS = 400  # `differential`'s defaults, for one budget
STEER_NODES = 120
SECOND_MODEL_SHARE = 0.75
"""Z3's share of a second round's time: only a proof settles a pair equivalent, and a proof on
the model is what a first round's short share most often cut off (a pair whose reading the
model does not encode passes all of it on to the other searches at once)."""


def second_round(
    game: AssembledGame[Any, Any],
    findings: list[Finding],
    budget: float,
    models: Any,
    corpus: Corpus,
) -> list[Finding]:
    """The unknown pairs searched again, sharing evenly the time the first round's pairs left
    unused of their `budget` each, so the run still ends within pairs x budget (plus its fixed
    parts), their searches' counts (corpus positions, steered positions) scaled with it.
    Every search starts from the same seeds and corpus positions, so the longer one covers the
    first; its finding replaces the first, its seconds the two rounds'. A pair
    proved moot here is explored under the other presets too, as in the first round."""
    cat = game.catalogue
    searched = [f for f in findings if f.verdict != UNPLAYED]  # an unplayed pair has no time
    spare = budget * len(searched) - sum(f.seconds for f in searched)
    unknown = [i for i, f in enumerate(findings) if f.verdict == "unknown"]
    out = list(findings)
    for k, i in enumerate(unknown):
        share = spare / (len(unknown) - k)
        if share < SECOND_AT_LEAST * budget:
            break
        f = findings[i]
        start = time.perf_counter()
        [again] = differential(
            game,
            cat.option(f.option),
            preset=f.preset,
            budget=share,
            models=models,
            corpus=corpus,
            only=(f.reading_a, f.reading_b),
            model_share=SECOND_MODEL_SHARE,
            corpus_positions=int(CORPUS_POSITIONS * share / budget),
            steer_nodes=int(STEER_NODES * share / budget),
        )
        spare -= time.perf_counter() - start
        out[i] = attrs.evolve(
            again,
            seconds=f.seconds + again.seconds,
            detail=f"a second round of {share:.1f} s (the run's unused time): {again.detail}",
        )
        if again.moot:
            for p in sorted(set(cat.presets) - {f.preset}):
                out.extend(
                    differential(
                        game,
                        cat.option(f.option),
                        preset=p,
                        budget=budget,
                        models=models,
                        corpus=corpus,
                    )
                )
    return out


def table(findings: list[Finding], gaps: list[Gap], unreached: list[Unreached]) -> str:
    """One line per reading pair (with the limits its searches hit), gap and unreached clause."""
    lines = [
        f"{'option':<26}{'readings':<40}{'verdict':<12}{'log':>5}{'s':>7}  "
        f"{'limits hit':<28}found by"
    ]
    for f in findings:
        w = f.witness
        lines.append(
            f"{f.option:<26}{f.reading_a + ' / ' + f.reading_b:<40}{f.verdict:<12}"
            f"{len(w.log) if w else '-':>5}{f.seconds:>7.2f}  {f.limit or '-':<28}"
            f"{w.found_by if w else f.detail[:60]}"
        )
    for g in gaps:
        lines.append(f"gap {g.kind} under {g.under}: {g.message[:90]} ({', '.join(g.clauses)})")
    for u in unreached:
        hit = f" (limit hit: {u.limit})" if u.limit else ""
        lines.append(
            f"no play reached {u.clause} under {u.preset}: {u.verdict}{hit}, {u.detail[:90]}"
        )
    return "\n".join(lines)


def write_report(
    game: AssembledGame[Any, Any],
    out: Path,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> Path:
    """The report in `out`: index.html, results.json, pictures and replayable logs."""
    report(game, out, findings, gaps, unreached)
    return out / "index.html"


def report(
    game: AssembledGame[Any, Any],
    out: Path | None,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> dict[str, Any]:
    """The content of results.json; with `out`, every file of the report written there."""
    files = Files(out)
    results: dict[str, Any] = {"game": game.name, "options": [], "gaps": [], "unreached": []}
    sections = []
    for f in findings:
        entry, section = finding_part(game, files, f)
        results["options"].append(entry)
        sections.append(section)
    for i, g in enumerate(gaps):
        entry, section = gap_part(game, files, g, i)
        results["gaps"].append(entry)
        sections.append(section)
    rows = []
    for i, u in enumerate(unreached):
        entry, row = unreached_part(game, files, u, i)
        results["unreached"].append(entry)
        rows.append(row)
    if rows:
        sections.append(unreached_section(rows))
    files.text("results.json", dump_json(results) + "\n")
    files.text("index.html", page(game, findings, gaps, unreached, sections))
    return results
