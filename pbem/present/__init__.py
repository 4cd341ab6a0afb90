"""What a player reads: the map renderer, turn summaries and the game history."""
