"""The toy's rules: state, actions, and the `Game` dispatcher (`game.py`)."""
