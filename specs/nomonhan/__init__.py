"""Battle of Nomonhan (CMJ postcard game, 2012): EN and JA texts as presets `en` and `ja`."""

from specs.nomonhan.rules import Nomonhan

__all__ = ["Nomonhan"]
