"""Dispute evidence that a third party can check with no key and no game folder.

A proof bundle holds the game's proposal (which carries every player's signed
card), the chain of files, and any conflicting files kept as evidence. Checking
it needs only signatures and hashes:

* **equivocation**: two different files, both validly signed by the same seat,
  at the same place in the chain (same game, same sequence number) — the seat
  showed different histories to different players, or tried to take a move back;
* **stalling**: the chain is intact up to its last file, signed and dated by
  its author; whose move it then was is stated by the player who wrote the
  bundle and can be confirmed by anyone who holds the game (``pbem verify``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from pbem import canonical, turnfile
from pbem.errors import InvalidInput, PbemError, Unsupported
from pbem.genesis import Constitution, read_proposal
from pbem.store import GameStore

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
    files = [turnfile.parse(b) for b in canonical.get(m, "files", list, "proof")]
    evidence = [turnfile.parse(b) for b in canonical.get(m, "evidence", list, "proof")]
    if not files or files[0].kind != "proposal":
        raise InvalidInput("proof bundle does not start with the game's proposal")
    con: Constitution = read_proposal(files[0])  # checks every card and the host's signature
    rep = ProofReport(con.game_id.hex(), len(files))
    last = files[0]
    prev_hash = None
    for f in files[1:]:
        if f.game != con.game_id:
            rep.problems.append(f"file {f.seq} belongs to another game")
            continue
        try:
            f.verify_signature(con.cards[f.author].signing_key)
        except (PbemError, KeyError):
            rep.problems.append(f"file {f.seq} ({f.kind}) is not validly signed by seat {f.author}")
            continue
        if f.kind == "turn":
            if prev_hash is not None and f.prev != prev_hash:
                rep.problems.append(f"file {f.seq} does not chain to file {f.seq - 1}")
            prev_hash = f.hash
            last = f
    rep.findings.append(f"the chain is intact and signed up to file {last.seq}, by {last.author}, dated "
                        + datetime.datetime.fromtimestamp(int(last.header['time']), datetime.UTC)
                        .strftime('%Y-%m-%d %H:%M UTC'))
    waiting = m.get("waiting_for") or ""
    if waiting:
        rep.findings.append(f"the bundle's author states that the game has waited for {waiting} since then")
    by_place: dict[tuple[str, int, str], list[turnfile.SignedFile]] = {}
    for f in [*files[1:], *evidence]:
        by_place.setdefault((f.kind, f.seq, f.author), []).append(f)
    for (kind, seq, author), group in sorted(by_place.items()):
        distinct = {f.raw: f for f in group}
        if len(distinct) < 2:
            continue
        valid = []
        for f in distinct.values():
            try:
                f.verify_signature(con.cards[author].signing_key)
                valid.append(f)
            except (PbemError, KeyError):
                rep.problems.append(f"an evidence file for {kind} {seq} is not signed by {author}")
        if len(valid) >= 2:
            rep.findings.append(f"EQUIVOCATION proven: seat {author} ({con.cards[author].name}) signed "
                                f"{len(valid)} different {kind} files with sequence number {seq}")
    return rep
