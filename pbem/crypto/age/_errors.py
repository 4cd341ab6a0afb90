"""Errors raised by :mod:`pbem.crypto.age`.

Every failure on untrusted input surfaces as one of these classes, never as a
``ValueError``/``InvalidTag``/``binascii.Error`` from a lower layer: callers
(and the CLI) rely on ``except AgeError`` to catch every way a hostile or
damaged file can fail, and on the subclass to tell the user what to do.
"""

from __future__ import annotations

from pbem.errors import ExitCode, PbemError


class AgeError(PbemError):
    """Base of every age encryption/decryption failure."""

    exit_code = ExitCode.AUTH
    default_hint = (
        "the encrypted file could not be opened; ask its author to send it again"
    )


class HeaderError(AgeError):
    """The header is malformed or not canonical, a stanza is invalid, or the
    arguments given to an encryption function are unusable."""

    exit_code = ExitCode.INVALID
    default_hint = (
        "the encrypted file is damaged, truncated or not an age v1 file; "
        "ask its sender for a fresh copy (send it as an attachment, not pasted text)"
    )


class HmacError(AgeError):
    """The header MAC does not match: the header was altered after encryption."""

    exit_code = ExitCode.AUTH
    default_hint = (
        "the file's header was altered in transit; ask its author to send it again"
    )


class PayloadError(AgeError):
    """A payload chunk failed to authenticate, or the payload is truncated or
    followed by trailing data."""

    exit_code = ExitCode.AUTH
    default_hint = "the encrypted data was altered or cut short in transit; ask its author to send it again"


class ArmorError(AgeError):
    """The ASCII armor (PEM) wrapping is not strictly canonical."""

    exit_code = ExitCode.INVALID
    default_hint = (
        "the armored text was changed (a mail client may have re-wrapped or indented it); "
        "ask for the file again, preferably as an attachment"
    )


class NoMatchError(AgeError):
    """No identity (or passphrase) could unwrap the file key."""

    exit_code = ExitCode.AUTH
    default_hint = (
        "the file is not encrypted to any of the keys you gave, or the passphrase is wrong; "
        "check which identity or passphrase you used"
    )


class KeyFormatError(AgeError):
    """An ``age1...`` recipient or ``AGE-SECRET-KEY-1...`` identity string (or a
    raw file key) is malformed."""

    exit_code = ExitCode.INVALID
    default_hint = (
        "check the key was copied completely: recipients start with 'age1', "
        "identities with 'AGE-SECRET-KEY-1'"
    )
