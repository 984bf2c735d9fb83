"""Rattenkrieg Stalingrad (CMJ postcard game, 2008): an area map, a 52-card deck, hidden steps.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from pathlib import Path

from kernel.package import GamePackage, part, value

PACKAGE = GamePackage(
    name="rattenkrieg",
    rules=part("specs.rattenkrieg.game:Rattenkrieg"),
    codec=part("specs.rattenkrieg.io.codec:RattenkriegCodec"),
    narration=part("specs.rattenkrieg.io.narration:RattenkriegNarration"),
    position=part("specs.rattenkrieg.formal.position:RattenkriegPositionCheck"),
    data=part("specs.rattenkrieg.formal.facts:RattenkriegDataCheck"),
    picture=part("specs.rattenkrieg.io.picture:RattenkriegPicture"),
    data_dir=Path(__file__).parent / "data",
    formal=value("specs.rattenkrieg.formal.verification"),
    evaluation=value("specs.rattenkrieg.bots.evaluation:evaluate"),
    resampler=value("specs.rattenkrieg.bots.resample:resample"),
    spiel=part("specs.rattenkrieg.spiel:specs"),
)

__all__ = ["PACKAGE"]
