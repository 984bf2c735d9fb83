"""The rules: state, actions, board, the sequence of play, one module per rules topic, and the
rules of play as one object (`play.py`), which the `Game` dispatcher (`../game.py`) extends."""
