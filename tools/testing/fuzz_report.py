"""What a fuzz campaign found: the failures and warnings it looks for, each finding with the
call that shows it, the counts per game (`Stats`), and the report (`Report`: its text and its
JSON, with one reproducer per group of alike findings; `save_reproducers` writes them out)."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any, Final

import attrs

from tools.testing.fuzz_calls import Call, quoted

FAILURES: Final = (
    "internal_error",
    "traceback",
    "impossible_accepted",
    "reachable_refused",
    "inexact_accepted",
    "illegal_applied",
    "edited_log_accepted",
    "over_limit",
)
WARNINGS: Final = ("non_json_error", "unnamed_refusal", "schema_disagrees")
"""The categories of findings: a failure fails the campaign, a warning is only counted (the
module docstring of `tools.testing.fuzz` says what each means)."""


@attrs.frozen
class Finding:
    """A failure or warning, with the call that shows it; alike ones share a signature."""

    category: str
    game: str
    call: Call
    message: str
    signature: str

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "game": self.game,
            "message": self.message,
            "signature": self.signature,
            "reproducer": self.call.to_json(),
        }


def message_pattern(text: str) -> str:
    """A message with its particulars blanked, so alike failures group together."""
    text = re.sub(r"\[\d+\]", "[]", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    return re.sub(r"\d+", "#", text)[:90]


@attrs.define
class Stats:
    """What one game's campaign counted."""

    game: str
    calls: int = 0
    seconds: float = 0.0
    exits: Counter[str] = attrs.field(factory=Counter)
    by_verb: dict[str, Counter[str]] = attrs.field(factory=dict)
    counts: Counter[str] = attrs.field(factory=Counter)
    accepted: Counter[str] = attrs.field(factory=Counter)
    slowest: tuple[float, str] = (0.0, "")
    peak_growth: tuple[int, str] = (0, "")
    peak_python: tuple[int, str] = (0, "")
    unavailable: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "calls": self.calls,
            "seconds": round(self.seconds, 1),
            "exit_codes": dict(sorted(self.exits.items())),
            "by_verb": {v: dict(sorted(c.items())) for v, c in sorted(self.by_verb.items())},
            "failures": {k: self.counts[k] for k in FAILURES},
            "warnings": {k: self.counts[k] for k in WARNINGS},
            "accepted_mutants": dict(sorted(self.accepted.items())),
            "slowest_call": {"seconds": round(self.slowest[0], 3), "argv": self.slowest[1]},
            "peak_rss_growth": {"bytes": self.peak_growth[0], "argv": self.peak_growth[1]},
            "peak_python_memory": {"bytes": self.peak_python[0], "argv": self.peak_python[1]},
            "unavailable_verbs": self.unavailable,
        }


@attrs.frozen
class Report:
    per_game: int
    seed: int
    stats: tuple[Stats, ...]
    findings: tuple[Finding, ...]

    @property
    def failed(self) -> bool:
        return any(f.category in FAILURES for f in self.findings)

    def groups(self) -> list[tuple[str, list[Finding]]]:
        """Findings grouped by signature, failures first, largest groups first."""
        grouped: dict[str, list[Finding]] = {}
        for f in self.findings:
            grouped.setdefault(f"{f.game} | {f.signature}", []).append(f)
        return sorted(
            grouped.items(),
            key=lambda kv: (kv[1][0].category not in FAILURES, kv[1][0].category, -len(kv[1])),
        )

    def to_json(self, *, every: bool = False) -> dict[str, Any]:
        """The counts, and one reproducer per group of findings (`every`: each finding's)."""
        out = {
            "per_game": self.per_game,
            "seed": self.seed,
            "failed": self.failed,
            "games": [s.to_json() for s in self.stats],
            "groups": [{"count": len(fs), **_simplest(fs)[0].to_json()} for _, fs in self.groups()],
        }
        if every:
            out["findings"] = [f.to_json() for f in self.findings]
        return out

    def text(self, *, reproducers: int = 1) -> str:
        lines = [f"fuzz campaign: {self.per_game} inputs per game, seed {self.seed}"]
        for s in self.stats:
            j = s.to_json()
            lines.append(f"\n{s.game}: {s.calls} calls in {s.seconds:.0f} s")
            lines.append(f"  exit codes: {j['exit_codes']}")
            lines.append("  failures: " + ", ".join(f"{k} {v}" for k, v in j["failures"].items()))
            lines.append("  warnings: " + ", ".join(f"{k} {v}" for k, v in j["warnings"].items()))
            lines.append(f"  slowest call: {s.slowest[0]:.3f} s: {s.slowest[1]}")
            grown = s.peak_growth[1] or "no call grew the peak"
            lines.append(f"  peak RSS growth: {s.peak_growth[0] / 2**20:.1f} MB: {grown}")
            if s.peak_python[1]:
                lines.append(
                    f"  peak traced memory: {s.peak_python[0] / 2**20:.1f} MB: {s.peak_python[1]}"
                )
            if s.unavailable:
                lines.append(f"  verbs the command lacks: {', '.join(s.unavailable)}")
            for verb, codes in sorted(s.by_verb.items()):
                lines.append(f"    {verb}: {dict(sorted(codes.items()))}")
        groups = self.groups()
        if groups:
            lines.append(f"\n{len(groups)} groups of findings ({len(self.findings)} in all):")
        for key, fs in groups:
            lines.append(f"\n[{fs[0].category}] x{len(fs)}  {key}")
            verbs = Counter(f.call.verb for f in fs)
            lines.append("  verbs: " + ", ".join(f"{v} {n}" for v, n in verbs.most_common()))
            places = Counter(message_pattern(f.call.edits[0].path) for f in fs if f.call.edits)
            if places:
                shown = ", ".join(f"{p or '$'} {n}" for p, n in places.most_common(8))
                lines.append(f"  places: {shown}" + (" ..." if len(places) > 8 else ""))
            for f in _simplest(fs)[:reproducers]:
                lines.append(f"  problem: {f.message[:600]}")
                lines.extend("  " + line for line in f.call.reproducer().splitlines())
        lines.append("\nFAILED" if self.failed else "\nOK")
        return "\n".join(lines)


def _simplest(findings: list[Finding]) -> list[Finding]:
    """The findings with the fewest edits and the smallest inputs first: the best reproducers."""
    return sorted(findings, key=lambda f: (len(f.call.edits), sum(len(d) for _, d in f.call.files)))


def save_reproducers(report: Report, directory: Path) -> None:
    """One folder per group of findings: its input files as they were, and `cmd`."""
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():  # an earlier campaign's folders, and nothing else
        if old.is_dir() and re.fullmatch(r"\d{3}-[a-z_]+", old.name):
            shutil.rmtree(old)
    for n, (key, fs) in enumerate(report.groups()):
        folder = directory / f"{n:03d}-{fs[0].category}"
        folder.mkdir(exist_ok=True)
        first = _simplest(fs)[0]
        call = first.call
        for name, data in call.files:
            (folder / name).write_bytes(data)
        if call.stdin is not None:
            (folder / "stdin").write_bytes(call.stdin)
        argv = " ".join(quoted(a) for a in call.argv).replace("{", "").replace("}", "")
        (folder / "cmd").write_text(
            f"# {key}\n# {first.message[:300]}\n# {call.describe()}\nwargame {argv}\n",
            encoding="utf-8",
        )
