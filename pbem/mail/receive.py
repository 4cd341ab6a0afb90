"""Finding pbem files in mails (.eml files, a Maildir) and feeding them to the game.

A mail may hold anything: the text, the map as inline images, a player's
unrelated attachments, or a damaged pbem file. Finding is deliberately
generous (any part that starts with the pbem magic or is named *.pbem), and
judging is left to ``pbem.play.game.receive``, which refuses a bad file with a
precise typed error; ``ingest`` collects those per file so that one damaged
attachment never stops the others.

Quarantine of poison files, the seen-set and the pending folder are
pbem.play.intake's (``ingest``): a plain .pbem file needs no mail code.
"""

from __future__ import annotations

import email.policy
import mailbox
import re
from collections.abc import Iterable
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path

from pbem.errors import NotFound
from pbem.mail.config import MailError
from pbem.play.intake import FoundFile, IngestResult, ReceiveFailed, ingest, quarantine_name
from pbem.protocol import turnfile

# A mail bigger than this is not a game mail (a pbem file is at most 16 MiB,
# about 22 MiB in base64); skipping it keeps a stray video out of memory.
MAX_MESSAGE = 32 * 1024 * 1024
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


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


# The intake itself (game order, quarantine, seen-set, pending) needs no mail: pbem.play.intake.
__all__ = ["MAX_MESSAGE", "FoundFile", "IngestResult", "ReceiveFailed", "attachments_from_eml", "from_eml_files",
           "from_maildir", "ingest", "quarantine_name"]
