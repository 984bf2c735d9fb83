"""The data files, their loader and the variants (options and presets). The text's facts
about the data are checked in `formal/facts.py`."""
