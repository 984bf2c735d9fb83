"""The toy's catalogue: a planted gap, and an equivalent pair of readings."""

from __future__ import annotations

from kernel.variants import Catalogue, Option, Reading

CAT = Catalogue(
    game="toy",
    options=(
        Option(
            "gap",
            "Plant a gap?",
            ("TOY-1",),
            (Reading("none", "", "test"), Reading("stuck_at_3", "", "test")),
        ),
        Option(
            "coin_name",
            "What the coin is called (two readings with the same rules: equivalent).",
            ("TOY-2",),
            (Reading("coin", "", "test"), Reading("token", "", "test")),
        ),
    ),
    presets={
        "plain": {"gap": "none", "coin_name": "coin"},
        "gapped": {"gap": "stuck_at_3", "coin_name": "coin"},
    },
    default_preset="plain",
)
