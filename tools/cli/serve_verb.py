"""The `wargame serve` verb: its arguments, their checks, and the server's key.

The service itself (`tools.service`) is an extra, imported only when the verb runs.
"""

from __future__ import annotations

import argparse
import os
import sys

from kernel.errors import InvalidInput, MissingExtra
from tools.cli import inputs
from tools.cli.inputs import Subcommands


def add_serve(sub: Subcommands) -> None:
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
        key = inputs.read(path, "--key-file").decode("utf-8", "replace").strip()
    else:
        key = os.environ.get(KEY_ENV, "").strip() or new_key()
    if not all(c.isascii() and (c.isalnum() or c in "-_.~") for c in key) or not (
        16 <= len(key) <= 200
    ):
        raise InvalidInput(
            "the server's key is 16 to 200 letters, digits, '-', '_', '.' or '~'", field="key"
        )
    return key
