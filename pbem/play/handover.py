"""Seat handover: a seat passes to a substitute player (docs/protocol.md §12b).

A ``handover`` file sits in the turn chain at the next sequence number, signed
by the departing seat's current card. Its header names the substitute's card
(checked like a genesis card); its ``part`` is sealed to the substitute alone
and carries what the seat knew: its dice master, its private state, its
secrets (openings, secret rolls) and the file keys of every part the seat could
open, so that the substitute can replay the game, act for the seat and, at the
end, reveal everything its predecessor would have. From that file on every
tool uses the new card for the seat (signatures, recipients, mail): the
``Derived``'s constitution is replaced by one with the new card.

A handover is not a move: the pending decision, the engine state and the
public state are unchanged. A game without a handover writes exactly the files
it wrote before handovers existed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pbem.crypto import age
from pbem.errors import InvalidInput, NotFound, PbemError, StateError
from pbem.formats import canonical, padding
from pbem.play.chain import check_attest, prev_attest
from pbem.play.derived import Derived, Session
from pbem.protocol import signedtime, turnfile
from pbem.protocol.context import FileRejected
from pbem.protocol.dicefiles import master_roots_match
from pbem.protocol.genesis import Constitution
from pbem.protocol.identity import Card
from pbem.protocol.turnfile import SignedFile
from pbem.store.gamestore import GameStore

KIND = "handover"
PART_KEYS = {"seat", "master", "state", "secrets", "file_keys"}
MAX_KEYS = 4 * 1_000_000


def new_card(f: SignedFile) -> Card:
    """The substitute's card a handover names, checked like a genesis card (pbem.protocol.identity)."""
    try:
        return Card.from_bytes(bytes(f.header["card"]))
    except PbemError as e:
        raise FileRejected(f"handover {f.seq} by {f.author}: the substitute's card is invalid: {e}") from None


def follow(con: Constitution, files: list[SignedFile]) -> Constitution:
    """``con`` with the cards the handovers among ``files`` (in chain order) gave their seats.

    Each handover is checked against the card its seat held when it was signed,
    so a chain of handovers is followed link by link; a stranger's is refused.
    """
    for f in files:
        if f.kind == KIND:
            con = _passed(con, f)
    return con


def _passed(con: Constitution, f: SignedFile) -> Constitution:
    if f.author not in con.cards:
        raise FileRejected(f"handover {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    return dataclasses.replace(con, cards={**con.cards, f.author: new_card(f)})


def in_store(con: Constitution, store: GameStore) -> tuple[Constitution, dict[str, list[bytes]]]:
    """``follow`` over the handovers a home holds, and each seat's earlier signing keys."""
    past: dict[str, list[bytes]] = {}
    for sf in store.files():
        if sf.kind == KIND:
            f = turnfile.parse(sf.read())
            past.setdefault(f.author, []).append(bytes(con.cards[f.author].signing_key))
            con = _passed(con, f)
    return con, past


def make(session: Session, store: GameStore, d: Derived, seat: str, card: Card) -> bytes:
    """The handover of ``seat`` (one of this player's) to ``card``, sealed, not yet stored."""
    if seat not in d.my_seats:
        raise StateError(f"seat {seat!r} is not yours in this game",
                         hint=f"your seats: {', '.join(d.my_seats) or 'none'}")
    _check_live(d)
    _check_card(d, seat, card)
    master = d.masters.get(seat)
    if master is None:
        raise StateError("this home does not hold the seat's dice secret for this game")
    ident = session.ident
    keys: dict[str, bytes] = {}
    for sf in store.files():
        if sf.kind != "turn":
            continue
        h = turnfile.parse(sf.read()).header
        for label, blob in ((f"{sf.seq}/public", h["public"]), (f"{sf.seq}/{seat}", h["private"][seat])):
            keys[label] = d.keyring.file_keys.get(label) or age.unwrap_file_key(blob, [ident.age_key()])
    part = {"seat": seat, "master": master, "state": d.privates.get(seat),
            "secrets": d.secrets_by.get(seat, {"openings": {}, "secret_rolls": {}}), "file_keys": keys}
    header = {
        "v": 1, "kind": KIND, "game": d.con.game_id, "seq": d.seq + 1, "prev": d.last_hash,
        "author": seat, "time": session.clock(), "card": card.to_bytes(),
        "part": age.encrypt(padding.pad(canonical.encode(part)), [card.age_recipient], rng=session.rng),
        "prev_attest": prev_attest(store, d),
    }
    return turnfile.seal(header, ident.sign)


def _check_live(d: Derived) -> None:
    if not d.started:
        raise StateError("the game has not started: a seat is handed over once every player has joined")
    if d.closed:
        raise StateError("the game is closed: secrets were revealed, there is no seat left to hand over")
    if d.pending() is None:
        raise StateError("the game is over: end it ('pbem game end') instead of handing a seat over")


def _check_card(d: Derived, seat: str, card: Card) -> None:
    if card.fingerprint == d.con.cards[seat].fingerprint:
        raise FileRejected(f"seat {seat} is already held by that card ({card.fingerprint})",
                           hint="a handover names another player's card")
    held = d.con.seats_of(card)
    allowed = d.con.scenario.seats_per_player
    if held and len(held) + 1 > allowed:
        raise FileRejected(f"that card already holds {', '.join(held)}; scenario {d.con.scenario.name} allows "
                           f"{allowed} seat(s) per player")


def apply(session: Session, store: GameStore, d: Derived, f: SignedFile, prev: SignedFile | None) -> None:
    """Check the handover ``f`` (which follows ``prev`` in the chain) and advance ``d``.

    Everything is checked before ``d`` changes, as for a turn file (pbem.play.chain).
    """
    con = d.con
    if f.author not in con.cards:
        raise FileRejected(f"handover {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    if f.seq != d.seq + 1 or f.prev != d.last_hash:
        raise FileRejected(f"handover {f.seq} by {f.author} does not follow the game's file {d.seq}")
    check_attest(prev, f)
    last = d.last_log()
    signedtime.check_follows(f, signedtime.last_time([last] if last else [], con.proposal, d.joins.values()))
    _check_live(d)
    card = new_card(f)
    _check_card(d, f.author, card)
    mine = card.fingerprint == session.ident.card().fingerprint
    part = _open_part(d, f) if mine else None
    seat = f.author
    d.con = dataclasses.replace(con, cards={**con.cards, seat: card})
    d.past_keys = {**d.past_keys, seat: [*d.past_keys.get(seat, []), bytes(con.cards[seat].signing_key)]}
    if seat in d.my_seats and not mine:
        # The departing player's tool: the seat and everything it knew are no longer its own.
        d.my_seats = tuple(s for s in d.my_seats if s != seat)
        d.masters = {s: m for s, m in d.masters.items() if s != seat}
        d.privates = {s: p for s, p in d.privates.items() if s != seat}
        d.secrets_by = {s: x for s, x in d.secrets_by.items() if s != seat}
        d.focus = None if d.focus == seat else d.focus
    if part is not None:
        d.my_seats = tuple(s for s in con.seats if s in d.my_seats or s == seat)
        d.masters = {**d.masters, seat: part["master"]}
        d.privates = {**d.privates, seat: part["state"]}
        d.secrets_by = {**d.secrets_by, seat: part["secrets"]}
        for label, key in part["file_keys"].items():
            d.keyring.file_keys.setdefault(label, key)
    d.seq = f.seq
    d.last_hash = f.hash
    d.add_log({"seq": f.seq, "author": f.author, "phase": phase_text(f, card), "time": f.header["time"],
               "events": []})


def phase_text(f: SignedFile, card: Card) -> str:
    """How the log, the summaries and the history name a handover."""
    return f"handover: seat {f.author} handed to {card.name} <{card.email}> ({card.fingerprint})"


def _open_part(d: Derived, f: SignedFile) -> dict[str, Any]:
    where = f"handover {f.seq} by {f.author}: its part for you"
    part = d.keyring.open(f"{f.seq}/{KIND}", bytes(f.header["part"]), where)
    return _check_part(d, f, part, where)


def _check_part(d: Derived, f: SignedFile, part: Any, where: str) -> dict[str, Any]:
    if not isinstance(part, dict) or set(part) != PART_KEYS or part["seat"] != f.author:
        raise FileRejected(f"{where} is malformed")
    master, secrets, keys = part["master"], part["secrets"], part["file_keys"]
    if not isinstance(master, bytes) or len(master) != 32:
        raise FileRejected(f"{where}: the dice master must be 32 bytes")
    if (not isinstance(secrets, dict) or set(secrets) != {"openings", "secret_rolls"}
            or not all(isinstance(v, dict) for v in secrets.values())):
        raise FileRejected(f"{where}: the secrets are malformed")
    if (not isinstance(keys, dict) or len(keys) > MAX_KEYS
            or not all(isinstance(k, str) and isinstance(v, bytes) and len(v) == 16 for k, v in keys.items())):
        raise FileRejected(f"{where}: the file keys are malformed")
    if not master_roots_match(d.params, d.est, f.author, master):
        raise FileRejected(f"{where}: the dice master does not give the seat's committed seed roots",
                           hint="the departing player's tool is not a conforming pbem; ask for a fresh handover")
    return part


def preload(session: Session, d: Derived, files: list[SignedFile]) -> None:
    """The file keys a handover to this player carries, loaded before the replay that needs them
    (the parts written before the handover are sealed to the departing player's key)."""
    me = session.ident.card().fingerprint
    for f in files:
        if f.kind != KIND:
            continue
        try:
            card = Card.from_bytes(bytes(f.header["card"]))
        except PbemError:
            continue  # the replay refuses it in its place
        if card.fingerprint != me:
            continue
        try:
            part = d.keyring.open(f"{f.seq}/{KIND}", bytes(f.header["part"]), f"handover {f.seq}")
        except PbemError:
            continue
        keys = part.get("file_keys") if isinstance(part, dict) else None
        if isinstance(keys, dict):
            for label, key in keys.items():
                if isinstance(label, str) and isinstance(key, bytes):
                    d.keyring.file_keys.setdefault(label, key)


def read_card(data: bytes) -> Card:
    """A substitute's card from a card file (text or binary)."""
    if not data:
        raise NotFound("the card file is empty")
    try:
        return Card.from_text(data)
    except InvalidInput:
        return Card.from_bytes(data)
