"""Mail settings: the ``[mail]`` section of ``<config>/config.toml``, and passwords.

Passwords never live in a file pbem reads: a config file is copied, backed up
and pasted into bug reports far more often than a keyring is. So a
``password`` key is refused outright (rather than ignored, which would leave
the user believing it is used) and the password comes from the system keyring,
an environment variable, or a prompt, in that order.
"""

from __future__ import annotations

import getpass
import importlib
import ipaddress
import os
import socket
import ssl
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pbem.errors import ExitCode, PbemError
from pbem.store.paths import Home

Security = Literal["ssl", "starttls", "none"]
Kind = Literal["smtp", "imap"]
# What a game mail's body holds: the public summary, or a bare notice with no game content.
Body = Literal["summary", "notice"]
# Given the kind ("smtp" or "imap"), returns the password for that server.
PasswordProvider = Callable[[str], str]

SECURITIES: tuple[Security, ...] = ("ssl", "starttls", "none")
BODIES: tuple[Body, ...] = ("summary", "notice")
MIN_GAME_PREFIX = 6  # hex digits of a game id in [mail.body_per_game]
DEFAULT_PORTS: dict[str, dict[str, int]] = {
    # RFC 8314: implicit TLS on 465/993, STARTTLS on the submission/IMAP ports.
    "smtp": {"ssl": 465, "starttls": 587, "none": 25},
    "imap": {"ssl": 993, "starttls": 143, "none": 143},
}
KEYRING_SERVICE = "pbem"
ENV_PASSWORD = {"smtp": "PBEM_SMTP_PASSWORD", "imap": "PBEM_IMAP_PASSWORD"}


class MailError(PbemError):
    """A mail transport or mail configuration failure."""

    exit_code = ExitCode.MAIL
    default_hint = "check the [mail] section of your config.toml (see docs/mail.md)"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        # Set by send_or_queue when the mail could not be sent but is safe in the outbox.
        self.queued: Path | None = None


class MailConfigError(MailError):
    default_hint = "fix the [mail] section of your config.toml (see docs/mail.md)"


@dataclass(frozen=True)
class BodySetting:
    """What the mail body holds: the home's default, and per-game overrides keyed by game id prefix."""

    default: Body = "summary"
    per_game: tuple[tuple[str, Body], ...] = ()

    def for_game(self, game_id: bytes) -> Body:
        gid = game_id.hex()
        # The longest matching prefix wins, so a full id overrides a short one.
        hits = sorted((p for p in self.per_game if gid.startswith(p[0])), key=lambda p: -len(p[0]))
        return hits[0][1] if hits else self.default


@dataclass(frozen=True)
class MailConfig:
    sender: str  # the `from` key: "Name <addr>" or a bare address
    smtp_host: str | None = None
    smtp_port: int = 465
    smtp_security: Security = "ssl"
    smtp_user: str | None = None
    imap_host: str | None = None
    imap_port: int = 993
    imap_security: Security = "ssl"
    imap_user: str | None = None
    imap_folder: str = "INBOX"
    maildir: Path | None = None
    outbox_only: bool = False
    timeout: float = 30.0
    # Opt-in: also mail yourself your *private* view after each of your files.
    # Off by default because mail travels in clear (docs/mail.md).
    private_to_self: bool = False
    body: BodySetting = BodySetting()

    def host(self, kind: Kind) -> str | None:
        return self.smtp_host if kind == "smtp" else self.imap_host

    def user(self, kind: Kind) -> str | None:
        return self.smtp_user if kind == "smtp" else self.imap_user


def is_loopback(host: str) -> bool:
    """True for names and addresses that never leave this machine."""
    h = host.strip().strip("[]").lower()
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


_STR_KEYS = ("from", "smtp_host", "smtp_user", "imap_host", "imap_user", "imap_folder", "maildir")
_BODY_KEYS = {"body", "body_per_game"}
_KNOWN = {*_STR_KEYS, "smtp_port", "smtp_security", "imap_port", "imap_security", "outbox_only", "timeout",
          "private_to_self", *_BODY_KEYS}


def _parse_body(m: Mapping[str, Any], problems: list[str]) -> BodySetting:
    """``body`` and ``[mail.body_per_game]``; problems are appended, never guessed around.

    A typo here must not fall back to "summary": that would mail the game to
    the provider while the player believes it does not.
    """
    default = m.get("body", "summary")
    if default not in BODIES:
        problems.append(f"mail.body: must be one of {', '.join(repr(b) for b in BODIES)}")
        default = "notice"
    per: list[tuple[str, Body]] = []
    table = m.get("body_per_game", {})
    if not isinstance(table, dict):
        problems.append("mail.body_per_game: must be a table of GAME_ID = \"summary\" or \"notice\"")
        table = {}
    for k, v in table.items():
        key = k.strip().lower()
        if len(key) < MIN_GAME_PREFIX or len(key) > 32 or any(c not in "0123456789abcdef" for c in key):
            problems.append(f"mail.body_per_game.{k}: not a game id (at least {MIN_GAME_PREFIX} hex digits)")
        elif v not in BODIES:
            problems.append(f"mail.body_per_game.{k}: must be one of {', '.join(repr(b) for b in BODIES)}")
        else:
            per.append((key, v))
    return BodySetting(default, tuple(per))


def _find_password_keys(table: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every key anywhere in the file that looks like it holds a password."""
    out = []
    for k, v in table.items():
        name = f"{prefix}{k}"
        if "password" in k.lower() or k.lower() in ("pass", "passwd"):
            out.append(name)
        if isinstance(v, dict):
            out.extend(_find_password_keys(v, name + "."))
    return out


def parse_config(doc: Mapping[str, Any], source: str = "config.toml") -> MailConfig | None:
    """Check a parsed TOML document; every problem is reported at once, each with its key."""
    secrets = _find_password_keys(doc)
    if secrets:
        raise MailConfigError(
            f"{source}: refusing a config file that holds a password ({', '.join(secrets)})",
            hint="delete that key; put the password in your system keyring (service 'pbem') "
                 "or in PBEM_SMTP_PASSWORD / PBEM_IMAP_PASSWORD (see docs/mail.md)")
    if "mail" not in doc:
        return None
    m = doc["mail"]
    if not isinstance(m, dict):
        raise MailConfigError(f"{source}: 'mail' must be a table ([mail])")
    problems: list[str] = []
    body = _parse_body(m, problems)
    if m and set(m) <= _BODY_KEYS:
        # Only the mail body is chosen: no transport, pbem writes .eml files (body_setting reads it).
        if problems:
            raise MailConfigError(f"{source}: " + "; ".join(problems))
        return None
    _check_values(m, problems)
    sec = _check_security(m, problems)
    if problems:
        raise MailConfigError(f"{source}: " + "; ".join(problems))
    return _mail_config(m, sec, body)


def _check_values(m: Mapping[str, Any], problems: list[str]) -> None:
    """Keys, types and ranges of ``[mail]``, and the keys a transport needs; problems are appended."""
    for k in sorted(set(m) - _KNOWN):
        problems.append(f"mail.{k}: unknown key")
    for k in _STR_KEYS:
        if k in m and (not isinstance(m[k], str) or not m[k].strip()):
            problems.append(f"mail.{k}: must be a non-empty string")
    for k in ("smtp_port", "imap_port"):
        v = m.get(k)
        # bool is an int subclass in Python; `port = true` is a mistake, not port 1.
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 < v < 65536):
            problems.append(f"mail.{k}: must be an integer from 1 to 65535")
    if "outbox_only" in m and not isinstance(m["outbox_only"], bool):
        problems.append("mail.outbox_only: must be true or false")
    if "private_to_self" in m and not isinstance(m["private_to_self"], bool):
        problems.append("mail.private_to_self: must be true or false")
    t = m.get("timeout")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not 0 < t <= 600):
        problems.append("mail.timeout: must be a number of seconds, above 0 and at most 600")
    if "from" not in m:
        problems.append("mail.from: missing (the address your opponents see and reply to)")
    elif isinstance(m["from"], str) and "@" not in m["from"]:
        problems.append("mail.from: not an email address")
    if m.get("outbox_only") is not True and "smtp_host" not in m:
        problems.append("mail.smtp_host: missing (or set outbox_only = true to only write .eml files)")


def _check_security(m: Mapping[str, Any], problems: list[str]) -> dict[str, Security]:
    """The TLS mode of each server (the valid ones), and users set without their host."""
    sec: dict[str, Security] = {}
    for kind in ("smtp", "imap"):
        key = f"{kind}_security"
        v = m.get(key, "ssl")
        if v not in SECURITIES:
            problems.append(f"mail.{key}: must be one of {', '.join(repr(s) for s in SECURITIES)}")
            continue
        sec[kind] = v
        host = m.get(f"{kind}_host")
        # Without TLS the password and the mail cross the network in clear: only
        # acceptable when they never leave this machine (a local relay, a test server).
        if v == "none" and isinstance(host, str) and not is_loopback(host):
            problems.append(f"mail.{key}: 'none' is only allowed for a loopback host, not {host!r}")
    for kind in ("smtp", "imap"):
        if f"{kind}_user" in m and f"{kind}_host" not in m:
            problems.append(f"mail.{kind}_user: set, but mail.{kind}_host is missing")
    return sec


def _mail_config(m: Mapping[str, Any], sec: dict[str, Security], body: BodySetting) -> MailConfig:
    """The checked ``[mail]`` table as a MailConfig, with the defaults filled in."""

    def s(k: str) -> str | None:
        v = m.get(k)
        return v.strip() if isinstance(v, str) else None

    def port(kind: str) -> int:
        v = m.get(f"{kind}_port")
        return int(v) if v is not None else DEFAULT_PORTS[kind][sec[kind]]

    maildir = s("maildir")
    t = m.get("timeout")
    return MailConfig(
        sender=str(s("from")),
        smtp_host=s("smtp_host"), smtp_port=port("smtp"), smtp_security=sec["smtp"], smtp_user=s("smtp_user"),
        imap_host=s("imap_host"), imap_port=port("imap"), imap_security=sec["imap"], imap_user=s("imap_user"),
        imap_folder=s("imap_folder") or "INBOX",
        maildir=Path(maildir).expanduser() if maildir else None,
        outbox_only=m.get("outbox_only") is True,
        timeout=float(t) if t is not None else 30.0,
        private_to_self=m.get("private_to_self") is True,
        body=body,
    )


def _read_doc(home: Home) -> dict[str, Any] | None:
    path = home.config_file
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise MailConfigError(f"cannot read {path}: {e.strerror}", hint="check the file's permissions") from None
    try:
        doc = tomllib.loads(raw.decode("utf-8-sig"))  # a BOM from a Windows editor is no error
    except UnicodeDecodeError:
        raise MailConfigError(f"{path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise MailConfigError(f"{path} is not valid TOML: {e}") from None
    return doc


def load_config(home: Home) -> MailConfig | None:
    """The mail settings of ``home``, or None when there are none (pbem then only writes .eml files)."""
    doc = _read_doc(home)
    return None if doc is None else parse_config(doc, str(home.config_file))


def body_setting(home: Home) -> BodySetting:
    """The mail body choice of ``home``, read even when no mail transport is set up.

    Mails queued as .eml files (``--outbox``, no [mail] server) reach the same
    providers as sent ones, so they follow the same choice.
    """
    doc = _read_doc(home)
    m = doc.get("mail") if doc is not None else None
    if not isinstance(m, dict):
        return BodySetting()
    problems: list[str] = []
    body = _parse_body(m, problems)
    if problems:
        raise MailConfigError(f"{home.config_file}: " + "; ".join(problems))
    return body


def keyring_username(cfg: MailConfig, kind: Kind) -> str:
    return f"{kind}:{cfg.user(kind)}@{cfg.host(kind)}"


def _from_keyring(service: str, username: str) -> str | None:
    try:
        # Optional, so imported by name: not every system has a keyring, and pbem must work without one.
        keyring = importlib.import_module("keyring")
    except ImportError:
        return None
    try:
        value = keyring.get_password(service, username)
    except Exception:  # noqa: BLE001 - keyring backends raise anything (D-Bus down, locked, no backend)
        return None
    return value if isinstance(value, str) and value else None


def password(
    cfg: MailConfig,
    kind: Kind,
    *,
    env: Mapping[str, str] | None = None,
    interactive: bool | None = None,
    prompt: Callable[[str], str] = getpass.getpass,
    keyring_lookup: Callable[[str, str], str | None] = _from_keyring,
) -> str:
    """The password for the ``kind`` server: keyring, then environment, then a prompt on a terminal."""
    env = os.environ if env is None else env
    var = ENV_PASSWORD[kind]
    found = keyring_lookup(KEYRING_SERVICE, keyring_username(cfg, kind))
    if found:
        return found
    if env.get(var):
        return env[var]
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    if interactive:
        try:
            value = prompt(f"{kind.upper()} password for {cfg.user(kind)}@{cfg.host(kind)}: ")
        except (EOFError, KeyboardInterrupt):
            value = ""
        if value:
            return value
    raise MailError(
        f"no {kind.upper()} password for {cfg.user(kind)}@{cfg.host(kind)}",
        hint=f"set {var}, or store it in your keyring: "
             f"keyring set {KEYRING_SERVICE} {keyring_username(cfg, kind)}")


def password_provider(cfg: MailConfig) -> PasswordProvider:
    """The default provider: :func:`password` for this config."""

    def provide(kind: str) -> str:
        if kind not in ("smtp", "imap"):
            raise ValueError(f"unknown server kind {kind!r}")
        return password(cfg, "smtp" if kind == "smtp" else "imap")

    return provide


def remembering(provide: PasswordProvider) -> PasswordProvider:
    """``provide``, asked at most once per kind (one prompt for a batch of mails)."""
    seen: dict[str, str] = {}

    def wrapped(kind: str) -> str:
        if kind not in seen:
            seen[kind] = provide(kind)
        return seen[kind]

    return wrapped


_PORTS: dict[str, tuple[int, int]] = {"smtp": (465, 587), "imap": (993, 143)}  # ("ssl", "starttls")


def network_error(e: OSError, cfg: MailConfig, kind: Kind, where: str, *, timeout_note: str = "") -> MailError:
    """The MailError for a transport failure (TLS, timeout, refused, dropped, unknown host), SMTP or IMAP alike."""
    ssl_port, tls_port = _PORTS[kind]
    if isinstance(e, ssl.SSLCertVerificationError):
        return MailError(f"{where}: its TLS certificate is not valid: {e.verify_message}",
                         hint=f"check {kind}_host (it must match the certificate's name); never turn checks off")
    if isinstance(e, ssl.SSLError):
        return MailError(f"TLS with {where} failed: {e.reason or e}",
                         hint=f"check {kind}_security and {kind}_port: {ssl_port} is usually \"ssl\", "
                              f"{tls_port} \"starttls\"")
    if isinstance(e, TimeoutError):
        return MailError(f"{where} did not answer within {cfg.timeout:g} seconds",
                         hint=f"check {kind}_host, {kind}_port and your network{timeout_note}")
    if isinstance(e, ConnectionRefusedError):
        return MailError(f"{where} refused the connection (nothing listens on that port)",
                         hint=f"check {kind}_host and {kind}_port")
    if isinstance(e, ConnectionResetError | BrokenPipeError | ConnectionAbortedError):
        return MailError(f"{where} dropped the connection",
                         hint=f"check {kind}_port and {kind}_security; try again later")
    if isinstance(e, socket.gaierror):
        return MailError(f"cannot find the host {cfg.host(kind)}: {e.strerror}",
                         hint=f"check {kind}_host and your network connection")
    return MailError(f"cannot reach {where}: {e.strerror or e}",
                     hint=f"check {kind}_host, {kind}_port and your network connection")
