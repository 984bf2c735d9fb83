"""The toy's position check. It has no properties and no symbolic model (no verification
link: the package's `formal` is None)."""
