"""Reading game mails from an IMAP folder, strictly read-only.

The folder is opened with EXAMINE (read-only) and bodies are fetched with
BODY.PEEK[], so nothing is marked as read, moved or deleted: the player's
mail client still shows every mail as it was, and running ``pbem receive``
twice is harmless (the game reports the files it already has as duplicates).
A ``Watermark`` (UIDVALIDITY and the last UID taken in) makes the next run
fetch only the mails that came since.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import imaplib
import re
import ssl
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from pbem.mail.compose import GAME_HEADER, SUBJECT_PREFIX
from pbem.mail.config import ENV_PASSWORD, MailConfig, MailError, PasswordProvider, network_error
from pbem.mail.config import password_provider as default_password_provider
from pbem.mail.receive import MAX_MESSAGE, FoundFile, attachments_from_eml
from pbem.store.fsutil import atomic_write

FETCH_BATCH = 25  # bodies per FETCH: bounded memory per round trip, few round trips
_UID_RE = re.compile(rb"\bUID (\d+)")
_SIZE_RE = re.compile(rb"\bRFC822\.SIZE (\d+)")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def encode_mailbox(name: str) -> str:
    """A folder name as an IMAP quoted string, in modified UTF-7 (RFC 3501 5.1.3)."""
    out: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            b64 = base64.b64encode("".join(buf).encode("utf-16-be")).rstrip(b"=").replace(b"/", b",")
            out.append("&" + b64.decode("ascii") + "-")
            buf.clear()

    for ch in name:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            buf.append(ch)
    flush()
    s = "".join(out)
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _where(cfg: MailConfig) -> str:
    return f"IMAP server {cfg.imap_host}:{cfg.imap_port}"


def _text(x: object) -> str:
    if isinstance(x, list | tuple):
        x = b" ".join(i for i in x if isinstance(i, bytes))
    s = x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)
    return " ".join(s.split())


@contextmanager
def _errors(cfg: MailConfig) -> Iterator[None]:
    """Turn whatever imaplib, ssl and socket raise into a MailError saying what to do."""
    where = _where(cfg)
    try:
        yield
    except MailError:
        raise
    except imaplib.IMAP4.abort as e:
        raise MailError(f"{where} dropped the connection ({_text(e.args[0] if e.args else e)})",
                        hint="check imap_port and imap_security (\"ssl\" is usually port 993); try again later") \
            from None
    except imaplib.IMAP4.error as e:
        raise MailError(f"{where} answered with an error: {_text(e.args[0] if e.args else e)}",
                        hint="try again later; if it persists, check the [mail] settings") from None
    except EOFError:
        raise MailError(f"{where} dropped the connection",
                        hint="check imap_port and imap_security; try again later") from None
    except OSError as e:
        raise network_error(e, cfg, "imap", where) from None


def _connect(cfg: MailConfig, ctx: ssl.SSLContext) -> imaplib.IMAP4:
    host = str(cfg.imap_host)
    if cfg.imap_security == "ssl":
        return imaplib.IMAP4_SSL(host, cfg.imap_port, ssl_context=ctx, timeout=cfg.timeout)
    c = imaplib.IMAP4(host, cfg.imap_port, timeout=cfg.timeout)
    if cfg.imap_security == "starttls":
        try:
            if "STARTTLS" not in c.capabilities:
                # Logging in anyway would send the password in clear: a downgrade attack's goal.
                raise MailError(f"{_where(cfg)} does not offer STARTTLS; refusing to log in in clear",
                                hint="check imap_port (993 is usual for \"ssl\", 143 for \"starttls\")")
            c.starttls(ssl_context=ctx)
        except BaseException:
            # The caller never gets the connection, so close it here; a failed TLS
            # handshake may have closed the socket already.
            with contextlib.suppress(OSError):
                c.shutdown()
            raise
    return c


def _login(c: imaplib.IMAP4, cfg: MailConfig, provide: PasswordProvider) -> None:
    user = str(cfg.imap_user)
    if "LOGINDISABLED" in c.capabilities and "AUTH=PLAIN" not in c.capabilities:
        raise MailError(f"{_where(cfg)} does not allow a password login on this connection",
                        hint="use imap_security = \"ssl\" or \"starttls\"")
    pw = provide("imap")
    try:
        if "AUTH=PLAIN" in c.capabilities:
            # AUTHENTICATE PLAIN carries UTF-8; LOGIN in imaplib is ASCII only.
            blob = f"\0{user}\0{pw}".encode()
            c.authenticate("PLAIN", lambda _challenge: blob)
        else:
            c.login(user, pw)
    except imaplib.IMAP4.abort:
        raise
    except (imaplib.IMAP4.error, UnicodeEncodeError) as e:
        raise MailError(f"{_where(cfg)} rejected the login of {user}: {_text(e.args[0] if e.args else e)}",
                        hint=f"wrong password or user: set {ENV_PASSWORD['imap']} or update your keyring entry "
                             "(some providers need an app password)") from None


def _ok(cfg: MailConfig, typ: str, data: Sequence[object], what: str, hint: str) -> None:
    if typ != "OK":
        raise MailError(f"{_where(cfg)}: {what} failed: {_text(data)}", hint=hint)


def search_criteria(search: Literal["pbem", "all"], since: date | None) -> list[str]:
    crit: list[str] = []
    if search == "pbem":
        # HEADER with an empty string matches every mail that has the header at all.
        crit += ["OR", "HEADER", GAME_HEADER, '""', "SUBJECT", f'"{SUBJECT_PREFIX}"']
    if since is not None:
        crit += ["SINCE", f"{since.day}-{_MONTHS[since.month - 1]}-{since.year}"]
    return crit or ["ALL"]


@dataclass
class Watermark:
    """How far a folder was read: its UIDVALIDITY and the highest UID taken in (0: none yet).

    ``from_imap`` fetches only UIDs above ``last`` while the folder's UIDVALIDITY is
    unchanged (a new one renumbers every mail: read it all again), and moves the mark
    to what it fetched; the caller saves it (``save``) once the files are taken in.
    """

    uidvalidity: int = 0
    last: int = 0

    @classmethod
    def load(cls, path: Path) -> Watermark:
        try:
            v, last = path.read_text(encoding="ascii").split()
            return cls(int(v), int(last))
        except (OSError, ValueError, UnicodeDecodeError):
            return cls()

    def save(self, path: Path) -> None:
        atomic_write(path, f"{self.uidvalidity} {self.last}\n".encode("ascii"))


def watermark_path(data: Path, cfg: MailConfig) -> Path:
    """Where a home keeps the watermark of the configured server, user and folder."""
    key = hashlib.sha256(f"{cfg.imap_host}\0{cfg.imap_port}\0{cfg.imap_user}\0{cfg.imap_folder}".encode())
    return data / "intake" / f"imap-{key.hexdigest()[:16]}.txt"


def _uidvalidity(c: imaplib.IMAP4) -> int:
    _, data = c.response("UIDVALIDITY")
    try:
        return int(data[0]) if data and data[0] else 0
    except (TypeError, ValueError):
        return 0


def from_imap(
    cfg: MailConfig,
    password_provider: PasswordProvider | None = None,
    *,
    ssl_context: ssl.SSLContext | None = None,
    search: Literal["pbem", "all"] = "pbem",
    since: date | None = None,
    progress: Callable[[int, int], None] | None = None,
    watermark: Watermark | None = None,
) -> list[FoundFile]:
    """The pbem files in the configured IMAP folder, oldest mail first.

    ``search="pbem"`` looks only at mails with an X-Pbem-Game header or "[pbem]"
    in the subject (what pbem sends); ``"all"`` at every mail, for files a
    player attached by hand. Mails over MAX_MESSAGE bytes are skipped unread.
    With a ``watermark``, only mails newer than it are fetched, and it is moved on.
    """
    if not cfg.imap_host or not cfg.imap_user:
        raise MailError("no IMAP server is configured (imap_host and imap_user)",
                        hint="set imap_host and imap_user in the [mail] section, or use --maildir / --eml")
    provide = password_provider or default_password_provider(cfg)
    ctx = ssl_context or ssl.create_default_context()
    found: list[FoundFile] = []
    with _errors(cfg):
        c = _connect(cfg, ctx)
        try:
            _login(c, cfg, provide)
            typ, data = c.select(encode_mailbox(cfg.imap_folder), readonly=True)
            _ok(cfg, typ, data, f"opening the folder {cfg.imap_folder!r}",
                "check imap_folder (folder names are case-sensitive, except INBOX)")
            validity = _uidvalidity(c)
            after = watermark.last if watermark is not None and validity and watermark.uidvalidity == validity else 0
            crit = search_criteria(search, since) + (["UID", f"{after + 1}:*"] if after else [])
            typ, data = c.uid("SEARCH", *crit)
            _ok(cfg, typ, data, "searching", "try again later")
            # "n:*" always matches the highest UID, even one below n (RFC 3501 6.4.8).
            # The server's answer is data like any other: a token that is not a UID is skipped.
            uids = [u for chunk in data if isinstance(chunk, bytes) for u in chunk.split()
                    if u.isdigit() and int(u) > after]
            if watermark is not None:
                watermark.uidvalidity = validity
                watermark.last = max([after, *(int(u) for u in uids)]) if validity else 0
            if not uids:
                return []
            sizes: dict[bytes, int] = {}
            for i in range(0, len(uids), 500):
                typ, data = c.uid("FETCH", b",".join(uids[i:i + 500]).decode(), "(RFC822.SIZE)")
                _ok(cfg, typ, data, "reading mail sizes", "try again later")
                for line in data:
                    if isinstance(line, bytes) and (um := _UID_RE.search(line)) and (m := _SIZE_RE.search(line)):
                        sizes[um.group(1)] = int(m.group(1))
            wanted = [u for u in uids if sizes.get(u, 0) <= MAX_MESSAGE]
            bodies: dict[bytes, bytes] = {}
            for i in range(0, len(wanted), FETCH_BATCH):
                typ, data = c.uid("FETCH", b",".join(wanted[i:i + FETCH_BATCH]).decode(), "(BODY.PEEK[])")
                _ok(cfg, typ, data, "fetching mails", "try again later")
                for item in data:
                    if (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], bytes)
                            and isinstance(item[1], bytes) and (um := _UID_RE.search(item[0]))):
                        bodies[um.group(1)] = item[1]
                if progress is not None:
                    progress(min(i + FETCH_BATCH, len(wanted)), len(wanted))
            for u in sorted(bodies, key=int):
                found.extend(attachments_from_eml(bodies[u], f"imap {cfg.imap_folder} uid {u.decode()}"))
        finally:
            try:
                c.logout()
            except (imaplib.IMAP4.error, OSError):
                pass  # the answer is already in hand; a failed goodbye changes nothing
    return found
