"""Where a study's games are played: a local process pool (`LocalEngine`) or Ray
(`RayEngine`). Both play chunks of seeds and hand back each chunk as it completes; a game's
result depends on (plan, reading, seed) alone (`tools.agents.match`), so the engine and the
number of workers only change the order in which results arrive."""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from collections.abc import Generator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from types import TracebackType
from typing import Any, Protocol

import attrs

from kernel.errors import InvalidInput
from kernel.game import Game
from tools.agents import make_agent as agent_named
from tools.agents.base import Agent
from tools.agents.match import MatchResult, play_match
from tools.registry import get_game
from tools.study.plan import Plan

ENGINES = ("local", "ray")
MAX_CHUNK = 16
"""Seeds per task at most: small enough that results (and the progress bar) come often and an
interrupt loses little, large enough that a task's overhead does not show."""


# --- agents -------------------------------------------------------------------------------------


def make_agent(name: str, game: Game[Any, Any], side: str, simulations: int | None) -> Agent:
    """A fresh agent for one game, so that no game depends on the games played before it."""
    return agent_named(name, game, side, simulations=simulations)


def check_agents(plan: Plan) -> None:
    """Refuse an unknown agent before any worker starts, naming the argument."""
    game = get_game(plan.game)
    for i, (side, name) in enumerate(plan.agents):
        try:
            make_agent(name, game, side, plan.simulations)
        except InvalidInput as err:
            field = "--agent" if i == 0 else "--against"
            raise InvalidInput(err.message, field=field) from None


# --- tasks --------------------------------------------------------------------------------------


@attrs.frozen
class Task:
    """Some seeds of one reading, played in one worker."""

    plan: Plan
    reading: str
    seeds: tuple[int, ...]


@attrs.frozen
class Done:
    """A task's results, one per seed, and the processor time the worker spent on them (for
    benchmarks: it is not part of any result)."""

    reading: str
    results: tuple[MatchResult, ...]
    cpu_seconds: float = attrs.field(default=0.0, eq=False)
    key: str = ""  # the plan's key: where a run of several plans files the results


def play_task(task: Task) -> Done:
    """Play a task's seeds (in a worker process, or in a Ray worker)."""
    started = time.process_time()
    plan = task.plan
    game = get_game(plan.game)
    variant = plan.variant(task.reading)
    results = []
    for seed in task.seeds:
        players = {
            side: make_agent(name, game, side, plan.simulations) for side, name in plan.agents
        }
        results.append(play_match(game, variant, players, seed, max_steps=plan.max_steps))
    return Done(task.reading, tuple(results), time.process_time() - started, plan.key)


def chunk_size(games: int, workers: int) -> int:
    """About eight tasks per worker, at most MAX_CHUNK seeds each."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (8 * max(1, workers)))))


def make_tasks(
    plan: Plan, missing: Mapping[str, Sequence[int]], workers: int, size: int | None = None
) -> list[Task]:
    """The missing seeds in chunks (of `size` seeds, or as `chunk_size` says), the readings
    interleaved chunk by chunk, so that a comparison fills evenly and an interrupted one is
    still paired on most seeds."""
    if size is None:
        size = chunk_size(sum(len(seeds) for seeds in missing.values()), workers)
    per_reading = {
        reading: [tuple(seeds[i : i + size]) for i in range(0, len(seeds), size)]
        for reading, seeds in missing.items()
    }
    tasks: list[Task] = []
    for i in range(max((len(c) for c in per_reading.values()), default=0)):
        for reading in plan.readings:
            chunks = per_reading.get(reading, [])
            if i < len(chunks):
                tasks.append(Task(plan, reading, chunks[i]))
    return tasks


# --- engines ------------------------------------------------------------------------------------


class Engine(Protocol):
    """Plays tasks; a context manager that starts and stops its workers."""

    name: str
    workers: int

    def __enter__(self) -> Engine: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def run(self, tasks: Sequence[Task]) -> Generator[Done, None, None]:
        """Each task's results as it completes, in any order; closing the iterator early
        cancels the tasks not yet started."""
        ...


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the parent, which stops cleanly and keeps what is stored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalEngine:
    """A process pool (the spawn context: no state inherited from the parent) on this machine."""

    name = "local"

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise InvalidInput("--workers must be at least 1", field="--workers")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalEngine:
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_interrupt,
        )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def run(self, tasks: Sequence[Task]) -> Generator[Done, None, None]:
        if self._pool is None:
            raise RuntimeError("LocalEngine.run outside its with-block")
        futures: list[Future[Done]] = [self._pool.submit(play_task, t) for t in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


class RayEngine:
    """Ray tasks: on the cluster at `address`, or on a local Ray started with `workers` CPUs
    (and stopped again at the end) when no address is given and none is running. Every
    machine of a cluster needs this package installed."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        if workers < 1:
            raise InvalidInput("--workers must be at least 1", field="--workers")
        self.workers = workers
        self.address = address
        self._started = False

    def __enter__(self) -> RayEngine:
        try:
            import ray
        except ImportError:
            raise InvalidInput(
                "--engine ray needs Ray: pip install 'ray>=2.9'", field="--engine"
            ) from None
        if ray.is_initialized():
            return self
        try:
            if self.address is not None:
                ray.init(address=self.address, log_to_driver=False)
                resources: dict[str, Any] = ray.cluster_resources()  # type: ignore[no-untyped-call,unused-ignore]
                self.workers = max(1, int(resources.get("CPU", self.workers)))
            else:
                ray.init(
                    num_cpus=self.workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = "--address" if self.address is not None else "--engine"
            raise InvalidInput(f"cannot start or join Ray: {err}", field=where) from None
        self._started = True
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def run(self, tasks: Sequence[Task]) -> Generator[Done, None, None]:
        import ray

        remote = ray.remote(num_cpus=1, max_retries=2)(play_task)  # pure: a retry is harmless
        pending = [remote.remote(t) for t in tasks]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    done: Done = ray.get(ref)
                    yield done
        finally:
            for ref in pending:
                ray.cancel(ref)


def make_engine(name: str, workers: int, address: str | None = None) -> Engine:
    if name == "local":
        if address is not None:
            raise InvalidInput("--address is for --engine ray", field="--address")
        return LocalEngine(workers)
    if name == "ray":
        return RayEngine(workers, address)
    raise InvalidInput(f"unknown engine {name!r} (engines: local, ray)", field="--engine")
