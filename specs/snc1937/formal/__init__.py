"""The formal side: properties, the position check, the facts the text states about the data,
the symbolic model and the verification link."""
