"""Composing game mails, and the [mail] configuration (both work without any server)."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers import start_duel

from pbem.errors import ExitCode
from pbem.mail import (
    Attachment,
    InlineImage,
    MailConfig,
    MailConfigError,
    MailError,
    build_message,
    file_message,
    load_config,
    parse_config,
    password,
    to_eml,
)
from pbem.mail.config import is_loopback, keyring_username
from pbem.play import game
from pbem.store import gamestore as store
from pbem.store import paths

ROOT = Path(__file__).resolve().parent.parent
PNG = bytes.fromhex("89504e470d0a1a0a") + bytes(range(256)) * 4  # any bytes do; the header makes it a PNG
PBEM = b"pbem-file/v1\n" + bytes(range(256)) * 8 + b"\r\n.\r\n..\n\r\x00"  # SMTP-hostile bytes on purpose
WHEN = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def _mail(**over: object) -> EmailMessage:
    kw: dict[str, object] = dict(
        sender="Red <red@example.org>", recipients=["blue@example.org", "Green <green@example.org>"],
        subject="[pbem] Duel: file 1 by red — café", text="Your move.\n" + "long line " * 40 + "\nünïcödé\n",
        html='<p>Your move.</p><img src="cid:map@pbem" alt="map">',
        attachments=[Attachment("game-000001-turn-red.pbem", PBEM)],
        inline_images=[InlineImage("map@pbem", PNG)],
        headers={"X-Pbem-Game": "ab" * 16}, message_id="<file1.duel@example.org>", date=WHEN)
    kw.update(over)
    return build_message(**kw)  # type: ignore[arg-type]


def _parse(data: bytes) -> EmailMessage:
    m = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(m, EmailMessage)
    return m


def test_structure_headers_and_bytes_survive_a_round_trip() -> None:
    m = _parse(to_eml(_mail()))
    assert m.get_content_type() == "multipart/mixed"
    assert m["Subject"] == "[pbem] Duel: file 1 by red — café"
    assert m["From"] == "Red <red@example.org>"
    assert [a.addr_spec for a in m["To"].addresses] == ["blue@example.org", "green@example.org"]
    assert m["X-Pbem-Game"] == "ab" * 16
    assert m["Message-ID"] == "<file1.duel@example.org>"
    assert m["MIME-Version"] == "1.0"
    alt, att = m.get_payload()  # type: ignore[misc]
    assert alt.get_content_type() == "multipart/alternative"
    plain, related = alt.get_payload()
    assert plain.get_content_type() == "text/plain"
    assert "ünïcödé" in plain.get_content()
    assert related.get_content_type() == "multipart/related"
    html, img = related.get_payload()
    assert html.get_content_type() == "text/html" and 'src="cid:map@pbem"' in html.get_content()
    assert img.get_content_type() == "image/png"
    assert img["Content-ID"] == "<map@pbem>" and img.get_payload(decode=True) == PNG
    assert att.get_content_type() == "application/vnd.pbem"
    assert att.get_filename() == "game-000001-turn-red.pbem"
    assert att["Content-Transfer-Encoding"] == "base64"
    assert att.get_payload(decode=True) == PBEM
    # Only the top level carries MIME-Version (RFC 2045).
    assert [p for p in m.walk() if p is not m and p["MIME-Version"]] == []


def test_eml_is_crlf_and_deterministic() -> None:
    a, b = to_eml(_mail()), to_eml(_mail())
    assert a == b
    assert b"\n" not in a.replace(b"\r\n", b"")
    assert all(len(line) <= 998 for line in a.split(b"\r\n"))
    assert to_eml(_mail(text="other\n")) != a
    # Boundaries come from the content, not from Python's random module.
    assert re.findall(rb'boundary="(=_pbem_[0-9a-f]{32}_[0-9.]+)"', a)


def test_without_html_or_attachments() -> None:
    m = _parse(to_eml(_mail(html=None, inline_images=[], attachments=[])))
    assert m.get_content_type() == "text/plain"
    m = _parse(to_eml(_mail(html=None, inline_images=[])))
    assert [p.get_content_type() for p in m.iter_parts()] == ["text/plain", "application/vnd.pbem"]
    m = _parse(to_eml(_mail(inline_images=[])))
    alt = next(m.iter_parts())
    assert [p.get_content_type() for p in alt.iter_parts()] == ["text/plain", "text/html"]


def test_defaults_for_message_id_and_date() -> None:
    m = _mail(message_id=None, date=None)
    assert str(m["Message-ID"]).endswith("@example.org>")
    assert m["Date"]


@pytest.mark.parametrize("over", [
    {"subject": "hi\r\nBcc: everyone@example.org"},
    {"sender": "red@example.org\nX-Evil: 1"},
    {"headers": {"X-Pbem-Game": "ab\nBcc: x@y.org"}},
    {"recipients": []},
    {"recipients": ["not an address"]},
])
def test_refuses_header_injection_and_bad_recipients(over: dict[str, object]) -> None:
    with pytest.raises(MailError) as e:
        _mail(**over)
    assert e.value.exit_code == ExitCode.MAIL


@pytest.mark.parametrize("over", [
    {"headers": {"Content-Type": "text/plain"}},
    {"headers": {"Bad Name": "x"}},
    {"inline_images": [InlineImage("has space", PNG)]},
    {"html": None},  # inline images without html
    {"attachments": [Attachment("x", b"x", mime="nonsense")]},
])
def test_programming_mistakes_are_value_errors(over: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _mail(**over)


def test_file_message_for_a_real_turn_file(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    msg = file_message(f.raw, sender=red.card.email, recipients=[red.card.email, blue.card.email],
                       message_id="<t@example.org>", date=WHEN)
    m = _parse(to_eml(msg))
    assert m["X-Pbem-Game"] == gid.hex()
    assert m["Subject"].startswith("[pbem] ") and "file 1 by red" in m["Subject"]
    atts = list(m.iter_attachments())
    assert len(atts) == 1
    assert atts[0].get_filename() == f"{gid.hex()[:12]}-000001-turn-red.pbem"
    assert atts[0].get_payload(decode=True) == f.raw
    # Every player gets the very same bytes: one mail, all recipients.
    assert to_eml(msg) == to_eml(file_message(f.raw, sender=red.card.email,
                                              recipients=[red.card.email, blue.card.email],
                                              message_id="<t@example.org>", date=WHEN))


# --- configuration -------------------------------------------------------------------


def _home(tmp_path: Path, text: str | None) -> paths.Home:
    home = paths.resolve(tmp_path / "home")
    if text is not None:
        home.config.mkdir(parents=True, exist_ok=True)
        home.config_file.write_text(text, encoding="utf-8")
    return home


def test_no_file_or_no_mail_section_means_outbox_only(tmp_path: Path) -> None:
    assert load_config(_home(tmp_path, None)) is None
    assert load_config(_home(tmp_path, "[other]\nx = 1\n")) is None


def test_full_config(tmp_path: Path) -> None:
    cfg = load_config(_home(tmp_path, """
[mail]
from = "Red Player <red@example.org>"
smtp_host = "smtp.example.org"
smtp_security = "starttls"
smtp_user = "red"
imap_host = "imap.example.org"
imap_user = "red@example.org"
imap_folder = "Games"
maildir = "~/Maildir"
timeout = 12.5
"""))
    assert cfg == MailConfig(
        sender="Red Player <red@example.org>", smtp_host="smtp.example.org", smtp_port=587,
        smtp_security="starttls", smtp_user="red", imap_host="imap.example.org", imap_port=993,
        imap_security="ssl", imap_user="red@example.org", imap_folder="Games",
        maildir=Path("~/Maildir").expanduser(), outbox_only=False, timeout=12.5)


def test_outbox_only_needs_no_server() -> None:
    cfg = parse_config({"mail": {"from": "red@example.org", "outbox_only": True}})
    assert cfg is not None and cfg.outbox_only and cfg.smtp_host is None


def test_docs_example_is_valid() -> None:
    text = (ROOT / "docs" / "mail.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", text, re.S)
    assert block, "docs/mail.md must show an example config in a ```toml block"
    import tomllib

    cfg = parse_config(tomllib.loads(block.group(1)))
    assert cfg is not None and cfg.smtp_host and cfg.imap_host


@pytest.mark.parametrize("text", [
    '[mail]\nfrom = "a@b.org"\nsmtp_host = "h"\npassword = "hunter2"\n',
    '[mail]\nfrom = "a@b.org"\nsmtp_host = "h"\nsmtp_password = "hunter2"\n',
    '[mail]\nfrom = "a@b.org"\nsmtp_host = "h"\n[mail.extra]\nPassword = "x"\n',
    'password = "x"\n',
])
def test_a_password_in_the_file_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(MailConfigError) as e:
        load_config(_home(tmp_path, text))
    assert "password" in e.value.message
    assert "keyring" in e.value.hint and "PBEM_SMTP_PASSWORD" in e.value.hint
    assert "hunter2" not in e.value.message  # never echo the secret


def test_every_problem_is_reported_with_its_key(tmp_path: Path) -> None:
    with pytest.raises(MailConfigError) as e:
        load_config(_home(tmp_path, """
[mail]
smtp_host = "smtp.example.org"
smtp_port = "587"
smtp_security = "tls"
imap_port = true
imap_user = "x"
outbox_only = "no"
smtpp_host = "typo"
timeout = 0
"""))
    msg = e.value.message
    for key in ("mail.from", "mail.smtp_port", "mail.smtp_security", "mail.imap_port", "mail.outbox_only",
                "mail.smtpp_host", "mail.timeout", "mail.imap_user"):
        assert key in msg, key
    assert e.value.exit_code == ExitCode.MAIL


def test_no_tls_only_on_loopback() -> None:
    base = {"from": "a@example.org", "smtp_security": "none", "imap_security": "none"}
    for host in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.53"):
        cfg = parse_config({"mail": {**base, "smtp_host": host, "imap_host": host}})
        assert cfg is not None and cfg.smtp_port == 25 and cfg.imap_port == 143
    with pytest.raises(MailConfigError, match=r"mail\.smtp_security: 'none' is only allowed for a loopback"):
        parse_config({"mail": {**base, "smtp_host": "smtp.example.org"}})
    assert not is_loopback("localhost.example.org") and not is_loopback("10.0.0.1")


@pytest.mark.parametrize("text", ["[mail\n", b"\xff\xfe[mail]".decode("latin-1")])
def test_unreadable_config(tmp_path: Path, text: str) -> None:
    home = _home(tmp_path, None)
    home.config.mkdir(parents=True)
    home.config_file.write_bytes(text.encode("latin-1"))
    with pytest.raises(MailConfigError):
        load_config(home)


# --- passwords -----------------------------------------------------------------------

CFG = MailConfig(sender="red@example.org", smtp_host="smtp.example.org", smtp_user="red",
                 imap_host="imap.example.org", imap_user="red@example.org")


def test_password_sources_in_order() -> None:
    asked: list[tuple[str, str]] = []

    def ring(service: str, user: str) -> str | None:
        asked.append((service, user))
        return "from-keyring" if user.startswith("smtp:") else None

    env = {"PBEM_SMTP_PASSWORD": "from-env-smtp", "PBEM_IMAP_PASSWORD": "from-env-imap"}
    assert password(CFG, "smtp", env=env, keyring_lookup=ring, interactive=False) == "from-keyring"
    assert password(CFG, "imap", env=env, keyring_lookup=ring, interactive=False) == "from-env-imap"
    assert asked == [("pbem", "smtp:red@smtp.example.org"), ("pbem", "imap:red@example.org@imap.example.org")]
    assert keyring_username(CFG, "smtp") == "smtp:red@smtp.example.org"
    prompts: list[str] = []

    def prompt(text: str) -> str:
        prompts.append(text)
        return "typed"

    assert password(CFG, "imap", env={}, keyring_lookup=lambda s, u: None, interactive=True,
                    prompt=prompt) == "typed"
    assert prompts == ["IMAP password for red@example.org@imap.example.org: "]


def test_no_password_without_a_terminal_names_the_variable() -> None:
    def never(text: str) -> str:
        raise AssertionError("must not prompt without a terminal")

    with pytest.raises(MailError) as e:
        password(CFG, "smtp", env={}, keyring_lookup=lambda s, u: None, interactive=False, prompt=never)
    assert "PBEM_SMTP_PASSWORD" in e.value.hint
    assert e.value.exit_code == ExitCode.MAIL


def test_missing_or_broken_keyring_falls_back_to_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "env")
    monkeypatch.setitem(sys.modules, "keyring", None)  # "import keyring" now fails
    assert password(CFG, "smtp", interactive=False) == "env"

    def broken(service: str, user: str) -> str:
        raise RuntimeError("the D-Bus session is gone")

    monkeypatch.setitem(sys.modules, "keyring", types.SimpleNamespace(get_password=broken))
    assert password(CFG, "smtp", interactive=False) == "env"
    stored = {("pbem", "smtp:red@smtp.example.org"): "ring"}
    monkeypatch.setitem(sys.modules, "keyring",
                        types.SimpleNamespace(get_password=lambda s, u: stored.get((s, u))))
    assert password(CFG, "smtp", interactive=False) == "ring"
