"""Merkle trees over dice seeds.

Each player commits, at genesis, the root of a tree whose leaves are its dice
seeds. A seed is released later with the sibling path to that root, so any
verifier can check it was fixed before play began; nobody can grind seeds
after seeing the opponents' commitments.
"""

from __future__ import annotations

import hashlib
import struct

from pbem.formats.hashing import lhash

LEAF = "pbem/v1/seed-leaf"
NODE = "pbem/v1/merkle-node"


def leaf_hash(game: bytes, seat: str, index: int, seed: bytes) -> bytes:
    return lhash(LEAF, game, seat, index, seed)


def node_hash(left: bytes, right: bytes) -> bytes:
    return lhash(NODE, left, right)


def leaf_hashes(game: bytes, seat: str, seeds: list[bytes]) -> list[bytes]:
    """``[leaf_hash(game, seat, i, seed) for i, seed in enumerate(seeds)]``, with the common prefix hashed once.

    A seat's tree has thousands of leaves, built at its first roll of a sitting: the
    label, game and seat frames are the same for each, so their hash state is copied
    rather than recomputed (tests/test_commit_dice.py checks it against ``leaf_hash``).
    """
    seat_b = seat.encode("utf-8")
    base = hashlib.sha256()
    for part in (LEAF.encode("ascii"), game, seat_b):
        base.update(struct.pack(">I", len(part)) + part)
    out = []
    pack = struct.Struct(">Iq").pack
    for i, seed in enumerate(seeds):
        h = base.copy()
        h.update(pack(8, i) + struct.pack(">I", len(seed)) + seed)
        out.append(h.digest())
    return out


def _level_up(prev: list[bytes]) -> list[bytes]:
    """The parents of one level: ``node_hash`` of each pair, the label's hash state copied."""
    label = NODE.encode("ascii")
    base = hashlib.sha256(struct.pack(">I", len(label)) + label)
    out = []
    for i in range(0, len(prev), 2):
        left, right = prev[i], prev[i + 1]
        h = base.copy()
        h.update(struct.pack(">I", len(left)) + left + struct.pack(">I", len(right)) + right)
        out.append(h.digest())
    return out


class Tree:
    """A full binary tree over a power-of-two number of leaves."""

    def __init__(self, leaves: list[bytes]) -> None:
        n = len(leaves)
        if n == 0 or n & (n - 1):
            raise ValueError("leaf count must be a power of two")
        self.levels: list[list[bytes]] = [list(leaves)]
        while len(self.levels[-1]) > 1:
            prev = self.levels[-1]
            self.levels.append(_level_up(prev))

    @classmethod
    def from_levels(cls, levels: list[list[bytes]]) -> Tree:
        """A tree whose every level is already known (kept on disk by pbem.protocol.dice)."""
        tree = cls.__new__(cls)
        tree.levels = levels
        return tree

    @property
    def root(self) -> bytes:
        return self.levels[-1][0]

    def proof(self, index: int) -> list[bytes]:
        path = []
        for level in self.levels[:-1]:
            path.append(level[index ^ 1])
            index >>= 1
        return path


def root_from_proof(leaf: bytes, index: int, proof: list[bytes]) -> bytes:
    h = leaf
    for sibling in proof:
        h = node_hash(sibling, h) if index & 1 else node_hash(h, sibling)
        index >>= 1
    return h


def verify(root: bytes, leaf: bytes, index: int, proof: list[bytes], depth: int) -> bool:
    if len(proof) != depth or index < 0 or index >= (1 << depth):
        return False
    return root_from_proof(leaf, index, proof) == root
