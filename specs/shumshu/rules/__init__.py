"""The rules: state, actions, board, the sequence of play, one module per rules topic. The
`Game` dispatcher over them is `specs/shumshu/game.py`."""
