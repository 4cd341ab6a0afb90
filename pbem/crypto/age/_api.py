"""The public age operations, composed from the format, stream, recipient and
armor modules."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from ._armor import dearmor, is_armored
from ._errors import HeaderError, KeyFormatError, NoMatchError
from ._format import (
    FILE_KEY_SIZE,
    NONCE_SIZE,
    Header,
    encode_header,
    parse_header,
    verify_header_mac,
)
from ._recipients import (
    Identity,
    Recipient,
    ScryptIdentity,
    ScryptRecipient,
    X25519Identity,
    X25519Recipient,
    random_bytes,
)
from ._stream import decrypt_payload, encrypt_payload, payload_key

Rng = Callable[[int], bytes]


def _rng(rng: Rng | None) -> Rng:
    return os.urandom if rng is None else rng


def _check_file_key(file_key: bytes) -> bytes:
    if not isinstance(file_key, bytes) or len(file_key) != FILE_KEY_SIZE:
        raise KeyFormatError(f"a file key must be exactly {FILE_KEY_SIZE} bytes")
    return file_key


def read_identity_file(text: str) -> list[str]:
    """The identities in an age identity file (as ``age-keygen`` writes it):
    one per line, ignoring blank lines and ``#`` comments."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            X25519Identity.parse(line)  # fail early, naming the bad line's kind
            found.append(line)
    if not found:
        raise KeyFormatError("the identity file contains no identities")
    return found


def generate_x25519_identity(rng: Rng | None = None) -> str:
    """A new ``AGE-SECRET-KEY-1...`` identity (uppercase, as age-keygen writes)."""
    return X25519Identity(random_bytes(_rng(rng), 32)).encode()


def x25519_recipient(identity: str) -> str:
    """The ``age1...`` recipient of an X25519 identity."""
    return X25519Identity.parse(identity).recipient().encode()


def _encrypt(
    plaintext: bytes,
    recipients: Sequence[Recipient],
    file_key: bytes | None,
    rng: Rng | None,
) -> bytes:
    source = _rng(rng)
    key = (
        random_bytes(source, FILE_KEY_SIZE)
        if file_key is None
        else _check_file_key(file_key)
    )
    stanzas = [r.wrap(key, source) for r in recipients]
    header = encode_header(stanzas, key)
    # The payload key is derived from the file key and this nonce, so chunk
    # nonces (plain counters) never repeat under one key across files.
    nonce = random_bytes(source, NONCE_SIZE)
    return header + nonce + encrypt_payload(payload_key(key, nonce), plaintext)


def encrypt(
    plaintext: bytes,
    recipients: list[str],
    *,
    file_key: bytes | None = None,
    rng: Rng | None = None,
) -> bytes:
    """Encrypt to one or more ``age1...`` recipients (binary age format).

    ``file_key`` and ``rng`` exist for reproducible tests; production callers
    leave them unset so every file gets a fresh CSPRNG file key.
    """
    if not recipients:
        raise HeaderError(
            "no recipients given", hint="encrypt to at least one age1... recipient"
        )
    parsed = [X25519Recipient.parse(r) for r in recipients]
    return _encrypt(plaintext, parsed, file_key, rng)


def encrypt_with_passphrase(
    plaintext: bytes,
    passphrase: str,
    *,
    work_factor: int = 18,
    file_key: bytes | None = None,
    rng: Rng | None = None,
) -> bytes:
    """Encrypt with a passphrase (a single scrypt stanza, log2(N) = work_factor)."""
    return _encrypt(
        plaintext, [ScryptRecipient(passphrase, work_factor)], file_key, rng
    )


def _binary(data: bytes) -> bytes:
    return dearmor(data) if is_armored(data) else data


def _no_match(header: Header, identities: Sequence[Identity]) -> NoMatchError:
    has_scrypt = any(s.type == "scrypt" for s in header.stanzas)
    if all(isinstance(i, ScryptIdentity) for i in identities):
        if has_scrypt:
            return NoMatchError(
                "the passphrase is wrong", hint="check the passphrase and try again"
            )
        return NoMatchError(
            "the file is not passphrase-encrypted",
            hint="it is encrypted to public keys; decrypt it with your identity (AGE-SECRET-KEY-1...)",
        )
    if has_scrypt:
        return NoMatchError(
            "the file is passphrase-encrypted, not encrypted to a key",
            hint="decrypt it with its passphrase instead",
        )
    return NoMatchError("the file is not encrypted to any of the given identities")


def _unwrap(header: Header, identities: Sequence[Identity]) -> bytes:
    if not identities:
        raise NoMatchError(
            "no identities given", hint="pass at least one AGE-SECRET-KEY-1... identity"
        )
    # Checked here, for every identity type, and not only by the scrypt
    # identity: a passphrase-encrypted file must not be silently openable
    # (or forgeable) by a public-key recipient slipped in beside it.
    if len(header.stanzas) > 1 and any(s.type == "scrypt" for s in header.stanzas):
        raise HeaderError("an scrypt stanza must be the only stanza in the header")
    for identity in identities:
        file_key = identity.unwrap(header.stanzas)
        if file_key is not None:
            if len(file_key) != FILE_KEY_SIZE:
                raise HeaderError("the unwrapped file key is not 16 bytes")
            # The MAC is what authenticates the whole header (all stanzas and
            # their order) to the file key; no plaintext before it passes.
            verify_header_mac(header, file_key)
            return file_key
    raise _no_match(header, identities)


def _decrypt(data: bytes, identities: Sequence[Identity]) -> bytes:
    header, nonce, payload = parse_header(_binary(data))
    file_key = _unwrap(header, identities)
    return decrypt_payload(payload_key(file_key, nonce), payload)


def _parse_identities(identities: Sequence[str | Identity]) -> list[Identity]:
    return [X25519Identity.parse(i) if isinstance(i, str) else i for i in identities]


def parse_identity(text: str) -> Identity:
    """An ``AGE-SECRET-KEY-1...`` identity as an object that unwraps file keys."""
    return X25519Identity.parse(text)


def decrypt(data: bytes, identities: Sequence[str | Identity]) -> bytes:
    """Decrypt a binary or armored age file with ``AGE-SECRET-KEY-1...`` identities, or with
    objects that unwrap stanzas (``Identity``: e.g. a key held by another process)."""
    return _decrypt(data, _parse_identities(identities))


def decrypt_with_passphrase(
    data: bytes, passphrase: str, *, max_work_factor: int = 22
) -> bytes:
    """Decrypt a passphrase-encrypted (scrypt) file, refusing work factors
    above ``max_work_factor`` (2**22 needs 4 GiB of memory)."""
    return _decrypt(data, [ScryptIdentity(passphrase, max_work_factor)])


def unwrap_file_key(data: bytes, identities: Sequence[str | Identity]) -> bytes:
    """Parse the header, unwrap the 16-byte file key and check the header MAC.

    The payload is not read; revealing this key lets anyone decrypt the file
    (and nothing else), which is how sealed files are opened at game end.
    """
    header, _, _ = parse_header(_binary(data))
    return _unwrap(header, _parse_identities(identities))


def decrypt_with_file_key(data: bytes, file_key: bytes) -> bytes:
    """Decrypt with a revealed file key, after checking the header MAC with it."""
    _check_file_key(file_key)
    header, nonce, payload = parse_header(_binary(data))
    verify_header_mac(header, file_key)
    return decrypt_payload(payload_key(file_key, nonce), payload)
