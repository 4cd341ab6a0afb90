"""Domain-separated hashing.

Every hash pbem computes has its own label ("pbem/v1/..."), and every input is
length-prefixed, so no two different (label, parts) tuples can produce the
same preimage: concatenation ambiguity is ruled out by construction.
"""

from __future__ import annotations

import hashlib
import struct


def _frame(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def as_bytes(part: bytes | str | int) -> bytes:
    if isinstance(part, bytes):
        return part
    if isinstance(part, str):
        return part.encode("utf-8")
    if isinstance(part, bool):
        raise TypeError("booleans are not hashed directly")
    return struct.pack(">q", part)


def lhash(label: str, *parts: bytes | str | int) -> bytes:
    """SHA-256 over the framed label followed by each framed part."""
    h = hashlib.sha256(_frame(label.encode("ascii")))
    for p in parts:
        h.update(_frame(as_bytes(p)))
    return h.digest()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def fingerprint(digest: bytes) -> str:
    """The `SHA256:<base64>` form players compare out of band (as OpenSSH prints)."""
    import base64

    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")
