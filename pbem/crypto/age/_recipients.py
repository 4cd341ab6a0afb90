"""The native X25519 and scrypt recipient types (wrapping the file key).

Each identity's ``unwrap`` returns the file key, returns ``None`` when no
stanza is for it, or raises :class:`HeaderError` when a stanza of its own type
is malformed. The spec makes those hard failures rather than "no match": a
malformed stanza of a known type means a broken or hostile sender, and
skipping it would hide that (and accept files other implementations reject).
"""

from __future__ import annotations

import hmac as _hmac
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey,
    X25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from . import _bech32
from ._errors import HeaderError, KeyFormatError
from ._format import FILE_KEY_SIZE, Stanza, b64decode_raw, b64encode_raw

Rng = Callable[[int], bytes]

IDENTITY_HRP = "age-secret-key-"
RECIPIENT_HRP = "age"
_PQ_IDENTITY_HRP = "age-secret-key-pq-"
_PQ_RECIPIENT_HRPS = ("age1pq", "age1tag", "age1tagpq")

X25519_LABEL = b"age-encryption.org/v1/X25519"
SCRYPT_LABEL = b"age-encryption.org/v1/scrypt"
# The wrap keys below are single-use (fresh ephemeral share or fresh salt per
# stanza), so a fixed all-zero AEAD nonce is safe, as the spec prescribes.
_ZERO_NONCE = bytes(12)
_WRAPPED_KEY_SIZE = FILE_KEY_SIZE + 16
_WORK_FACTOR_RE = re.compile(r"[1-9][0-9]*")
# Beyond this a single derivation takes hours and terabytes; no honest
# sender uses it, and accepting it would let a file exhaust the reader.
MAX_WORK_FACTOR_LIMIT = 40


def random_bytes(rng: Rng, n: int) -> bytes:
    out = rng(n)
    if not isinstance(out, bytes) or len(out) != n:
        raise HeaderError(f"the random source did not return {n} bytes")
    return out


class Recipient(Protocol):
    def wrap(self, file_key: bytes, rng: Rng) -> Stanza: ...


class Identity(Protocol):
    def unwrap(self, stanzas: Sequence[Stanza]) -> bytes | None: ...


def _wrap_key(key: bytes, file_key: bytes) -> bytes:
    return ChaCha20Poly1305(key).encrypt(_ZERO_NONCE, file_key, None)


def _unwrap_key(key: bytes, body: bytes) -> bytes | None:
    try:
        return ChaCha20Poly1305(key).decrypt(_ZERO_NONCE, body, None)
    except InvalidTag:
        return None


# --- X25519 ---------------------------------------------------------------


def _x25519_wrap_key(shared: bytes, share: bytes, recipient: bytes) -> bytes:
    # Binding both public values into the salt ties the wrap key to this
    # exact exchange, so a stanza cannot be replayed against another key.
    hkdf = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=share + recipient, info=X25519_LABEL
    )
    return hkdf.derive(shared)


def _exchange(private: X25519PrivateKey, public: bytes) -> bytes | None:
    """X25519, or ``None`` when the result is the all-zero value."""
    try:
        shared = private.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        # OpenSSL refuses low-order points, whose shared secret is all zero.
        return None
    # A low-order point yields an all-zero secret that anyone can compute;
    # the spec requires aborting rather than deriving a key from it.
    if _hmac.compare_digest(shared, bytes(32)):
        return None
    return shared


class X25519Recipient:
    def __init__(self, public: bytes) -> None:
        if len(public) != 32:
            raise KeyFormatError("an X25519 recipient must encode 32 bytes")
        self.public = public

    @classmethod
    def parse(cls, text: str) -> X25519Recipient:
        hrp, data = _bech32.decode(text.strip())
        if hrp in _PQ_RECIPIENT_HRPS:
            raise KeyFormatError(
                f"{hrp} recipients (post-quantum or hardware keys) are not supported"
            )
        if hrp != RECIPIENT_HRP:
            raise KeyFormatError(
                f"not an age recipient: it starts with '{hrp}1' instead of 'age1'"
            )
        return cls(data)

    def encode(self) -> str:
        return _bech32.encode(RECIPIENT_HRP, self.public)

    def wrap(self, file_key: bytes, rng: Rng) -> Stanza:
        ephemeral = X25519PrivateKey.from_private_bytes(random_bytes(rng, 32))
        share = ephemeral.public_key().public_bytes_raw()
        shared = _exchange(ephemeral, self.public)
        if shared is None:
            raise KeyFormatError(
                "the recipient is a low-order X25519 point, not a real public key"
            )
        body = _wrap_key(_x25519_wrap_key(shared, share, self.public), file_key)
        return Stanza(("X25519", b64encode_raw(share).decode("ascii")), body)


class X25519Identity:
    def __init__(self, secret: bytes) -> None:
        if len(secret) != 32:
            raise KeyFormatError("an X25519 identity must encode 32 bytes")
        self.secret = secret
        self._key = X25519PrivateKey.from_private_bytes(secret)
        self.public = self._key.public_key().public_bytes_raw()

    @classmethod
    def parse(cls, text: str) -> X25519Identity:
        hrp, data = _bech32.decode(text.strip())
        if hrp == _PQ_IDENTITY_HRP:
            raise KeyFormatError(
                "post-quantum (AGE-SECRET-KEY-PQ-1...) identities are not supported"
            )
        if hrp != IDENTITY_HRP:
            raise KeyFormatError(
                "not an age identity: it does not start with 'AGE-SECRET-KEY-1'"
            )
        return cls(data)

    def encode(self) -> str:
        return _bech32.encode(IDENTITY_HRP.upper(), self.secret)

    def recipient(self) -> X25519Recipient:
        return X25519Recipient(self.public)

    def unwrap(self, stanzas: Sequence[Stanza]) -> bytes | None:
        for stanza in stanzas:
            if stanza.type != "X25519":
                continue
            if len(stanza.args) != 2:
                raise HeaderError(
                    "an X25519 stanza must have exactly one argument after its type"
                )
            share = b64decode_raw(
                stanza.args[1].encode("ascii"), "an X25519 ephemeral share"
            )
            if len(share) != 32:
                raise HeaderError("an X25519 ephemeral share is not 32 bytes")
            # Checking the length before decrypting keeps the AEAD from being
            # used as a partitioning oracle on attacker-chosen lengths.
            if len(stanza.body) != _WRAPPED_KEY_SIZE:
                raise HeaderError("an X25519 stanza body is not 32 bytes")
            shared = _exchange(self._key, share)
            if shared is None:
                raise HeaderError(
                    "an X25519 stanza uses a low-order share (all-zero shared secret)"
                )
            file_key = _unwrap_key(
                _x25519_wrap_key(shared, share, self.public), stanza.body
            )
            if file_key is not None:
                return file_key
        return None


# --- scrypt ----------------------------------------------------------------


def _encode_passphrase(passphrase: str) -> bytes:
    try:
        return passphrase.encode("utf-8")
    except UnicodeEncodeError:
        raise HeaderError("the passphrase is not valid Unicode text") from None


def _scrypt(passphrase: bytes, salt: bytes, work_factor: int) -> bytes:
    kdf = Scrypt(salt=SCRYPT_LABEL + salt, length=32, n=1 << work_factor, r=8, p=1)
    try:
        return kdf.derive(passphrase)
    except MemoryError:
        raise HeaderError(
            f"scrypt work factor {work_factor} needs more memory than this machine allows",
            hint="decrypt the file on a machine with more memory, or ask for it with a lower work factor",
        ) from None


class ScryptRecipient:
    def __init__(self, passphrase: str, work_factor: int) -> None:
        if not passphrase:
            raise HeaderError("the passphrase is empty")
        if not 1 <= work_factor <= MAX_WORK_FACTOR_LIMIT:
            raise HeaderError(
                f"the scrypt work factor must be between 1 and {MAX_WORK_FACTOR_LIMIT}"
            )
        self.passphrase = _encode_passphrase(passphrase)
        self.work_factor = work_factor

    def wrap(self, file_key: bytes, rng: Rng) -> Stanza:
        salt = random_bytes(rng, 16)
        body = _wrap_key(_scrypt(self.passphrase, salt, self.work_factor), file_key)
        return Stanza(
            ("scrypt", b64encode_raw(salt).decode("ascii"), str(self.work_factor)), body
        )


class ScryptIdentity:
    def __init__(self, passphrase: str, max_work_factor: int) -> None:
        if not 1 <= max_work_factor <= MAX_WORK_FACTOR_LIMIT:
            raise HeaderError(
                f"max_work_factor must be between 1 and {MAX_WORK_FACTOR_LIMIT}"
            )
        self.passphrase = _encode_passphrase(passphrase)
        self.max_work_factor = max_work_factor

    def unwrap(self, stanzas: Sequence[Stanza]) -> bytes | None:
        for stanza in stanzas:
            if stanza.type != "scrypt":
                continue
            # Passphrase encryption implies that whoever knew the passphrase
            # wrote the file; mixing in other stanzas would break that.
            if len(stanzas) != 1:
                raise HeaderError(
                    "an scrypt stanza must be the only stanza in the header"
                )
            if len(stanza.args) != 3:
                raise HeaderError(
                    "an scrypt stanza must have exactly a salt and a work factor"
                )
            salt = b64decode_raw(stanza.args[1].encode("ascii"), "the scrypt salt")
            if len(salt) != 16:
                raise HeaderError("the scrypt salt is not 16 bytes")
            text = stanza.args[2]
            if not _WORK_FACTOR_RE.fullmatch(text):
                raise HeaderError(
                    "the scrypt work factor is not a plain decimal number"
                )
            # Compare lengths first: a many-thousand-digit number must not
            # reach int(), which would be slow (or refuse) on hostile input.
            if (
                len(text) > len(str(MAX_WORK_FACTOR_LIMIT))
                or int(text) > self.max_work_factor
            ):
                raise HeaderError(
                    f"the scrypt work factor {text[:20]} exceeds the limit of {self.max_work_factor}",
                    hint="if you trust the sender, retry with a higher max_work_factor",
                )
            if len(stanza.body) != _WRAPPED_KEY_SIZE:
                raise HeaderError("the scrypt stanza body is not 32 bytes")
            return _unwrap_key(_scrypt(self.passphrase, salt, int(text)), stanza.body)
        return None
