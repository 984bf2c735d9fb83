"""The rules: state, actions, board, the sequence of play, one module per rules topic
(`rules_object.py`: what the roles read of the rules object). The `Game` dispatcher stands above
the parts (`specs/nomonhan/game.py`)."""
