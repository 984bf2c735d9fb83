"""Z3 machinery: combat-assignment, retreat and stacking encodings, the prover and the explorer.

Solvers never import specs: a spec builds a plain problem description and hands it over.
"""
