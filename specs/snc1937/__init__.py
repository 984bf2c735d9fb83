"""Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329): components and section 13 set-up.

So far this package holds the game's data (`data/`, read by `data.py`), the map lookups over it
(`board.py`) and the text's facts about it (`facts.py`); see DATA.md for what is given and what
is provisional.
"""
