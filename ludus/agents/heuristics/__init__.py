"""Game-specific heuristic agents, one module per game."""
