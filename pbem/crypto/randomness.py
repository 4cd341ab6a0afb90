"""Where pbem's randomness comes from: the OS, unless a demo asks for a fixed seed.

``PBEM_INSECURE_SEED`` makes every random byte (keys, game ids, nonces, dice
seeds) a SHA-256 counter stream over the seed and a label (the home folder's
name), so `make demo` plays the same game, with the same dice, every time.
It is announced on stderr at every use: a game played with it has no secrets.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable

Rng = Callable[[int], bytes]


class SeededRng:
    def __init__(self, seed: str, label: str) -> None:
        self.key = hashlib.sha256(f"pbem/insecure-seed\0{seed}\0{label}".encode()).digest()
        self.n = 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(self.key + self.n.to_bytes(8, "big")).digest()
            self.n += 1
        return out[:size]


def for_home(label: str) -> Rng:
    seed = os.environ.get("PBEM_INSECURE_SEED")
    if not seed:
        return os.urandom
    sys.stderr.write("pbem: warning: PBEM_INSECURE_SEED is set: randomness is predictable (demos and tests only)\n")
    return SeededRng(seed, label)
