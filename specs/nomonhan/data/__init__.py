"""The data files, their loader, the text's facts about them, and the variants (options and
presets)."""
