"""Finding pbem files in mails (.eml files, a Maildir) and feeding them to the game.

A mail may hold anything: the text, the map as inline images, a player's
unrelated attachments, or a damaged pbem file. Finding is deliberately
generous (any part that starts with the pbem magic or is named *.pbem), and
judging is left to ``pbem.play.game.receive``, which refuses a bad file with a
precise typed error; ``ingest`` collects those per file so that one damaged
attachment never stops the others.

A file refused for what it *is* (malformed, badly signed, a rules module
tripping on it), rather than for where the game stands, is a poison file:
it can never be received, and every later run would meet it again in the
same mailbox. ``ingest`` reports it once and keeps it in the home's
``quarantine/`` folder under the hash of its bytes (never a name taken from
the mail or the file), with a one-line note of why; later runs recognise it
by that hash and skip it with a one-line note. Deleting the note lets pbem
try the file again (after an upgrade, say).
"""

from __future__ import annotations

import email.policy
import hashlib
import mailbox
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path
from typing import Literal, cast

from pbem.errors import AuthError, InvalidInput, NotFound, OutOfOrder, PbemError, StateError
from pbem.mail.config import MailError
from pbem.play import game
from pbem.protocol import signedtime, turnfile
from pbem.store.fsutil import atomic_write

# A mail bigger than this is not a game mail (a pbem file is at most 16 MiB,
# about 22 MiB in base64); skipping it keeps a stray video out of memory.
MAX_MESSAGE = 32 * 1024 * 1024
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class FoundFile:
    filename: str  # sanitized: a bare file name, safe to show or to join to a folder
    data: bytes
    source: str  # where it was found, for messages: "turn.eml part 3", "imap INBOX uid 7"


def _safe_filename(name: str | None, index: int) -> str:
    # The name comes from whoever sent the mail: keep only a harmless base name.
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _SAFE_NAME.sub("_", base).strip("._")[:100]
    return base or f"attachment-{index}.pbem"


def _is_pbem(part: Message, data: bytes) -> bool:
    name = part.get_filename() or ""
    return data.startswith(turnfile.MAGIC) or name.lower().endswith(".pbem")


def attachments_from_eml(data: bytes, source: str = "mail") -> list[FoundFile]:
    """The pbem files attached to one mail, in the mail's order."""
    out: list[FoundFile] = []
    try:
        _walk(data, source, out)
    except Exception:  # noqa: BLE001
        # On purpose: the standard email parser raises untyped errors on some
        # hostile MIME structures, and one such mail must not stop the run
        # over a whole Maildir; the attachments found before it are kept.
        return out
    return out


def _walk(data: bytes, source: str, out: list[FoundFile]) -> None:
    msg = BytesParser(policy=email.policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    for i, part in enumerate(msg.walk()):
        if part.is_multipart() or part.get_content_maintype() == "message":
            continue
        # The mail's own text is never a pbem file: a body part has no file
        # name and is not marked as an attachment.
        if (part.get_content_maintype() == "text" and part.get_filename() is None
                and not part.is_attachment()):
            continue
        try:
            payload = part.get_payload(decode=True)
        except (ValueError, TypeError):  # broken transfer encoding: not something we can use
            continue
        if not isinstance(payload, bytes) or not _is_pbem(part, payload):
            continue
        out.append(FoundFile(_safe_filename(part.get_filename(), i), payload, f"{source} part {i}"))


def from_eml_files(paths: Iterable[Path]) -> list[FoundFile]:
    out: list[FoundFile] = []
    for p in paths:
        try:
            size = p.stat().st_size
            if size > MAX_MESSAGE:
                raise MailError(f"{p} is {size} bytes, too large for a game mail",
                                hint="pass the mail that carries the turn file")
            data = p.read_bytes()
        except FileNotFoundError:
            raise NotFound(f"no such mail file: {p}", hint="check the path") from None
        except IsADirectoryError:
            raise MailError(f"{p} is a folder, not a mail file",
                            hint="for a Maildir folder use --maildir") from None
        except OSError as e:
            raise MailError(f"cannot read {p}: {e.strerror}", hint="check the file's permissions") from None
        out.extend(attachments_from_eml(data, p.name))
    return out


def from_maildir(path: Path) -> list[FoundFile]:
    """Every pbem file in a Maildir's new/ and cur/ (read only: nothing is moved or flagged)."""
    if not all((path / d).is_dir() for d in ("new", "cur")):
        raise MailError(f"{path} is not a Maildir (it needs new/ and cur/ folders)",
                        hint="set mail.maildir to the Maildir folder itself, e.g. ~/Maildir")
    md = mailbox.Maildir(path, factory=None, create=False)
    out: list[FoundFile] = []
    try:
        # Maildir keys start with the delivery time: sorting reads the mails in order.
        for key in sorted(md.keys()):
            try:
                with md.get_file(key) as fh:
                    # Learn the size before reading, so a huge mail is skipped unread.
                    fh.seek(0, 2)
                    if fh.tell() > MAX_MESSAGE:
                        continue
                    fh.seek(0)
                    data = fh.read()
            except (KeyError, FileNotFoundError):
                continue  # moved or deleted by the mail client while we were reading
            out.extend(attachments_from_eml(data, f"maildir {key}"))
    except OSError as e:
        raise MailError(f"cannot read the Maildir {path}: {e.strerror or e}",
                        hint="check the folder's permissions") from None
    return out


# --- ingest ------------------------------------------------------------------------

_KIND_ORDER = {"proposal": 0, "join": 1, "turn": 2, "reveal": 3}
Status = Literal["added", "duplicate", "invitation", "error", "quarantined"]

# A stranger can mail any number of bad files: past these, a poison file's
# bytes are no longer kept, only its note (which is what makes later runs skip it).
MAX_QUARANTINE_FILES = 1000
MAX_QUARANTINE_BYTES = 256 * 1024 * 1024


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


def _describe(data: bytes) -> tuple[str, tuple[int, int, int]]:
    """What the file claims to be, for messages, and its place in game order (unparsable last)."""
    try:
        f = turnfile.parse(data)
    except Exception:  # noqa: BLE001 - a description must never fail; receive reports the real error
        return "", (1, 0, 0)
    return (f"game {f.game.hex()[:12]} {f.kind} {f.seq} by {f.author}",
            (0, f.seq, _KIND_ORDER.get(f.kind, 9)))


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
    and a poison file is put in quarantine (see the module's docstring).
    """
    results: dict[int, IngestResult] = {}
    info = [_describe(f.data) for f in found]
    todo = sorted(range(len(found)), key=lambda i: info[i][1])
    done = 0
    while todo:
        retry: list[int] = []
        progressed = False
        for i in todo:
            data, what = found[i].data, info[i][0]
            note = _quarantined_note(session, data)
            if note is not None:
                r = IngestResult(found[i], what=what, skipped=note)
            else:
                try:
                    r = IngestResult(found[i], received=_receive_one(session, data), what=what)
                    progressed = progressed or r.status == "added"
                except (OutOfOrder, StateError) as e:
                    r = IngestResult(found[i], error=e, what=what)
                    retry.append(i)
                except PbemError as e:
                    q = _quarantine(session, data, e, what) if _is_poison(session, data, e) else None
                    r = IngestResult(found[i], error=e, what=what, quarantined=q)
            first = i not in results
            results[i] = r
            if first:
                done += 1
                if progress is not None:
                    progress(done, len(found), found[i])
        todo = retry if progressed else []
    return [results[i] for i in range(len(found))]
