"""The fuzz campaign for one game: mutated inputs through every verb, with the checks after each.

`Campaign` runs the calls and records findings; `tools.testing.fuzz` runs it over games and is
the command line (its module docstring lists the finding categories).
"""

from __future__ import annotations

import json
import random
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from kernel.codec import dump_json, parse_json
from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from tools.cli import commands as cli
from tools.testing.conformance_corpus import Corpus, LogCodec
from tools.testing.conformance_mutants import (
    MutantFailure,
    check_action_mutant,
    check_log_mutant,
    check_state_mutant,
    position_problem,
)
from tools.testing.fuzz_calls import (
    Call,
    HardTimeout,
    Result,
    error_message,
    error_object,
    hard_deadline,
    run_call,
)
from tools.testing.fuzz_inputs import data_files, toml_text
from tools.testing.fuzz_mutations import (
    UNPARSED,
    encoded,
    mutate_bytes,
    near_names,
    non_finite_number,
    parsed,
)
from tools.testing.fuzz_report import Finding, Stats, message_pattern
from tools.testing.mutation import Mutant, Mutation, RandomChooser, mutate, pick
from tools.testing.mutation_json import Pool
from tools.testing.mutation_positions import make_impossible

IMPOSSIBLE: Final = "impossible"
REACHABLE: Final = "reachable"
"""The edits of a position put out of its domain on purpose, one the rules cannot reach and
one they can (`tools.testing.mutation_positions`)."""


_KIT_CATEGORY: Final = {
    "crash": "internal_error",
    "unnamed_refusal": "unnamed_refusal",
    "wrong_refusal": "unnamed_refusal",
    "inexact": "inexact_accepted",
    "impossible": "impossible_accepted",
    "closure": "impossible_accepted",
    "unlisted_applied": "illegal_applied",
    "seeded_log_edited": "edited_log_accepted",
}


VERBS: Final = (
    ("legal", 3.0),
    ("legal --side", 1.0),
    ("apply", 3.0),
    ("apply --side", 1.0),
    ("view --side", 1.0),
    ("render", 0.7),
    ("new", 0.6),
    ("args", 0.5),
    ("play --replay", 1.5),
    ("data check", 1.0),
    ("schema", 0.3),
)
"""Each verb with its share of the inputs."""


@attrs.frozen
class Limits:
    seconds: float = 10.0
    memory: int = 1024 * 1024 * 1024
    hard_timeout: float = 60.0
    trace_memory: bool = False


class Campaign:
    """N mutated inputs for one game through every verb, with the checks that follow each."""

    def __init__(
        self,
        game: AssembledGame[Any, Any],
        corpus: Corpus[Any, Any],
        logs: LogCodec,
        workdir: Path,
        seed: int,
        limits: Limits,
        verbs: Sequence[str] | None = None,
    ) -> None:
        self.game = game
        self.corpus = corpus
        self.logs = logs
        self.workdir = workdir
        self.chooser = RandomChooser(random.Random(seed))
        self.limits = limits
        self.stats = Stats(game.name)
        self.findings: list[Finding] = []
        self.data = [(p, p.read_bytes()) for p in data_files(game)]
        self.data_docs = [tomllib.loads(b.decode("utf-8")) for _, b in self.data]
        self.data_pool = Pool(self.data_docs)
        self.state_schema = _state_schema(game)
        self.missing_commands: set[str] = set()
        wanted = [v for v in VERBS if verbs is None or v[0] in verbs]
        self.verbs = [v for v in wanted if self._available(v[0])]
        self.weights = [w for _, w in self.verbs]

    # -- running
    def run(self, count: int) -> Stats:
        start = time.perf_counter()
        names = [v for v, _ in self.verbs]
        rng = self.chooser.rng
        for _ in range(count):
            verb = rng.choices(names, self.weights)[0]
            getattr(self, "_" + verb.split()[0].replace("-", ""))(verb)
        self.stats.seconds = time.perf_counter() - start
        return self.stats

    def _available(self, verb: str) -> bool:
        """Whether the command has this verb (and option): a valid call is not a usage error."""
        argv = self._valid_argv(verb)
        call = Call(verb, "probe", tuple(argv), self._baseline_files())
        result = self._execute(call)
        usage = result.code == 2 and (
            "invalid choice" in result.stderr or "unrecognized arguments" in result.stderr
        )
        if usage:
            self.stats.unavailable.append(verb)
            if "invalid choice" in result.stderr:
                self.missing_commands.add(argv[0])
        return not usage

    def _baseline_files(self) -> tuple[tuple[str, bytes], ...]:
        state = self.corpus.state_docs[0]
        return (("STATE.json", dump_json(state).encode()),)

    def _valid_argv(self, verb: str) -> list[str]:
        g, side = self.game.name, self.game.sides[0]
        return {
            "legal": ["legal", g, "{STATE.json}"],
            "legal --side": ["legal", g, "{STATE.json}", "--side", side],
            "apply": ["apply", g, "{STATE.json}", "{}"],
            "apply --side": ["apply", g, "{STATE.json}", "{}", "--side", side],
            "view --side": ["view", g, "{STATE.json}", "--side", side],
            "render": ["render", g, "{STATE.json}", "-o", "{OUT.svg}"],
            "new": ["new", g],
            "args": ["games"],
            "play --replay": ["play", g, "--max-steps", "0", "--quiet"],
            "data check": ["data", "check", g],
            "schema": ["schema", g, "state"],
        }[verb]

    def _execute(self, call: Call) -> Result:
        return run_call(
            call,
            self.workdir,
            hard_timeout=self.limits.hard_timeout,
            trace_memory=self.limits.trace_memory,
        )

    def call(self, call: Call) -> Result:
        """Run one call and record what every call is checked for."""
        result = self._execute(call)
        s = self.stats
        s.calls += 1
        code = "timeout" if result.timed_out else str(result.code)
        s.exits[code] += 1
        s.by_verb.setdefault(call.verb, Counter())[code] += 1
        where = call.command()
        if result.seconds > s.slowest[0]:
            s.slowest = (result.seconds, where)
        if result.rss_growth > s.peak_growth[0]:
            s.peak_growth = (result.rss_growth, where)
        if result.python_peak is not None and result.python_peak > s.peak_python[0]:
            s.peak_python = (result.python_peak, where)
        if result.code == cli.EXIT_INTERNAL:
            self.finding("internal_error", call, error_message(result.stderr))
        if result.escaped is not None:
            self.finding("traceback", call, result.escaped.strip().splitlines()[-1])
        elif "Traceback (most recent call last)" in result.stderr:
            self.finding("traceback", call, result.stderr.strip().splitlines()[-1])
        if result.timed_out:
            self.finding("over_limit", call, f"killed after {self.limits.hard_timeout:g} s")
        elif result.seconds > self.limits.seconds:
            self.finding("over_limit", call, f"took {result.seconds:.1f} s")
        memory = max(result.rss_growth, result.python_peak or 0)
        if memory > self.limits.memory:
            self.finding("over_limit", call, f"used {memory / 2**20:.0f} MB")
        failed = result.code == 2 or (result.code not in (0, 1, None) and result.stderr.strip())
        if failed and result.code != cli.EXIT_INTERNAL and result.escaped is None:
            error = error_object(result.stderr)
            if error is None:
                last = (result.stderr.strip().splitlines() or [""])[-1]
                self.finding("non_json_error", call, last[:200])
            elif result.code == 2 and not (error.get("field") or error.get("clauses")):
                self.finding("unnamed_refusal", call, str(error.get("message", ""))[:200])
        return result

    def finding(self, category: str, call: Call, message: str, kind: str = "") -> None:
        """Record a failure or warning. Alike ones share a signature: the category, the input
        altered and how (and the message's pattern, for crashes and unreadable errors)."""
        self.stats.counts[category] += 1
        op = call.edits[0].op if call.edits else "-"
        parts = [category, call.input, kind or "-", op]
        if category in ("internal_error", "traceback", "non_json_error", "unnamed_refusal"):
            text = message.split(" (not a WargameError)")[0].split("): raised ")[-1]
            if category == "non_json_error" and "error: " in text:  # argparse's usage errors
                text = "usage error: " + text.split("error: ", 1)[1].split(":")[0]
            parts = [category, call.input, message_pattern(text)]
        if category == "over_limit":
            parts.append(call.verb)
        signature = " | ".join(parts)
        self.findings.append(Finding(category, self.game.name, call, message, signature))

    def kit_check(self, call: Call, check: Callable[[], str]) -> str | None:
        """Run a conformance-kit check on an input the command accepted; a MutantFailure
        becomes a finding of the matching category."""
        try:
            with hard_deadline(self.limits.hard_timeout):
                verdict = check()
        except MutantFailure as exc:
            self.finding(_KIT_CATEGORY[exc.kind], call, str(exc), exc.kind)
            return None
        except HardTimeout:
            limit = self.limits.hard_timeout
            self.finding("over_limit", call, f"checking the accepted input took over {limit:g} s")
            return None
        except Exception as exc:  # the check itself broke on this input: report, go on
            self.finding("internal_error", call, f"kit check: {type(exc).__name__}: {exc}")
            return None
        self.stats.accepted[f"{call.verb}: {verdict}"] += 1
        return verdict

    # -- inputs
    def _state_input(self, index: int | None = None) -> tuple[bytes, Any, tuple[Mutation, ...]]:
        """A mutated corpus state (the `index`-th, or any): its text, its parsed document
        (UNPARSED when the text is not JSON the command reads), and the edits."""
        if index is None:
            index = self.chooser.below(len(self.corpus.state_docs))
        doc = self.corpus.state_docs[index]
        form = self.chooser.below(8)
        if form == 0:
            text, edit = mutate_bytes(dump_json(doc).encode(), self.chooser)
            return text, parsed(text), (edit,)
        if form == 1:
            made = make_impossible(self.game, self.corpus.states[index], doc, self.chooser)
            if made is not None:
                op = IMPOSSIBLE if made.expect_refused else REACHABLE
                edit = Mutation(op, made.field, f"{made.kind}: {made.detail}")
                return encoded(made.doc), made.doc, (edit,)
        mutant = mutate(doc, self.corpus.state_pool, self.chooser)
        return encoded(mutant.doc), mutant.doc, mutant.edits

    def _check_state(self, call: Call, doc: Any, result: Result) -> None:
        made = call.edits[0] if len(call.edits) == 1 else None
        if made is not None and made.op in (IMPOSSIBLE, REACHABLE) and call.input == "state":
            self._check_made(call, made, result)
        if result.code != 0 or doc is UNPARSED:
            return
        self.kit_check(call, lambda: check_state_mutant(self.game, Mutant(doc, call.edits)))
        if self.state_schema is not None:
            problem = self.state_schema(doc)
            if problem is not None:
                self.finding("schema_disagrees", call, f"accepted, but the schema says {problem}")

    def _check_made(self, call: Call, made: Mutation, result: Result) -> None:
        """A position put out of its domain on purpose (`tools.testing.mutation_positions`)
        is refused naming its field; one the rules reach is not refused for that field."""
        error = error_object(result.stderr) if result.code == 2 else None
        if error is not None and error.get("error") != "impossible_position":
            error = None  # refused before the position was read (an argument, say)
        named = error is not None and str(error.get("field") or "").startswith(made.path)
        if made.op == IMPOSSIBLE and result.code == 0:
            self.finding("impossible_accepted", call, f"accepted: {made.detail}", "domain")
        elif made.op == IMPOSSIBLE and error is not None and not named:
            got = error.get("field")
            self.finding("unnamed_refusal", call, f"refused at {got!r}, not {made.path!r}")
        elif made.op == REACHABLE and named:
            self.finding("reachable_refused", call, f"refused: {made.detail}", "domain")

    def _side(self) -> str:
        sides = [*self.game.sides, *self.game.sides, *self.game.sides, CHANCE]
        side = pick(self.chooser, sides)
        if self.chooser.below(6) == 0:
            side = pick(self.chooser, [side.lower(), side + " ", "", "x" * 300, "٠", "none"])
        return side

    # -- the verbs
    def _legal(self, verb: str) -> None:
        text, doc, edits = self._state_input()
        argv = ["legal", self.game.name, "{STATE.json}"]
        stdin = None
        if self.chooser.below(10) == 0:
            argv[2], stdin = "-", text
        if verb == "legal --side":
            argv += ["--side", self._side()]
        files = (("STATE.json", text),) if stdin is None else ()
        call = Call(verb, "state", tuple(argv), files, stdin, edits)
        self._check_state(call, doc, self.call(call))

    def _view(self, verb: str) -> None:
        text, doc, edits = self._state_input()
        argv = ("view", self.game.name, "{STATE.json}", "--side", self._side())
        call = Call(verb, "state", argv, (("STATE.json", text),), None, edits)
        self._check_state(call, doc, self.call(call))

    def _render(self, verb: str) -> None:
        text, doc, edits = self._state_input()
        argv = ("render", self.game.name, "{STATE.json}", "-o", "{OUT.svg}")
        call = Call(verb, "state", argv, (("STATE.json", text),), None, edits)
        self._check_state(call, doc, self.call(call))

    def _apply(self, verb: str) -> None:
        c = self.corpus
        index, action_doc = c.moves[self.chooser.below(len(c.moves))]
        state_doc: Any = c.state_docs[index]
        state_text = dump_json(state_doc).encode()
        action_text = dump_json(action_doc).encode()
        edits: tuple[Mutation, ...] = ()
        mutated = pick(self.chooser, ["state", "action", "action"])
        if mutated == "state":
            state_text, state_doc, edits = self._state_input(index)
        elif self.chooser.below(8) == 0:
            action_text, edit = mutate_bytes(action_text, self.chooser)
            action_doc, edits = parsed(action_text), (edit,)
        else:
            mutant = mutate(action_doc, c.action_pool, self.chooser)
            action_doc, edits, action_text = mutant.doc, mutant.edits, encoded(mutant.doc)
        inline = self.chooser.below(2) == 0 and action_text.lstrip().startswith(b"{")
        try:
            inline_text = action_text.decode("utf-8")
        except UnicodeDecodeError:
            inline = False
        files = [("STATE.json", state_text)]
        if inline:
            argv = ["apply", self.game.name, "{STATE.json}", inline_text]
        else:
            argv = ["apply", self.game.name, "{STATE.json}", "{ACTION.json}"]
            files.append(("ACTION.json", action_text))
        side = None
        if verb == "apply --side":
            side = self._side()
            argv += ["--side", side]
        call = Call(verb, mutated, tuple(argv), tuple(files), None, edits)
        result = self.call(call)
        if result.code != 0:
            return
        if mutated == "state":
            self._check_state(call, state_doc, result)
        elif action_doc is not UNPARSED:
            state = c.states[index]
            self.kit_check(
                call, lambda: check_action_mutant(self.game, state, Mutant(action_doc, edits))
            )
        self._check_printed_state(call, result.stdout)
        if side is not None and state_doc is not UNPARSED:
            try:
                to_move = self.game.to_move(self.game.state_from_json(state_doc))
            except Exception:  # the state's own check has reported it
                return
            if side != to_move:
                message = f"an action sent by {side!r} applied while {to_move!r} is to move"
                self.finding("illegal_applied", call, message)

    def _check_printed_state(self, call: Call, stdout: str) -> None:
        """The state `apply` printed is one the codec reads back (closure at the interface)."""
        try:
            state = self.game.state_from_json(parse_json(stdout, what="output"))
            problem = position_problem(self.game, state)
        except WargameError as exc:
            problem = f"{exc.kind} at {exc.field}: {exc.message}"
        except Exception as exc:
            self.finding("internal_error", call, f"reading apply's output: {exc!r}")
            return
        if problem is not None:
            self.finding("impossible_accepted", call, f"apply printed a refused state: {problem}")

    def _new(self, verb: str) -> None:
        catalogue = self.game.catalogue
        argv = ["new", self.game.name]
        presets = sorted(self.game.presets())
        for _ in range(1 + self.chooser.below(3)):
            form = self.chooser.below(4)
            if form == 0:
                name = pick(self.chooser, presets)
                argv += ["--variant", pick(self.chooser, [name, *near_names(name), ""])]
            else:
                option = pick(self.chooser, catalogue.options)
                readings = [r.name for r in option.readings]
                name = pick(self.chooser, [option.name, *near_names(option.name)])
                reading = pick(self.chooser, [*readings, *near_names(pick(self.chooser, readings))])
                item = pick(
                    self.chooser,
                    [f"{name}={reading}", name, f"={reading}", f"{name}=", f"{name}={reading}=x"],
                )
                argv += ["--option", item]
        call = Call(verb, "options", tuple(argv))
        result = self.call(call)
        if result.code == 0:
            self._check_printed_state(call, result.stdout)

    def _args(self, verb: str) -> None:
        g = self.game.name
        base = pick(
            self.chooser,
            [
                ["legal", g, "{STATE.json}"],
                ["apply", g, "{STATE.json}", "{}"],
                ["render", g, "{STATE.json}", "-o", "{OUT.svg}"],
                ["play", g, "--seed", "3", "--max-steps", "5", "--quiet"],
                ["play", g, "--seed", "2", "--max-steps", "12"],
                ["data", "check", g, "--json"],
                ["new", g],
                ["schema", g, "state"],
                ["view", g, "{STATE.json}", "--side", self.game.sides[0]],
            ],
        )
        if base[0] in self.missing_commands:
            return
        argv = list(base)
        alteration = self.chooser.below(7)
        if alteration == 0 and len(argv) > 1:
            del argv[self.chooser.below(len(argv))]
        elif alteration == 1:
            argv.insert(self.chooser.below(len(argv) + 1), pick(self.chooser, _ODD_ARGS))
        elif alteration == 2 and len(argv) > 1:
            argv[1] = pick(self.chooser, [g.upper(), g + "x", "", "٠", "all", "../" + g])
        elif alteration == 3:
            argv += ["--seed", pick(self.chooser, ["-1", "x", "9" * 30, "1e3", ""])]
        elif alteration == 4:
            argv += ["--max-steps", pick(self.chooser, ["-1", "x", "0", "9" * 30])]
        elif alteration == 5:
            argv += ["--file", pick(self.chooser, ["/", "/nonexistent.toml", "", "{STATE.json}"])]
        else:
            argv += argv[1:]
        state = dump_json(pick(self.chooser, self.corpus.state_docs)).encode()
        call = Call(verb, "arguments", tuple(argv), (("STATE.json", state),))
        self.call(call)

    def _play(self, verb: str) -> None:
        original = pick(self.chooser, self.corpus.logs)
        edits: tuple[Mutation, ...]
        if self.chooser.below(8) == 0:
            text, edit = mutate_bytes(dump_json(original).encode(), self.chooser)
            doc, edits = parsed(text), (edit,)
        else:
            mutant = mutate(original, self.corpus.log_pool, self.chooser)
            doc, edits, text = mutant.doc, mutant.edits, encoded(mutant.doc)
        argv = ["play", self.game.name, "--replay", "{LOG.json}"]
        if self.chooser.below(3) != 0:
            argv.append("--quiet")
        call = Call(verb, "log", tuple(argv), (("LOG.json", text),), None, edits)
        result = self.call(call)
        if result.code == 0 and doc is not UNPARSED:
            self.kit_check(call, lambda: check_log_mutant(self.game, Mutant(doc, edits), self.logs))

    def _data(self, verb: str) -> None:
        if not self.data:
            return
        which = self.chooser.below(len(self.data))
        path, raw = self.data[which]
        form = self.chooser.below(5)
        edits: tuple[Mutation, ...]
        if form == 0:
            text, edit = mutate_bytes(raw, self.chooser, "toml")
            edits = (edit,)
        elif form == 1:
            doc, edit = non_finite_number(self.data_docs[which], self.chooser)
            text, edits = toml_text(doc).encode(), (edit,)
        else:
            mutant = mutate(self.data_docs[which], self.data_pool, self.chooser)
            text = toml_text(mutant.doc).encode("utf-8", "surrogatepass")
            edits = mutant.edits
        argv = ["data", "check", self.game.name, "--file", "{" + path.name + "}"]
        if self.chooser.below(2) == 0:
            argv.append("--json")
        self.call(Call(verb, "data", tuple(argv), ((path.name, text),), None, edits))

    def _schema(self, verb: str) -> None:
        kind = pick(self.chooser, ["state", "action", "log", "view"])
        if self.chooser.below(4) == 0:
            kind = pick(self.chooser, [*near_names(kind), "all", "", "observation"])
        call = Call(verb, "kind", ("schema", self.game.name, kind))
        result = self.call(call)
        if result.code == 0:
            try:
                schema = json.loads(result.stdout)
            except ValueError:
                schema = None
            if not isinstance(schema, dict) or "$schema" not in schema:
                self.finding("internal_error", call, "schema printed no JSON Schema document")


_ODD_ARGS: Final = ("--bogus", "-", "--", "--side", "--json", "-o", "--variant", "--option", "٠")


def _state_schema(game: AssembledGame[Any, Any]) -> Callable[[Any], str | None] | None:
    """A check of a document against the game's published state schema (None when the game
    publishes none yet or jsonschema is not installed)."""
    try:
        import jsonschema

        from kernel.views import schema

        validator = jsonschema.Draft202012Validator(schema(game, "state"))
    except Exception:
        return None

    def check(doc: Any) -> str | None:
        error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if error is None:
            return None
        return f"{error.json_path}: {error.message[:120]}"

    return check
