"""Progress of long runs on a terminal (tqdm), and nothing in logs or CI: a bar only when
standard error is a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from tqdm import tqdm

Progress = Callable[[int, int, str], None]  # (steps done, steps in all, what runs now)


@contextlib.contextmanager
def terminal_progress(what: str) -> Iterator[Progress | None]:
    """A progress callback drawing a bar on the terminal, or None when standard error is not
    one (a log, a pipe, CI): then the run says nothing until its result."""
    if not sys.stderr.isatty():
        yield None
        return
    bar = tqdm(desc=what, file=sys.stderr, unit="step", leave=False, dynamic_ncols=True)

    def tell(done: int, total: int, now: str) -> None:
        bar.total = total
        bar.n = done
        bar.set_postfix_str(now, refresh=False)
        bar.refresh()

    try:
        yield tell
    finally:
        bar.close()
