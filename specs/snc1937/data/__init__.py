"""The data files, their loader, and the variants (options and presets)."""
