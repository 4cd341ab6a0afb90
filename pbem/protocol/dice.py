"""Fair dice with no dice server.

Every player fixes, before play, a Merkle root over its seeds (pbem.crypto.merkle).
Roll number ``k`` of roller ``R`` takes one seed from every player: the slot
``k * len(seats) + index(R)`` of each player's tree. The roll's key is

    K = H("pbem/v1/dice", game, R, k, seed_1, ..., seed_n)   (seeds in seat order)

and dice values come from the stream ``H("pbem/v1/dice-stream", K, j)`` by
rejection sampling of 64-bit words, so a d6 is exactly uniform (no modulo bias).

Why it is fair: every seed is fixed before any seed of its tree is released
(committed by the roots: the genesis roots are countersigned by everyone first,
and a later epoch's roots are all in signed files of the chain before a seed of
that epoch goes out; pbem.protocol.dicefiles), so no player can choose its input
after seeing another's. As long as one player's seed is
uniformly random and unknown to the others when they fix theirs, ``K`` is
uniform. Why the roller cannot re-roll: ``k`` is the next unused index, fixed
by the file chain; re-running the tool or editing the folder yields the same
seeds and therefore the same numbers.

The roller's own seed for a slot is known only to the roller until it is
released, so a *secret* roll stays secret while the opponents' seeds for that
slot are already public. The honest limit (docs/protocol.md): the roller can
compute its own next rolls before deciding how to act. Strict mode closes this
at the cost of an email: the opponent releases its seed for the slot only
after the action that consumes the roll is fixed in a signed file.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass
from pathlib import Path

from pbem.crypto import merkle
from pbem.errors import AuthError, InvalidInput
from pbem.formats.hashing import lhash

DICE = "pbem/v1/dice"
STREAM = "pbem/v1/dice-stream"
SEED = "pbem/v1/seed"
EPOCH = "pbem/v1/seed-epoch"
MAX_SIDES = 1 << 32


class BadSeed(AuthError):
    default_hint = "a released seed does not match its player's committed seed root; keep the file as evidence"


def derive_seed(master: bytes, index: int) -> bytes:
    """Seeds come from one 32-byte master secret so a player stores 32 bytes, not thousands."""
    return hmac.digest(master, SEED.encode() + struct.pack(">Q", index), "sha256")


def slot_index(roller_index: int, k: int, nseats: int) -> int:
    return k * nseats + roller_index


# --- dice epochs: one seed tree after another (docs/protocol.md §11, "Epochs") -----------------
# A tree of 2^depth leaves holds ``per_epoch`` rolls of every roller. Roll k falls in epoch
# k // per_epoch, at the slot its rank in that epoch gives in that epoch's tree: epoch 0 is the
# genesis tree with today's slots, so a game that never leaves it is unchanged.


def per_epoch(depth: int, nseats: int) -> int:
    """How many rolls of each roller one tree holds."""
    return max(1, (1 << depth) // nseats)


def locate(roller_index: int, k: int, nseats: int, depth: int) -> tuple[int, int]:
    """Roll ``k`` of a roller: (its epoch, its slot in that epoch's trees)."""
    epoch, rank = divmod(k, per_epoch(depth, nseats))
    return epoch, slot_index(roller_index, rank, nseats)


def epoch_master(master: bytes, epoch: int) -> bytes:
    """The master secret of a seat's tree of ``epoch`` (0: the genesis tree's own).

    Derived from the one 32-byte master the genesis escrow seals and the reveal
    publishes, so a lost folder is rebuilt and the audit checks every tree from it;
    a later tree's seeds are as secret as the master until its seeds are released.
    """
    if epoch == 0:
        return master
    return hmac.digest(master, EPOCH.encode() + struct.pack(">Q", epoch), "sha256")


# Each seed tree built in this process, by (master, game, seat, depth): a pure function of them
# that hashes every seed of the game (4,096 at the usual depth), asked for several times by one
# `play` (the lookahead, the rules' rolls, the releases) and by every file of an audit or a soak
# (issue 11). A few games' seats are kept; the oldest goes first.
_TREES: dict[tuple[bytes, bytes, str, int], merkle.Tree] = {}
_TREES_KEPT = 16


# --- seed trees kept in the home's cache folder -------------------------------------------------
# Building a tree is ~40 ms of every `play` that releases seeds. Its nodes are hashes of the
# seeds (each leaf a domain-separated SHA-256 over 32 secret random bytes), as public as the
# proofs that already publish them: a kept tree tells nothing of an unreleased seed. The file
# is named by a hash of the master secret, the game, the seat and the depth, and holds a
# SHA-256 of its body: a file that does not check out is built again and replaced.
_TREE_MAGIC = b"pbem-seed-tree/1\n"
_TREE_FILES_KEPT = 32  # a player's games' seats (~256 KB each at depth 12); the oldest go first


def _tree_path(key: tuple[bytes, bytes, str, int]) -> Path | None:
    from pbem.store import paths

    folder = paths.cache_dir()
    if folder is None:
        return None
    master, game, seat, depth = key
    name = hmac.digest(master, b"pbem/v1/seed-tree-cache" + game + seat.encode() + bytes([depth]), "sha256")
    return folder / f"seed-tree-{name.hex()[:32]}.bin"


def _tree_load(key: tuple[bytes, bytes, str, int]) -> merkle.Tree | None:
    path = _tree_path(key)
    if path is None:
        return None
    depth = key[3]
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_TREE_MAGIC) + 32
    body = data[head:]
    if (not data.startswith(_TREE_MAGIC) or hashlib.sha256(body).digest() != data[len(_TREE_MAGIC):head]
            or len(body) != ((2 << depth) - 1) * 32):
        return None
    levels, at = [], 0
    for k in range(depth, -1, -1):
        n = 1 << k
        levels.append([body[at + 32 * i:at + 32 * i + 32] for i in range(n)])
        at += 32 * n
    return merkle.Tree.from_levels(levels)


def _tree_save(key: tuple[bytes, bytes, str, int], tree: merkle.Tree) -> None:
    path = _tree_path(key)
    if path is None:
        return
    from pbem.store.fsutil import atomic_write

    body = b"".join(b"".join(level) for level in tree.levels)
    try:
        atomic_write(path, _TREE_MAGIC + hashlib.sha256(body).digest() + body, durable=False)
        kept = sorted(path.parent.glob("seed-tree-*.bin"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[_TREE_FILES_KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


class SeedTree:
    """One player's seed tree for one game (held only by that player)."""

    def __init__(self, master: bytes, game: bytes, seat: str, depth: int) -> None:
        self.master = master
        self.game = game
        self.seat = seat
        self.depth = depth
        self._tree: merkle.Tree | None = None

    def seed(self, index: int) -> bytes:
        if not 0 <= index < (1 << self.depth):
            raise InvalidInput(f"seed index {index} is outside the committed tree")
        return derive_seed(self.master, index)

    @property
    def tree(self) -> merkle.Tree:
        if self._tree is None:
            key = (self.master, self.game, self.seat, self.depth)
            tree = _TREES.get(key)
            if tree is None:
                tree = _tree_load(key)
                if tree is None:
                    seeds = [derive_seed(self.master, i) for i in range(1 << self.depth)]
                    tree = merkle.Tree(merkle.leaf_hashes(self.game, self.seat, seeds))
                    _tree_save(key, tree)
                while len(_TREES) >= _TREES_KEPT:
                    del _TREES[next(iter(_TREES))]
                _TREES[key] = tree
            self._tree = tree
        return self._tree

    @property
    def root(self) -> bytes:
        return self.tree.root

    def for_epoch(self, epoch: int) -> SeedTree:
        """This seat's tree of dice epoch ``epoch`` (this tree is epoch 0's)."""
        if epoch == 0:
            return self
        return SeedTree(epoch_master(self.master, epoch), self.game, self.seat, self.depth)

    def release(self, index: int) -> SeedRelease:
        return SeedRelease(self.seat, index, self.seed(index), self.tree.proof(index))


@dataclass(frozen=True)
class SeedRelease:
    seat: str
    index: int
    seed: bytes
    proof: list[bytes]

    def check(self, game: bytes, root: bytes, depth: int) -> None:
        if len(self.seed) != 32:
            raise BadSeed(f"seed {self.index} of {self.seat} is not 32 bytes")
        leaf = merkle.leaf_hash(game, self.seat, self.index, self.seed)
        if not merkle.verify(root, leaf, self.index, self.proof, depth):
            raise BadSeed(f"seed {self.index} of {self.seat} does not match the committed root")

    def to_wire(self) -> list[object]:
        return [self.seat, self.index, self.seed, list(self.proof)]

    @staticmethod
    def from_wire(w: object) -> SeedRelease:
        if (
            not isinstance(w, list) or len(w) != 4 or not isinstance(w[0], str)
            or not isinstance(w[1], int) or isinstance(w[1], bool)
            or not isinstance(w[2], bytes) or not isinstance(w[3], list)
            or not all(isinstance(p, bytes) and len(p) == 32 for p in w[3])
        ):
            raise InvalidInput("malformed seed release")
        return SeedRelease(w[0], w[1], w[2], list(w[3]))


def roll_key(game: bytes, roller: str, k: int, seeds_in_seat_order: list[bytes]) -> bytes:
    return lhash(DICE, game, roller, k, *seeds_in_seat_order)


class DieStream:
    """Uniform integers from a roll key by rejection sampling."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self._block = 0
        self._buf = b""

    def _word(self) -> int:
        if len(self._buf) < 8:
            self._buf += lhash(STREAM, self.key, self._block)
            self._block += 1
        w, self._buf = self._buf[:8], self._buf[8:]
        return int.from_bytes(w, "big")

    def uniform(self, sides: int) -> int:
        """An integer in 1..sides, exactly uniform."""
        if not 2 <= sides <= MAX_SIDES:
            raise InvalidInput(f"a die must have 2 to {MAX_SIDES} sides, not {sides}")
        # Accept only words below the largest multiple of `sides`, so every
        # face has exactly the same number of preimages.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            w = self._word()
            if w < limit:
                return w % sides + 1


def roll(game: bytes, roller: str, k: int, seeds_in_seat_order: list[bytes],
         sides: int, count: int = 1) -> list[int]:
    s = DieStream(roll_key(game, roller, k, seeds_in_seat_order))
    return [s.uniform(sides) for _ in range(count)]
