"""The odds of an attack are worked out under the variant being played, not the standard
preset: `odds.battle_odds` asks `attack_problem` whether the attack may go at all under the
same variant (SNC-9.4.6, SNC-10.4.1.9, AMB-SNC-24: option yangtze_hexside_combat)."""

from __future__ import annotations

import pytest

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.odds import battle_odds
from tests.snc1937.assembled import rules_of
from tools.registry import get_game

GAME = get_game("snc1937")
RULES = rules_of(GAME)
CAT = GAME.catalogue
FRM, TARGET = parse_hex("3510"), parse_hex("3511")


class _WithYangtze(Board):
    """The map with one Yangtze hexside, between the attacker's hex and the target."""

    def side_kind(self, x: Hex, y: Hex) -> str | None:
        return "yangtze" if {x, y} == {FRM, TARGET} else super().side_kind(x, y)


def _unit(side: str) -> str:
    """A unit of `side` from the data that may attack: not static (SNC-10.2.1), with a CF."""
    return next(u.id for u in RULES.data.units if u.side == side and u.cf > 0 and not u.is_static)


def test_snc_9_4_6_battle_odds_reads_yangtze_hexside_combat_of_the_variant() -> None:
    """SNC-9.4.6, SNC-10.4.1.9: across a Yangtze hexside, `forbidden` refuses the attack and
    `allowed` gives it odds, whatever the standard preset says."""
    board = _WithYangtze(RULES.data)
    jp, ch = _unit("JP"), _unit("CH")
    stacks = {FRM: (jp,), TARGET: (ch,)}
    for reading, refused in (("forbidden", True), ("allowed", False)):
        variant = CAT.variant("standard", {"yangtze_hexside_combat": reading})
        if refused:
            with pytest.raises(IllegalAction, match="SNC-"):
                battle_odds(RULES.data, board, variant, TARGET, {jp: FRM}, stacks, frozenset())
        else:
            odds = battle_odds(RULES.data, board, variant, TARGET, {jp: FRM}, stacks, frozenset())
            assert odds.column is not None
