"""The rules: state, actions, board, the sequence of play, one module per rules topic, and
the `Game` dispatcher (`game.py`)."""
