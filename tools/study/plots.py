"""A study's pictures, as PNG and SVG: win rates per reading (with their Wilson intervals) and
game-length histograms. The only module that imports matplotlib, with the Agg backend (no
display), and only when a report is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the backend
from matplotlib.ticker import MaxNLocator

FORMATS = ("png", "svg")


def _save(fig: Any, out: Path, stem: str) -> list[str]:
    """Write the figure in every format; the SVG without a date and with fixed ids, so the
    same study writes the same file."""
    names = []
    for fmt in FORMATS:
        name = f"{stem}.{fmt}"
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(out / name, format=fmt, metadata=metadata, bbox_inches="tight")
        names.append(name)
    plt.close(fig)
    return names


def win_rates(summary: dict[str, Any], out: Path) -> list[str]:
    """Grouped bars: per reading, each side's win rate and the draw rate, with 95% intervals."""
    readings = summary["readings"]
    sides = list(summary["plan"]["sides"])
    outcomes = [*sides, "draw"]
    width = 0.8 / len(outcomes)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.8 * len(readings) + 2), 3.5))
    for j, outcome in enumerate(outcomes):
        stats = [r["wins"][outcome] if outcome in sides else r["draw"] for r in readings]
        xs = [i + (j - (len(outcomes) - 1) / 2) * width for i in range(len(readings))]
        heights = [s["rate"] for s in stats]
        errors = [
            [s["rate"] - s["low"] for s in stats],
            [s["high"] - s["rate"] for s in stats],
        ]
        ax.bar(xs, heights, width, yerr=errors, capsize=3, label=outcome)
    ax.set_xticks(range(len(readings)), [_label(r) for r in readings])
    ax.set_ylim(0, 1)
    ax.set_ylabel("rate (95% Wilson interval)")
    ax.set_title(f"{summary['plan']['game']}: results per reading")
    ax.legend(fontsize="small")
    return _save(fig, out, "win-rates")


def lengths(
    summary: dict[str, Any], lengths_by_reading: dict[str, list[int]], out: Path
) -> list[str]:
    """Histograms of game length in steps on shared bins, the readings' bars side by side
    (readings that change few games would hide each other as outlines)."""
    fig, ax = plt.subplots(figsize=(6.0, 3.5))
    readings = [r for r in summary["readings"] if lengths_by_reading.get(r["reading"])]
    if readings:
        data = [lengths_by_reading[r["reading"]] for r in readings]
        low = min(min(d) for d in data)
        high = max(max(d) for d in data)
        ax.hist(
            data,
            bins=min(20, high - low + 1),
            range=(low, high + 1),
            histtype="bar",
            label=[_label(r) for r in readings],
        )
        ax.legend(fontsize="small")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("game length (steps, chance included)")
    ax.set_ylabel("games")
    ax.set_title(f"{summary['plan']['game']}: game length")
    return _save(fig, out, "lengths")


def _label(reading: dict[str, Any]) -> str:
    return str(reading["variant"])


def write_plots(
    summary: dict[str, Any], lengths_by_reading: dict[str, list[int]], out: Path
) -> list[str]:
    """Every picture of the study in `out`; returns the file names."""
    plt.rcParams["svg.hashsalt"] = "wargame-study"
    out.mkdir(parents=True, exist_ok=True)
    return [*win_rates(summary, out), *lengths(summary, lengths_by_reading, out)]
