"""A game's own proofs that two readings cannot differ (`solvers.checking.game_proofs`), on
the toy game: the explorer asks for them before its searches, reports a proved pair
equivalent with the proof as its detail, and leaves a pair to its searches when the game
offers no proof or its proof fails. Every search runs on counts only (`budget=None`)."""

from __future__ import annotations

from typing import Any

from kernel.variants import Variant
from solvers.checking.explore import differential
from solvers.checking.game_proofs import game_proof, reading_proofs
from tests.toy import PACKAGE as TOY_PACKAGE


def _toy(proofs: dict[str, Any] | None) -> Any:
    """The toy assembled anew, its rules offering `proofs` (None: no hook at all)."""
    game = TOY_PACKAGE.assemble()
    if proofs is not None:
        rules: Any = game.rules
        rules.reading_proofs = lambda: proofs  # the hook as a game's rules define it
    return game


def _differential(game: Any, option: str) -> Any:
    [finding] = differential(
        game, game.catalogue.option(option), budget=None, games=4, max_steps=40
    )
    return finding


def test_a_game_without_the_hook_offers_no_proof() -> None:
    """TOY-1: no hook, no proof; the exhaustive search finds the planted gap's difference."""
    game = _toy(None)
    assert reading_proofs(game) == {}
    assert _differential(game, "gap").verdict == "differ"


def test_a_proof_settles_the_pair_before_any_search() -> None:
    """TOY-2: the game's proof makes the pair equivalent with the proof as its detail, and is
    handed the two variants of the pair (the preset with each reading)."""
    seen: list[tuple[str, str]] = []

    def proof(va: Variant, vb: Variant) -> str:
        seen.append((va.reading("coin_name"), vb.reading("coin_name")))
        return "proved by the toy: the coin's name is read by no rule (TOY-2)"

    game = _toy({"coin_name": proof})
    finding = _differential(game, "coin_name")
    assert finding.verdict == "equivalent"
    assert finding.detail == "proved by the toy: the coin's name is read by no rule (TOY-2)"
    assert seen == [("coin", "token")]


def test_a_failing_proof_leaves_the_pair_to_the_searches() -> None:
    """TOY-1: a proof that returns None proves nothing; the searches still find the
    difference the planted gap makes."""
    game = _toy({"gap": lambda va, vb: None})
    va, vb = (game.catalogue.variant("plain", {"gap": r}) for r in ("none", "stuck_at_3"))
    assert game_proof(game, "gap", va, vb) is None
    assert _differential(game, "gap").verdict == "differ"
