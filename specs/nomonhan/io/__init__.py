"""What crosses the boundary: wire records, the JSON codec (states in `codec.py`, actions in
`actions.py`), narration, the picture."""
