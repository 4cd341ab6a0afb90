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

import hashlib
from dataclasses import dataclass
from typing import Any

from pbem.crypto import ed25519
from pbem.errors import BadSignature, InvalidInput, LimitExceeded, Unsupported
from pbem.formats import canonical
from pbem.formats.hashing import lhash
from pbem.formats.names import check_name, check_seat
from pbem.protocol import schema

MAGIC = b"pbem-file/v1\n"
SIG_LABEL = b"pbem/v1/file\x00"
FILE_HASH = "pbem/v1/file-hash"
MAX_FILE = 16 * 1024 * 1024
MAX_BODY = MAX_FILE - 256
MAX_PART = 8 * 1024 * 1024

COMMON: dict[str, type] = {"v": int, "kind": str, "game": bytes, "seq": int, "prev": bytes, "author": str, "time": int}
KINDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    # The host's proposal: the game's constitution. It releases no seed: a
    # joiner that saw the host's seeds before fixing its own root could grind
    # its master until its own first rolls came out as it wanted.
    "proposal": {"rules": str, "rules_version": str, "rules_hash": bytes, "scenario": str,
                 "scenario_hash": bytes, "cards": dict, "options": dict,
                 "seed_root": bytes, "escrow": bytes},
    # A player's countersignature of a proposal (prev = the proposal's hash).
    # Releases only when it fixes the last root (a two-seat game), else [].
    "join": {"seed_root": bytes, "releases": list, "escrow": bytes},
    # One phase's orders.
    # Nothing here names game content: the phase, the state digest and each
    # commitment's label and context are inside the encrypted public part;
    # ``commits`` holds only the commitments' 32-byte digests, in order.
    # ``prev_attest``: the previous turn file's signed statement (see
    # ``Attestation``), [] in file 1, so that a seat that showed two histories
    # to two players is caught with both of its signatures (docs/protocol.md §9).
    "turn": {"rules_hash": bytes, "scenario_hash": bytes, "public": bytes,
             "private": dict, "commits": list, "prev_attest": list},
    # End of game: opens everything the author still holds sealed, in the clear,
    # so that anyone holding the archive can audit the game with no private key.
    "reveal": {"reason": str, "payload": bytes},
    # A seat passes to a substitute (pbem.play.handover): the substitute's card, and ``part``,
    # sealed to that card alone, with what the seat knew. It takes the next place in the
    # chain like a turn file, and carries the same ``prev_attest``.
    "handover": {"card": bytes, "part": bytes, "prev_attest": list},
}
#: Fields a kind may carry, only in a game whose options call for them (docs/protocol.md §12b):
#: a proposal's or join's quorum escrow, a quorum handover's handed seat and the other seats' consents.
OPTIONAL: dict[str, dict[str, type]] = {"proposal": {"quorum": dict}, "join": {"quorum": dict},
                                        "handover": {"seat": str, "consents": dict}}
#: the kinds that take a place (``seq``) in the turn chain
CHAIN_KINDS = ("turn", "handover")


def file_hash(data: bytes) -> bytes:
    return lhash(FILE_HASH, data)


def body_hash(body: bytes) -> bytes:
    """Plain SHA-256, so that anyone can check a trusted comment with stock tools."""
    return hashlib.sha256(body).digest()


def comment(kind: str, game: bytes, seq: int, author: str, bhash: bytes) -> str:
    return f"pbem {kind} game={game.hex()} seq={seq} author={author} body={bhash.hex()}"


def trusted_comment(header: dict[str, Any], body: bytes) -> str:
    """The statement ``tcsig`` signs: where the file sits in which game, and the hash of its body.

    The body hash makes the statement stand alone: a later file can carry it
    (``prev_attest``) and a player who holds a different body signed for the
    same place holds proof of equivocation without the other body.
    """
    return comment(str(header["kind"]), bytes(header["game"]), int(header["seq"]),
                   str(header["author"]), body_hash(body))


@dataclass(frozen=True)
class Attestation:
    """A file's signed statement without its body: [kind, author, body hash, sig, tcsig].

    ``tcsig`` signs ``sig || comment(kind, game, seq, author, body hash)``; game
    and seq are those of the place it attests, so they are not repeated.
    """

    kind: str
    author: str
    body_hash: bytes
    sig: bytes
    tcsig: bytes

    def to_wire(self) -> list[Any]:
        return [self.kind, self.author, self.body_hash, self.sig, self.tcsig]

    @classmethod
    def from_wire(cls, w: list[Any]) -> Attestation:
        if (len(w) != 5 or not isinstance(w[0], str) or w[0] not in KINDS or not isinstance(w[1], str)
                or not isinstance(w[2], bytes) or len(w[2]) != 32 or not isinstance(w[3], bytes)
                or len(w[3]) != 64 or not isinstance(w[4], bytes) or len(w[4]) != 64):
            raise InvalidInput("turn header: prev_attest must be [kind, author, 32-byte hash, "
                               "64-byte sig, 64-byte tcsig]")
        check_seat(w[1], where="turn header 'prev_attest'")
        return cls(w[0], w[1], bytes(w[2]), bytes(w[3]), bytes(w[4]))

    def verify(self, game: bytes, seq: int, signing_key: bytes) -> bool:
        """Did the holder of ``signing_key`` sign this statement for file ``seq`` of ``game``?"""
        tc = comment(self.kind, game, seq, self.author, self.body_hash).encode()
        return ed25519.verify(signing_key, self.sig + tc, self.tcsig)


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

    @property
    def attestation(self) -> Attestation:
        """This file's signed statement, as the next turn file carries it in ``prev_attest``."""
        return Attestation(self.kind, self.author, body_hash(self.body), self.sig, self.tcsig)

    @property
    def prev_attest(self) -> Attestation | None:
        """The previous turn file's statement this file carries (None in file 1 and other kinds)."""
        w = self.header.get("prev_attest")
        return Attestation.from_wire(w) if w else None

    def verify_signature(self, signing_key: bytes) -> None:
        if not ed25519.verify(signing_key, self.signed_message, self.sig):
            raise BadSignature(
                f"file {self.seq} ({self.kind}) is not signed by the card of seat {self.author}"
            )
        tc = trusted_comment(self.header, self.body).encode()
        if not ed25519.verify(signing_key, self.sig + tc, self.tcsig):
            raise BadSignature(f"file {self.seq}: the trusted-comment signature is invalid")


def seal(header: dict[str, Any], sign: Any) -> bytes:
    """Encode, sign and frame ``header``; ``sign`` is a callable bytes -> 64-byte signature."""
    _check_header(header)
    body = canonical.encode(header)
    if len(body) > MAX_BODY:
        raise LimitExceeded(f"file body is {len(body)} bytes, more than {MAX_BODY}")
    sig = sign(SIG_LABEL + body)
    tcsig = sign(sig + trusted_comment(header, body).encode())
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
    optional = OPTIONAL.get(kind, {})
    for k3, t3 in optional.items():
        if k3 in h:
            canonical.get(h, k3, t3, f"{kind} header")
    unknown = set(h) - set(COMMON) - set(extra) - set(optional)
    if unknown:
        raise InvalidInput(f"{kind} header has unknown fields: {', '.join(sorted(unknown))}")
    if len(h["game"]) != 16:
        raise InvalidInput("game id must be 16 bytes")
    if len(h["prev"]) != 32:
        raise InvalidInput("previous-file hash must be 32 bytes")
    if h["seq"] < 0:
        raise InvalidInput("sequence number must not be negative")
    # Counts and shapes before anything walks the lists and maps (a proposal with
    # thousands of cards costs one len() here).
    schema.header(h)
    _check_names(kind, h)
    if kind == "handover":
        if len(h["part"]) > MAX_PART or len(h["card"]) > schema.MAX_CARD:
            raise LimitExceeded("handover: its card or its part is too large")
        if h["seq"] < 1:
            raise InvalidInput("handover header: a handover follows the genesis (seq 1 or more)")
    if kind in CHAIN_KINDS:
        # File 1 follows the genesis, which no single signed statement covers.
        if h["seq"] == 1:
            if h["prev_attest"]:
                raise InvalidInput(f"{kind} header: file 1 attests no previous file (prev_attest must be [])")
        else:
            Attestation.from_wire(h["prev_attest"])
    if kind == "turn":
        if len(h["public"]) > MAX_PART:
            raise LimitExceeded("public part is too large")
        for seat, part in h["private"].items():
            if not isinstance(part, bytes) or len(part) > MAX_PART:
                raise InvalidInput(f"private part for {seat!r} is malformed or too large")
        if not all(isinstance(c, bytes) and len(c) == 32 for c in h["commits"]):
            raise InvalidInput("turn header: every commitment must be a 32-byte digest")


def _check_names(kind: str, h: dict[str, Any]) -> None:
    # Seat, rules and scenario names become file names and screen text: check
    # them here, at parse time, so no later code ever sees a name that is a path.
    check_seat(h["author"], where=f"{kind} header 'author'")
    if kind == "proposal":
        check_name("rules", h["rules"], where="proposal header")
        check_name("scenario", h["scenario"], where="proposal header")
        for seat in h["cards"]:
            check_seat(seat, where="proposal 'cards'")
    elif kind == "handover" and "seat" in h:
        check_seat(h["seat"], where="handover header 'seat'")
        schema.count(h.get("consents", {}), schema.MAX_SEATS, "handover: consents")
    elif kind == "turn":
        for seat in h["private"]:
            check_seat(seat, where="turn header 'private'")
