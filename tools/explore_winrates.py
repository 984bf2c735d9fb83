"""Which readings change who wins: for every reading pair the explorer found to differ, the
paired difference in win rate between the two readings over the same seeds, greedy against
greedy, with its 95% interval (`tools.study`: its plans, engine and results store).

Each reading's games are one study: the preset itself where the pair's reading is the
preset's own, else the preset with the option read the other way. So the preset's games are
played once and shared by every option's pairs, and `wargame study GAME --agent greedy
--against greedy [--option OPTION=READING]` files its games under the same keys.

The games are played outside the pairs' search budget (`wargame explore --win-rates GAMES`, or
`--only-win-rates` without the search) and cached in the study database: a report without the
flag reads what the database holds and plays none. A differing pair whose numbers are not
there says why and the command that plays them (`not_computed`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.errors import InvalidInput
from kernel.roles import AssembledGame
from solvers.checking.differences import Finding
from tools.progress import Progress
from tools.study.engine import Engine, LocalEngine
from tools.study.plan import BASE, MAX_SEED, Plan, make_plan
from tools.study.runner import execute_all
from tools.study.stats import compare
from tools.study.store import Store

AGENT = "greedy"
ALSO = "mcts"
"""The agent whose games a report shows beside the greedy agent's when the database holds them
(`--win-rate-agent mcts`: affordable where a game is short, see the README)."""
AGENTS = (AGENT, ALSO)
DB = "wargame-study.sqlite"  # the study command's default database
SUGGESTED_GAMES = 20
"""The seeds per reading a not-computed pair's command suggests (about a minute of processor
time per pair in the larger games, an interval of about +-25 points)."""


@attrs.frozen
class Pair:
    """Two readings of one option under one preset (a finding's, or one to be studied)."""

    preset: str
    option: str
    reading_a: str
    reading_b: str


def pair_of(f: Finding) -> Pair:
    return Pair(f.preset, f.option, f.reading_a, f.reading_b)


def not_computed(reason: str) -> dict[str, Any]:
    """The win-rate field of a differing pair whose numbers were not computed."""
    return {"computed": False, "reason": reason}


def reading_plan(
    game: AssembledGame[Any, Any],
    pair: Pair,
    reading: str,
    games: int,
    agent: str = AGENT,
    to_play: bool = True,
) -> Plan:
    """The study of one reading's games, `agent` on both sides: the preset itself when it
    reads the option so (one study shared by every option's pairs), else the preset with the
    option read so. A plan not `to_play` is only looked up: its agents are not built."""
    own = game.catalogue.preset(pair.preset).reading(pair.option)
    options = () if reading == own else (f"{pair.option}={reading}",)
    return make_plan(
        game.name,
        preset=pair.preset,
        agent=agent,
        against=agent,
        games=games,
        options=options,
        check_agents=to_play,
    )


def plans_of(
    game: AssembledGame[Any, Any], pair: Pair, games: int, agent: str = AGENT, to_play: bool = True
) -> tuple[Plan, Plan]:
    return (
        reading_plan(game, pair, pair.reading_a, games, agent, to_play),
        reading_plan(game, pair, pair.reading_b, games, agent, to_play),
    )


def command(game: AssembledGame[Any, Any], pair: Pair, db: Path | str, agent: str = AGENT) -> str:
    """The command that plays a pair's games (and no pair search)."""
    played_by = "" if agent == AGENT else f" --win-rate-agent {agent}"
    return (
        f"wargame explore {game.name} {pair.option} --preset {pair.preset} "
        f"--win-rates {SUGGESTED_GAMES}{played_by} --only-win-rates --db {db}"
    )


def play(
    game: AssembledGame[Any, Any],
    pairs: Iterable[Pair],
    games: int,
    store: Store,
    engine: Engine,
    deadline: float | None = None,
    progress: Progress | None = None,
    agent: str = AGENT,
) -> dict[str, int]:
    """Play the seeds 0 to games - 1 of every reading of the pairs that the store lacks, each
    distinct study once, in one engine session; per study key, the games played now. Past
    `deadline` (a `time.perf_counter()` value) no more are started; `progress` hears (games
    done, games to play, "games") after each task; `agent` plays both sides."""
    plans: dict[str, Plan] = {}
    for pair in pairs:
        for plan in plans_of(game, pair, games, agent):
            plans.setdefault(plan.key, plan)
    before = {key: store.count(key) for key in plans}
    if deadline is None or time.perf_counter() <= deadline:
        tell = None if progress is None else (lambda done, total: progress(done, total, "games"))
        execute_all(list(plans.values()), store, engine, deadline=deadline, progress=tell)
    return {key: store.count(key) - n for key, n in before.items()}


def stored_entry(
    game: AssembledGame[Any, Any],
    pair: Pair,
    store: Store,
    games: int | None = None,
    agent: str = AGENT,
) -> dict[str, Any] | None:
    """The pair's win-rate numbers from `agent`'s stored games (None when no seed has both
    readings' game): the seeds 0 to games - 1, or, without `games`, every seed from 0 up to
    the first that lacks either reading's game."""
    a, b = plans_of(game, pair, 1, agent, to_play=False)
    if games is None:
        everything = range(0, MAX_SEED)
        both = store.stored(a.key, BASE, everything) & store.stored(b.key, BASE, everything)
        games = next(i for i in range(len(both) + 1) if i not in both)
    seeds = range(0, games)
    c = compare(store.results(a.key, BASE, seeds), store.results(b.key, BASE, seeds), game.sides)
    if c["paired_games"] == 0:
        return None
    return {
        "computed": True,
        "agent": f"{agent} against {agent}",
        "games": games,
        "paired_games": c["paired_games"],
        "changed_games": c["changed_games"],
        "outcomes": {
            name: {
                "rate_a": o["base_rate"],
                "rate_b": o["other_rate"],
                "difference": o["difference"],
                "low": o["low"],
                "high": o["high"],
                "p_value": o["p_value"],
            }
            for name, o in c["outcomes"].items()
        },
        "study_keys": [a.key, b.key],
    }


def entry(
    game: AssembledGame[Any, Any],
    pair: Pair,
    store: Store,
    db: Path | str,
    games: int | None = None,
    played: dict[str, int] | None = None,
    agent: str = AGENT,
) -> dict[str, Any]:
    """The pair's win-rate field: the greedy agent's numbers, or why they are not there and
    the command that plays them, and MCTS's beside them (`mcts`) when the database holds
    them. `games` and `played` (per study key, the games played now: adds `played_now`) are
    those `agent` just played; the other agent's numbers are every stored paired seed's."""
    field = _numbers(
        game, pair, store, db, *((games, played) if agent == AGENT else (None, None)), AGENT
    )
    also = _numbers(
        game, pair, store, db, *((games, played) if agent == ALSO else (None, None)), ALSO
    )
    if also.get("computed"):
        field[ALSO] = also
    return field


def _numbers(
    game: AssembledGame[Any, Any],
    pair: Pair,
    store: Store,
    db: Path | str,
    games: int | None,
    played: dict[str, int] | None,
    agent: str,
) -> dict[str, Any]:
    """One agent's numbers for the pair, or why they are not there."""
    found = stored_entry(game, pair, store, games, agent)
    if found is None:
        why = (
            "the time given to win-rate studies ran out before this pair's games"
            if played is not None
            else f"no {agent} games of both readings in {db}"
        )
        return not_computed(f"{why}: `{command(game, pair, db, agent)}` plays them")
    if played is not None:
        found["played_now"] = sum(played.get(k, 0) for k in found["study_keys"])
    return found


def with_win_rates(
    game: AssembledGame[Any, Any],
    findings: Sequence[Finding],
    games: int,
    db: Path | str = DB,
    *,
    engine: Engine | None = None,
    deadline: float | None = None,
    progress: Progress | None = None,
    agent: str = AGENT,
) -> list[Finding]:
    """The findings, each differing pair with its `win_rate` over the seeds 0 to games - 1,
    both sides played by `agent` on `engine` (a local process pool of one worker by default)
    where the database lacks them; a pair whose games would start past `deadline` gets the
    reason instead. Pairs that do not differ are left as they are."""
    pairs = [pair_of(f) for f in findings if f.verdict == "differ"]
    with Store(Path(db)) as store:
        played = play(
            game, pairs, games, store, engine or LocalEngine(1), deadline, progress, agent
        )
        return [
            f
            if f.verdict != "differ"
            else attrs.evolve(f, win_rate=entry(game, pair_of(f), store, db, games, played, agent))
            for f in findings
        ]


def play_and_read(
    game: AssembledGame[Any, Any],
    pairs: Sequence[Pair],
    games: int,
    db: Path | str,
    engine: Engine,
    progress: Progress | None = None,
    agent: str = AGENT,
) -> list[dict[str, Any]]:
    """Each pair's win-rate field over the seeds 0 to games - 1, played by `agent` where the
    database lacks them (`--only-win-rates`)."""
    with Store(Path(db)) as store:
        played = play(game, pairs, games, store, engine, progress=progress, agent=agent)
        return [entry(game, p, store, db, games, played, agent) for p in pairs]


def cached_win_rates(
    game: AssembledGame[Any, Any], findings: Sequence[Finding], db: Path | str = DB
) -> list[Finding]:
    """The findings, each differing pair with the `win_rate` of the games the database
    already holds, playing none (a database that does not exist is not created)."""
    if not Path(db).is_file():
        gone = f"no study database at {db}"
        return [
            f
            if f.verdict != "differ"
            else attrs.evolve(
                f, win_rate=not_computed(f"{gone}: `{command(game, pair_of(f), db)}` plays them")
            )
            for f in findings
        ]
    with Store(Path(db)) as store:
        return [
            f
            if f.verdict != "differ"
            else attrs.evolve(f, win_rate=entry(game, pair_of(f), store, db))
            for f in findings
        ]


def every_pair(game: AssembledGame[Any, Any], option: str | None, preset: str | None) -> list[Pair]:
    """The reading pairs the explorer would compare (the preset's reading against each other
    playable one) for one option or all, under one preset (the game's default unless told),
    less those a static check proves the same game (`solvers.checking.unread`): what
    `--only-win-rates` plays, without the pair search."""
    from solvers.checking.readings import reading_pairs
    from solvers.checking.unread import unread_findings

    cat = game.catalogue
    name = preset or cat.default_preset
    pairs: list[Pair] = []
    for o in cat.options:
        if option is not None and o.name != option:
            continue
        if unread_findings(game, o, name):
            continue  # no rule reads the option: its readings play the same games
        for ra, rb in reading_pairs(o, cat.preset(name).reading(o.name)):
            pairs.append(Pair(name, o.name, ra, rb))
    return pairs


def differing_pairs(
    game: AssembledGame[Any, Any], results: Any, option: str | None, preset: str | None
) -> list[Pair]:
    """The differing pairs of an earlier report's results.json (`--from DIR`), of one option
    or all, under one preset or all; a document of another game, or not a report's, is
    refused naming `--from`."""
    entries = results.get("options") if isinstance(results, dict) else None
    if not isinstance(entries, list) or results.get("game") != game.name:
        raise InvalidInput(f"not a results.json of a {game.name} report", field="--from")
    try:
        pairs = [
            Pair(e["preset"], e["option"], *e["readings"])
            for e in entries
            if e["verdict"] == "differ"
        ]
    except (KeyError, TypeError, ValueError):
        raise InvalidInput("a reading pair of the report lacks a field", field="--from") from None
    return [
        p
        for p in pairs
        if (option is None or p.option == option) and (preset is None or p.preset == preset)
    ]
