"""Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329): presets `standard` and `printed`.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from pathlib import Path

from kernel.package import GamePackage, part, value

PACKAGE = GamePackage(
    name="snc1937",
    rules=part("specs.snc1937.game:SNC"),
    codec=part("specs.snc1937.io.codec:SNCCodec"),
    narration=part("specs.snc1937.io.narration:SNCNarration"),
    position=part("specs.snc1937.formal.position:SNCPositionCheck"),
    data=part("specs.snc1937.formal.facts:SNCDataCheck"),
    picture=part("specs.snc1937.io.picture:SNCPicture"),
    data_dir=Path(__file__).parent / "data",
    formal=value("specs.snc1937.formal.verification"),
    evaluation=value("specs.snc1937.bots.evaluation:evaluate"),
    resampler=value("specs.snc1937.bots.resample:resample"),
    spiel=part("specs.snc1937.spiel:specs"),
)

__all__ = ["PACKAGE"]
