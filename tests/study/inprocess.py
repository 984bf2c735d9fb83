"""An engine for tests: it plays its tasks in the test's own process."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from types import TracebackType

from tools.study.engine import Done, Task, play_task


class InProcess:
    """An engine playing its tasks here, in reverse order: the order results arrive in must
    not matter."""

    name = "in-process"
    workers = 1

    def __enter__(self) -> InProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    def run(self, tasks: Sequence[Task]) -> Generator[Done, None, None]:
        for task in reversed(tasks):
            yield play_task(task)
