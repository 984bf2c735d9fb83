"""One package per game: data, state, rules as pure functions, variants and properties."""
