"""What crosses the boundary: wire records, actions as JSON, the JSON codec, narration, the
picture, what a side may observe."""
