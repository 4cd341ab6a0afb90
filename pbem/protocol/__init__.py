"""The protocol.

Identities and cards, the signed file envelope and the schemas of its
parts, genesis, dice, commitments, the rules context and the engine's own
files. Pure functions over bytes: no disk, no mail.
"""
