"""Hash commitments to secret values.

A commitment binds a value to its label, the game, the committing seat and a
context (e.g. "seq 12 / combat 3"), so a commitment can be neither re-used in
another place nor copied by an opponent: copying a digest into your own file
under your own seat gives a commitment that no opening of yours can match.
The 32-byte random nonce hides low-entropy values (a Will Commit marker has
only two values: without the nonce a hash would reveal it at once).
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.errors import AuthError, InvalidInput
from pbem.formats import canonical
from pbem.formats.hashing import lhash

LABEL = "pbem/v1/commit"
NONCE_SIZE = 32

Rng = Callable[[int], bytes]


class CommitmentMismatch(AuthError):
    default_hint = "the opening does not match what was committed; keep both files as evidence"


@dataclass(frozen=True)
class Commitment:
    label: str
    seat: str
    context: str
    digest: bytes

    def to_wire(self) -> dict[str, Any]:
        return {"label": self.label, "seat": self.seat, "ctx": self.context, "digest": self.digest}

    @staticmethod
    def from_wire(m: Any) -> Commitment:
        m = canonical.expect_map(m, "commitment")
        d = canonical.get(m, "digest", bytes, "commitment")
        if len(d) != 32:
            raise InvalidInput("commitment digest must be 32 bytes")
        return Commitment(
            canonical.get(m, "label", str, "commitment"),
            canonical.get(m, "seat", str, "commitment"),
            canonical.get(m, "ctx", str, "commitment"),
            d,
        )


@dataclass(frozen=True)
class Opening:
    value: Any  # any canonical value
    nonce: bytes

    def to_wire(self) -> dict[str, Any]:
        return {"value": self.value, "nonce": self.nonce}

    @staticmethod
    def from_wire(m: Any) -> Opening:
        m = canonical.expect_map(m, "opening")
        if "value" not in m:
            raise InvalidInput("opening: missing value")
        return Opening(m["value"], canonical.get(m, "nonce", bytes, "opening"))


def digest(label: str, game: bytes, seat: str, context: str, value: Any, nonce: bytes) -> bytes:
    if len(nonce) != NONCE_SIZE:
        raise InvalidInput("commitment nonce must be 32 bytes")
    return lhash(LABEL, label, game, seat, context, canonical.encode(value), nonce)


def commit(
    label: str, game: bytes, seat: str, context: str, value: Any, rng: Rng | None = None
) -> tuple[Commitment, Opening]:
    nonce = (rng or os.urandom)(NONCE_SIZE)
    d = digest(label, game, seat, context, value, nonce)
    return Commitment(label, seat, context, d), Opening(value, nonce)


def check(c: Commitment, game: bytes, opening: Opening) -> None:
    """Raise CommitmentMismatch unless ``opening`` opens ``c`` in ``game``."""
    want = digest(c.label, game, c.seat, c.context, opening.value, opening.nonce)
    if not hmac.compare_digest(want, c.digest):
        raise CommitmentMismatch(
            f"opening of commitment '{c.label}' by {c.seat} ({c.context}) does not match its digest"
        )


def verify(c: Commitment, game: bytes, opening: Opening) -> bool:
    try:
        check(c, game, opening)
    except (CommitmentMismatch, InvalidInput):
        return False
    return True
