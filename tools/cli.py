"""The `wargame` command: list games, start, query and advance positions, play, check data.

Kept thin on purpose: each subcommand parses its arguments, calls the Game contract or
`tools.playlog`, and prints JSON or a readable log. Every failure a user can cause is one JSON
object on stderr with exit code 2 (1 for a replay that ends elsewhere than its log, 70 for a
bug of ours), never a traceback, so scripts and people can both act on it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json, parse_json
from kernel.errors import InvalidInput, WargameError
from kernel.game import CHANCE, Game
from kernel.playout import DEFAULT_MAX_STEPS
from kernel.variants import Variant
from tools import explore_report, playlog
from tools import verify as verify_tool
from tools.registry import game_names, get_game
from tools.render import render_svg

EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # as a shell reports a process ended by SIGPIPE


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns the exit code (the console script exits with it)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed usage or help
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_USAGE)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except playlog.ReplayMismatch as err:
        _error(err.to_json())
        return 1
    except WargameError as err:
        _error(err.to_json())
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (`wargame play ... | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # a bug of ours: report it without a traceback
        _error({"error": "internal_error", "message": f"{type(exc).__name__}: {exc}"})
        return EXIT_INTERNAL


def _error(obj: dict[str, Any]) -> None:
    sys.stderr.write(dump_json(obj) + "\n")


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


# --- arguments ---------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="wargame", description="Rules kernel for historical board wargames."
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = sub.add_parser("games", help="list the games and their presets")
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(run=_games)

    new = sub.add_parser("new", help="print the initial state as JSON")
    new.add_argument("game", metavar="GAME")
    _variant_args(new)
    new.set_defaults(run=_new)

    legal = sub.add_parser("legal", help="list the legal actions (or chance outcomes) of a state")
    legal.add_argument("game", metavar="GAME")
    legal.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    legal.add_argument("--side", help="the side asking; another side's actions are not shown")
    legal.set_defaults(run=_legal)

    apply = sub.add_parser("apply", help="apply an action and print the next state")
    apply.add_argument("game", metavar="GAME")
    apply.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    apply.add_argument(
        "action", metavar="ACTION", help="action JSON file, - for stdin, or an inline {...} object"
    )
    apply.set_defaults(run=_apply)

    play = sub.add_parser("play", help="play with seeded random agents and print a readable log")
    play.add_argument("game", metavar="GAME")
    _variant_args(play)
    play.add_argument("--seed", type=int, help="random seed (default 0)")
    play.add_argument("--log", metavar="FILE", help="write a JSON game log")
    play.add_argument("--replay", metavar="FILE", help="replay a JSON game log and check it")
    play.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N")
    play.add_argument("--quiet", action="store_true", help="print only the header and the result")
    play.set_defaults(run=_play)

    explore = sub.add_parser(
        "explore", help="find where readings of the rules differ, and gaps in the text"
    )
    explore.add_argument("game", metavar="GAME")
    explore.add_argument("option", nargs="?", metavar="OPTION", help="one option (default: all)")
    explore.add_argument("--preset", metavar="PRESET", help="the reading to compare against")
    explore.add_argument("--budget", type=float, default=3.0, metavar="SECONDS", help="per pair")
    explore.add_argument("--report", metavar="DIR", help="write DIR/index.html and results.json")
    explore.add_argument("--json", action="store_true", help="print results.json's content")
    explore.set_defaults(run=_explore)

    render = sub.add_parser("render", help="draw a state as an SVG picture")
    render.add_argument("game", metavar="GAME")
    render.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    render.add_argument("-o", "--output", required=True, metavar="FILE.svg")
    render.set_defaults(run=_render)

    verify = sub.add_parser("verify", help="prove or refute each game's declared properties")
    verify_tool.add_arguments(verify)
    verify.set_defaults(run=verify_tool.run_cli)

    data = sub.add_parser("data", help="data file tools")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="SUBCOMMAND")
    check = data_sub.add_parser("check", help="check the rules text's facts against the data")
    check.add_argument("game", metavar="GAME")
    check.add_argument("--file", metavar="PATH", help="a data file to check instead of the game's")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.set_defaults(run=_data_check)
    return p


def _variant_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", metavar="PRESET", help="preset name (default: the game's)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="read one option another way (repeatable)",
    )


def _variant(game: Game[Any, Any], preset: str | None, options: Sequence[str]) -> Variant:
    overrides: dict[str, str] = {}
    for item in options:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            raise InvalidInput(f"--option takes NAME=READING, not {item!r}", field="--option")
        overrides[name] = reading
    return game.catalogue.variant(preset, overrides)


def _read(arg: str, name: str) -> str:
    """The text of a file argument, or of stdin for '-'; a missing file names the argument."""
    if arg == "-":
        return sys.stdin.read()
    try:
        return Path(arg).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidInput(f"{name}: no such file: {arg}", field=name) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{name}: cannot read {arg}: {exc}", field=name) from None


def _read_state(game: Game[Any, Any], arg: str) -> Any:
    return game.state_from_json(parse_json(_read(arg, "STATE"), what="STATE"))


# --- subcommands -------------------------------------------------------------------------------


def _games(args: argparse.Namespace) -> int:
    rows = []
    for name in game_names():
        game = get_game(name)
        rows.append(
            {
                "name": name,
                "title": game.title,
                "sides": list(game.sides),
                "presets": sorted(game.presets()),
                "default_preset": game.catalogue.default_preset,
            }
        )
    if args.json:
        _out(dump_json({"games": rows}))
        return 0
    for r in rows:
        presets = ", ".join(r["presets"])
        _out(f"{r['name']}  {r['title']}  presets: {presets} (default {r['default_preset']})")
    return 0


def _new(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    state = game.initial_state(_variant(game, args.variant, args.option))
    _out(dump_json(game.state_to_json(state)))
    return 0


def _legal(args: argparse.Namespace) -> int:
    """The actions of the side to move. Asked for by another side, nothing: a side is only
    ever told what it may see (later games hide information)."""
    game = get_game(args.game)
    if args.side is not None and args.side not in game.sides:
        known = ", ".join(game.sides)
        raise InvalidInput(f"unknown side {args.side!r} (sides: {known})", field="--side")
    state = _read_state(game, args.state)
    to_move = game.to_move(state)
    out: dict[str, Any] = {"to_move": to_move}
    if args.side is not None and args.side != to_move:
        out["actions"] = []
    elif to_move == CHANCE:
        out["outcomes"] = [
            {"action": game.action_to_json(a), "probability": str(p)}
            for a, p in game.chance_outcomes(state)
        ]
    else:
        out["actions"] = [game.action_to_json(a) for a in game.legal_actions(state)]
        if not out["actions"] and to_move is not None:
            out["gap"] = {
                "message": "the side to move has no legal action although the game is not "
                "over: the rules demand something no action satisfies",
                "clauses": list(game.no_action_clauses(state)),
            }
    if to_move is None:
        outcome = game.outcome(state)
        out["result"] = None if outcome is None else outcome.to_json()
    _out(dump_json(out))
    return 0


def _apply(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.state == "-" and args.action == "-":
        raise InvalidInput("at most one of STATE and ACTION may be - (stdin)", field="ACTION")
    state = _read_state(game, args.state)
    text = args.action if args.action.lstrip().startswith("{") else _read(args.action, "ACTION")
    action = game.action_from_json(parse_json(text, what="ACTION"))
    _out(dump_json(game.state_to_json(game.apply(state, action))))
    return 0


def _explore(args: argparse.Namespace) -> int:
    """Differential witnesses per option and the gap search (tools/explore_report.py)."""
    game = get_game(args.game)
    if args.budget <= 0:
        raise InvalidInput("--budget must be positive", field="--budget")

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    findings, gaps, unreached = explore_report.explore(
        game, args.option, args.preset, args.budget, progress
    )
    if args.report is not None:
        index = explore_report.write_report(game, Path(args.report), findings, gaps, unreached)
        progress(f"report: {index}")
    if args.json:
        _out(
            dump_json(
                {
                    "findings": [attrs.asdict(f) for f in findings],
                    "gaps": [attrs.asdict(g) for g in gaps],
                    "unreached": [attrs.asdict(u) for u in unreached],
                }
            )
        )
    else:
        _out(explore_report.table(findings, gaps, unreached))
    return 0


def _render(args: argparse.Namespace) -> int:
    """Write the picture of a state (tools/render.py) to the output file."""
    game = get_game(args.game)
    draw = getattr(game, "scene", None)
    if draw is None:
        raise InvalidInput(f"{game.name} has no picture yet", field="game")
    svg = render_svg(draw(_read_state(game, args.state)))
    try:
        Path(args.output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {args.output}: {exc.strerror}", field="--output") from exc
    _out(args.output)
    return 0


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.max_steps < 0:
        raise InvalidInput("--max-steps must be 0 or more", field="--max-steps")
    emit = None if args.quiet else _out
    if args.replay is not None:
        if args.variant is not None or args.option or args.seed is not None:
            raise InvalidInput(
                "--replay takes the variant and seed from the log; do not give them",
                field="--replay",
            )
        log = playlog.read_log(game, parse_json(_read(args.replay, "--replay"), what="--replay"))
        variant, seed = log.variant, log.seed
        _out(playlog.header(game, variant, seed))
        result = playlog.replay_log(game, log, emit)
    else:
        variant = _variant(game, args.variant, args.option)
        seed = 0 if args.seed is None else args.seed
        _out(playlog.header(game, variant, seed))
        result = playlog.play_narrated(game, variant, seed, emit, max_steps=args.max_steps)
    if emit is None:
        _out(result.report())
    if args.log is not None:
        playlog.write_log(Path(args.log), playlog.make_log(game, variant, seed, result))
    return 0


def _data_check(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    path = None if args.file is None else Path(args.file)
    if path is not None and not path.is_file():
        raise InvalidInput(f"--file: no such file: {args.file}", field="--file")
    facts = game.data_facts(path)
    provisional = game.provisional(path)
    ok = all(f.ok for f in facts)
    if args.json:
        _out(
            dump_json(
                {
                    "game": game.name,
                    "file": args.file,
                    "ok": ok,
                    "facts": [f.to_json() for f in facts],
                    "provisional": [
                        {
                            "name": name,
                            "source": p.source,
                            "fields": list(p.provisional),
                            "note": p.note,
                        }
                        for name, p in provisional
                    ],
                }
            )
        )
        return 0 if ok else 1
    width = max((len(f.clause) for f in facts), default=0)
    stmt = max((len(f.statement) for f in facts), default=0)
    _out(f"{'clause':<{width}}  {'statement':<{stmt}}  {'check':<5}  detail")
    for f in facts:
        status = "ok" if f.ok else "FAIL"
        _out(f"{f.clause:<{width}}  {f.statement:<{stmt}}  {status:<5}  {f.detail}".rstrip())
    failed = sum(not f.ok for f in facts)
    _out(f"{len(facts) - failed} of {len(facts)} facts hold" + ("" if ok else f", {failed} FAIL"))
    _out(f"\nprovisional records: {len(provisional)}")
    for name, p in provisional:
        fields = ", ".join(p.provisional) or "all"
        _out(f"  {name} [{fields}]: {_first_sentence(p.note)}")
    return 0 if ok else 1


def _first_sentence(note: str) -> str:
    """A note's opening sentence, unwrapped: enough to say why a value was chosen."""
    text = " ".join(note.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


if __name__ == "__main__":
    sys.exit(main())
