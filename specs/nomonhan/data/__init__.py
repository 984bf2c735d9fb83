"""The data files, their loader and the variants (options and presets). The text's facts about
the data are a check through the rules' board (`formal/facts.py`)."""
