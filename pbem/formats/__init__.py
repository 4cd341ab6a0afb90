"""Byte formats every layer shares.

Canonical msgpack, labelled hashes, length padding and the name grammar.
No I/O and no keys.
"""
