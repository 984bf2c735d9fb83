"""Rattenkrieg Stalingrad (CMJ postcard game, 2008): an area map, a 52-card deck, hidden steps."""

from specs.rattenkrieg.rules import Rattenkrieg

__all__ = ["Rattenkrieg"]
