"""The game log document: who chose the actions, what it records, and reading and writing it.

`read_log` decodes a log strictly through the game's wire types; whether its actions are legal,
and were its agent's, is the replay's job (`tools.playlog.replay_log`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final, TypeVar

import attrs

from kernel.codec import LOG_FORMAT, LOG_VERSION, VariantRecord, dump_json
from kernel.errors import InvalidInput, WargameError
from kernel.playout import Playout
from kernel.roles import AssembledGame
from kernel.variants import Variant
from kernel.views import log_type
from kernel.wire import convert, to_builtins

S = TypeVar("S")
A = TypeVar("A")


STOPS = ("ended", "no_action", "step_limit", "position")
"""How a logged game stops; "position": at a position chosen for itself (a witness)."""


RANDOM: Final = "random"
"""The agent of `wargame play --seed N`: the game's default agents (uniform over the legal
actions, each seeing what `kernel.playout.default_agents` gives it) and exact chance draws,
all from one `random.Random(N)` stream."""


EXTERNAL: Final = "external"
"""Actions chosen outside this kernel (a person, a client, a search): legality is all a replay
can check."""


@attrs.frozen
class LogAgent:
    """Who chose a log's actions: `random` with its seed, or `external` (no seed)."""

    name: str
    seed: int | None

    @classmethod
    def seeded(cls, seed: int) -> LogAgent:
        return cls(RANDOM, seed)

    @classmethod
    def external(cls) -> LogAgent:
        return cls(EXTERNAL, None)

    @property
    def is_seeded(self) -> bool:
        return self.name == RANDOM

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seed": self.seed}


def as_agent(agent: LogAgent | int | None) -> LogAgent:
    """An agent from a seed (the random agent) or None (an external one), or itself."""
    if isinstance(agent, LogAgent):
        return agent
    return LogAgent.external() if agent is None else LogAgent.seeded(agent)


@attrs.frozen
class GameLog:
    """One game as recorded: enough to replay it exactly, and to say who played it."""

    game: str
    variant: Variant
    agent: LogAgent
    actions: tuple[Any, ...]  # action JSON, in order
    final_state: dict[str, Any]
    result: dict[str, Any] | None
    stop: str
    start: dict[str, Any] | None = None  # where play starts (state JSON); None: the set-up

    @property
    def seed(self) -> int | None:
        """The seed of a seeded agent's log; None for an external one."""
        return self.agent.seed if self.agent.is_seeded else None

    def to_json(self) -> dict[str, Any]:
        start = {} if self.start is None else {"start": self.start}
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "game": self.game,
            "variant": self.variant.to_json(),
            "agent": self.agent.to_json(),
            "actions": list(self.actions),
            "final_state": self.final_state,
            "result": self.result,
            "stop": self.stop,
            **start,
        }


def make_log(
    game: AssembledGame[S, A],
    variant: Variant,
    agent: LogAgent | int | None,
    playout: Playout[S, A],
) -> GameLog:
    """The log of a playout; `agent` is who chose its actions (a seed: the random agent of
    `wargame play --seed`; None: an external agent)."""
    return GameLog(
        game=game.name,
        variant=variant,
        agent=as_agent(agent),
        actions=tuple(game.action_to_json(a) for a in playout.actions),
        final_state=game.state_to_json(playout.final),
        result=None if playout.outcome is None else playout.outcome.to_json(),
        stop=playout.stop,
    )


def write_log(path: Path, log: GameLog, *, argument: str = "--log") -> None:
    """Write the log as canonical JSON; an unwritable path is bad input naming `argument`."""
    try:
        path.write_text(dump_json(log.to_json()) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}", field=argument) from None


def read_log(game: AssembledGame[Any, Any], data: Any) -> GameLog:
    """Decode a parsed log strictly, through the game's log type (`kernel.views.log_type`,
    the type `wargame schema GAME log` publishes): every action and the final state are
    checked against the game's wire types here; whether the actions are legal, and were the
    agent's, is `replay_log`'s job."""
    if isinstance(data, dict) and data.get("format") == LOG_FORMAT and data.get("version") == 1:
        raise InvalidInput(
            f"log version 1 is no longer read (this kernel reads version {LOG_VERSION}, which "
            "records the agent that played): record the game again with `wargame play --log`",
            field="version",
        )
    start = data.get("start") if isinstance(data, dict) else None  # optional: see LogRecord
    types = getattr(game, "wire", None)
    if types is None:  # a codec not yet on wire types: the envelope is still read strictly
        record = convert(data, log_type(Any, dict[str, Any]))
    else:
        record = convert(data, log_type(types.action, types.state))
    if record.game != game.name:
        raise InvalidInput(f"log is for game {record.game!r}, not {game.name!r}", field="game")
    agent = _agent(record.agent.name, record.agent.seed)
    variant = _variant(game, record.variant)
    if start is not None:
        start_position(game, variant, start)  # refused here, before any replay
    return GameLog(
        game.name,
        variant,
        agent,
        tuple(data["actions"]),
        data["final_state"],
        data["result"],
        record.stop,
        start,
    )


def start_position(game: AssembledGame[S, A], variant: Variant, start: Any) -> S:
    """Where a log's play starts: `variant`'s set-up, or its `start` (a state JSON of that
    variant) read strictly by the game's codec; a `start` refused is bad input naming it."""
    if start is None:
        return game.initial_state(variant)
    try:
        state = game.state_from_json(start)
        got = game.state_to_json(state).get("variant")
    except WargameError as exc:
        inner = exc.field
        field = "start" if not inner else f"start.{inner}"
        raise InvalidInput(f"start: {exc.message}", clauses=exc.clauses, field=field) from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise InvalidInput(f"start: not a position of {game.name}: {exc}", field="start") from None
    if got != variant.to_json():
        raise InvalidInput(
            "start: the position is of another variant than the log's", field="start.variant"
        )
    return state


def _agent(name: str, seed: int | None) -> LogAgent:
    if name == RANDOM and seed is None:
        raise InvalidInput("a random agent's log names its seed", field="agent.seed")
    if name == EXTERNAL and seed is not None:
        raise InvalidInput("an external agent has no seed: it must be null", field="agent.seed")
    return LogAgent(name, seed)


def _variant(game: AssembledGame[Any, Any], record: VariantRecord) -> Variant:
    """The log's variant: it names the reading of every option, and its preset (if any) reads
    them all so; nothing is filled in from a default."""
    missing = [o.name for o in game.catalogue.options if o.name not in record.options]
    if missing:
        raise InvalidInput(
            f"variant.options: a log names the reading of every option; missing "
            f"{', '.join(missing)}",
            field=f"variant.options.{missing[0]}",
        )
    data = to_builtins(record)
    variant = game.catalogue.variant_from_json(data)
    if variant.to_json() != data:
        raise InvalidInput(
            f"variant.preset: preset {record.preset!r} does not read the options as listed "
            "(a changed preset is null)",
            field="variant.preset",
        )
    return variant
