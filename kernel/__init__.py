"""Game-agnostic machinery: hex geometry, the Game contract, chance, variants, data, JSON."""
