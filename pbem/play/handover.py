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

from pbem.crypto import age, ed25519
from pbem.errors import BadSignature, InvalidInput, NotFound, PbemError, StateError
from pbem.formats import canonical, padding
from pbem.formats.hashing import lhash
from pbem.play.chain import apply_turn, check_attest, prev_attest
from pbem.play.derived import Derived, Session, add_join, begin
from pbem.protocol import dice, seatkey, signedtime, turnfile
from pbem.protocol.context import FileRejected
from pbem.protocol.dicefiles import master_roots_match
from pbem.protocol.genesis import Constitution
from pbem.protocol.identity import Card
from pbem.protocol.turnfile import SignedFile
from pbem.store.gamestore import GameStore

KIND = "handover"
CONSENT_MAGIC = b"pbem-consent/v1\n"
CONSENT_LABEL = b"pbem/v1/handover-consent\x00"
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


def seat_of(f: SignedFile) -> str:
    """The seat a handover passes: its author's, or in a quorum handover the one it names."""
    return str(f.header.get("seat", f.author))


def _passed(con: Constitution, f: SignedFile) -> Constitution:
    if f.author not in con.cards:
        raise FileRejected(f"handover {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    if "seat" in f.header:
        _check_quorum(con, f)
    return dataclasses.replace(con, cards={**con.cards, seat_of(f): new_card(f)})


def in_store(con: Constitution, store: GameStore) -> tuple[Constitution, dict[str, list[bytes]]]:
    """``follow`` over the handovers a home holds, and each seat's earlier signing keys."""
    past: dict[str, list[bytes]] = {}
    for sf in store.files():
        if sf.kind == KIND:
            f = turnfile.parse(sf.read())
            if seat_of(f) in con.cards:
                past.setdefault(seat_of(f), []).append(bytes(con.cards[seat_of(f)].signing_key))
            con = _passed(con, f)
    return con, past


def make(session: Session, store: GameStore, d: Derived, seat: str, card: Card,
         consents: list[bytes] | None = None) -> bytes:
    """The handover of ``seat`` (one of this player's) to ``card``, sealed, not yet stored.

    With ``consents`` (a quorum game, another player's seat): the quorum handover, signed by
    this player, carrying every other remaining player's consent (``consent``)."""
    if consents is not None:
        return _make_quorum(session, store, d, seat, card, consents)
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
    if "seat" in f.header:
        _check_quorum(con, f)
    if f.seq != d.seq + 1 or f.prev != d.last_hash:
        raise FileRejected(f"handover {f.seq} by {f.author} does not follow the game's file {d.seq}")
    check_attest(prev, f)
    last = d.last_log()
    signedtime.check_follows(f, signedtime.last_time([last] if last else [], con.proposal, d.joins.values()))
    _check_live(d)
    seat = seat_of(f)
    card = new_card(f)
    _check_card(d, seat, card)
    mine = card.fingerprint == session.ident.card().fingerprint
    if "seat" in f.header:
        part = _quorum_part(session, store, d, f) if mine else None
    else:
        part = _open_part(d, f) if mine else None
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
        for label, key in part.get("file_keys", {}).items():
            d.keyring.file_keys.setdefault(label, key)
    d.seq = f.seq
    d.last_hash = f.hash
    d.add_log({"seq": f.seq, "author": f.author, "phase": phase_text(f, card), "time": f.header["time"],
               "events": []})


def phase_text(f: SignedFile, card: Card) -> str:
    """How the log, the summaries and the history name a handover."""
    by = f" by the other players ({f.author} wrote it)" if "seat" in f.header else ""
    return f"handover: seat {seat_of(f)} handed to {card.name} <{card.email}> ({card.fingerprint}){by}"


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
        if "seat" in f.header:
            _preload_quorum(session, d, f, files)
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


# --- the quorum handover (game option handover=quorum, pbem.protocol.seatkey) ------------------


def _genesis_header(d: Derived, seat: str) -> dict[str, Any]:
    """The proposal or join in which ``seat`` committed its seed root and escrowed its master."""
    if seat == d.con.host:
        return d.con.h
    return d.joins[seat].header


def recipients(d: Derived, seat: str | None = None) -> list[str]:
    """Whom a turn file's part is sealed to: the public part (``seat`` None) to every card, a
    private part to its seat's card; in a quorum game each also to the escrow key of the seat(s)
    that may read it, so that a substitute who combines a seat's master reads what the seat read."""
    cards = d.con.cards
    out = [c.age_recipient for c in cards.values()] if seat is None else [cards[seat].age_recipient]
    if seatkey.enabled(d.con.options):
        for s in (list(cards) if seat is None else [seat]):
            r = seatkey.recipient(_genesis_header(d, s))
            if r is not None:
                out.append(r)
    return out


def _statement(game: bytes, seq: int, prev: bytes, seat: str, card: bytes, share: bytes) -> bytes:
    """What a consent signs: this place of this game, this seat to this card, with this sealed share."""
    return CONSENT_LABEL + canonical.encode([game, seq, prev, seat, lhash("pbem/v1/handover-card", card),
                                             lhash("pbem/v1/handover-share", share)])


def _my_share_for(session: Session, d: Derived, seat: str, holder: str, card: Card) -> bytes:
    """This player's share of ``seat``'s master (held as ``holder``), sealed to the substitute's ``card``."""
    blob = _genesis_header(d, seat).get("quorum", {}).get("shares", {}).get(holder)
    if not isinstance(blob, bytes):
        raise StateError(f"seat {holder} holds no share of seat {seat}'s secrets")
    share = seatkey.open_share(session.ident.age_key(), blob, seat, f"seat {holder}'s share of seat {seat}")
    return seatkey.seal_share(share, seat, card, session.rng)


def _quorum_place(d: Derived, seat: str, card: Card) -> str:
    """Check a quorum handover of ``seat`` to ``card`` may be made by this player now: its seat."""
    if not seatkey.enabled(d.con.options):
        raise StateError(f"seat {seat!r} is not yours, and this game's players cannot hand it over for its player",
                         hint="only a game proposed with --option handover=quorum allows that; here the game "
                              "can be ended ('pbem game end --abandon')")
    if seat not in d.con.cards or seat in d.my_seats:
        raise StateError(f"seat {seat!r} is not another player's seat in this game",
                         hint="hand your own seat over without consents")
    if not d.my_seats:
        raise StateError("only a player of this game consents to a handover")
    _check_live(d)
    _check_card(d, seat, card)
    return d.my_seats[0]


def consent(session: Session, d: Derived, seat: str, card: Card) -> bytes:
    """This player's consent to hand ``seat`` to ``card`` at the next place of the chain, with its
    share of the seat's master sealed to ``card``: sent to the player who writes the handover."""
    me = _quorum_place(d, seat, card)
    share = _my_share_for(session, d, seat, me, card)
    seq, prev = d.seq + 1, d.last_hash
    sig = session.ident.sign(_statement(d.con.game_id, seq, prev, seat, card.to_bytes(), share))
    return CONSENT_MAGIC + canonical.encode({"game": d.con.game_id, "seq": seq, "prev": prev, "seat": seat,
                                             "by": me, "card": card.to_bytes(), "share": share, "sig": sig})


def _read_consent(d: Derived, data: bytes, seat: str, card: Card) -> tuple[str, list[bytes]]:
    if not data.startswith(CONSENT_MAGIC):
        raise InvalidInput("not a pbem handover consent")
    m = canonical.expect_map(canonical.decode(data[len(CONSENT_MAGIC):]), "consent")
    if set(m) != {"game", "seq", "prev", "seat", "by", "card", "share", "sig"}:
        raise InvalidInput("the handover consent is malformed")
    if m["game"] != d.con.game_id or m["seat"] != seat or m["card"] != card.to_bytes():
        raise InvalidInput(f"a consent from {m['by']!r} is for another game, seat or substitute")
    if m["seq"] != d.seq + 1 or m["prev"] != d.last_hash:
        raise StateError(f"{m['by']}'s consent was made at another place of the game (file {m['seq'] - 1})",
                         hint="every player receives the latest file, then consents again")
    return str(m["by"]), [bytes(m["share"]), bytes(m["sig"])]


def _make_quorum(session: Session, store: GameStore, d: Derived, seat: str, card: Card,
                 consents: list[bytes]) -> bytes:
    me = _quorum_place(d, seat, card)
    got = dict(_read_consent(d, c, seat, card) for c in consents)
    header = {
        "v": 1, "kind": KIND, "game": d.con.game_id, "seq": d.seq + 1, "prev": d.last_hash,
        "author": me, "time": session.clock(), "card": card.to_bytes(),
        "part": _my_share_for(session, d, seat, me, card), "prev_attest": prev_attest(store, d),
        "seat": seat, "consents": got,
    }
    data = turnfile.seal(header, session.ident.sign)
    _check_quorum(d.con, turnfile.parse(data))
    return data


def _check_quorum(con: Constitution, f: SignedFile) -> None:
    """A quorum handover: the option is on, and every remaining seat but its author consents.

    Its author's own consent is its signature of the file."""
    h, seat = f.header, seat_of(f)
    where = f"handover {f.seq} of seat {seat} by {f.author}"
    if not seatkey.enabled(con.options):
        raise FileRejected(f"{where}: this game's players cannot hand over another player's seat",
                           hint="only a game proposed with handover=quorum allows it")
    if seat not in con.cards or seat == f.author:
        raise FileRejected(f"{where}: it names no other seat of this game")
    consents = h.get("consents")
    if not isinstance(consents, dict):
        raise FileRejected(f"{where} carries no consents")
    want = set(con.seats) - {seat, f.author}
    missing = sorted(want - set(consents))
    if missing or set(consents) - want:
        raise FileRejected(f"{where} lacks the consent of {', '.join(missing)}" if missing else
                           f"{where} carries consents of seats that cannot give one",
                           hint="a quorum handover is signed by every remaining player")
    for s in sorted(want):
        c = consents[s]
        if not (isinstance(c, list) and len(c) == 2 and all(isinstance(x, bytes) for x in c)):
            raise FileRejected(f"{where}: the consent of {s} is malformed")
        msg = _statement(con.game_id, f.seq, f.prev, seat, bytes(h["card"]), c[0])
        if not ed25519.verify(bytes(con.cards[s].signing_key), msg, c[1]):
            raise BadSignature(f"{where}: the consent of {s} is not signed by its card")


def _shares(session: Session, f: SignedFile) -> bytes:
    """The master the shares of a quorum handover to this player combine to."""
    seat = seat_of(f)
    blobs = {f.author: bytes(f.header["part"]), **{s: bytes(c[0]) for s, c in f.header["consents"].items()}}
    key = session.ident.age_key()
    return seatkey.combine([seatkey.open_share(key, b, seat, f"{s}'s share in handover {f.seq}")
                            for s, b in sorted(blobs.items())])


def _bad_master(f: SignedFile) -> FileRejected:
    return FileRejected(f"handover {f.seq} of seat {seat_of(f)}: its shares do not combine to the seat's "
                        "committed dice master",
                        hint="a remaining player's tool sent a wrong share; ask them for a fresh handover")


def _preload_quorum(session: Session, d: Derived, f: SignedFile, files: list[SignedFile]) -> None:
    """The escrow key of the seat a quorum handover gives this player, before the replay (the
    parts before the handover are sealed to the seat's earlier card and to that key)."""
    try:
        if new_card(f).fingerprint != session.ident.card().fingerprint:
            return
    except PbemError:
        return  # the replay refuses it in its place
    seat = seat_of(f)
    master = _shares(session, f)
    # the seat's seed root, where the files hold it (a history's replay passes only the handovers)
    h = d.con.h if seat == d.con.host else next((g.header for g in files if g.kind == "join" and g.author == seat),
                                                None)
    if h is not None:
        tree = dice.SeedTree(master, d.con.game_id, seat, int(d.con.options["dice_depth"]))
        if tree.root != h["seed_root"]:
            raise _bad_master(f)
    d.keyring.extra.append(age.parse_identity(seatkey.identity(master, d.con.game_id, seat)))


def _quorum_part(session: Session, store: GameStore, d: Derived, f: SignedFile) -> dict[str, Any]:
    """What a quorum handover gives its substitute: the master its shares combine to, checked
    against the seat's committed roots, and the state and secrets of a replay as the seat."""
    seat = seat_of(f)
    master = _shares(session, f)
    if not master_roots_match(d.params, d.est, seat, master):
        raise _bad_master(f)
    ident = seatkey.identity(master, d.con.game_id, seat)
    if age.x25519_recipient(ident) != seatkey.recipient(_genesis_header(d, seat)):
        raise FileRejected(f"seat {seat}'s escrow key is not the one its master gives: its parts stay sealed",
                           hint="the seat's own tool was not a conforming pbem; end the game instead")
    key = age.parse_identity(ident)
    if all(str(k) != str(key) for k in d.keyring.extra):
        d.keyring.extra.append(key)
    state, secrets = _replay_as(session, store, d, seat, master, f.seq)
    return {"seat": seat, "master": master, "state": state, "secrets": secrets, "file_keys": {}}


def _replay_as(session: Session, store: GameStore, d: Derived, seat: str, master: bytes, upto: int
               ) -> tuple[Any, dict[str, Any]]:
    """The files before place ``upto`` replayed as the holder of ``seat`` (with its escrow key):
    the seat's private state and secrets, as its own tool had them."""
    files = [turnfile.parse(sf.read()) for sf in store.files()]
    d2 = begin(session, files[0])
    d2.keys = d.keys
    for g in files[1:]:
        if g.kind == "join":
            add_join(session, d2, g)
    _, private = d2.con.initial_state()
    d2.my_seats, d2.masters = (seat,), {seat: master}
    d2.privates, d2.secrets_by = {seat: private.get(seat)}, {seat: {"openings": {}, "secret_rolls": {}}}
    for g in files[1:]:
        if g.kind == "turn" and g.seq < upto:
            apply_turn(session, d2, g)
        elif g.kind == KIND and g.seq < upto:
            d2.con = _passed(d2.con, g)
            d2.seq, d2.last_hash = g.seq, g.hash
    return d2.privates.get(seat), d2.secrets_by[seat]
