"""The age v1 payload: STREAM over ChaCha20-Poly1305 in 64 KiB chunks.

Each chunk's 12-byte nonce is an 11-byte big-endian counter followed by a
flag byte that is 1 only on the final chunk. The counter stops reordering and
dropping chunks; the final flag stops truncation at a chunk boundary (a
non-final chunk at end of input means the file was cut short) and extension
(nothing may follow the final chunk).
"""

from __future__ import annotations

from collections.abc import Iterator

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ._errors import PayloadError

CHUNK_SIZE = 64 * 1024
_TAG_SIZE = 16
_ENC_CHUNK_SIZE = CHUNK_SIZE + _TAG_SIZE
_COUNTER_LIMIT = 1 << 88  # 11-byte counter; reusing a nonce would be fatal


def payload_key(file_key: bytes, nonce: bytes) -> bytes:
    # The per-file random nonce goes into the key derivation, so the payload
    # key is fresh even if a file key were ever reused, and the fixed
    # counter-based chunk nonces never repeat under one key.
    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=nonce, info=b"payload"
    ).derive(file_key)


def _chunk_nonce(counter: int, last: bool) -> bytes:
    if counter >= _COUNTER_LIMIT:
        raise PayloadError("the payload has too many chunks")
    return counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00")


def encrypt_payload(key: bytes, plaintext: bytes) -> bytes:
    aead = ChaCha20Poly1305(key)
    out = bytearray()
    # An empty plaintext is one empty final chunk; otherwise no chunk is empty,
    # so a plaintext of exactly N*64 KiB ends with a full final chunk.
    count = max(1, -(-len(plaintext) // CHUNK_SIZE))
    for i in range(count):
        chunk = plaintext[i * CHUNK_SIZE : (i + 1) * CHUNK_SIZE]
        out += aead.encrypt(_chunk_nonce(i, i == count - 1), chunk, None)
    return bytes(out)


def iter_decrypt_payload(key: bytes, ciphertext: bytes) -> Iterator[bytes]:
    """Yield authenticated plaintext chunks, raising :class:`PayloadError` on
    the first bad, missing or extra chunk.

    Chunks already yielded are authentic; a caller that needs all-or-nothing
    semantics (like :func:`pbem.crypto.age.decrypt`) must drain the iterator first.
    """
    aead = ChaCha20Poly1305(key)
    pos = 0
    counter = 0
    while True:
        chunk = ciphertext[pos : pos + _ENC_CHUNK_SIZE]
        pos += len(chunk)
        if not chunk:
            raise PayloadError("the payload is truncated: the final chunk is missing")
        if len(chunk) < _TAG_SIZE:
            raise PayloadError(
                "the payload is truncated: a chunk is shorter than its tag"
            )
        last = len(chunk) < _ENC_CHUNK_SIZE
        try:
            plain = aead.decrypt(_chunk_nonce(counter, last), chunk, None)
        except InvalidTag:
            if last:
                raise PayloadError(
                    f"payload chunk {counter} failed to authenticate"
                ) from None
            # A full-size chunk may legitimately be the final one; only the
            # flag in the nonce tells, so try the other flag before failing.
            last = True
            try:
                plain = aead.decrypt(_chunk_nonce(counter, True), chunk, None)
            except InvalidTag:
                raise PayloadError(
                    f"payload chunk {counter} failed to authenticate"
                ) from None
        if last and not plain and counter > 0:
            # Only an entirely empty payload has an empty final chunk; allowing
            # one elsewhere would give two encodings of the same plaintext.
            raise PayloadError("the final payload chunk is empty")
        yield plain
        if last:
            if pos != len(ciphertext):
                raise PayloadError(
                    "trailing data after the end of the encrypted payload"
                )
            return
        counter += 1


def decrypt_payload(key: bytes, ciphertext: bytes) -> bytes:
    return b"".join(iter_decrypt_payload(key, ciphertext))
