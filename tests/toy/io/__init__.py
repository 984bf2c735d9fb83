"""What crosses the boundary: the toy's wire records and its JSON codec."""
