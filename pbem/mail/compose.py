"""Building game mails.

A game mail is ``multipart/mixed``::

    multipart/alternative
        text/plain                    what every mail client can show
        multipart/related
            text/html                 the same, with the map as inline images (cid:)
            image/png ...
    application/vnd.pbem              the turn file, base64, byte-identical for everyone

Only what every player may see goes into a mail: one mail goes to all
players, and the turn file's secrets are already encrypted per seat inside it.
A "notice" mail (docs/mail.md, mail body) goes further: its subject and text
name no game content at all, so the mail provider learns only what the
envelope shows (docs/protocol.md §7a).

Given a fixed ``message_id`` and ``date`` the bytes are fully reproducible:
MIME boundaries are derived from a hash of the content instead of Python's
random ones, so tests and the demo can compare mails byte for byte.
"""

from __future__ import annotations

import email.policy
import email.utils
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage, MIMEPart

from pbem.mail.config import MailError
from pbem.protocol import turnfile

PBEM_MIME = "application/vnd.pbem"
GAME_HEADER = "X-Pbem-Game"
SUBJECT_PREFIX = "[pbem]"

# Headers the MIME structure owns; letting callers set them would produce a broken mail.
_RESERVED = {"content-type", "content-transfer-encoding", "content-disposition", "mime-version",
             "from", "to", "subject", "message-id", "date"}
_HEADER_NAME = re.compile(r"^[!-9;-~]+$")  # RFC 5322 field name: printable ASCII except ':'
_CID = re.compile(r"^[A-Za-z0-9._%+-]+(@[A-Za-z0-9.-]+)?$")


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    mime: str = PBEM_MIME


@dataclass(frozen=True)
class InlineImage:
    cid: str  # referenced from the HTML as "cid:<cid>"
    png: bytes


def _check_header_value(name: str, value: str) -> None:
    # A CR or LF in a value would let text (a player name, a subject) inject headers.
    if "\r" in value or "\n" in value:
        raise MailError(f"mail header {name} contains a line break", hint="use a single-line value")


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256(b"pbem/v1/mime-boundary")
    for p in parts:
        b = p.encode("utf-8") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "big") + b)
    return h.hexdigest()[:32]


def _tidy(part: MIMEPart, seed: str, path: str = "0") -> None:
    """Give every multipart a deterministic boundary; drop MIME-Version from subparts.

    (The add_* helpers create subparts as whole messages, each with its own
    MIME-Version header, which RFC 2045 only wants on the top level.)
    """
    if path != "0":
        del part["MIME-Version"]
    # "=_" never occurs in base64 or quoted-printable text, and the hash of the
    # content cannot occur in that content, so these boundaries are collision-free.
    if part.is_multipart():
        part.set_boundary(f"=_pbem_{seed}_{path}")
        payload = part.get_payload()
        assert isinstance(payload, list)
        for i, sub in enumerate(payload):
            _tidy(sub, seed, f"{path}.{i}")


def build_message(
    *,
    sender: str,
    recipients: Sequence[str],
    subject: str,
    text: str,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    inline_images: Sequence[InlineImage] = (),
    headers: Mapping[str, str] | None = None,
    message_id: str | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """A game mail (structure in the module docstring); inline images need ``html``."""
    if not recipients:
        raise MailError("a mail needs at least one recipient", hint="check the players' card addresses")
    if inline_images and html is None:
        raise ValueError("inline images are only shown by the HTML part: pass html too")
    headers = dict(headers or {})
    for name, value in [("From", sender), ("Subject", subject), *((f"To ({r})", r) for r in recipients),
                        *headers.items()]:
        _check_header_value(name, value)
    for name in headers:
        if not _HEADER_NAME.match(name) or name.lower() in _RESERVED:
            raise ValueError(f"header {name!r} cannot be set through headers=")
    for r in recipients:
        if "@" not in email.utils.parseaddr(r)[1]:
            raise MailError(f"{r!r} is not an email address", hint="check the players' card addresses")
    for img in inline_images:
        if not _CID.match(img.cid):
            raise ValueError(f"content id {img.cid!r} must be a plain token like 'map@pbem'")

    if date is None:
        date = datetime.now(UTC)
    if message_id is None:
        domain = email.utils.parseaddr(sender)[1].rpartition("@")[2] or "pbem.invalid"
        message_id = email.utils.make_msgid("pbem", domain=domain)

    msg = EmailMessage(policy=email.policy.default)
    msg["From"] = sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject
    msg["Date"] = email.utils.format_datetime(date)
    msg["Message-ID"] = message_id
    for name, value in headers.items():
        msg[name] = value

    # The add_* calls reshape the message in place: set_content gives text/plain,
    # add_alternative wraps it in multipart/alternative, add_related turns the
    # HTML part into multipart/related, add_attachment wraps all in multipart/mixed.
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
        if inline_images:
            body = msg.get_payload()
            assert isinstance(body, list)
            html_part = body[1]
            assert isinstance(html_part, MIMEPart)
            for img in inline_images:
                html_part.add_related(img.png, "image", "png", cid=f"<{img.cid}>",
                                      disposition="inline", filename=f"{img.cid.split('@')[0]}.png")
    for a in attachments:
        maintype, _, subtype = a.mime.partition("/")
        if not subtype:
            raise ValueError(f"MIME type {a.mime!r} must be type/subtype")
        msg.add_attachment(a.data, maintype, subtype, filename=a.filename, cte="base64")

    seed = _digest(sender, *recipients, subject, text, html or "", message_id, msg["Date"],
                   *[f"{k}: {v}" for k, v in headers.items()],
                   *[x for a in attachments for x in (a.filename, a.mime, a.data)],
                   *[x for i in inline_images for x in (i.cid, i.png)])
    _tidy(msg, seed)
    return msg


def to_eml(msg: EmailMessage) -> bytes:
    """The mail as sent over SMTP: CRLF line ends, long headers folded."""
    return msg.as_bytes(policy=email.policy.SMTP)


def notice_subject(game: bytes, seq: int) -> str:
    """The subject of a "notice" mail: the game id and file number, which the attachment shows anyway."""
    return f"{SUBJECT_PREFIX} game {game.hex()[:12]}: file {seq}"


def file_attachment_name(data: bytes) -> str:
    """The attachment name for a pbem file (the same as the game's outbox name)."""
    f = turnfile.parse(data)
    return f"{f.game.hex()[:12]}-{f.seq:06d}-{f.kind}-{f.author}.pbem"


def file_message(
    data: bytes,
    *,
    sender: str,
    recipients: Sequence[str],
    game_name: str | None = None,
    text: str | None = None,
    html: str | None = None,
    inline_images: Sequence[InlineImage] = (),
    message_id: str | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """The mail carrying one pbem file to every player.

    The subject starts with "[pbem]" and the X-Pbem-Game header names the game,
    so ``from_imap`` finds the mail; the body must hold only public information.
    """
    f = turnfile.parse(data)
    gid = f.game.hex()
    name = game_name or f"game {gid[:12]}"
    what = {"proposal": "new game proposal", "join": f"{f.author} joins",
            "turn": f"file {f.seq} by {f.author}", "reveal": f"final reveal by {f.author}"}.get(f.kind, f.kind)
    subject = f"{SUBJECT_PREFIX} {name}: {what}"
    if text is None:
        text = (f"{what.capitalize()} in {name}.\n\n"
                "The attached .pbem file is signed and encrypted; only pbem can read it.\n"
                "Receive it with:  pbem receive FILE  (or pbem receive --imap / --maildir)\n")
    return build_message(
        sender=sender, recipients=recipients, subject=subject, text=text, html=html,
        attachments=[Attachment(file_attachment_name(data), data)], inline_images=inline_images,
        headers={GAME_HEADER: gid}, message_id=message_id, date=date)
