"""The quorum escrow of a seat's secrets (game option ``handover=quorum``, docs/protocol.md §12b).

Each seat's proposal or join carries ``quorum``: ``recipient``, the age recipient of a
key derived from the seat's dice master (every part a seat may open, public and its
own private ones, is also sealed to it), and ``shares``: n-1 XOR shares of that
master, each sealed to one other seat's card. Only all the other players together
hold the master, hence the seat key, hence everything the seat knew; a quorum
handover has each of them seal its share to the substitute, whose tool alone
combines them (pbem.play.handover).

One per-game key derived from the master, rather than shares of every file key:
the master is already what a handover must prove (it gives the seat's committed
seed roots), the shares are fixed at genesis (no file grows by n-1 stanzas and no
file key needs escrow), and the substitute checks one secret, not one per file.
"""

from __future__ import annotations

from typing import Any

from pbem.crypto import age
from pbem.errors import InvalidInput, NotAddressedToYou
from pbem.formats import canonical, padding
from pbem.formats.hashing import lhash
from pbem.protocol import schema
from pbem.protocol.identity import Card

OPTION = "handover"
QUORUM = "quorum"
MODES = ("departing", QUORUM)
SEAT_KEY = "pbem/v1/seat-escrow-key"


def enabled(options: dict[str, Any]) -> bool:
    return options.get(OPTION) == QUORUM


def check_option(options: dict[str, Any], cards: dict[str, Card]) -> None:
    """Refuse a ``handover`` option this pbem does not know, or a quorum with fewer than three players."""
    mode = options.get(OPTION, "departing")
    if mode not in MODES:
        raise InvalidInput(f"game option handover={mode!r} is unknown", hint="handover=quorum or handover=departing")
    if mode == QUORUM and (len(cards) < 3 or len({c.fingerprint for c in cards.values()}) != len(cards)):
        raise InvalidInput("handover=quorum needs three or more seats, each its own player's: with two, the one "
                           "other player would hold the whole of a seat's secrets",
                           hint="leave the option out (a seat is then handed over by its own player only)")


def identity(master: bytes, game: bytes, seat: str) -> str:
    """The seat's escrow key (an age identity), which its dice master gives."""
    seed = lhash(SEAT_KEY, game, seat, master)
    return age.generate_x25519_identity(lambda n: seed[:n])


def make(master: bytes, game: bytes, seat: str, cards: dict[str, Card], rng: Any) -> dict[str, Any]:
    """A seat's ``quorum`` header field: its escrow recipient, and its master split among the others."""
    others = [s for s in sorted(cards) if s != seat]
    parts = [rng(32) for _ in others[1:]]
    parts.insert(0, combine([master, *parts]))
    shares = {s: age.encrypt(padding.pad(canonical.encode({"seat": seat, "share": p})), [cards[s].age_recipient],
                             rng=rng) for s, p in zip(others, parts, strict=True)}
    return {"recipient": age.x25519_recipient(identity(master, game, seat)), "shares": shares}


def check_field(h: dict[str, Any], options: dict[str, Any], seats: list[str], where: str) -> None:
    """A proposal's or join's ``quorum`` field: present exactly when the option is, with one share per other seat."""
    q = h.get("quorum")
    if not enabled(options):
        if q is not None:
            raise InvalidInput(f"{where} carries quorum shares, but the game's handover option is not quorum")
        return
    m = schema.as_map(q, f"{where}: quorum", {"recipient", "shares"})
    try:
        age.encrypt(b"", [schema.as_str(m["recipient"], f"{where}: quorum recipient")])
    except age.AgeError:
        raise InvalidInput(f"{where}: its quorum recipient is not an age recipient") from None
    shares = schema.as_map(m["shares"], f"{where}: quorum shares")
    if set(shares) != set(seats) - {h["author"]}:
        raise InvalidInput(f"{where}: its quorum shares must go to every other seat, one each")
    for s, blob in shares.items():
        schema.as_bytes(blob, f"{where}: quorum share for {s}", cap=4096)


def recipient(h: dict[str, Any]) -> str | None:
    q = h.get("quorum")
    return str(q["recipient"]) if isinstance(q, dict) else None


def open_share(ident_key: age.Identity, blob: bytes, seat: str, where: str) -> bytes:
    """One XOR share of ``seat``'s master, from its blob sealed to this player."""
    try:
        plain = padding.unpad(age.decrypt(blob, [ident_key]), where)
    except age.NoMatchError:
        raise NotAddressedToYou(f"{where} is not sealed to your key") from None
    except age.AgeError as e:
        raise InvalidInput(f"{where} cannot be decrypted: {e}") from None
    m = schema.as_map(canonical.decode(plain), where, {"seat", "share"})
    if m["seat"] != seat:
        raise InvalidInput(f"{where} is a share of seat {m['seat']!r}, not of {seat}")
    return schema.as_bytes(m["share"], f"{where}: share", size=32)


def seal_share(share: bytes, seat: str, card: Card, rng: Any) -> bytes:
    return age.encrypt(padding.pad(canonical.encode({"seat": seat, "share": share})), [card.age_recipient], rng=rng)


def combine(parts: list[bytes]) -> bytes:
    out = bytearray(32)
    for p in parts:
        out = bytearray(a ^ b for a, b in zip(out, p, strict=True))
    return bytes(out)
