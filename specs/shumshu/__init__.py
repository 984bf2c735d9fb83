"""Postcard Shumshu, August 1945 (L. R. Coatney, rules draft of 14 June 2025): preset `draft`.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from pathlib import Path

from kernel.package import GamePackage, part, value

PACKAGE = GamePackage(
    name="shumshu",
    rules=part("specs.shumshu.game:Shumshu"),
    codec=part("specs.shumshu.io.codec:ShumshuCodec"),
    narration=part("specs.shumshu.io.narration:ShumshuNarration"),
    position=part("specs.shumshu.formal.position:ShumshuPositionCheck"),
    data=part("specs.shumshu.formal.facts:ShumshuDataCheck"),
    picture=part("specs.shumshu.io.picture:ShumshuPicture"),
    data_dir=Path(__file__).parent / "data",
    formal=value("specs.shumshu.formal.verification"),
    evaluation=value("specs.shumshu.bots.evaluation:evaluate"),
    resampler=value("specs.shumshu.bots.resample:resample"),
    spiel=part("specs.shumshu.spiel:specs"),
)

__all__ = ["PACKAGE"]
