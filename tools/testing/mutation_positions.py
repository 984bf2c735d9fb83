"""Impossible positions made on purpose: each kind takes a real position (from a seeded playout)
and puts one field outside the domain the rules give it, so the position check must refuse the
result, naming that field.

The generic engine (`tools.testing.mutation`) edits a document blindly and cannot tell an
impossible mutant from a possible one: an accepted mutant is held only to closure. These kinds
know the rule they break, so an accepted one is a position the check lets through although no
play reaches it. Each is what a fuzz campaign once found accepted:

- shumshu: a Paramushir unit on Shumshu during the set-up (SHU-SETUP.2); more Japanese units
  from Paramushir than the AM turns brought (SHU-REINF.1, SHU-REINF.2); a discovered (face up)
  decoy still on the map (SHU-COMBAT.6); a Japanese unit face up on Paramushir, which has
  been in no combat (SHU-COMBAT.5: found by the campaign that followed);
- snc1937: a static unit away from its hex (SNC-2.2.1.8, SNC-9.1.3); a static unit among the
  attackers (SNC-10.2.1); an attacker of the side not attacking (SNC-10.0.3); a reinforcement
  in a TRT box earlier than its counter's GT (SNC-8.0.4); a step the phase does not have
  (SNC-5.1.1); a hex the last stacking check covered left over the limits (SNC-6.0.2); and,
  found by the campaign that followed, a Chinese unit free to move as a method-(a) arrival
  outside the Reinforcement Phase (SNC-8.2.2), a fire support kind twice in one combat
  (SNC-11.1.3); and, found while writing the resamplers, a Japanese garrison set up on the map
  taken off to nowhere as if it were in the pool (SNC-9.1.2), an attack that has struck whose
  one attacker, across a creek or river, rounds down to 0 (SNC-10.4.1.8);
- nomonhan: a pending combat whose units are not in contact (NOM-9.8, AMB-NOM-19), impossible
  only where advances move participants alone (`advance_units=participants`, the `ja` preset):
  under `any_friendly` (`en`) an advance may carry a unit of a pending combat away, so the kind
  is made there too and must NOT be refused for its pending combat (`expect_refused` False).

The kinds read the game's own tables through its rules object (`kernel.roles.rules_of`), as
the tools may (they import no spec module). Every choice comes from a `Chooser`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from kernel.errors import ImpossiblePosition, WargameError
from kernel.playout import play
from kernel.roles import AssembledGame, rules_of
from tools.testing.mutation import Chooser
from tools.testing.mutation_kinds import KINDS, Impossible

__all__ = ["KINDS", "Impossible", "make_impossible", "playout_positions", "refusal_problem"]


def make_impossible(
    game: AssembledGame[Any, Any],
    state: Any,
    doc: dict[str, Any],
    chooser: Chooser,
    kinds: Sequence[str] | None = None,
) -> Impossible | None:
    """One impossible position made from `state` (whose JSON is `doc`) by a kind drawn among
    `kinds` (every kind of the game by default) that applies to it, or None if none does."""
    makers = [(n, m) for n, m in KINDS.get(game.name, ()) if kinds is None or n in kinds]
    rules = rules_of(game)
    while makers:
        _name, maker = makers.pop(chooser.below(len(makers)))
        made = maker(rules, state, doc, chooser)
        if made is not None:
            return made
    return None


def refusal_problem(game: AssembledGame[Any, Any], made: Impossible) -> str | None:
    """What is wrong with how the game reads `made`, or None: an unreachable one must be
    refused as an ImpossiblePosition naming its field; a reachable one (`expect_refused`
    False) must not be refused for that field."""
    try:
        game.state_from_json(made.doc)
    except ImpossiblePosition as exc:
        named = (exc.field or "").startswith(made.field)
        if made.expect_refused and not named:
            return f"refused naming {exc.field!r}, not {made.field!r}: {exc}"
        if not made.expect_refused and named:
            return f"a reachable position refused at {exc.field!r}: {exc}"
        return None
    except WargameError as exc:
        if made.expect_refused:
            return f"refused as {exc.kind} at {exc.field!r}, not as an impossible position: {exc}"
        return None
    if made.expect_refused:
        return f"accepted, though impossible ({made.kind}: {made.detail})"
    return None


def playout_positions(
    game: AssembledGame[Any, Any], variant: Any, seed: int, max_steps: int
) -> list[Any]:
    """Every position of a seeded playout of `variant` (its set-up first), at most
    `max_steps` steps: positions the rules reach."""
    states = [game.initial_state(variant)]
    play(game, states[0], random.Random(seed), max_steps=max_steps, on_step=_keep(states))
    return states


def _keep(states: list[Any]) -> Callable[[Any, Any, Any], None]:
    def keep(before: Any, action: Any, after: Any) -> None:
        states.append(after)

    return keep
