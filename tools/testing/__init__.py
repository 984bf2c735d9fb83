"""Kits for testing any game: the conformance suite and mutation kit, and the fuzz campaign."""
