"""End of game: each player's reveal file opens everything it still holds sealed.

A reveal is signed like every file and carries, *in the clear* (the game is
over, and the point is that anyone can audit it with no private key):

* ``file_keys``: the 16-byte age file key of every part this seat can open
  (the public part of every turn file, and every private part addressed to
  this seat), labelled "<seq>/public" or "<seq>/<seat>";
* ``dice_master``: the seat's dice master secret, so every seed, and every
  secret roll, can be recomputed and checked against the committed root;
* ``openings``: every commitment of this seat still unopened.

The first reveal closes the game: no further turn is accepted, because the
revealing player's secrets are out. A reveal whose contents do not match what
was committed is refused, and names what does not match. Its ``reason`` says
why it was written ("over", "agreed", "conceded", "abandoned"), and must be
one the game allows its author at that point (pbem.play.ending): a reveal claiming
an agreement that not every seat signed is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.crypto import age
from pbem.errors import AuthError, BrokenChain, Equivocation, InvalidInput, Replayed, StateError, WrongGame
from pbem.formats import canonical
from pbem.play import ending
from pbem.protocol import commit as commitments
from pbem.protocol import schema, signedtime, turnfile
from pbem.protocol.context import Opened
from pbem.protocol.dicefiles import master_roots_match
from pbem.protocol.turnfile import SignedFile
from pbem.store.gamestore import GameStore

if TYPE_CHECKING:
    from pbem.play.derived import Derived, Session


class RevealMismatch(AuthError):
    default_hint = "the reveal does not open what its author committed; keep it as evidence of cheating"


def _payload(f: SignedFile) -> schema.RevealPayload:
    m = canonical.decode(f.header["payload"])
    return schema.reveal_payload(m, f"reveal {f.seq} by {f.author}: payload")


def _check_sig(d: Derived, f: SignedFile, cards: dict[str, Any] | None = None) -> None:
    cards = d.con.cards if cards is None else cards
    if f.game != d.con.game_id:
        raise WrongGame("this reveal belongs to another game")
    if f.author not in cards:
        raise InvalidInput(f"reveal from seat {f.author!r}, which is not in this game",
                           hint="a reveal from a stranger is ignored")
    f.verify_signature(cards[f.author].signing_key)


def preload_keys(d: Derived, reveals: list[SignedFile], cards: dict[str, Any] | None = None) -> None:
    """``cards``: the seats' cards at the end of the chain, where a seat was handed over (pbem.play.handover)."""
    for f in reveals:
        _check_sig(d, f, cards)
        for label, key in _payload(f)["file_keys"].items():
            d.keyring.file_keys.setdefault(label, key)


def add_reveal(d: Derived, store: GameStore, f: SignedFile) -> None:
    """Check a reveal against the game so far and record it (``d`` unchanged on error)."""
    _check_sig(d, f)
    if f.author in d.reveals:
        if d.reveals[f.author].raw == f.raw:
            raise Replayed(f"already have {f.author}'s reveal")
        raise Equivocation(f"{f.author} signed two different reveals")
    if not d.started:
        raise StateError("a reveal before the game started")
    if f.seq != d.seq or f.prev != d.last_hash:
        raise BrokenChain(f"{f.author}'s reveal was made at file {f.seq}, but this game is at file {d.seq}",
                          hint="receive the missing turn files first")
    signedtime.check_follows(f, signedtime.last_time(d.log, d.con.proposal, d.joins.values()))
    ending.check_reveal_reason(d, store, f)
    m = _payload(f)
    if not master_roots_match(d.params, d.est, f.author, m["dice_master"]):  # every dice epoch's
        raise RevealMismatch(f"{f.author}'s revealed dice secret does not match its committed seed root")
    opened: dict[str, Opened] = {}
    for ref, o in m["openings"].items():
        c_wire = d.est["commits"].get(ref)
        if c_wire is None or c_wire["seat"] != f.author:
            raise RevealMismatch(f"{f.author} reveals commitment {ref}, which is not one of its own")
        c = commitments.Commitment.from_wire(c_wire)
        opening = commitments.Opening.from_wire(o)
        try:
            commitments.check(c, d.con.game_id, opening)
        except commitments.CommitmentMismatch:
            raise RevealMismatch(f"{f.author}'s opening of {ref} ({c.label}, {c.context}) "
                                 "does not match its commitment") from None
        opened[ref] = {"value": opening.value, "seq": f.seq, "revealed": True}
    turns = {sf.seq: sf for sf in store.files() if sf.kind == "turn"}
    for label, key in m["file_keys"].items():
        seq_s, _, part = str(label).partition("/")
        if not seq_s.isdigit() or int(seq_s) not in turns:
            raise RevealMismatch(f"{f.author} reveals a key for unknown part {label}")
        h = turnfile.parse(turns[int(seq_s)].read()).header
        blob = h["public"] if part == "public" else h["private"].get(part)
        if not isinstance(blob, bytes):
            raise RevealMismatch(f"{f.author} reveals a key for unknown part {label}")
        try:
            age.decrypt_with_file_key(blob, key)
        except age.AgeError:
            raise RevealMismatch(f"{f.author}'s key for part {label} does not open it") from None
    # Completeness is a matter for the audit to list, not a reason to refuse the file.
    for seq in turns:
        if f"{seq}/{f.author}" not in m["file_keys"]:
            d.violations.append(f"{f.author}'s reveal leaves its private part of file {seq} sealed")
        if f"{seq}/public" not in m["file_keys"]:
            d.violations.append(f"{f.author}'s reveal does not open the public part of file {seq}")
    for ref, c_wire in d.est["commits"].items():
        if c_wire["seat"] == f.author and ref not in d.est["opened"] and ref not in opened:
            d.violations.append(f"{f.author} never opened commitment {ref} ({c_wire['label']})")
    d.est["opened"].update(opened)
    d.reveals[f.author] = f
    for label, key in m["file_keys"].items():
        d.keyring.file_keys.setdefault(label, key)


def make_reveal(session: Session, store: GameStore, d: Derived, unilateral: str = "") -> bytes:
    """This seat's reveal; ``unilateral`` ("conceded" or "abandoned") ends a live game alone."""
    if d.my_seat is None:
        raise StateError("only a seated player can reveal")
    if d.my_seat in d.reveals:
        raise StateError("you have already revealed in this game")
    if not d.started:
        raise StateError("the game has not started")
    if d.master is None:
        raise StateError("this home does not hold your dice secret for this game")
    reason = ending.choose_reason(d, store, d.my_seat, unilateral)
    ident = session.ident
    keys: dict[str, bytes] = {}
    for sf in store.files():
        if sf.kind != "turn":
            continue
        h = turnfile.parse(sf.read()).header
        # A seat taken over (pbem.play.handover) opens the parts before the handover with the
        # file keys the handover gave it: the same keys, so the same reveal.
        for label, blob in ((f"{sf.seq}/public", h["public"]), (f"{sf.seq}/{d.my_seat}", h["private"][d.my_seat])):
            keys[label] = d.keyring.file_keys.get(label) or age.unwrap_file_key(blob, d.keyring.identities())
    openings = {ref: d.secrets["openings"][ref] for ref, c in d.est["commits"].items()
                if c["seat"] == d.my_seat and ref not in d.est["opened"] and ref in d.secrets["openings"]}
    header = {
        "v": 1, "kind": "reveal", "game": d.con.game_id, "seq": d.seq, "prev": d.last_hash,
        "author": d.my_seat, "time": session.clock(), "reason": reason,
        "payload": canonical.encode({"file_keys": keys, "dice_master": d.master, "openings": openings}),
    }
    return turnfile.seal(header, ident.sign)
