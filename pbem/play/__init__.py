"""Games as a player runs them.

Derive a game from its files, receive, play, end, reveal, audit, archives
and proof bundles.
"""
