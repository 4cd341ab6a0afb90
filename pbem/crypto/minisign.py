"""Export pbem Ed25519 signatures as minisign files, and check minisign files.

pbem signs a turn file with Ed25519 over a domain-separated message M built by the caller. This
module wraps that very signature in minisign's formats (shared/specs/minisign-format.md), so that
anyone can check it with the stock tool: ``minisign -V -p key.pub -m M -x M.minisig``.

Deliberate choices, each a security or interoperability decision:

* **Algorithm ``Ed`` (legacy, pure Ed25519), not ``ED`` (Ed25519 over BLAKE2b-512 of the file).**
  The minisign summary says new signers should produce ``ED``. We cannot: the exported signature
  must be the very signature pbem made over M (the turn-file signature), and ``ED`` would be a
  second, different signature over a hash of M that pbem's own verifier never checks. minisign
  0.11 verifies ``Ed`` by default; ``minisign -V -H`` (require prehashing) rejects our files, and a
  future minisign that drops legacy support would too. M is small (a domain-separated digest
  message), so ``ED``'s reason to exist (signing huge files in one pass) does not apply. For
  reading, :func:`verify_signature_file` accepts both ``Ed`` and ``ED``.
* **Derived key ids.** minisign picks a random 8-byte key id when it makes a key. Ours is
  ``SHA-256("pbem/v1/minisign-keyid" || public key)[:8]``, so every player computes the same id
  for the same player card, and the exported ``.pub`` file is a pure function of the card. The key
  id is not covered by any signature: it only tells a verifier which key to use. We still require
  it to match, as minisign does, so that what we accept is a subset of what minisign accepts.
* **The global signature is the author's.** minisign's trusted comment is protected by a second
  Ed25519 signature over (signature || trusted comment) with the same key. Only the key holder can
  make it, so the author computes it at signing time and the archive stores it with the turn file.
* **Comments are single lines.** A newline in a trusted comment would let its tail be read as the
  next line of the file; minisign also strips trailing CR and stops at NUL (it is C), so those
  would change the signed bytes. We reject all three. Length limits are minisign 0.11's own: a
  longer comment is silently split by its line reader, and the file no longer verifies there.
* **Strict parsing.** Exactly the four (or two) lines, canonical base64, exact sizes, a size cap on
  the whole file before anything is decoded. Anything else is :class:`pbem.errors.InvalidInput`.
  Signatures are checked with :func:`pbem.crypto.ed25519.verify` (strict: canonical S and R, no weak
  keys); a weak public key raises :class:`pbem.errors.WeakKey`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from pbem.crypto import ed25519
from pbem.errors import BadSignature, InvalidInput, LimitExceeded

__all__ = [
    "ALG_LEGACY",
    "ALG_PREHASHED",
    "KEY_ID_LABEL",
    "MAX_TRUSTED_COMMENT_BYTES",
    "MAX_UNTRUSTED_COMMENT_BYTES",
    "MinisigFile",
    "MinisignPublicKey",
    "format_key_id",
    "global_signature_message",
    "key_id",
    "parse_public_key_file",
    "parse_signature_file",
    "public_key_file",
    "sign_detached",
    "signature_file",
    "verify_signature_file",
]

#: Signature algorithm ids (the first two bytes of the base64 lines).
ALG_LEGACY = b"Ed"  # Ed25519 over the file itself; also the id of every public key
ALG_PREHASHED = b"ED"  # Ed25519 over BLAKE2b-512(file)

KEY_ID_LABEL = b"pbem/v1/minisign-keyid"
KEY_ID_SIZE = 8

UNTRUSTED_PREFIX = "untrusted comment: "
TRUSTED_PREFIX = "trusted comment: "

# minisign 0.11 reads the untrusted comment line with fgets() into a 1024-byte buffer: the prefix
# (19 bytes), the comment, the newline and the terminating NUL must fit, so 1003 bytes of comment.
MAX_UNTRUSTED_COMMENT_BYTES = 1024 - len(UNTRUSTED_PREFIX) - 2
# Likewise the trusted comment line, into an 8192-byte buffer: 8192 - 17 - 2 = 8173 bytes of
# comment. (minisign's own signer stops earlier, at an output buffer limit, but its verifier takes
# comments up to this length; tests/test_minisign.py checks the limit against the binary.)
MAX_TRUSTED_COMMENT_BYTES = 8192 - len(TRUSTED_PREFIX) - 2

# A generous cap for a whole signature file (two max-length comments plus the base64 lines), checked
# before anything is decoded, so a hostile multi-megabyte "signature" costs nothing.
MAX_FILE_CHARS = 16 * 1024

_PUBLIC_KEY_PAYLOAD = 2 + KEY_ID_SIZE + ed25519.PUBLIC_KEY_SIZE
_SIGNATURE_PAYLOAD = 2 + KEY_ID_SIZE + ed25519.SIGNATURE_SIZE


@dataclass(frozen=True)
class MinisignPublicKey:
    """A parsed minisign ``.pub`` file."""

    untrusted_comment: str
    key_id: bytes
    public_key: bytes


@dataclass(frozen=True)
class MinisigFile:
    """A parsed ``.minisig`` file. Nothing in it is trusted until verified."""

    untrusted_comment: str
    algorithm: bytes  # ALG_LEGACY or ALG_PREHASHED
    key_id: bytes
    signature: bytes
    trusted_comment: str
    global_signature: bytes

    @property
    def prehashed(self) -> bool:
        return self.algorithm == ALG_PREHASHED


def key_id(pub: bytes) -> bytes:
    """The 8-byte key id pbem uses for ``pub``: derived, not random (see the module docstring)."""
    ed25519.validate_public_key(pub)
    return hashlib.sha256(KEY_ID_LABEL + bytes(pub)).digest()[:KEY_ID_SIZE]


def format_key_id(kid: bytes) -> str:
    """The key id as minisign prints it: the little-endian 64-bit number in upper-case hex.

    minisign formats it with "%" PRIX64, so without leading zeros (one key id
    in sixteen starts with one); printing it padded would not match.
    """
    if len(kid) != KEY_ID_SIZE:
        raise InvalidInput(f"a minisign key id is {KEY_ID_SIZE} bytes, got {len(kid)}")
    return format(int.from_bytes(kid, "little"), "X")


def _check_comment(text: str, what: str, max_bytes: int) -> bytes:
    for ch, name in (("\n", "a newline"), ("\r", "a carriage return"), ("\x00", "a NUL character")):
        if ch in text:
            raise InvalidInput(
                f"the {what} contains {name}; minisign comments are single lines",
                hint="put the text on one line",
            )
    raw = text.encode("utf-8")
    if len(raw) > max_bytes:
        raise InvalidInput(
            f"the {what} is {len(raw)} bytes long; minisign accepts at most {max_bytes}",
            hint="shorten the comment",
        )
    return raw


def _require_size(data: bytes, size: int, what: str) -> None:
    if len(data) != size:
        raise InvalidInput(f"{what} must be {size} bytes, got {len(data)}")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def public_key_file(pub: bytes, *, untrusted_comment: str) -> str:
    """The text of a minisign ``.pub`` file for ``pub`` with pbem's derived key id."""
    _check_comment(untrusted_comment, "untrusted comment", MAX_UNTRUSTED_COMMENT_BYTES)
    kid = key_id(pub)  # also refuses to export a weak key
    return f"{UNTRUSTED_PREFIX}{untrusted_comment}\n{_b64(ALG_LEGACY + kid + bytes(pub))}\n"


def global_signature_message(signature: bytes, trusted_comment: str) -> bytes:
    """What the global signature signs: the 64-byte signature || the trusted comment's UTF-8."""
    _require_size(signature, ed25519.SIGNATURE_SIZE, "an Ed25519 signature")
    return bytes(signature) + _check_comment(trusted_comment, "trusted comment", MAX_TRUSTED_COMMENT_BYTES)


def signature_file(
    pub: bytes,
    signature: bytes,
    trusted_comment: str,
    global_signature: bytes,
    *,
    untrusted_comment: str,
) -> str:
    """The text of a ``.minisig`` file holding ``signature`` (pure Ed25519 of the message, id ``Ed``).

    The global signature is checked here, so a caller bug (wrong comment, wrong key) fails now with
    :class:`BadSignature` rather than later in someone else's ``minisign -V``.
    """
    _check_comment(untrusted_comment, "untrusted comment", MAX_UNTRUSTED_COMMENT_BYTES)
    _require_size(global_signature, ed25519.SIGNATURE_SIZE, "the global signature")
    gmsg = global_signature_message(signature, trusted_comment)
    kid = key_id(pub)
    if not ed25519.verify(pub, gmsg, global_signature):
        raise BadSignature(
            "the global signature does not sign this signature and trusted comment with this key",
            hint="compute it with global_signature_message() and the same key at signing time",
        )
    return (
        f"{UNTRUSTED_PREFIX}{untrusted_comment}\n"
        f"{_b64(ALG_LEGACY + kid + bytes(signature))}\n"
        f"{TRUSTED_PREFIX}{trusted_comment}\n"
        f"{_b64(bytes(global_signature))}\n"
    )


def sign_detached(
    seed: bytes,
    message: bytes,
    trusted_comment: str,
    *,
    untrusted_comment: str = "signature from pbem",
) -> str:
    """Sign ``message`` with the Ed25519 ``seed`` and return the ``.minisig`` text."""
    pub = ed25519.public_from_seed(seed)
    signature = ed25519.sign(seed, message)
    global_signature = ed25519.sign(seed, global_signature_message(signature, trusted_comment))
    return signature_file(
        pub, signature, trusted_comment, global_signature, untrusted_comment=untrusted_comment
    )


# --- parsing ------------------------------------------------------------------------------------


def _lines(text: str, count: int, what: str) -> list[str]:
    if len(text) > MAX_FILE_CHARS:
        raise LimitExceeded(f"{what} is {len(text)} characters long; pbem reads at most {MAX_FILE_CHARS}")
    # Split on "\n" only: str.splitlines() would also split on characters such as U+2028 that
    # minisign treats as ordinary bytes inside a comment.
    body = text.removesuffix("\n")
    lines = body.split("\n")
    # Tolerate CRLF line ends (mail transports add them); minisign strips them too.
    lines = [line.removesuffix("\r") for line in lines]
    if len(lines) != count:
        raise InvalidInput(f"{what} must have {count} lines, found {len(lines)}")
    return lines


def _comment(line: str, prefix: str, what: str, lineno: int, max_bytes: int) -> str:
    if not line.startswith(prefix):
        raise InvalidInput(f"{what}, line {lineno}: must start with {prefix!r}")
    comment = line[len(prefix) :]
    _check_comment(comment, f"comment on line {lineno} of the {what}", max_bytes)
    return comment


def _b64decode(line: str, size: int, what: str, lineno: int) -> bytes:
    try:
        raw = base64.b64decode(line.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error):
        raise InvalidInput(f"{what}, line {lineno}: not valid base64") from None
    # Canonical base64 only: otherwise one file has many spellings (unused trailing bits).
    if _b64(raw) != line:
        raise InvalidInput(f"{what}, line {lineno}: non-canonical base64")
    if len(raw) != size:
        raise InvalidInput(f"{what}, line {lineno}: expected {size} bytes of base64 data, got {len(raw)}")
    return raw


def parse_public_key_file(text: str) -> MinisignPublicKey:
    """Parse a minisign ``.pub`` file; raises InvalidInput, or WeakKey for a weak key."""
    what = "minisign public key file"
    lines = _lines(text, 2, what)
    comment = _comment(lines[0], UNTRUSTED_PREFIX, what, 1, MAX_UNTRUSTED_COMMENT_BYTES)
    raw = _b64decode(lines[1], _PUBLIC_KEY_PAYLOAD, what, 2)
    if raw[:2] != ALG_LEGACY:
        raise InvalidInput(f"{what}, line 2: unsupported key algorithm {raw[:2]!r} (expected b'Ed')")
    pub = raw[2 + KEY_ID_SIZE :]
    ed25519.validate_public_key(pub)  # reject weak keys at import
    return MinisignPublicKey(untrusted_comment=comment, key_id=raw[2 : 2 + KEY_ID_SIZE], public_key=pub)


def parse_signature_file(text: str) -> MinisigFile:
    """Parse a ``.minisig`` file (no verification); raises InvalidInput when malformed."""
    what = "minisign signature file"
    lines = _lines(text, 4, what)
    untrusted = _comment(lines[0], UNTRUSTED_PREFIX, what, 1, MAX_UNTRUSTED_COMMENT_BYTES)
    raw = _b64decode(lines[1], _SIGNATURE_PAYLOAD, what, 2)
    algorithm = raw[:2]
    if algorithm not in (ALG_LEGACY, ALG_PREHASHED):
        raise InvalidInput(
            f"{what}, line 2: unsupported signature algorithm {algorithm!r} (expected b'Ed' or b'ED')"
        )
    trusted = _comment(lines[2], TRUSTED_PREFIX, what, 3, MAX_TRUSTED_COMMENT_BYTES)
    global_signature = _b64decode(lines[3], ed25519.SIGNATURE_SIZE, what, 4)
    return MinisigFile(
        untrusted_comment=untrusted,
        algorithm=algorithm,
        key_id=raw[2 : 2 + KEY_ID_SIZE],
        signature=raw[2 + KEY_ID_SIZE :],
        trusted_comment=trusted,
        global_signature=global_signature,
    )


def verify_signature_file(
    pub: bytes, message: bytes, text: str, *, expected_key_id: bytes | None = None
) -> bool:
    """Check a ``.minisig`` file for ``message`` under ``pub``: both signatures, and the key id.

    ``expected_key_id`` defaults to pbem's derived :func:`key_id`; pass the id from
    :func:`parse_public_key_file` to check a file made by a key that minisign generated.
    Returns False when anything does not verify; raises InvalidInput for a malformed file and
    WeakKey for a weak public key.
    """
    sig = parse_signature_file(text)
    kid = key_id(pub) if expected_key_id is None else expected_key_id
    _require_size(kid, KEY_ID_SIZE, "a minisign key id")
    if sig.key_id != kid:
        return False
    signed = hashlib.blake2b(message, digest_size=64).digest() if sig.prehashed else bytes(message)
    if not ed25519.verify(pub, signed, sig.signature):
        return False
    return ed25519.verify(
        pub, global_signature_message(sig.signature, sig.trusted_comment), sig.global_signature
    )
