"""Every damaged copy of a valid turn file is refused with a typed error, and nothing on disk changes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import start_duel

from pbem.errors import PbemError
from pbem.play import game
from pbem.store import gamestore as store
from pbem.store.fsutil import snapshot

FLIPS = 1000
TRUNCATIONS = 100


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, bytes, Path]:
    tmp = tmp_path_factory.mktemp("tamper")
    red, blue, gid = start_duel(tmp)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\nseal 1\nsecret\n")
    return blue, f.raw, tmp / "blue"


def _refused(blue: object, data: bytes) -> PbemError:
    try:
        game.receive(blue.session, data)  # type: ignore[attr-defined]
    except PbemError as e:
        return e
    raise AssertionError("a damaged file was accepted")


def test_single_byte_flips(setup: tuple[object, bytes, Path]) -> None:
    blue, good, home = setup
    before = snapshot(home)
    rnd = random.Random(1234)
    kinds: dict[str, int] = {}
    for _ in range(FLIPS):
        i = rnd.randrange(len(good))
        bad = bytearray(good)
        bad[i] ^= 1 << rnd.randrange(8)
        e = _refused(blue, bytes(bad))
        kinds[type(e).__name__] = kinds.get(type(e).__name__, 0) + 1
    assert snapshot(home) == before
    assert sum(kinds.values()) == FLIPS
    # the file is still accepted afterwards: nothing was half-applied
    assert game.receive(blue.session, good).status == "added"  # type: ignore[attr-defined]


def test_truncations(setup: tuple[object, bytes, Path]) -> None:
    blue, good, home = setup
    before = snapshot(home)
    rnd = random.Random(99)
    cuts = [*sorted(rnd.sample(range(len(good)), TRUNCATIONS - 1)), 0]
    for n in cuts:
        _refused(blue, good[:n])
    assert snapshot(home) == before
