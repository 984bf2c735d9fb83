"""Postcard Shumshu, August 1945 (L. R. Coatney, rules draft of 14 June 2025): preset `draft`."""

from specs.shumshu.rules import Shumshu

__all__ = ["Shumshu"]
