"""A game's own proofs that two readings of an option cannot differ.

Some reading pairs are the same game for a reason only the game's data shows: no strength
the rules can compute falls below the floor one reading adds, or the one unit a reading could
revise never has the revision under the preset's other readings. No search of play proves
that within a budget; an exhaustive enumeration of the reading's inputs over the data does.
A game offers such proofs through an optional method of its rules, `reading_proofs()`: a
mapping from an option's name to a function of the two variants (the preset with each
reading) that returns the proof in words, citing its clauses, or None when it cannot prove
them the same under those variants (any input that makes them differ). The explorer asks
for it before its searches (`solvers.checking.explore.differential`); a proof makes the pair
equivalent with the proof as its detail, and no proof leaves the pair to the searches.

Solvers never import specs: the hook is read off the rules object (`kernel.roles.rules_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kernel.roles import rules_of
from kernel.variants import Variant

ReadingProof = Callable[[Variant, Variant], str | None]
"""`proof(variant_a, variant_b)`: the proof in words that the two variants play the same
game, or None."""

HOOK = "reading_proofs"
"""The rules' optional method that gives the game's proofs, by option."""


def reading_proofs(game: Any) -> Mapping[str, ReadingProof]:
    """The game's proofs by option (empty when the game offers none)."""
    hook = getattr(rules_of(game), HOOK, None)
    if hook is None:
        return {}
    proofs: Mapping[str, ReadingProof] = hook()
    return proofs


def game_proof(game: Any, option: str, va: Variant, vb: Variant) -> str | None:
    """The game's proof that `va` and `vb` (two readings of `option`) cannot differ, or None
    (no proof offered for the option, or the proof fails under these variants)."""
    proof = reading_proofs(game).get(option)
    return None if proof is None else proof(va, vb)
