"""The rules: state, actions, board, the sequence of play, one module per rules topic, and
the rules of play over them (`play.py`; the `Game` dispatcher is `specs/snc1937/game.py`)."""
