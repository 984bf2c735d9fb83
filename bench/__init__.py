"""Benchmarks (`make bench`): speed numbers for playouts, solvers, the service, studies, agents."""
