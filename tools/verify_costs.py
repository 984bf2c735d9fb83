"""Refresh `tools/verify_costs.json`, the hints that balance `wargame verify`'s workers: run
the whole verification once (as `make test` does) and record each task's seconds.

    python -m tools.verify_costs

Only the shares of work between workers depend on the file; verdicts and witnesses for a
given file are the same from run to run.
"""

from __future__ import annotations

import contextlib
import io
import json

from tools.cli.commands import main as wargame
from tools.verify import REFINEMENT
from tools.verify_command import COSTS


def main() -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = wargame(["verify", "--json"])
    report = json.loads(out.getvalue())
    costs = {f"{r['game']} {r['preset']} {r['property']}": r["seconds"] for r in report["results"]}
    costs.update(
        {f"{c['game']} {c['preset']} {REFINEMENT}": c["seconds"] for c in report["refinement"]}
    )
    COSTS.write_text(json.dumps(dict(sorted(costs.items())), indent=1) + "\n", encoding="utf-8")
    print(f"{len(costs)} tasks, {sum(costs.values()):.0f} s in all: {COSTS}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
