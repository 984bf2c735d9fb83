"""Long runs show a progress bar on a terminal and say nothing in logs or CI."""

from __future__ import annotations

import io

import pytest

from tools import progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_terminal_no_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with progress.terminal_progress("explore toy") as tell:
        assert tell is None
    assert err.getvalue() == ""


def test_on_a_terminal_the_bar_shows_the_count_and_the_current_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    with progress.terminal_progress("explore toy") as tell:
        assert tell is not None
        tell(1, 4, "combat_grouping")
        shown = err.getvalue()
    assert "explore toy" in shown and "1/4" in shown and "combat_grouping" in shown
