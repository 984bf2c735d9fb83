"""The `wargame` verbs on one position: games, new, legal, apply, view, schema, render.

Each `add_*` declares a verb's arguments next to the function that runs it.
"""

from __future__ import annotations

import argparse
import inspect
import os
from pathlib import Path
from typing import Any

from kernel.codec import dump_json
from kernel.errors import InvalidInput
from kernel.game import CHANCE
from kernel.views import SCHEMA_KINDS, check_side, check_turn, schema, view
from kernel.wire import parse_json
from tools.cli import inputs
from tools.cli.inputs import Subcommands
from tools.registry import game_names, get_game
from tools.render import render_svg


def add_games(sub: Subcommands) -> None:
    games = sub.add_parser("games", help="list the games and their presets")
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(run=_games)


def add_new(sub: Subcommands) -> None:
    new = sub.add_parser("new", help="print the initial state as JSON")
    new.add_argument("game", metavar="GAME")
    inputs.variant_args(new)
    new.set_defaults(run=_new)


def add_legal(sub: Subcommands) -> None:
    legal = sub.add_parser("legal", help="list the legal actions (or chance outcomes) of a state")
    legal.add_argument("game", metavar="GAME")
    legal.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    legal.add_argument("--side", help="the side asking; another side's actions are not shown")
    legal.set_defaults(run=_legal)


def add_apply(sub: Subcommands) -> None:
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


def add_view(sub: Subcommands) -> None:
    view_p = sub.add_parser("view", help="print what one side may know of a state, as JSON")
    view_p.add_argument("game", metavar="GAME")
    view_p.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    view_p.add_argument("--side", required=True, help="the side whose view to print")
    view_p.set_defaults(run=_view)


def add_schema(sub: Subcommands) -> None:
    schema_p = sub.add_parser("schema", help="print the JSON Schema of a game's documents")
    schema_p.add_argument("game", metavar="GAME")
    schema_p.add_argument(
        "kind", metavar="KIND", choices=SCHEMA_KINDS, help="one of: " + ", ".join(SCHEMA_KINDS)
    )
    schema_p.set_defaults(run=_schema)


def add_render(sub: Subcommands) -> None:
    render = sub.add_parser("render", help="draw a state as an SVG picture")
    render.add_argument("game", metavar="GAME")
    render.add_argument("state", metavar="STATE", help="state JSON file, or - for stdin")
    render.add_argument("-o", "--output", required=True, metavar="FILE.svg")
    render.add_argument(
        "--side", metavar="SIDE", help="draw what SIDE may see (games with hidden information)"
    )
    render.set_defaults(run=_render)


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
        inputs.out(dump_json({"games": rows}))
        return 0
    for r in rows:
        presets = ", ".join(r["presets"])
        inputs.out(f"{r['name']}  {r['title']}  presets: {presets} (default {r['default_preset']})")
    return 0


def _new(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    state = game.initial_state(inputs.variant(game, args.variant, args.option))
    inputs.out(dump_json(game.state_to_json(state)))
    return 0


def _legal(args: argparse.Namespace) -> int:
    """The actions of the side to move. Asked for by another side, nothing: a side is only
    ever told what it may see (later games hide information)."""
    game = get_game(args.game)
    if args.side is not None:
        check_side(game, args.side)
    state = inputs.read_state(game, args.state)
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
    inputs.out(dump_json(out))
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
    state = inputs.read_state(game, args.state)
    if args.side is not None:
        check_turn(game, state, args.side)
    inline = args.action.lstrip().startswith("{")
    raw = os.fsencode(args.action) if inline else inputs.read(args.action, "ACTION")
    action = game.action_from_json(parse_json(raw, what="ACTION"))
    inputs.out(dump_json(game.state_to_json(game.apply(state, action))))
    return 0


def _view(args: argparse.Namespace) -> int:
    """One side's view of a state (`kernel.views.view`): its observation, who is to move, its
    own legal actions when it is, the result once the game is over."""
    game = get_game(args.game)
    check_side(game, args.side)
    inputs.out(dump_json(view(game, inputs.read_state(game, args.state), args.side)))
    return 0


def _schema(args: argparse.Namespace) -> int:
    """The JSON Schema (Draft 2020-12) of one of the game's documents."""
    inputs.out(dump_json(schema(get_game(args.game), args.kind)))
    return 0


def _render(args: argparse.Namespace) -> int:
    """Write the picture of a state (tools/render.py) to the output file."""
    game = get_game(args.game)
    draw = getattr(game, "scene", None)
    if draw is None:
        raise InvalidInput(f"{game.name} has no picture yet", field="game")
    if args.side is None:
        svg = render_svg(draw(inputs.read_state(game, args.state)))
    else:
        side = check_side(game, args.side)
        if "side" not in inspect.signature(draw).parameters:
            raise InvalidInput(f"{game.name}'s picture has no view per side", field="--side")
        svg = render_svg(draw(inputs.read_state(game, args.state), side=side))
    try:
        Path(args.output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {args.output}: {exc.strerror}", field="--output") from exc
    inputs.out(args.output)
    return 0
