"""What Nomonhan's symbolic model (`specs.nomonhan.formal.symbolic`) needs of the data file and
the variant, read once as small static tables (`Tables`), and the readings it does not encode
(`UnsupportedReading`). Apart from the state variables and what a position says so that each
module keeps one job.
"""

from __future__ import annotations

from kernel.errors import WargameError
from kernel.hexes import hex_distance
from kernel.variants import Variant
from specs.nomonhan.data.loader import NomonhanData
from specs.nomonhan.rules.board import Board

UNSUPPORTED = (
    ("end_roll_timing", "at_change"),
    ("reinforcement_timing", "lost"),
    ("retreat_repeat", "once"),
    ("scoring", "own_remaining"),
    ("resolution_order", "fixed_in_advance"),
)


class UnsupportedReading(WargameError):
    """The symbolic model does not encode this reading (the prover then claims nothing)."""

    kind = "unsupported_reading"


class Tables:
    """What the model needs of the data file and the variant, as small static tables: hexes
    numbered 1..H (0 is off the map), hexside kinds, costs, and per-unit values."""

    def __init__(self, data: NomonhanData, variant: Variant) -> None:
        for option, reading in UNSUPPORTED:
            if variant.is_(option, reading):
                raise UnsupportedReading(
                    f"the symbolic model does not encode {option}={reading}", clauses=()
                )
        self.v = variant
        board = Board(data)
        hexes = sorted(data.map.hexes)
        self.hexes = hexes
        self.index = {h: i + 1 for i, h in enumerate(hexes)}
        self.cells = tuple(range(1, len(hexes) + 1))
        self.nbr = {self.index[h]: tuple(self.index[n] for n in board.neighbors(h)) for h in hexes}
        self.kind = {
            (self.index[h], self.index[n]): board.hexside_kind(h, n, False)
            for h in hexes
            for n in board.neighbors(h)
        }
        self.cost = {self.index[h]: data.map.cost(h) for h in hexes}
        self.hill = {self.index[h]: data.map.terrain.get(h) == "hill" for h in hexes}
        self.dist = [[0] * (len(hexes) + 1)] + [
            [0, *(hex_distance(h, n) for n in hexes)] for h in hexes
        ]
        self.near = {
            self.index[h]: tuple(self.index[n] for n in hexes if hex_distance(h, n) <= 3)
            for h in hexes
        }
        pontoon = data.map.pontoon
        self.pontoon = None if pontoon is None else (self.index[pontoon.a], self.index[pontoon.b])
        self.bridges = tuple(
            (self.index[s.a], self.index[s.b], kind) for s, kind in data.map.bridges.items()
        )
        self.flags = {side: tuple(self.index[f] for f in fs) for side, fs in data.map.flags.items()}
        self.specs = data.units
        self.ids = tuple(u.id for u in data.units)
        self.units = tuple(range(len(data.units)))
        self.side = tuple(u.side for u in data.units)
        self.of_side = {s: tuple(u for u in self.units if self.side[u] == s) for s in ("JP", "SU")}
        self.enemy = tuple("SU" if s == "JP" else "JP" for s in self.side)
        friendly_ok = variant.is_("pass_through", "friendly")
        self.blockers = tuple(
            tuple(
                v
                for v in self.units
                if v != u and not (friendly_ok and self.side[v] == self.side[u])
            )
            for u in self.units
        )
        self.pontoon_counts = variant.is_("pontoon_is_bridge", "yes")
        self.blown_counts = self.pontoon_counts and variant.is_(
            "demolition_effect", "crossing_only"
        )
        not_tanks = variant.is_("pontoon_users", "not_tanks")
        self.pontoon_user = tuple(
            (not u.is_tank) if not_tanks else u.type in ("infantry", "cavalry") for u in data.units
        )
        self.end_roll = dict(data.end_roll)
        self.turn_boxes = data.turn_boxes
        art = data.artillery
        self.art = None if art is None else self.ids.index(art.id)
        self.jp_tanks = tuple(
            u for u in self.of_side["JP"] if data.units[u].is_tank and data.units[u].gt is None
        )

    def ja_artillery(self, u: int) -> bool:
        """The Artillery read as JA reads it (NOM-9.19, NOM-9.20, NOM-9.28, AMB-NOM-15)."""
        return self.specs[u].type == "artillery" and self.v.is_("artillery_rules", "ja")

    def full(self, u: int) -> int:
        """Steps at full strength: two with a reverse side (NOM-2.5), one for the JA Artillery."""
        return 1 if self.ja_artillery(u) else self.specs[u].full_steps

    def weight(self, u: int) -> int:
        """Points per step: 2 for a tank, 1 otherwise (NOM-4.5, NOM-4.6)."""
        return 2 if self.specs[u].is_tank else 1

    def strength(self, u: int, reduced: bool, attacking: bool) -> int:
        """Printed or reverse-side value; a tank's attack or defence number (NOM-9.10,
        AMB-NOM-22); the JA Artillery defends at 1 (NOM-9.20)."""
        spec = self.specs[u]
        if not attacking and self.ja_artillery(u):
            return 1
        values = spec.reduced if reduced and spec.reduced is not None else spec.printed
        if spec.is_tank and len(values) == 2:
            left = self.v.is_("tank_numbers", "left_attack")
            return values[0] if left == attacking else values[1]
        return values[0]

    def can_attack(self, u: int) -> bool:
        return not self.ja_artillery(u)  # NOM-9.20

    def max_damage(self) -> int:
        """An upper bound on the hit difference of any combat (dice of one side, NOM-9.9)."""
        out = 0
        for side in ("JP", "SU"):
            units = self.of_side[side]
            att = sum(self.strength(u, False, True) for u in units if self.can_attack(u))
            dfn = sum(self.strength(u, False, False) for u in units)
            out = max(out, att + 1, dfn + 1)
        return out
