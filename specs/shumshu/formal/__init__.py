"""The formal side: properties, the position check, the data's facts, the symbolic model and
the verification link."""
