"""The `wargame` command: list games, start, query and advance positions, play, check data.

Kept thin on purpose: each subcommand parses its arguments, calls the Game contract,
`kernel.views` or `tools.playlog`, and prints JSON or a readable log. Exit codes: 0 done; 1 a
check that failed (a data fact, a replay that is not the logged game); 2 input that is refused
(an argument, a file, a position, an action); 70 a bug of ours, which no input may cause. Every
failure, argument errors included, is one JSON object on stderr, never a traceback, so scripts
and people can both act on it.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from kernel.codec import dump_json
from kernel.errors import InvalidInput, MissingExtra, WargameError
from kernel.game import CHANCE
from kernel.playout import DEFAULT_MAX_STEPS, CycleWatch, Playout
from kernel.roles import AssembledGame
from kernel.variants import Variant
from kernel.views import SCHEMA_KINDS, check_side, check_turn, schema, view
from kernel.wire import MAX_INPUT_BYTES, parse_json
from tools import explore_report, explore_winrates, playlog
from tools import verify as verify_tool
from tools.agents import AGENT_NAMES, make_agent
from tools.agents.base import Agent
from tools.agents.match import play_match
from tools.progress import terminal_progress
from tools.registry import game_names, get_game
from tools.render import render_svg
from tools.study import command as study_command
from tools.study.engine import LocalEngine

EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # as a shell reports a process ended by SIGPIPE
MAX_SEED = 2**63 - 1
"""The largest seed a log records (`kernel.codec.Seed`)."""


class UsageError(WargameError):
    """Arguments argparse refuses: an unknown subcommand or option, a missing argument, a
    value of the wrong type. Reported like every other error, with the usage line."""

    kind = "usage"

    def __init__(self, message: str, *, field: str, usage: str) -> None:
        super().__init__(message, field=field)
        self.usage = usage

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "usage": self.usage}


_ARGUMENT = re.compile(r"^argument (?P<name>[^:]+): ")
_REQUIRED = re.compile(r"^the following arguments are required: (?P<names>.+)$")
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (?P<args>.+)$")


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are raised (as UsageError) instead of printed; `--help`
    still prints help and exits 0. Subcommand parsers are of this class too (argparse makes
    them with the parent's class)."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split())
        raise UsageError(message, field=_argument_named(message), usage=usage)


def _argument_named(message: str) -> str:
    """The argument an argparse message is about (`--seed`, `STATE`, `COMMAND`, `--bogus`)."""
    if match := _ARGUMENT.match(message):
        return _longest(match.group("name"))
    if match := _REQUIRED.match(message):
        return _longest(match.group("names").split(", ")[0])
    if match := _UNRECOGNIZED.match(message):
        return match.group("args").split(" ")[0]
    return "arguments"


def _longest(names: str) -> str:
    """`--output` of argparse's `-o/--output`."""
    return max(names.split("/"), key=len)


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns the exit code (the console script exits with it)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        _error(err.to_json())
        return EXIT_USAGE
    except SystemExit as exc:  # --help (or --version): printed, and done
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_USAGE)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except playlog.ReplayMismatch as err:
        _error(err.to_json())
        return EXIT_CHECK_FAILED
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
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:  # a file name given as bytes that are not UTF-8
        sys.stdout.write(text.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")


# --- arguments ---------------------------------------------------------------------------------


Subcommands = Any
"""What `add_subparsers` returns (argparse's private `_SubParsersAction`), to add a verb to."""


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="wargame", description="Rules kernel for historical board wargames.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        _add_games,
        _add_new,
        _add_legal,
        _add_apply,
        _add_view,
        _add_schema,
        _add_play,
        _add_explore,
        _add_render,
        _add_verify,
        study_command.add_parser,
        _add_serve,
        _add_data,
    ):
        add(sub)
    return p


def _add_games(sub: Subcommands) -> None:
    games = sub.add_parser("games", help="list the games and their presets")
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(run=_games)


def _add_new(sub: Subcommands) -> None:
    new = sub.add_parser("new", help="print the initial state as JSON")
    new.add_argument("game", metavar="GAME")
    _variant_args(new)
    new.set_defaults(run=_new)


def _add_legal(sub: Subcommands) -> None:
    legal = sub.add_parser("legal", help="list the legal actions (or chance outcomes) of a state")
    legal.add_argument("game", metavar="GAME")
    legal.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    legal.add_argument("--side", help="the side asking; another side's actions are not shown")
    legal.set_defaults(run=_legal)


def _add_apply(sub: Subcommands) -> None:
    apply = sub.add_parser("apply", help="apply an action and print the next state")
    apply.add_argument("game", metavar="GAME")
    apply.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    apply.add_argument(
        "action", metavar="ACTION", help="action JSON file, - for stdin, or an inline {...} object"
    )
    apply.add_argument(
        "--side",
        help="the side sending the action: refused unless it is to move (default: the referee, "
        "who may apply any side's action and chance's)",
    )
    apply.set_defaults(run=_apply)


def _add_view(sub: Subcommands) -> None:
    view_p = sub.add_parser("view", help="print what one side may know of a state, as JSON")
    view_p.add_argument("game", metavar="GAME")
    view_p.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    view_p.add_argument("--side", required=True, help="the side whose view to print")
    view_p.set_defaults(run=_view)


def _add_schema(sub: Subcommands) -> None:
    schema_p = sub.add_parser("schema", help="print the JSON Schema of a game's documents")
    schema_p.add_argument("game", metavar="GAME")
    schema_p.add_argument(
        "kind", metavar="KIND", choices=SCHEMA_KINDS, help="one of: " + ", ".join(SCHEMA_KINDS)
    )
    schema_p.set_defaults(run=_schema)


def _add_play(sub: Subcommands) -> None:
    play = sub.add_parser("play", help="play with seeded agents and print a readable log")
    play.add_argument("game", metavar="GAME")
    _variant_args(play)
    play.add_argument("--seed", type=int, help="random seed (default 0)")
    play.add_argument(
        "--agent",
        choices=AGENT_NAMES,
        help="who plays the game's first side (default random)",
    )
    play.add_argument(
        "--against",
        choices=AGENT_NAMES,
        help="who plays the other side (default random)",
    )
    play.add_argument(
        "--simulations", type=int, metavar="N", help="an mcts agent's searches per decision"
    )
    play.add_argument("--log", metavar="FILE", help="write a JSON game log")
    play.add_argument("--replay", metavar="FILE", help="replay a JSON game log and check it")
    play.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N")
    play.add_argument("--quiet", action="store_true", help="print only the header and the result")
    play.set_defaults(run=_play)


def _add_explore(sub: Subcommands) -> None:
    explore = sub.add_parser(
        "explore", help="find where readings of the rules differ, and gaps in the text"
    )
    explore.add_argument("game", metavar="GAME")
    explore.add_argument("option", nargs="?", metavar="OPTION", help="one option (default: all)")
    explore.add_argument("--preset", metavar="PRESET", help="the reading to compare against")
    explore.add_argument("--budget", type=float, default=3.0, metavar="SECONDS", help="per pair")
    explore.add_argument("--report", metavar="DIR", help="write DIR/index.html and results.json")
    explore.add_argument(
        "--json", action="store_true", help="print results.json (the same document)"
    )
    explore.add_argument(
        "--win-rates",
        type=int,
        default=0,
        metavar="GAMES",
        help="for each differing pair, greedy vs greedy over GAMES seeds per reading (not "
        "counted in the budget; cached in --db)",
    )
    explore.add_argument("--db", default="wargame-study.sqlite", metavar="PATH")
    explore.add_argument("--workers", type=int, default=1, metavar="W", help="for --win-rates")
    explore.set_defaults(run=_explore)


def _add_render(sub: Subcommands) -> None:
    render = sub.add_parser("render", help="draw a state as an SVG picture")
    render.add_argument("game", metavar="GAME")
    render.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    render.add_argument("-o", "--output", required=True, metavar="FILE.svg")
    render.add_argument(
        "--side", metavar="SIDE", help="draw what SIDE may see (games with hidden information)"
    )
    render.set_defaults(run=_render)


def _add_verify(sub: Subcommands) -> None:
    verify = sub.add_parser("verify", help="prove or refute each game's declared properties")
    verify_tool.add_arguments(verify)
    verify.set_defaults(run=verify_tool.run_cli)


def _add_serve(sub: Subcommands) -> None:
    serve = sub.add_parser("serve", help="serve the legal-move query API and the play page")
    serve.add_argument("--db", default="wargame.db", metavar="PATH", help="the SQLite file")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument(
        "--open",
        action="store_true",
        help="open mode: anyone who reaches the port may create matches and jobs (no key)",
    )
    serve.add_argument(
        "--key-file",
        metavar="PATH",
        help="read the server's key from PATH (else $WARGAME_SERVER_KEY, else a fresh one)",
    )
    serve.add_argument(
        "--create-rate",
        type=float,
        default=30.0,
        metavar="N",
        help="matches and jobs one client may create a minute (default 30)",
    )
    serve.add_argument(
        "--create-burst",
        type=int,
        default=20,
        metavar="N",
        help="matches and jobs one client may create at once (default 20)",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may call the API (repeatable; none by default)",
    )
    serve.set_defaults(run=_serve)


def _add_data(sub: Subcommands) -> None:
    data = sub.add_parser("data", help="data file tools")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="SUBCOMMAND")
    check = data_sub.add_parser("check", help="check the rules text's facts against the data")
    check.add_argument("game", metavar="GAME")
    check.add_argument("--file", metavar="PATH", help="a data file to check instead of the game's")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.set_defaults(run=_data_check)


def _variant_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", metavar="PRESET", help="preset name (default: the game's)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="read one option another way (repeatable)",
    )


def _variant(game: AssembledGame[Any, Any], preset: str | None, options: Sequence[str]) -> Variant:
    overrides: dict[str, str] = {}
    for item in options:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            raise InvalidInput(f"--option takes NAME=READING, not {item!r}", field="--option")
        overrides[name] = reading
    return game.catalogue.variant(preset, overrides)


def _read(arg: str, name: str) -> bytes:
    """The bytes of a file argument, or of stdin for '-': at most one byte more than
    `kernel.wire.MAX_INPUT_BYTES`, so that `parse_json` refuses a larger input without it
    ever being held in memory. A missing or unreadable file names the argument."""
    limit = MAX_INPUT_BYTES + 1
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            data: bytes = stream.read(limit)
            return data
        return os.fsencode(sys.stdin.read(limit))  # a text stream (tests): bytes as given
    try:
        with open(arg, "rb") as fh:
            data = fh.read(limit)
            return data
    except FileNotFoundError:
        raise InvalidInput(f"{name}: no such file: {arg}", field=name) from None
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{name}: cannot read {arg}: {exc}", field=name) from None


def _read_json(arg: str, name: str) -> Any:
    """A JSON argument: a file, '-' for stdin, parsed strictly (`kernel.wire.parse_json`)."""
    return parse_json(_read(arg, name), what=name)


def _read_state(game: AssembledGame[Any, Any], arg: str) -> Any:
    return game.state_from_json(_read_json(arg, "STATE"))


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
    if args.side is not None:
        check_side(game, args.side)
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
    """The next state. With `--side`, the side must be to move: that is settled from the state
    alone, before the action is read, so a side acting out of turn gets the same error
    (`not_your_turn`) whatever it sent and whatever the other side holds."""
    game = get_game(args.game)
    if args.side is not None:
        check_side(game, args.side)
    if args.state == "-" and args.action == "-":
        raise InvalidInput("at most one of STATE and ACTION may be - (stdin)", field="ACTION")
    state = _read_state(game, args.state)
    if args.side is not None:
        check_turn(game, state, args.side)
    inline = args.action.lstrip().startswith("{")
    raw = os.fsencode(args.action) if inline else _read(args.action, "ACTION")
    action = game.action_from_json(parse_json(raw, what="ACTION"))
    _out(dump_json(game.state_to_json(game.apply(state, action))))
    return 0


def _view(args: argparse.Namespace) -> int:
    """One side's view of a state (`kernel.views.view`): its observation, who is to move, its
    own legal actions when it is, the result once the game is over."""
    game = get_game(args.game)
    check_side(game, args.side)
    _out(dump_json(view(game, _read_state(game, args.state), args.side)))
    return 0


def _schema(args: argparse.Namespace) -> int:
    """The JSON Schema (Draft 2020-12) of one of the game's documents."""
    _out(dump_json(schema(get_game(args.game), args.kind)))
    return 0


def _explore(args: argparse.Namespace) -> int:
    """Differential witnesses per option and the gap search (tools/explore_report.py)."""
    game = get_game(args.game)
    if args.budget <= 0:
        raise InvalidInput("--budget must be positive", field="--budget")
    if args.win_rates < 0:
        raise InvalidInput("--win-rates must be at least 0", field="--win-rates")

    with terminal_progress(f"explore {game.name}, {args.budget:g} s a pair") as progress:
        findings, gaps, unreached = explore_report.explore(
            game, args.option, args.preset, args.budget, progress
        )
    if args.win_rates:
        findings = explore_winrates.with_win_rates(
            game, findings, args.win_rates, args.db, engine=LocalEngine(args.workers)
        )
    out = None if args.report is None else Path(args.report)
    results = explore_report.report(game, out, findings, gaps, unreached)
    if out is not None:
        sys.stderr.write(f"report: {out / 'index.html'}\n")
    if args.json:
        _out(dump_json(results))  # exactly results.json
    else:
        _out(explore_report.table(findings, gaps, unreached))
    return 0


def _render(args: argparse.Namespace) -> int:
    """Write the picture of a state (tools/render.py) to the output file."""
    game = get_game(args.game)
    draw = getattr(game, "scene", None)
    if draw is None:
        raise InvalidInput(f"{game.name} has no picture yet", field="game")
    if args.side is None:
        svg = render_svg(draw(_read_state(game, args.state)))
    else:
        side = check_side(game, args.side)
        if "side" not in inspect.signature(draw).parameters:
            raise InvalidInput(f"{game.name}'s picture has no view per side", field="--side")
        svg = render_svg(draw(_read_state(game, args.state), side=side))
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
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        raise InvalidInput(f"--seed must be from 0 to {MAX_SEED}", field="--seed")
    if args.simulations is not None and args.simulations < 1:
        raise InvalidInput("--simulations must be 1 or more", field="--simulations")
    emit = None if args.quiet else _out
    if args.replay is not None:
        chosen = (args.agent, args.against, args.simulations)
        if args.variant is not None or args.option or args.seed is not None:
            raise InvalidInput(
                "--replay takes the variant and seed from the log; do not give them",
                field="--replay",
            )
        if any(x is not None for x in chosen):
            raise InvalidInput(
                "--replay replays the logged actions; --agent, --against and --simulations "
                "do not apply",
                field="--replay",
            )
        log = playlog.read_log(game, _read_json(args.replay, "--replay"))
        variant, agent = log.variant, log.agent
        _out(playlog.header(game, variant, agent))
        if not agent.is_seeded:
            _out(playlog.LEGALITY_ONLY)
        result = playlog.replay_log(game, log, emit)
    else:
        variant = _variant(game, args.variant, args.option)
        seed = 0 if args.seed is None else args.seed
        names = (args.agent or "random", args.against or "random")
        agent = playlog.LogAgent.seeded(seed)
        if names == ("random", "random"):  # one random stream, as a seeded log replays it
            _out(playlog.header(game, variant, agent))
            if args.agent is not None or args.against is not None:
                _out(_seats(game, names))
            result = playlog.play_narrated(game, variant, seed, emit, max_steps=args.max_steps)
        else:
            agents = {
                side: make_agent(name, game, side, simulations=args.simulations)
                for side, name in zip(game.sides, names, strict=True)
            }
            _out(playlog.header(game, variant, agent))
            _out(_seats(game, names))
            agent = playlog.LogAgent.external()  # a replay can check legality only
            result = _play_agents(game, variant, agents, seed, emit, args.max_steps)
    if emit is None:
        _out(result.report())
    if args.log is not None:
        playlog.write_log(Path(args.log), playlog.make_log(game, variant, agent, result))
    return 0


def _seats(game: AssembledGame[Any, Any], names: Sequence[str]) -> str:
    """Which agent plays which side."""
    return "agents: " + ", ".join(f"{s} {n}" for s, n in zip(game.sides, names, strict=True))


def _play_agents(
    game: AssembledGame[Any, Any],
    variant: Variant,
    agents: dict[str, Agent],
    seed: int,
    emit: Callable[[str], object] | None,
    max_steps: int,
) -> Playout[Any, Any]:
    """A seeded game between agents that each see only their own seat
    (`tools.agents.match.play_match`), narrated like a random game and reported as a playout
    (for the result line and the log)."""
    actions: list[Any] = []
    states: list[Any] = [game.initial_state(variant)]
    watch = CycleWatch(states[0])
    narrator = playlog.Narrator(game, emit) if emit is not None else None

    def step(before: Any, action: Any, after: Any) -> None:
        if narrator is not None:
            narrator.step(before, action, after)
        actions.append(action)
        states[0] = after
        watch.see(after)

    match = play_match(game, variant, agents, seed, max_steps=max_steps, on_step=step)
    final = states[0]
    if match.stop == "ended":
        result = Playout(tuple(actions), final, game.outcome(final), "ended", lasso=watch.lasso)
    elif match.stop == "no_action":
        clauses = game.no_action_clauses(final)
        result = Playout(tuple(actions), final, None, "no_action", clauses, watch.lasso)
    else:
        clauses = game.nontermination_clauses
        result = Playout(tuple(actions), final, None, "step_limit", clauses, watch.lasso)
    if emit is not None:
        emit(result.report())
    return result


def _serve(args: argparse.Namespace) -> int:
    """The HTTP service (tools/service/api.py) until interrupted; open http://HOST:PORT/."""
    try:
        from tools.service.api import serve
    except ImportError as exc:
        raise MissingExtra("serve", "the HTTP service (Litestar, uvicorn)", exc) from exc

    if not 0 <= args.port <= 65535:
        raise InvalidInput("--port must be from 0 to 65535", field="--port")
    if not 0 < args.create_rate <= 100_000:
        raise InvalidInput(
            "--create-rate must be more than 0 and at most 100000", field="--create-rate"
        )
    if not 0 < args.create_burst <= 100_000:
        raise InvalidInput("--create-burst must be from 1 to 100000", field="--create-burst")
    key = None if args.open else _server_key(args.key_file)
    url = f"http://{args.host}:{args.port}/"
    sys.stderr.write(f"wargame: serving on {url} (database {args.db})\n")
    if key is None:
        sys.stderr.write("wargame: open mode: anyone who reaches the port may create\n")
    else:
        sys.stderr.write(f"wargame: open {url}enter?key={key} to create matches\n")
    serve(
        args.db,
        args.host,
        args.port,
        key=key,
        create_per_minute=args.create_rate,
        create_burst=args.create_burst,
        cors_origins=tuple(args.cors_origin),
    )
    return 0


def _server_key(path: str | None) -> str:
    """The key creating needs (`tools.service.auth`): from a file, the environment, or new."""
    from tools.service.auth import KEY_ENV, new_key

    if path is not None:
        key = _read(path, "--key-file").decode("utf-8", "replace").strip()
    else:
        key = os.environ.get(KEY_ENV, "").strip() or new_key()
    if not all(c.isascii() and (c.isalnum() or c in "-_.~") for c in key) or not (
        16 <= len(key) <= 200
    ):
        raise InvalidInput(
            "the server's key is 16 to 200 letters, digits, '-', '_', '.' or '~'", field="key"
        )
    return key


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
