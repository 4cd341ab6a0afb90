"""Taking found pbem files into their games: game order, quarantine, the seen-set and the pending folder.

Where the files come from (a .pbem file, a mail, a Maildir, IMAP) is
pbem.mail's business; receiving a plain file needs none of it.

A file refused for what it *is* (malformed, badly signed, a rules module
tripping on it), rather than for where the game stands, is a poison file:
it can never be received, and every later run would meet it again in the
same mailbox. ``ingest`` reports it once and keeps it in the home's
``quarantine/`` folder under the hash of its bytes (never a name taken from
the mail or the file), with a one-line note of why; later runs recognise it
by that hash and skip it with a one-line note. Deleting the note lets pbem
try the file again (after an upgrade, say).

Every file a game holds is remembered by the hash of its bytes in
``intake/seen`` (never by a Message-ID, which any sender chooses): a mailbox
read again costs one hash per attachment, not a game load. A file that comes
before its predecessor is kept in ``intake/pending/`` and tried again at every
run until it fits, so the mail that carried it need not be read again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from pbem.errors import AuthError, InvalidInput, OutOfOrder, PbemError, StateError, WrongGame
from pbem.play import game
from pbem.protocol import signedtime, turnfile
from pbem.store.fsutil import atomic_write
from pbem.store.gamestore import game_dir


@dataclass(frozen=True)
class FoundFile:
    filename: str  # sanitized: a bare file name, safe to show or to join to a folder
    data: bytes
    source: str  # where it was found, for messages: "turn.eml part 3", "imap INBOX uid 7"


_KIND_ORDER = {"proposal": 0, "join": 1, "turn": 2, "handover": 2, "reveal": 3}
Status = Literal["added", "duplicate", "invitation", "error", "quarantined"]

# A stranger can mail any number of bad files: past these, a poison file's
# bytes are no longer kept, only its note (which is what makes later runs skip it).
MAX_QUARANTINE_FILES = 1000
MAX_QUARANTINE_BYTES = 256 * 1024 * 1024
# The same bound for files waiting for their predecessor (a stranger can send those too).
MAX_PENDING_FILES = 1000
MAX_PENDING_BYTES = 16 * 1024 * 1024


class ReceiveFailed(PbemError):
    """pbem itself failed on a file (a bug): reported like a refusal so the run goes on."""

    default_hint = ("this is a bug in pbem: the file is kept in the quarantine folder of your home; "
                    "rerun with PBEM_DEBUG=1 and report it")


@dataclass(frozen=True)
class IngestResult:
    found: FoundFile
    received: game.Received | None = None
    error: PbemError | None = None
    what: str = ""  # "game 0a1b2c3d4e5f turn 7 by axis", when the file parses
    quarantined: str | None = None  # the quarantine file's name, set when this run put it there
    skipped: str | None = None  # the note of an earlier run's quarantine, when this run skipped it

    @property
    def status(self) -> Status:
        if self.skipped is not None:
            return "quarantined"
        if self.error is not None or self.received is None:
            return "error"
        s = self.received.status
        if s not in ("added", "duplicate", "invitation"):
            raise AssertionError(f"unknown receive status {s!r}")
        return cast(Status, s)


def quarantine_name(data: bytes) -> str:
    """The only name a poison file gets: the hash of its bytes."""
    return hashlib.sha256(data).hexdigest()


def _describe(data: bytes) -> tuple[str, tuple[int, int, int], turnfile.SignedFile | None]:
    """What the file claims to be, for messages, its place in game order (unparsable last), and the file."""
    try:
        f = turnfile.parse(data)
    except Exception:  # noqa: BLE001 - a description must never fail; receive reports the real error
        return "", (1, 0, 0), None
    return (f"game {f.game.hex()[:12]} {f.kind} {f.seq} by {f.author}",
            (0, f.seq, _KIND_ORDER.get(f.kind, 9)), f)


def _is_poison(session: game.Session, data: bytes, e: PbemError) -> bool:
    """Refused for what the file is, whatever the game's state: receiving it again cannot help.

    Chain and state errors (out of order, no such game yet, not started) and
    unsupported versions can change with the home or an upgrade, so those
    files are tried again on every run; equivocation keeps its own evidence.
    So is a file dated ahead of this computer's clock: tomorrow it may be fine.
    """
    if not isinstance(e, (InvalidInput, AuthError, ReceiveFailed)):
        return False
    try:
        t = turnfile.parse(data).header["time"]
    except Exception:  # noqa: BLE001 - unparsable, or pbem trips on it: poison either way
        return True
    return not (isinstance(t, int) and t > session.clock() + signedtime.FUTURE_TOLERANCE)


def _quarantined_note(session: game.Session, data: bytes) -> str | None:
    note = session.home.quarantine / (quarantine_name(data) + ".txt")
    try:
        return note.read_text(encoding="utf-8", errors="replace").strip() or "refused"
    except OSError:
        return None


def _quarantine(session: game.Session, data: bytes, e: PbemError, what: str) -> str:
    folder = session.home.quarantine
    name = quarantine_name(data)
    kept = sorted(folder.glob("*.pbem")) if folder.is_dir() else []
    if (len(kept) < MAX_QUARANTINE_FILES
            and sum(p.stat().st_size for p in kept) + len(data) <= MAX_QUARANTINE_BYTES):
        atomic_write(folder / f"{name}.pbem", data)
    reason = " ".join(f"{type(e).__name__}: {e}".split())[:300]
    atomic_write(folder / f"{name}.txt", f"{what or 'unparsable file'}: {reason}\n".encode())
    return f"{name}.pbem"


def _receive_one(session: game.Session, data: bytes) -> game.Received:
    try:
        return game.receive(session, data)
    except PbemError:
        raise
    except Exception as e:
        # On purpose: whatever a hostile file makes pbem trip on, the other files
        # and games of this run must still be received (and the bug reported).
        raise ReceiveFailed(f"pbem failed on this file ({type(e).__name__}: {e})"[:300]) from e


Progress = Callable[[int, int, FoundFile], None]


def ingest(session: game.Session, found: Sequence[FoundFile],
           progress: Progress | None = None) -> list[IngestResult]:
    """Receive every found file into the game; one result per file, in the order given.

    Mails arrive in any order, so files are received in game order, and files
    that were out of order are tried again while the others make progress.
    Each file is received on its own: a refused file never stops the others,
    and a poison file is put in quarantine (see the module's docstring). A file
    the game already holds (the seen-set) is reported as a duplicate unread; the
    files of the pending folder are tried too, and reported once they fit.
    """
    given = len(found)
    have = {quarantine_name(f.data) for f in found}
    found = [*found, *(f for f in _pending(session) if f.filename[:-5] not in have)]
    results: dict[int, IngestResult] = {}
    info = [_describe(f.data) for f in found]
    todo = sorted(range(len(found)), key=lambda i: info[i][1])
    seen = _Seen(session)
    done = 0
    while todo:
        retry: list[int] = []
        progressed = False
        for i in todo:
            r = _ingest_one(session, found[i], info[i], seen)
            if r.error is not None and isinstance(r.error, (OutOfOrder, StateError)):
                retry.append(i)
            progressed = progressed or r.status == "added"
            first = i not in results
            results[i] = r
            if first and i < given:
                done += 1
                if progress is not None:
                    progress(done, given, found[i])
        todo = retry if progressed else []
    _settle_pending(session, found, results, given)
    seen.save()
    # A pending file still waiting is not news: only what this run took in is reported.
    return [results[i] for i in range(len(found)) if i < given or results[i].error is None]


def _ingest_one(session: game.Session, f: FoundFile, info: tuple[str, tuple[int, int, int], Any],
                seen: _Seen) -> IngestResult:
    data, what, parsed = f.data, info[0], info[2]
    if parsed is not None and seen.holds(parsed, data):
        seq = 0 if parsed.kind in ("proposal", "join") else parsed.seq
        return IngestResult(f, received=game.Received(parsed.game, parsed.kind, seq, parsed.author, "duplicate"),
                            what=what)
    note = _quarantined_note(session, data)
    if note is not None:
        return IngestResult(f, what=what, skipped=note)
    try:
        rec = _receive_one(session, data)
    except (OutOfOrder, StateError) as e:
        return IngestResult(f, error=e, what=what)
    except PbemError as e:
        q = _quarantine(session, data, e, what) if _is_poison(session, data, e) else None
        return IngestResult(f, error=e, what=what, quarantined=q)
    if rec.status in ("added", "duplicate") and parsed is not None:
        seen.add(parsed, data)
    return IngestResult(f, received=rec, what=what)


class _Seen:
    """The seen-sets of the games met in one run, read once and written once per game."""

    def __init__(self, session: game.Session) -> None:
        self.session = session
        self.sets: dict[bytes, set[str]] = {}
        self.new: dict[bytes, set[str]] = {}

    def _of(self, gid: bytes) -> set[str]:
        if gid not in self.sets:
            self.sets[gid] = game_dir(self.session.home, gid).seen()
        return self.sets[gid]

    def holds(self, f: turnfile.SignedFile, data: bytes) -> bool:
        return quarantine_name(data) in self._of(f.game)

    def add(self, f: turnfile.SignedFile, data: bytes) -> None:
        h = quarantine_name(data)
        self._of(f.game).add(h)
        self.new.setdefault(f.game, set()).add(h)

    def save(self) -> None:
        for gid, hashes in self.new.items():
            store = game_dir(self.session.home, gid)
            if store.exists():  # an invitation's game folder does not exist yet
                store.add_seen(hashes)


def pending_dir(session: game.Session) -> Path:
    return session.home.data / "intake" / "pending"


def _pending(session: game.Session) -> list[FoundFile]:
    folder = pending_dir(session)
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.glob("*.pbem")):
        try:
            out.append(FoundFile(p.name, p.read_bytes(), f"pending {p.name}"))
        except OSError:
            continue
    return out


def _settle_pending(session: game.Session, found: Sequence[FoundFile], results: dict[int, IngestResult],
                    given: int) -> None:
    """Keep what came before its predecessor; forget what was taken in or refused for good."""
    folder = pending_dir(session)
    for i, f in enumerate(found):
        r = results[i]
        name = quarantine_name(f.data) + ".pbem"
        # A game not (yet) in this home too: a mailbox read past is not read again.
        waiting = r.error is not None and isinstance(r.error, (OutOfOrder, StateError, WrongGame))
        if waiting and i < given:
            kept = len(list(folder.glob("*.pbem"))) if folder.is_dir() else 0
            if kept < MAX_PENDING_FILES and len(f.data) <= MAX_PENDING_BYTES:
                atomic_write(folder / name, f.data)
        elif not waiting and i >= given:
            (folder / name).unlink(missing_ok=True)
