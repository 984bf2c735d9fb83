"""Battle of Nomonhan (CMJ postcard game, 2012): EN and JA texts as presets `en` and `ja`.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from pathlib import Path

from kernel.package import GamePackage, part, value

PACKAGE = GamePackage(
    name="nomonhan",
    rules=part("specs.nomonhan.game:Nomonhan"),
    codec=part("specs.nomonhan.io.codec:NomonhanCodec"),
    narration=part("specs.nomonhan.io.narration:NomonhanNarration"),
    position=part("specs.nomonhan.formal.position:NomonhanPositionCheck"),
    data=part("specs.nomonhan.formal.facts:NomonhanDataCheck"),
    picture=part("specs.nomonhan.io.picture:NomonhanPicture"),
    data_dir=Path(__file__).parent / "data",
    formal=value("specs.nomonhan.formal.verification"),
    evaluation=value("specs.nomonhan.bots.evaluation:evaluate"),
    resampler=None,
    spiel=part("specs.nomonhan.spiel:specs"),
)

__all__ = ["PACKAGE"]
