"""The data files, their loader, and the variants (options and presets). The text's facts
about the data are a check of it through the rules (`formal/facts.py`)."""
