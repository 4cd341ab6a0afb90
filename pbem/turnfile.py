"""The pbem file format, v1: one signed envelope for every kind of game file.

Byte layout (docs/protocol.md has the full specification)::

    "pbem-file/v1\\n"                       13-byte magic and version line
    canonical msgpack map {
        "body":  bytes   canonical msgpack of the header map below
        "sig":   bytes   Ed25519 over  "pbem/v1/file" 0x00 body
        "tcsig": bytes   Ed25519 over  sig || trusted_comment  (minisign's global signature)
    }

The header map always has ``v``, ``kind``, ``game``, ``seq``, ``prev``,
``author``, ``time``; each kind adds its own fields (see ``KINDS``). The
signed message is domain-separated so that no signature made for a pbem file
can be presented as a signature of anything else (cards, minisign exports of
other files, ...).

Limits are checked before anything is parsed: a file over ``MAX_FILE``
bytes is refused without being read into the decoder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem import canonical, ed25519
from pbem.errors import BadSignature, InvalidInput, LimitExceeded, Unsupported
from pbem.hashing import lhash

MAGIC = b"pbem-file/v1\n"
SIG_LABEL = b"pbem/v1/file\x00"
FILE_HASH = "pbem/v1/file-hash"
MAX_FILE = 16 * 1024 * 1024
MAX_BODY = MAX_FILE - 256
MAX_PART = 8 * 1024 * 1024

COMMON: dict[str, type] = {"v": int, "kind": str, "game": bytes, "seq": int, "prev": bytes, "author": str, "time": int}
KINDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    # The host's proposal: the game's constitution. Seed releases are public
    # (they only help compute *other* players' rolls, which also need the
    # roller's own unreleased seed).
    "proposal": {"rules": str, "rules_version": str, "rules_hash": bytes, "scenario": str,
                 "scenario_hash": bytes, "cards": dict, "options": dict,
                 "seed_root": bytes, "releases": list, "escrow": bytes},
    # A player's countersignature of a proposal (prev = the proposal's hash).
    "join": {"seed_root": bytes, "releases": list, "escrow": bytes},
    # One phase's orders.
    "turn": {"phase": str, "rules_hash": bytes, "scenario_hash": bytes, "public": bytes,
             "private": dict, "commits": list, "digest": bytes},
    # End of game: opens everything the author still holds sealed, in the clear,
    # so that anyone holding the archive can audit the game with no private key.
    "reveal": {"reason": str, "payload": bytes},
}


def file_hash(data: bytes) -> bytes:
    return lhash(FILE_HASH, data)


def trusted_comment(header: dict[str, Any]) -> str:
    return (f"pbem {header['kind']} game={header['game'].hex()} seq={header['seq']} "
            f"author={header['author']}")


@dataclass(frozen=True)
class SignedFile:
    raw: bytes
    body: bytes
    sig: bytes
    tcsig: bytes
    header: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.header["kind"])

    @property
    def game(self) -> bytes:
        return bytes(self.header["game"])

    @property
    def seq(self) -> int:
        return int(self.header["seq"])

    @property
    def prev(self) -> bytes:
        return bytes(self.header["prev"])

    @property
    def author(self) -> str:
        return str(self.header["author"])

    @property
    def hash(self) -> bytes:
        return file_hash(self.raw)

    @property
    def signed_message(self) -> bytes:
        return SIG_LABEL + self.body

    def verify_signature(self, signing_key: bytes) -> None:
        if not ed25519.verify(signing_key, self.signed_message, self.sig):
            raise BadSignature(
                f"file {self.seq} ({self.kind}) is not signed by the card of seat {self.author}"
            )
        tc = trusted_comment(self.header).encode()
        if not ed25519.verify(signing_key, self.sig + tc, self.tcsig):
            raise BadSignature(f"file {self.seq}: the trusted-comment signature is invalid")


def seal(header: dict[str, Any], sign: Any) -> bytes:
    """Encode, sign and frame ``header``; ``sign`` is a callable bytes -> 64-byte signature."""
    _check_header(header)
    body = canonical.encode(header)
    if len(body) > MAX_BODY:
        raise LimitExceeded(f"file body is {len(body)} bytes, more than {MAX_BODY}")
    sig = sign(SIG_LABEL + body)
    tcsig = sign(sig + trusted_comment(header).encode())
    return MAGIC + canonical.encode({"body": body, "sig": sig, "tcsig": tcsig})


def parse(data: bytes) -> SignedFile:
    """Parse and structurally check a file; the signature is checked by the caller, who knows the key."""
    if len(data) > MAX_FILE:
        raise LimitExceeded(f"file is {len(data)} bytes; pbem files are at most {MAX_FILE}")
    if not data.startswith(MAGIC):
        if data.startswith(b"pbem-file/"):
            raise Unsupported("this file was made by a newer pbem format version")
        raise InvalidInput("not a pbem file (the first line is not 'pbem-file/v1')",
                           hint="pbem reads the .pbem attachment of a game mail, not the mail itself")
    outer = canonical.expect_map(canonical.decode(data[len(MAGIC):], max_size=MAX_FILE), "file")
    if set(outer) != {"body", "sig", "tcsig"}:
        raise InvalidInput("file envelope has unexpected fields")
    body = canonical.get(outer, "body", bytes, "file")
    sig = canonical.get(outer, "sig", bytes, "file")
    tcsig = canonical.get(outer, "tcsig", bytes, "file")
    if len(sig) != 64 or len(tcsig) != 64:
        raise InvalidInput("file signature has the wrong length")
    header = canonical.expect_map(canonical.decode(body, max_size=MAX_BODY), "file header")
    _check_header(header)
    return SignedFile(bytes(data), body, sig, tcsig, header)


def _check_header(h: dict[str, Any]) -> None:
    if h.get("v") != 1:
        raise Unsupported(f"file format version {h.get('v')!r} is not supported (this pbem reads v1)")
    for k, t in COMMON.items():
        canonical.get(h, k, t, "file header")
    kind = h["kind"]
    if kind not in KINDS:
        raise Unsupported(f"unknown file kind {kind!r}")
    extra = KINDS[kind]
    for k2, t2 in extra.items():
        canonical.get(h, k2, t2, f"{kind} header")
    unknown = set(h) - set(COMMON) - set(extra)
    if unknown:
        raise InvalidInput(f"{kind} header has unknown fields: {', '.join(sorted(unknown))}")
    if len(h["game"]) != 16:
        raise InvalidInput("game id must be 16 bytes")
    if len(h["prev"]) != 32:
        raise InvalidInput("previous-file hash must be 32 bytes")
    if h["seq"] < 0:
        raise InvalidInput("sequence number must not be negative")
    if kind == "turn":
        if len(h["public"]) > MAX_PART:
            raise LimitExceeded("public part is too large")
        for seat, part in h["private"].items():
            if not isinstance(part, bytes) or len(part) > MAX_PART:
                raise InvalidInput(f"private part for {seat!r} is malformed or too large")
        if len(h["digest"]) != 32:
            raise InvalidInput("state digest must be 32 bytes")
