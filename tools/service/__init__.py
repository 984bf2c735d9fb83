"""The HTTP service of issue 15: its game store."""
