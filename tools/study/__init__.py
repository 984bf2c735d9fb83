"""`wargame study GAME`: many seeded games between agents, played in parallel on a process pool
or on Ray, stored as they come (resumable), summarised with confidence intervals."""
