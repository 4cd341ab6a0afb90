"""Merkle trees over dice seeds.

Each player commits, at genesis, the root of a tree whose leaves are its dice
seeds. A seed is released later with the sibling path to that root, so any
verifier can check it was fixed before play began; nobody can grind seeds
after seeing the opponents' commitments.
"""

from __future__ import annotations

from pbem.formats.hashing import lhash

LEAF = "pbem/v1/seed-leaf"
NODE = "pbem/v1/merkle-node"


def leaf_hash(game: bytes, seat: str, index: int, seed: bytes) -> bytes:
    return lhash(LEAF, game, seat, index, seed)


def node_hash(left: bytes, right: bytes) -> bytes:
    return lhash(NODE, left, right)


class Tree:
    """A full binary tree over a power-of-two number of leaves."""

    def __init__(self, leaves: list[bytes]) -> None:
        n = len(leaves)
        if n == 0 or n & (n - 1):
            raise ValueError("leaf count must be a power of two")
        self.levels: list[list[bytes]] = [list(leaves)]
        while len(self.levels[-1]) > 1:
            prev = self.levels[-1]
            self.levels.append([node_hash(prev[i], prev[i + 1]) for i in range(0, len(prev), 2)])

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
