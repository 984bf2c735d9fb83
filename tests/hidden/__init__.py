"""Hidden information over whole histories, every hidden-information game (issue 31)."""
