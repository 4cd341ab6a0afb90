"""Sending game mails over SMTP, with an outbox so that no mail is ever lost.

``send_or_queue`` writes the mail to the outbox folder *before* it talks to
the server and moves it to ``sent/`` only once the server accepted it: if the
network, the password or the server fails, the mail is still on disk and
``resend_outbox`` sends it later. Sending twice is harmless (a receiver
reports the second copy as a duplicate); losing a turn file is not.
"""

from __future__ import annotations

import email.policy
import email.utils
import os
import re
import smtplib
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Literal

from pbem.mail.compose import to_eml
from pbem.mail.config import (
    ENV_PASSWORD,
    MailConfig,
    MailError,
    PasswordProvider,
    network_error,
    remembering,
)
from pbem.mail.config import password_provider as default_password_provider
from pbem.store.fsutil import atomic_write, fsync_dir, make_dirs

SENT_DIR = "sent"
_EML_RE = re.compile(r"^(\d{6})-[0-9a-f]{16}\.eml$")


class RecipientsRefused(MailError):
    """The server refused some or all recipients (``refused``: address -> (code, server text))."""

    def __init__(self, message: str, refused: dict[str, tuple[int, str]], *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.refused = refused


def _where(cfg: MailConfig) -> str:
    return f"SMTP server {cfg.smtp_host}:{cfg.smtp_port}"


def _text(resp: bytes | str) -> str:
    s = resp.decode("utf-8", "replace") if isinstance(resp, bytes) else resp
    return " ".join(s.split())


def _recipients(data: bytes) -> list[str]:
    """Envelope recipients from the To and Cc headers (pbem mails carry no Bcc)."""
    h = BytesHeaderParser(policy=email.policy.default).parsebytes(data)
    fields = [str(v) for name in ("To", "Cc") for v in h.get_all(name, [])]
    out: list[str] = []
    for _, addr in email.utils.getaddresses(fields):
        if addr and addr not in out:
            out.append(addr)
    return out


def _login(s: smtplib.SMTP, cfg: MailConfig, provide: PasswordProvider) -> None:
    if not s.has_extn("auth"):
        raise MailError(f"{_where(cfg)} does not offer authentication (AUTH) on this connection",
                        hint="use smtp_security = \"ssl\" or \"starttls\" (servers offer AUTH only over TLS), "
                             "or remove smtp_user if the server needs no login")
    offered = s.esmtp_features.get("auth", "").upper().split()
    # PLAIN and LOGIN only: over TLS they are safe, and they work with every
    # password store; CRAM-MD5 would need the server to keep the clear password.
    mech = next((m for m in ("PLAIN", "LOGIN") if m in offered), None)
    if mech is None:
        raise MailError(f"{_where(cfg)} offers no PLAIN or LOGIN authentication (it offers: {' '.join(offered)})",
                        hint="ask your mail provider for SMTP settings with password login")
    s.user, s.password = str(cfg.smtp_user), provide("smtp")
    authobject = s.auth_plain if mech == "PLAIN" else s.auth_login
    s.auth(mech, authobject, initial_response_ok=True)


def send_bytes(
    data: bytes,
    cfg: MailConfig,
    password_provider: PasswordProvider | None = None,
    *,
    ssl_context: ssl.SSLContext | None = None,
) -> None:
    """Send an already serialized mail (an .eml file's bytes) exactly as it is."""
    if not cfg.smtp_host:
        raise MailError("no smtp_host is configured", hint="set smtp_host in the [mail] section, or "
                        "set outbox_only = true and send the .eml files yourself")
    rcpts = _recipients(data)
    if not rcpts:
        raise MailError("the mail has no recipients (To/Cc)", hint="check the players' card addresses")
    provide = password_provider or default_password_provider(cfg)
    ctx = ssl_context or ssl.create_default_context()
    envelope_from = email.utils.parseaddr(cfg.sender)[1]
    with _errors(cfg):
        s: smtplib.SMTP
        if cfg.smtp_security == "ssl":
            s = smtplib.SMTP_SSL(cfg.smtp_host, cfg.smtp_port, timeout=cfg.timeout, context=ctx)
        else:
            s = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=cfg.timeout)
        with s:
            s.ehlo()
            if cfg.smtp_security == "starttls":
                # Going on in clear after asking for STARTTLS would send the
                # password and the mail unencrypted: a downgrade attack's goal.
                if not s.has_extn("starttls"):
                    raise MailError(f"{_where(cfg)} does not offer STARTTLS; refusing to send in clear",
                                    hint="check smtp_port (587 is usual for STARTTLS, 465 for ssl)")
                s.starttls(context=ctx)
                s.ehlo()
            if cfg.smtp_user:
                _login(s, cfg, provide)
            refused = s.sendmail(envelope_from, rcpts, data)
            if refused:
                raise RecipientsRefused(
                    f"{_where(cfg)} refused {', '.join(refused)} "
                    f"({'; '.join(f'{c} {_text(t)}' for c, t in refused.values())}); the other recipients got it",
                    {a: (c, _text(t)) for a, (c, t) in refused.items()},
                    hint="check those players' addresses; sending again is harmless (duplicates are ignored)")


def send(
    msg: EmailMessage,
    cfg: MailConfig,
    password_provider: PasswordProvider | None = None,
    *,
    ssl_context: ssl.SSLContext | None = None,
) -> None:
    """Send ``msg`` through the configured SMTP server; every failure is a MailError."""
    send_bytes(to_eml(msg), cfg, password_provider, ssl_context=ssl_context)


@contextmanager
def _errors(cfg: MailConfig) -> Iterator[None]:
    """Turn whatever smtplib, ssl and socket raise into a MailError saying what to do."""
    where = _where(cfg)
    try:
        yield
    except MailError:
        raise
    except smtplib.SMTPAuthenticationError as e:
        raise MailError(f"{where} rejected the login of {cfg.smtp_user}: {e.smtp_code} {_text(e.smtp_error)}",
                        hint=f"wrong password or user: set {ENV_PASSWORD['smtp']} or update your keyring entry "
                             "(some providers need an app password)") from None
    except smtplib.SMTPRecipientsRefused as e:
        refused = {a: (c, _text(t)) for a, (c, t) in e.recipients.items()}
        raise RecipientsRefused(f"{where} refused every recipient: "
                                + "; ".join(f"{a}: {c} {t}" for a, (c, t) in refused.items()), refused,
                                hint="check the players' addresses, and that the server lets you send to them") \
            from None
    except smtplib.SMTPSenderRefused as e:
        raise MailError(f"{where} refused the sender {e.sender}: {e.smtp_code} {_text(e.smtp_error)}",
                        hint="set mail.from to the address of the account you log in with") from None
    except smtplib.SMTPDataError as e:
        raise MailError(f"{where} refused the mail: {e.smtp_code} {_text(e.smtp_error)}",
                        hint="the server's message says why (size limit, spam filter, ...)") from None
    except smtplib.SMTPNotSupportedError as e:
        raise MailError(f"{where} does not support a command pbem needs: {e}",
                        hint="check smtp_security and smtp_port") from None
    except smtplib.SMTPServerDisconnected as e:
        if isinstance(e.__context__, TimeoutError):  # smtplib reports a read timeout as a disconnect
            raise MailError(f"{where} did not answer within {cfg.timeout:g} seconds",
                            hint="check smtp_host, smtp_port and your network; the mail stays queued") from None
        raise MailError(f"{where} closed the connection unexpectedly ({e or 'no reason given'})",
                        hint="check smtp_port and smtp_security (\"ssl\" on a STARTTLS port, or the "
                             "reverse, looks like this); the mail stays queued") from None
    except smtplib.SMTPResponseException as e:
        raise MailError(f"{where} answered {e.smtp_code} {_text(e.smtp_error)}",
                        hint="the server's message says why; try again later") from None
    except smtplib.SMTPException as e:
        raise MailError(f"SMTP error with {where}: {e}", hint="try again later") from None
    except OSError as e:
        raise network_error(e, cfg, "smtp", where, timeout_note="; the mail stays queued") from None


# --- the outbox ------------------------------------------------------------------


@dataclass(frozen=True)
class SendResult:
    path: Path  # where the .eml is now: the outbox (queued) or the sent folder
    status: Literal["sent", "queued"]
    error: MailError | None = None


def _is_eml(p: Path) -> bool:
    # Dot files are atomic_write's temporaries (or the user's own); never send those.
    return p.suffix == ".eml" and not p.name.startswith(".") and p.is_file()


def queued(folder: Path) -> list[Path]:
    """The mails waiting in ``folder``, in sending order (by name)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _is_eml(p))


def _next_number(folder: Path, sent_dir: Path) -> int:
    nums = [int(m.group(1)) for d in (folder, sent_dir) if d.is_dir()
            for p in d.iterdir() if (m := _EML_RE.match(p.name))]
    return max(nums, default=0) + 1


def write_eml(folder: Path, msg: EmailMessage | bytes, *, name: str | None = None,
              sent_dir: Path | None = None) -> Path:
    """Write the mail atomically to ``folder``; returns its path.

    Without ``name`` the file is ``NNNNNN-<hash>.eml``, numbered after every
    mail in ``folder`` and ``sent_dir`` so that names keep the sending order.
    With ``name`` (say "<turn file name>.eml") queueing the same mail again is
    a no-op, and a different mail under that name is an error.
    """
    import hashlib

    data = msg if isinstance(msg, bytes) else to_eml(msg)
    if name is not None:
        if "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".eml"):
            raise ValueError(f"mail file name {name!r} must be a plain name ending in .eml")
        path = folder / name
        try:
            atomic_write(path, data, mode=0o600, exclusive=True)
        except FileExistsError:
            if path.read_bytes() != data:
                raise MailError(f"{path} already holds a different mail",
                                hint="send or remove the queued mail first") from None
        return path
    sent_dir = sent_dir or folder / SENT_DIR
    tag = hashlib.sha256(data).hexdigest()[:16]
    for _ in range(100):
        path = folder / f"{_next_number(folder, sent_dir):06d}-{tag}.eml"
        try:
            # exclusive: two pbem processes queueing at once must not overwrite each other.
            atomic_write(path, data, mode=0o600, exclusive=True)
        except FileExistsError:
            continue
        return path
    raise MailError(f"cannot find a free file name in {folder}", hint="remove stale files from the outbox")


def _mark_sent(path: Path, sent_dir: Path) -> Path:
    make_dirs(sent_dir)
    target = sent_dir / path.name
    os.replace(path, target)
    fsync_dir(sent_dir)
    fsync_dir(path.parent)
    return target


def send_or_queue(
    msg: EmailMessage | bytes,
    cfg: MailConfig | None,
    folder: Path,
    password_provider: PasswordProvider | None = None,
    *,
    ssl_context: ssl.SSLContext | None = None,
    name: str | None = None,
    sent_dir: Path | None = None,
) -> SendResult:
    """Queue the mail in ``folder``, then send it (unless there is no SMTP config or outbox_only).

    On success the .eml moves to ``sent_dir`` (default ``folder/sent``). On a
    send failure the MailError is raised with ``.queued`` set to the .eml's path.
    """
    sent_dir = sent_dir or folder / SENT_DIR
    path = write_eml(folder, msg, name=name, sent_dir=sent_dir)
    if cfg is None or cfg.outbox_only or not cfg.smtp_host:
        return SendResult(path, "queued")
    try:
        send_bytes(path.read_bytes(), cfg, password_provider, ssl_context=ssl_context)
    except MailError as e:
        e.queued = path
        e.message = f"{e.message}; the mail is kept in {path}"
        e.args = (e.message,)
        raise
    return SendResult(_mark_sent(path, sent_dir), "sent")


def resend_outbox(
    folder: Path,
    cfg: MailConfig,
    password_provider: PasswordProvider | None = None,
    *,
    ssl_context: ssl.SSLContext | None = None,
    sent_dir: Path | None = None,
    progress: Callable[[int, int, Path], None] | None = None,
) -> list[SendResult]:
    """Send every queued mail in order; stop at the first failure.

    Stopping keeps the order: a turn file sent after an earlier one that
    failed would only be refused as out of order by the receivers.
    """
    sent_dir = sent_dir or folder / SENT_DIR
    paths = queued(folder)
    # Ask (keyring, prompt) once for the whole batch, not once per mail.
    provide = remembering(password_provider or default_password_provider(cfg))
    results: list[SendResult] = []
    for i, path in enumerate(paths):
        if i and results[-1].status == "queued":
            results.append(SendResult(path, "queued", results[-1].error))
        else:
            try:
                send_bytes(path.read_bytes(), cfg, provide, ssl_context=ssl_context)
                results.append(SendResult(_mark_sent(path, sent_dir), "sent"))
            except MailError as e:
                e.queued = path
                results.append(SendResult(path, "queued", e))
        if progress is not None:
            progress(i + 1, len(paths), path)
    return results
