"""The formal side: properties, the position check, the symbolic model and the verification link."""
