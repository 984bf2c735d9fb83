"""Each game's documents as concrete classes named after the game (`NomonhanMatchView`, and
within it `NomonhanViewRecord`...): the names their schemas have in the OpenAPI document,
each with the game's own action and state types."""

from __future__ import annotations

import functools
import operator
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs
import msgspec

from kernel.roles import AssembledGame
from tools.service import documents as doc


def named(game: AssembledGame[Any, Any], generic: Any) -> Any:
    """A document parametrised with the game's wire types, as a concrete class named after
    the game."""
    prefix = "".join(part.capitalize() for part in game.name.replace("_", " ").split())
    return _concrete(prefix, generic, _CONCRETE)


_CONCRETE: dict[str, Any] = {}


def _concrete(prefix: str, tp: Any, made: dict[str, Any]) -> Any:
    origin = typing.get_origin(tp)
    if isinstance(origin, type) and issubclass(origin, msgspec.Struct):
        name = prefix + origin.__name__
        if name not in made:
            fields: list[Any] = []
            for f in msgspec.structs.fields(tp):
                t = _concrete(prefix, f.type, made)
                if f.default is not msgspec.NODEFAULT:
                    fields.append((f.name, t, f.default))
                elif f.default_factory is not msgspec.NODEFAULT:
                    fields.append((f.name, t, msgspec.field(default_factory=f.default_factory)))
                else:
                    fields.append((f.name, t))
            cls = msgspec.defstruct(
                name,
                fields,
                frozen=True,
                forbid_unknown_fields=True,
                kw_only=True,
                module="tools.service.api",
            )
            cls.__doc__ = origin.__doc__
            made[name] = cls
        return made[name]
    if origin in (list, tuple, dict):
        args = tuple(_concrete(prefix, a, made) for a in typing.get_args(tp))
        return origin[args]
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(
            operator.or_, [_concrete(prefix, a, made) for a in typing.get_args(tp)]
        )
    return tp


@attrs.frozen
class Docs:
    """One game's documents (classes made at start-up, so typed `Any` for mypy)."""

    create: Any
    view: Any
    state: Any
    log: Any
    submit: Any
    proposal: Any
    chance: Any

    @classmethod
    def of(cls, game: AssembledGame[Any, Any]) -> Docs:
        w = game.wire
        d: Any = doc  # parametrised with run-time types: beyond a static checker
        made = cls(
            create=named(game, d.CreateMatch[w.state]),
            view=named(game, d.MatchView[w.observation, w.action]),
            state=named(game, d.RefereeState[w.state, w.action]),
            log=named(game, d.MatchLog[w.action]),
            submit=named(game, d.Submit[w.action]),
            proposal=named(game, d.Proposal[w.action]),
            chance=named(game, d.ChanceList[w.action]),
        )
        for record in attrs.astuple(made, recurse=False):  # type info built now, in one thread
            msgspec.json.Decoder(record)
        return made


def annotate(fn: Callable[..., Any], **hints: Any) -> Callable[..., Any]:
    """Give a handler made per game its game's types (Litestar reads the annotations)."""
    fn.__annotations__ = {**fn.__annotations__, **hints}
    return fn


def repair(node: Any) -> Any:
    """The generated document with Litestar's rendering of a variadic tuple (`tuple[X, ...]`
    as items `oneOf: [X, {}]`, which every value matches twice) made `items: X`."""
    if isinstance(node, list):
        return [repair(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: repair(v) for k, v in node.items()}
    one_of = out.get("oneOf")
    if isinstance(one_of, list) and len(one_of) == 2 and one_of[1] == {}:
        del out["oneOf"]
        out.update(one_of[0])
    return out
