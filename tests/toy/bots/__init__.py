"""What bots need of the toy: its evaluation (it hides nothing, so no resampler)."""
