"""The home on disk.

Where things live, atomic private writes, the per-game folder of files.
"""
