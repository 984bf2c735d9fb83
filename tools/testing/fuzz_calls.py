"""One call of the `wargame` command in a fuzz campaign: what it is run with (`Call`), how it
is run (`run_call`: in-process, `tools.cli.commands.main(argv)`, with its input files written,
its output captured, its wall time and peak memory measured, and a hard timeout), and what it
showed (`Result`)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import resource
import signal
import sys
import time
import traceback
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any, Final

import attrs

from tools.cli import commands as cli
from tools.testing.mutation import Mutation

_TRACE_AT_BYTES: Final = 32 * 1024 * 1024
_TRACE_AT_SECONDS: Final = 1.0
"""A call that grows the peak resident memory by more, or runs longer, is run again under
tracemalloc to measure its own peak."""


class HardTimeout(BaseException):
    """Raised by the alarm at the hard timeout; a BaseException so `main` does not catch it."""


@contextlib.contextmanager
def hard_deadline(seconds: float) -> Iterator[None]:
    """Within the block, `HardTimeout` once `seconds` have passed (an alarm signal, so only
    in the main thread; elsewhere no limit)."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise HardTimeout

    try:
        previous = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # not the main thread: no alarm
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _max_rss() -> int:
    """The process's peak resident memory so far, in bytes (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024


@attrs.frozen
class Call:
    """One run of the command: the arguments (input files as {NAME} placeholders), the files'
    contents, stdin, and what was done to the inputs."""

    verb: str
    input: str
    """What was altered: state, action, log, data, options, arguments, kind."""
    argv: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    stdin: bytes | None = None
    edits: tuple[Mutation, ...] = ()

    def describe(self) -> str:
        return "; ".join(str(e) for e in self.edits) or "no mutation"

    def command(self, limit: int = 300) -> str:
        """The command line, each argument cut at `limit` characters (`--save` has it whole)."""
        return "wargame " + " ".join(quoted(_cut(a, limit)) for a in self.argv)

    def reproducer(self, limit: int = 2000) -> str:
        """argv and the input files' contents (a data file's only in part: its edits say what
        changed, and `--save` writes it whole)."""
        if self.input == "data" and self.edits:
            limit = min(limit, 300)
        lines = [f"argv: {self.command()}", f"edits: {self.describe()}"]
        for name, data in self.files:
            text = data.decode("utf-8", "backslashreplace")
            if len(text) > limit:
                text = text[:limit] + f"... ({len(data)} bytes in all)"
            lines.append(f"{name}: {text}")
        if self.stdin is not None:
            lines.append(f"stdin: {self.stdin[:limit].decode('utf-8', 'backslashreplace')}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "verb": self.verb,
            "argv": list(self.argv),
            "files": {n: d.decode("utf-8", "backslashreplace") for n, d in self.files},
            "stdin": None if self.stdin is None else self.stdin.decode("utf-8", "backslashreplace"),
            "edits": self.describe(),
        }


def _cut(text: str, limit: int) -> str:
    """An argument for display: long runs of whitespace and the part past `limit` elided."""
    short = re.sub(r"\s{20,}", lambda m: f"<{len(m.group())} blanks>", text)
    return short if len(short) <= limit else short[:limit] + f"...({len(text)} characters)"


def quoted(arg: str) -> str:
    """An argument as a shell reads it back (JSON-quoted unless it is a plain word)."""
    return arg if re.fullmatch(r"[\w@%+=:,./{}-]+", arg) else json.dumps(arg, ensure_ascii=False)


@attrs.frozen
class Result:
    """What a call showed: its exit code (None when it raised or timed out), its output, its
    wall time and memory, the traceback of an exception that escaped `main`, and whether the
    hard timeout stopped it."""

    code: int | None
    stdout: str
    stderr: str
    seconds: float
    rss_growth: int
    python_peak: int | None
    escaped: str | None
    timed_out: bool


def run_call(call: Call, workdir: Path, *, hard_timeout: float, trace_memory: bool) -> Result:
    """Write the input files into `workdir`, run `main` with the output captured, and measure
    it (under tracemalloc with `trace_memory`, or again under it when the call grew the peak
    resident memory or took long)."""
    paths = {}
    for name, data in call.files:
        path = workdir / name
        path.write_bytes(data)
        paths[name] = str(path)
    paths["OUT.svg"] = str(workdir / "OUT.svg")
    argv = [_fill(a, paths) for a in call.argv]
    result = _measured(argv, call.stdin, trace_memory, hard_timeout)
    if not trace_memory and (
        result.rss_growth > _TRACE_AT_BYTES or result.seconds > _TRACE_AT_SECONDS
    ):
        traced = _measured(argv, call.stdin, True, hard_timeout)
        result = attrs.evolve(result, python_peak=traced.python_peak)
    return result


def _measured(argv: list[str], stdin: bytes | None, trace: bool, hard_timeout: float) -> Result:
    """`main(argv)` with `stdin`, its output captured, measured (under tracemalloc with
    `trace`), and stopped at `hard_timeout` seconds."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    tracing = trace and not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    elif trace:
        tracemalloc.reset_peak()
    code: int | None = None
    escaped = None
    timed_out = False
    rss = _max_rss()
    start = time.perf_counter()
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            hard_deadline(hard_timeout),
        ):
            code = cli.main(argv)
    except HardTimeout:
        timed_out = True
    except KeyboardInterrupt:
        raise
    except BaseException:
        escaped = traceback.format_exc()
    finally:
        seconds = time.perf_counter() - start
        sys.stdin = saved_stdin
        peak = tracemalloc.get_traced_memory()[1] if trace else None
        if tracing:
            tracemalloc.stop()
    return Result(
        code,
        out.getvalue(),
        err.getvalue(),
        seconds,
        _max_rss() - rss,
        peak,
        escaped,
        timed_out,
    )


def _fill(arg: str, paths: dict[str, str]) -> str:
    """A `{NAME}` placeholder as the path of that input file."""
    if arg.startswith("{") and arg.endswith("}") and arg[1:-1] in paths:
        return paths[arg[1:-1]]
    return arg


def error_object(stderr: str) -> dict[str, Any] | None:
    """stderr as the one JSON error object the command promises, or None."""
    try:
        obj = json.loads(stderr)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) and "error" in obj and "message" in obj else None


def error_message(stderr: str) -> str:
    """The message of the command's error object, or stderr's beginning when there is none."""
    obj = error_object(stderr)
    return str(obj["message"]) if obj is not None else stderr.strip()[:300]
