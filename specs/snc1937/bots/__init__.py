"""What bots need of the game: the evaluation (and, with hidden information, the resampler)."""
