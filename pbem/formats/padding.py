"""Length hiding: every age part pbem writes holds a padded plaintext.

An age ciphertext is as long as its plaintext plus a fixed overhead, so
without padding the size of a part tells its contents to anyone who sees the
file: the opponent (``pbem inspect``) and every mail server on the way. A
sealed Will Commit with an air unit was 16 bytes longer than one without.

Frame (docs/protocol.md §7)::

    uint32 big-endian n  ||  n bytes of content  ||  zero bytes

whose total length is a *bucket*: a power of two from ``MIN_BUCKET`` (1 KiB)
to ``MAX_BUCKET`` (4 MiB). Powers of two, rather than finer steps, because a
secret moves a part's length by a few bytes: the wider the bucket, the rarer
a secret pushes a part across a boundary, and doubling keeps the number of
distinct sizes (the most any size can tell) to 13. The cost is at most one
doubling of each part, a few KiB per turn file, small beside the map image
each mail carries. The 1 KiB floor holds every private part pbem writes today
(USE private parts are under 300 bytes), so those all look alike.

The decoder accepts exactly one reading of a frame: a total that is a bucket,
a length that fits, and padding that is all zero. A frame padded to a larger
bucket than its content needs is valid, which is how every private part of a
file gets the bucket of the largest.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import AuthError, LimitExceeded

PREFIX = 4
MIN_BUCKET = 1024
# The largest bucket stays under turnfile.MAX_PART (8 MiB) with age's overhead.
MAX_BUCKET = 4 * 1024 * 1024


class BadPadding(AuthError):
    """A decrypted part whose frame is not the one every conforming pbem writes."""

    default_hint = "the part was not padded by a conforming pbem; keep the file as evidence and ask its author"


def bucket(size: int) -> int:
    """The smallest bucket that holds ``size`` bytes of content and the length prefix."""
    need = size + PREFIX
    if need > MAX_BUCKET:
        raise LimitExceeded(f"an encrypted part of {size} bytes is larger than pbem writes ({MAX_BUCKET - PREFIX})",
                            hint="the game state has grown beyond pbem's limits; report this as a bug")
    b = MIN_BUCKET
    while b < need:
        b *= 2
    return b


def is_bucket(total: int) -> bool:
    return MIN_BUCKET <= total <= MAX_BUCKET and total & (total - 1) == 0


def pad(content: bytes, *, to: int | None = None) -> bytes:
    """Frame ``content`` into its bucket, or into the bucket ``to`` (at least as large)."""
    total = bucket(len(content)) if to is None else to
    if not is_bucket(total) or total < bucket(len(content)):
        raise ValueError(f"{to} is not a bucket that holds {len(content)} bytes")
    return len(content).to_bytes(PREFIX, "big") + content + bytes(total - PREFIX - len(content))


def pad_all(contents: Mapping[str, bytes]) -> dict[str, bytes]:
    """Frame every content into the bucket of the largest, so that all come out the same length."""
    total = bucket(max((len(c) for c in contents.values()), default=0))
    return {k: pad(c, to=total) for k, c in contents.items()}


def unpad(frame: bytes, what: str) -> bytes:
    """The content of a frame; refuses any frame a conforming pbem would not write."""
    if not is_bucket(len(frame)):
        raise BadPadding(f"{what} is {len(frame)} bytes long once decrypted, which is not a padding bucket")
    n = int.from_bytes(frame[:PREFIX], "big")
    if n > len(frame) - PREFIX:
        raise BadPadding(f"{what} claims {n} bytes of content in a {len(frame)}-byte frame")
    if frame[PREFIX + n:] != bytes(len(frame) - PREFIX - n):
        raise BadPadding(f"{what} has non-zero bytes in its padding")
    return frame[PREFIX:PREFIX + n]
