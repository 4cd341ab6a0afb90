"""Finding pbem files in mails (.eml files, a Maildir) and feeding them to the game.

A mail may hold anything: the text, the map as inline images, a player's
unrelated attachments, or a damaged pbem file. Finding is deliberately
generous (any part that starts with the pbem magic or is named *.pbem), and
judging is left to ``pbem.game.receive``, which refuses a bad file with a
precise typed error; ``ingest`` collects those per file so that one damaged
attachment never stops the others.
"""

from __future__ import annotations

import email.policy
import mailbox
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path
from typing import Literal, cast

from pbem import game, turnfile
from pbem.errors import NotFound, OutOfOrder, PbemError, StateError
from pbem.mail.config import MailError

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
    msg = BytesParser(policy=email.policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    out: list[FoundFile] = []
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
    return out


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


@dataclass(frozen=True)
class IngestResult:
    found: FoundFile
    received: game.Received | None = None
    error: PbemError | None = None

    @property
    def status(self) -> Literal["added", "duplicate", "invitation", "error"]:
        if self.error is not None or self.received is None:
            return "error"
        s = self.received.status
        if s not in ("added", "duplicate", "invitation"):
            raise AssertionError(f"unknown receive status {s!r}")
        return cast(Literal["added", "duplicate", "invitation"], s)


def _order(found: FoundFile) -> tuple[int, int, int]:
    """Game order (sequence number, then kind); unparsable files last, where they still get their error."""
    try:
        f = turnfile.parse(found.data)
    except PbemError:
        return (1, 0, 0)
    return (0, f.seq, _KIND_ORDER.get(f.kind, 9))


Progress = Callable[[int, int, FoundFile], None]


def ingest(session: game.Session, found: Sequence[FoundFile],
           progress: Progress | None = None) -> list[IngestResult]:
    """Receive every found file into the game; one result per file, in the order given.

    Mails arrive in any order, so files are received in game order, and files
    that were out of order are tried again while the others make progress.
    """
    results: dict[int, IngestResult] = {}
    todo = sorted(range(len(found)), key=lambda i: _order(found[i]))
    done = 0
    while todo:
        retry: list[int] = []
        progressed = False
        for i in todo:
            try:
                r = IngestResult(found[i], received=game.receive(session, found[i].data))
                progressed = progressed or r.status == "added"
            except (OutOfOrder, StateError) as e:
                r = IngestResult(found[i], error=e)
                retry.append(i)
            except PbemError as e:
                r = IngestResult(found[i], error=e)
            first = i not in results
            results[i] = r
            if first:
                done += 1
                if progress is not None:
                    progress(done, len(found), found[i])
        todo = retry if progressed else []
    return [results[i] for i in range(len(found))]
