"""Commitments bind; dice are deterministic, uniform and need every player's seed."""

from __future__ import annotations

import hashlib
import hmac
import math
from pathlib import Path

import pytest
from helpers import DetRng

from pbem.crypto import merkle
from pbem.errors import InvalidInput
from pbem.protocol import commit, dice

GAME = bytes(range(16))


def test_commit_open_round_trip() -> None:
    c, o = commit.commit("will-commit", GAME, "axis", "12:combat 3", True, DetRng("c"))
    commit.check(c, GAME, o)


@pytest.mark.parametrize("change", ["value", "nonce", "seat", "context", "label", "game"])
def test_commitment_is_binding(change: str) -> None:
    c, o = commit.commit("will-commit", GAME, "axis", "12:combat 3", True, DetRng("c"))
    if change == "value":
        o = commit.Opening(False, o.nonce)
    elif change == "nonce":
        o = commit.Opening(o.value, bytes(32))
    elif change == "seat":
        c = commit.Commitment(c.label, "western", c.context, c.digest)
    elif change == "context":
        c = commit.Commitment(c.label, c.seat, "12:combat 4", c.digest)
    elif change == "label":
        c = commit.Commitment("bid", c.seat, c.context, c.digest)
    game = bytes(16) if change == "game" else GAME
    assert not commit.verify(c, game, o)
    with pytest.raises(commit.CommitmentMismatch):
        commit.check(c, game, o)


def test_low_entropy_value_hidden_by_nonce() -> None:
    a, _ = commit.commit("will-commit", GAME, "axis", "x", True, DetRng("1"))
    b, _ = commit.commit("will-commit", GAME, "axis", "x", True, DetRng("2"))
    assert a.digest != b.digest


def test_merkle_proofs() -> None:
    t = dice.SeedTree(b"m" * 32, GAME, "axis", 6)
    for i in (0, 1, 17, 63):
        r = t.release(i)
        r.check(GAME, t.root, 6)
        with pytest.raises(dice.BadSeed):
            dice.SeedRelease(r.seat, r.index, bytes(32), r.proof).check(GAME, t.root, 6)
        with pytest.raises(dice.BadSeed):
            dice.SeedRelease("western", r.index, r.seed, r.proof).check(GAME, t.root, 6)
    assert not merkle.verify(t.root, b"x" * 32, 0, t.release(0).proof, 6)


def test_rolls_are_deterministic() -> None:
    seeds = [b"a" * 32, b"b" * 32]
    assert dice.roll(GAME, "axis", 5, seeds, 6, 10) == dice.roll(GAME, "axis", 5, seeds, 6, 10)
    assert dice.roll(GAME, "axis", 5, seeds, 6, 10) != dice.roll(GAME, "axis", 6, seeds, 6, 10)


def test_no_single_player_decides() -> None:
    """Fixing one player's seed and varying the other's changes the roll, both ways round."""
    fixed = b"f" * 32
    for pos in (0, 1):
        outcomes = set()
        for i in range(200):
            other = hashlib.sha256(i.to_bytes(4, "big")).digest()
            seeds = [fixed, other] if pos == 0 else [other, fixed]
            outcomes.add(dice.roll(GAME, "axis", 0, seeds, 6)[0])
        assert outcomes == {1, 2, 3, 4, 5, 6}


def test_chi_square_60000_rolls() -> None:
    counts = [0] * 6
    stream = dice.DieStream(b"k" * 32)
    for _ in range(60_000):
        counts[stream.uniform(6) - 1] += 1
    expected = 10_000
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    # 5 degrees of freedom: the 99.9th percentile is 20.52
    assert chi2 < 20.52, (counts, chi2)


def test_chi_square_over_roll_keys() -> None:
    """Every roll taken from a different slot, as in play."""
    counts = [0] * 6
    seeds = [b"a" * 32, b"b" * 32]
    for k in range(60_000):
        counts[dice.roll(GAME, "axis", k, seeds, 6)[0] - 1] += 1
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.52, (counts, chi2)


def test_rejection_sampling_bounds() -> None:
    s = dice.DieStream(b"z" * 32)
    vals = [s.uniform(3) for _ in range(3000)]
    assert set(vals) == {1, 2, 3}
    with pytest.raises(InvalidInput):
        s.uniform(1)
    assert math.isfinite(sum(vals))


def test_fast_tree_building_gives_the_plain_definitions_hashes() -> None:
    """merkle.leaf_hashes and the level builder copy a hash state: same bytes as lhash."""
    from pbem.crypto import merkle

    seeds = [bytes([i]) * 32 for i in range(8)]
    leaves = merkle.leaf_hashes(b"game-id", "Axis \u00e9", seeds)
    assert leaves == [merkle.leaf_hash(b"game-id", "Axis \u00e9", i, s) for i, s in enumerate(seeds)]
    tree = merkle.Tree(leaves)
    level = leaves
    while len(level) > 1:
        level = [merkle.node_hash(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    assert tree.root == level[0]
    assert dice.derive_seed(b"m" * 32, 5) == hmac.new(b"m" * 32, b"pbem/v1/seed" + (5).to_bytes(8, "big"),
                                                      hashlib.sha256).digest()


def test_seed_tree_kept_on_disk_is_the_same_tree(tmp_path: Path) -> None:
    """The home's cache keeps each seat's tree; a damaged file is built again, never trusted."""
    from pbem.store import paths

    paths.use_cache_dir(tmp_path)
    try:
        dice._TREES.clear()
        built = dice.SeedTree(b"k" * 32, b"game", "axis", 4)
        root, proof = built.root, built.release(5).proof
        files = list(tmp_path.glob("seed-tree-*.bin"))
        assert len(files) == 1 and b"k" * 32 not in files[0].read_bytes()
        dice._TREES.clear()
        again = dice.SeedTree(b"k" * 32, b"game", "axis", 4)
        assert again.root == root and again.release(5).proof == proof
        data = bytearray(files[0].read_bytes())
        data[-1] ^= 1
        files[0].write_bytes(bytes(data))
        dice._TREES.clear()
        assert dice.SeedTree(b"k" * 32, b"game", "axis", 4).root == root
        dice._TREES.clear()
        assert dice.SeedTree(b"j" * 32, b"game", "axis", 4).root != root  # another master, another file
        assert len(list(tmp_path.glob("seed-tree-*.bin"))) == 2
    finally:
        paths.use_cache_dir(None)
        dice._TREES.clear()
