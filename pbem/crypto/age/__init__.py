"""age v1 file encryption (c2sp.org/age), written from the spec on ``cryptography``.

Supports X25519 and scrypt (passphrase) recipients, binary and ASCII-armored
files. Post-quantum (mlkem768x25519) and hardware-key (p256tag) recipients are
not supported; their keys are rejected with :class:`KeyFormatError` and their
stanzas are skipped like any other unknown stanza type.

Every failure on untrusted input raises a subclass of :class:`AgeError`.
"""

from __future__ import annotations

from ._api import (
    Rng,
    decrypt,
    decrypt_with_file_key,
    decrypt_with_passphrase,
    encrypt,
    encrypt_with_passphrase,
    generate_x25519_identity,
    parse_identity,
    read_identity_file,
    unwrap_file_key,
    x25519_recipient,
)
from ._armor import armor, dearmor, is_armored
from ._errors import (
    AgeError,
    ArmorError,
    HeaderError,
    HmacError,
    KeyFormatError,
    NoMatchError,
    PayloadError,
)
from ._format import Stanza
from ._recipients import Identity

__all__ = [
    "AgeError",
    "ArmorError",
    "HeaderError",
    "HmacError",
    "Identity",
    "KeyFormatError",
    "NoMatchError",
    "PayloadError",
    "Rng",
    "Stanza",
    "armor",
    "dearmor",
    "decrypt",
    "decrypt_with_file_key",
    "decrypt_with_passphrase",
    "encrypt",
    "encrypt_with_passphrase",
    "generate_x25519_identity",
    "is_armored",
    "parse_identity",
    "read_identity_file",
    "unwrap_file_key",
    "x25519_recipient",
]
