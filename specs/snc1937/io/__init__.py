"""What crosses the boundary: wire records, the JSON codec, narration, the picture, what a side
may observe."""
