"""Dispute evidence that a third party can check with no key and no game folder.

A proof bundle holds the game's proposal (which carries every player's signed
card), the chain of files, and any conflicting files kept as evidence. Checking
it needs only signatures and hashes:

* **equivocation**: two different signed statements by the same seat for the
  same place in the chain (same game, kind and sequence number) — the seat
  showed different histories to different players, or tried to take a move back.
  A statement is a whole file validly signed by the seat, or the seat's
  ``tcsig`` over "game, kind, seq, author, body hash" that another player's
  turn file carries as its ``prev_attest`` (with three or more seats, the
  player who meets the other history holds only that); two with different
  body hashes (or signatures) prove it;
* **stalling**: the chain is intact up to its last file, signed by its author
  with a signed time that is the author's claim (pbem.protocol.signedtime bounds it
  against the files before it, but nobody can prove a date); whose move it
  then was is stated by the player who wrote the bundle and can be confirmed
  by anyone who holds the game (``pbem verify``).

A seat handed over (pbem.play.handover) signs with its substitute's card from
the handover's place on: every statement is checked against the card that held
its seat at its place, so a substitute's file is the seat's, and its earlier
card's two statements for one place before the handover are still its proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.errors import InvalidInput, PbemError, Unsupported
from pbem.formats import canonical
from pbem.play import handover
from pbem.protocol import signedtime, turnfile
from pbem.protocol.genesis import Constitution, read_proposal
from pbem.store.gamestore import GameStore

MAGIC = b"pbem-proof/v1\n"


def make(store: GameStore, *, waiting_for: str | None, note: str = "") -> bytes:
    files = [sf.read() for sf in store.files()]
    evidence = sorted(p.read_bytes() for p in store.evidence_dir.glob("*.pbem")) if store.evidence_dir.is_dir() else []
    return MAGIC + canonical.encode({"game": store.game_id, "files": files, "evidence": evidence,
                                     "waiting_for": waiting_for or "", "note": note})


@dataclass
class ProofReport:
    game: str
    files: int
    findings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def check(data: bytes) -> ProofReport:
    if not data.startswith(MAGIC):
        if data.startswith(b"pbem-proof/"):
            raise Unsupported("this proof bundle was made by a newer pbem")
        raise InvalidInput("not a pbem proof bundle")
    m = canonical.expect_map(canonical.decode(data[len(MAGIC):]), "proof")
    files = _parse_all(canonical.get(m, "files", list, "proof"))
    evidence = _parse_all(canonical.get(m, "evidence", list, "proof"))
    if not files or files[0].kind != "proposal":
        raise InvalidInput("proof bundle does not start with the game's proposal")
    con: Constitution = read_proposal(files[0])  # checks every card and the host's signature
    rep = ProofReport(con.game_id.hex(), len(files))
    last = files[0]
    prev_hash = None
    last_turn: turnfile.SignedFile | None = None
    eras: list[tuple[int, Constitution]] = [(0, con)]
    for f in files[1:]:
        if f.game != con.game_id:
            rep.problems.append(f"file {f.seq} belongs to another game")
            continue
        cur = eras[-1][1]
        try:
            f.verify_signature(cur.cards[f.author].signing_key)
            if f.kind == handover.KIND:
                eras.append((f.seq, handover.follow(cur, [f])))
        except (PbemError, KeyError):
            rep.problems.append(f"file {f.seq} ({f.kind}) is not validly signed by seat {f.author}")
            continue
        if f.kind in turnfile.CHAIN_KINDS:
            if prev_hash is not None and f.prev != prev_hash:
                rep.problems.append(f"file {f.seq} does not chain to file {f.seq - 1}")
            elif f.prev_attest != (last_turn.attestation if last_turn is not None else None):
                rep.problems.append(f"file {f.seq} does not attest file {f.seq - 1} it builds on")
            prev_hash = f.hash
            last = last_turn = f
    rep.findings.append(f"the chain is intact and signed up to file {last.seq}, by {last.author}, with the "
                        f"signed time {signedtime.describe(last.header['time'])} (as claimed by its author)")
    waiting = m.get("waiting_for") or ""
    if waiting:
        rep.findings.append(f"the bundle's author states that the game has waited for {waiting} since then")
    _equivocations(con, eras, files[1:], evidence, rep)
    return rep


Place = tuple[str, int, str]  # kind, seq, author


def _parse_all(raws: list[object]) -> list[turnfile.SignedFile]:
    if not all(isinstance(b, bytes) for b in raws):
        raise InvalidInput("proof bundle: a file entry is not bytes")
    return [turnfile.parse(b) for b in raws if isinstance(b, bytes)]


Eras = list[tuple[int, Constitution]]  # (place of a handover, the cards from the next place on)


def _cards_at(eras: Eras, seq: int) -> Constitution:
    """The constitution whose cards held the seats at place ``seq`` (a handover is its old card's)."""
    return [eras[0][1], *(c for at, c in eras[1:] if at < seq)][-1]


def _statements(con: Constitution, eras: Eras, chain: list[turnfile.SignedFile],
                evidence: list[turnfile.SignedFile], rep: ProofReport) -> dict[Place, dict[tuple[bytes, bytes], str]]:
    """Every statement a seat validly signed, by place: {(body hash, sig): where it was found}."""
    out: dict[Place, dict[tuple[bytes, bytes], str]] = {}
    for i, f in enumerate([*chain, *evidence]):
        if f.game != con.game_id:
            continue
        card = _cards_at(eras, f.seq).cards.get(f.author)
        try:
            if card is None:
                raise InvalidInput(f"no seat {f.author}")
            f.verify_signature(card.signing_key)
            out.setdefault((f.kind, f.seq, f.author), {}).setdefault(
                (turnfile.body_hash(f.body), f.sig), f"the file {f.kind} {f.seq} itself")
        except PbemError:
            if i >= len(chain):  # the chain's own files were reported above
                rep.problems.append(f"an evidence file for {f.kind} {f.seq} is not signed by {f.author}")
        a = f.prev_attest
        if a is None:
            continue
        # The carried statement stands on the attested seat's signature alone,
        # whoever signed the file that carries it.
        then = _cards_at(eras, f.seq - 1).cards
        key = then[a.author].signing_key if a.author in then else None
        if key is None or not a.verify(con.game_id, f.seq - 1, key):
            rep.problems.append(f"file {f.seq} by {f.author} carries a statement for file {f.seq - 1} "
                                f"that is not signed by {a.author}")
            continue
        out.setdefault((a.kind, f.seq - 1, a.author), {}).setdefault(
            (a.body_hash, a.sig), f"{a.author}'s signature carried in {f.author}'s file {f.seq}")
    return out


def _equivocations(con: Constitution, eras: Eras, chain: list[turnfile.SignedFile],
                   evidence: list[turnfile.SignedFile], rep: ProofReport) -> None:
    for (kind, seq, author), signed in sorted(_statements(con, eras, chain, evidence, rep).items()):
        if len(signed) < 2:
            continue
        where = "; ".join(sorted(set(signed.values())))
        rep.findings.append(f"EQUIVOCATION proven: seat {author} ({_cards_at(eras, seq).cards[author].name}) signed "
                            f"{len(signed)} different {kind} files with sequence number {seq} ({where})")
