"""The formal side: properties, the position check, the data's facts (`facts.py`), the symbolic
model and the verification link."""
