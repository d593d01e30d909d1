"""The session: the one owner of game state, rebuilt from the journal at start."""
