"""Sending through a real SMTP server (aiosmtpd on loopback), and the outbox."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from mailservers import HOST, Tls, fake_server, free_port, make_tls, smtp_server

from pbem.errors import ExitCode
from pbem.mail import (
    Attachment,
    InlineImage,
    MailConfig,
    MailError,
    RecipientsRefused,
    build_message,
    queued,
    resend_outbox,
    send,
    send_or_queue,
    to_eml,
    write_eml,
)

PBEM = b"pbem-file/v1\n" + bytes(range(256)) * 64 + b"\r\n.\r\n.\n"  # dot-stuffing and bare CR/LF on purpose
PNG = bytes.fromhex("89504e470d0a1a0a") + b"\x00" * 100
USERS = {"red": "correct horse"}


def _msg(n: int = 1, to: tuple[str, ...] = ("blue@example.org", "green@example.org")) -> EmailMessage:
    return build_message(
        sender="Red <red@example.org>", recipients=list(to), subject=f"[pbem] Duel: file {n} by red",
        text="Your move.\n", html='<p>Your move.</p><img src="cid:map@pbem">',
        attachments=[Attachment(f"duel-{n:06d}-turn-red.pbem", PBEM + bytes([n]))],
        inline_images=[InlineImage("map@pbem", PNG)], headers={"X-Pbem-Game": "cd" * 16},
        message_id=f"<file{n}@example.org>", date=datetime(2027, 1, 1, tzinfo=UTC))


def _cfg(port: int, security: str = "none", user: str | None = None, **kw: object) -> MailConfig:
    return MailConfig(sender="Red <red@example.org>", smtp_host=HOST, smtp_port=port,
                      smtp_security=security, smtp_user=user, timeout=5, **kw)  # type: ignore[arg-type]


def _pw(pw: str) -> object:
    def provide(kind: str) -> str:
        assert kind == "smtp"
        return pw
    return provide


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    return make_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def outbox(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "outbox"


def test_send_plain_loopback_delivers_the_exact_bytes() -> None:
    msg = _msg()
    with smtp_server() as srv:
        send(msg, _cfg(srv.port))
    assert len(srv.deliveries) == 1
    d = srv.deliveries[0]
    assert d.mail_from == "red@example.org"
    assert d.rcpt_tos == ["blue@example.org", "green@example.org"]
    assert d.data == to_eml(msg)  # nothing rewritten on the way (dot-stuffing undone by the server)
    m = email.message_from_bytes(d.data, policy=email.policy.default)
    assert isinstance(m, EmailMessage)
    assert m["Subject"] == "[pbem] Duel: file 1 by red"
    assert m["From"] == "Red <red@example.org>"
    assert m["To"] == "blue@example.org, green@example.org"
    assert m["X-Pbem-Game"] == "cd" * 16
    types = [p.get_content_type() for p in m.walk()]
    assert types == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related",
                     "text/html", "image/png", "application/vnd.pbem"]
    atts = list(m.iter_attachments())
    assert [a.get_filename() for a in atts] == ["duel-000001-turn-red.pbem"]
    assert atts[0].get_payload(decode=True) == PBEM + b"\x01"
    img = next(p for p in m.walk() if p.get_content_type() == "image/png")
    assert img["Content-ID"] == "<map@pbem>" and img.get_payload(decode=True) == PNG


def test_starttls_with_auth_plain(tls: Tls) -> None:
    with smtp_server(tls=tls, users=USERS) as srv:
        send(_msg(), _cfg(srv.port, "starttls", "red"), _pw("correct horse"),  # type: ignore[arg-type]
             ssl_context=tls.client_context())
    assert srv.logins == [("PLAIN", "red")]
    assert len(srv.deliveries) == 1


def test_auth_login_when_plain_is_not_offered(tls: Tls) -> None:
    with smtp_server(tls=tls, users=USERS, exclude_mechanisms=("PLAIN",)) as srv:
        send(_msg(), _cfg(srv.port, "starttls", "red"), _pw("correct horse"),  # type: ignore[arg-type]
             ssl_context=tls.client_context())
    assert srv.logins == [("LOGIN", "red")]


def test_implicit_tls(tls: Tls) -> None:
    # aiosmtpd counts only STARTTLS as TLS for its AUTH check, though this
    # connection is TLS from the first byte: hence auth_require_tls=False.
    with smtp_server(tls=tls, implicit_tls=True, users=USERS, auth_require_tls=False) as srv:
        send(_msg(), _cfg(srv.port, "ssl", "red"), _pw("correct horse"),  # type: ignore[arg-type]
             ssl_context=tls.client_context())
    assert srv.logins == [("PLAIN", "red")] and len(srv.deliveries) == 1


def test_auth_without_tls_on_loopback() -> None:
    with smtp_server(users=USERS, auth_require_tls=False) as srv:
        send(_msg(), _cfg(srv.port, "none", "red"), _pw("correct horse"))  # type: ignore[arg-type]
    assert srv.logins == [("PLAIN", "red")]


def test_wrong_password(tls: Tls, outbox: Path) -> None:
    with smtp_server(tls=tls, users=USERS) as srv, pytest.raises(MailError) as e:
        send_or_queue(_msg(), _cfg(srv.port, "starttls", "red"), outbox, _pw("wrong"),  # type: ignore[arg-type]
                      ssl_context=tls.client_context())
    assert "rejected the login of red" in e.value.message and "535" in e.value.message
    assert "PBEM_SMTP_PASSWORD" in e.value.hint and "keyring" in e.value.hint
    assert e.value.exit_code == ExitCode.MAIL
    assert srv.deliveries == []
    assert e.value.queued is not None and queued(outbox) == [e.value.queued]


def test_auth_refused_over_plain_text_is_explained() -> None:
    # aiosmtpd, like real servers, offers AUTH only after TLS.
    with smtp_server(users=USERS) as srv, pytest.raises(MailError) as e:
        send(_msg(), _cfg(srv.port, "none", "red"), _pw("correct horse"))  # type: ignore[arg-type]
    assert "does not offer authentication" in e.value.message
    assert "starttls" in e.value.hint


def test_starttls_required_but_not_offered() -> None:
    with smtp_server() as srv, pytest.raises(MailError) as e:
        send(_msg(), _cfg(srv.port, "starttls"))
    assert "does not offer STARTTLS" in e.value.message
    assert srv.deliveries == []


def test_untrusted_certificate(tls: Tls) -> None:
    # The default context trusts the system CAs only, not the test CA.
    with smtp_server(tls=tls) as srv, pytest.raises(MailError) as e:
        send(_msg(), _cfg(srv.port, "starttls"))
    assert "certificate" in e.value.message and srv.deliveries == []


def test_ssl_against_a_plain_server() -> None:
    with smtp_server() as srv, pytest.raises(MailError) as e:
        send(_msg(), _cfg(srv.port, "ssl"))
    assert "smtp_security" in e.value.hint


def test_recipient_refused() -> None:
    with smtp_server() as srv:
        with pytest.raises(RecipientsRefused) as e:
            send(_msg(to=("nobody@refused.example",)), _cfg(srv.port))
        assert "refused every recipient" in e.value.message
        assert set(e.value.refused) == {"nobody@refused.example"}
        with pytest.raises(RecipientsRefused) as e:
            send(_msg(to=("blue@example.org", "nobody@refused.example")), _cfg(srv.port))
        assert "the other recipients got it" in e.value.message
    assert [d.rcpt_tos for d in srv.deliveries] == [["blue@example.org"]]


def test_connection_refused_keeps_the_mail(outbox: Path) -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(MailError) as e:
        send_or_queue(_msg(), _cfg(port), outbox)
    assert "refused the connection" in e.value.message
    assert e.value.queued is not None and e.value.queued.read_bytes() == to_eml(_msg())
    assert str(e.value.queued) in e.value.message
    assert not (outbox / "sent").exists()


@pytest.mark.parametrize("greeting", [b"220 flaky.example ESMTP\r\n", None])
def test_dropped_connection_keeps_the_mail(outbox: Path, greeting: bytes | None) -> None:
    with fake_server(greeting) as port, pytest.raises(MailError) as e:
        send_or_queue(_msg(), _cfg(port), outbox)
    assert "closed the connection" in e.value.message or "dropped" in e.value.message
    assert len(queued(outbox)) == 1


def test_hung_server_times_out(outbox: Path) -> None:
    with fake_server(silent=True) as port, pytest.raises(MailError) as e:
        send_or_queue(_msg(), replace(_cfg(port), timeout=1), outbox)
    assert "did not answer within 1 seconds" in e.value.message
    assert len(queued(outbox)) == 1


def test_send_or_queue_moves_to_sent_on_success(outbox: Path) -> None:
    with smtp_server() as srv:
        r = send_or_queue(_msg(), _cfg(srv.port), outbox)
    assert r.status == "sent" and r.path.parent == outbox / "sent"
    assert r.path.read_bytes() == srv.deliveries[0].data
    assert queued(outbox) == []


def test_without_config_or_outbox_only_nothing_is_sent(outbox: Path) -> None:
    with smtp_server() as srv:
        a = send_or_queue(_msg(1), None, outbox)
        b = send_or_queue(_msg(2), replace(_cfg(srv.port), outbox_only=True), outbox)
    assert (a.status, b.status) == ("queued", "queued") and srv.deliveries == []
    assert queued(outbox) == [a.path, b.path]
    assert [p.name[:6] for p in queued(outbox)] == ["000001", "000002"]
    assert a.path.stat().st_mode & 0o777 == 0o600


def test_resend_outbox_in_order_and_stops_at_first_failure(outbox: Path) -> None:
    for n in (1, 2, 3):
        write_eml(outbox, _msg(n))
    results = resend_outbox(outbox, _cfg(free_port()))
    assert [r.status for r in results] == ["queued"] * 3
    assert all(r.error is not None for r in results)
    assert len(queued(outbox)) == 3
    seen: list[int] = []
    with smtp_server() as srv:
        results = resend_outbox(outbox, _cfg(srv.port), progress=lambda i, n, p: seen.append(i))
    assert [r.status for r in results] == ["sent"] * 3 and seen == [1, 2, 3]
    subjects = [email.message_from_bytes(d.data)["Subject"] for d in srv.deliveries]
    assert subjects == [f"[pbem] Duel: file {n} by red" for n in (1, 2, 3)]
    assert queued(outbox) == [] and len(list((outbox / "sent").iterdir())) == 3
    # A new mail after those gets the next number, not a reused one.
    assert write_eml(outbox, _msg(4)).name.startswith("000004-")


def test_resend_asks_for_the_password_once(tls: Tls, outbox: Path) -> None:
    for n in (1, 2):
        write_eml(outbox, _msg(n))
    asked: list[str] = []

    def provide(kind: str) -> str:
        asked.append(kind)
        return "correct horse"

    with smtp_server(tls=tls, users=USERS) as srv:
        results = resend_outbox(outbox, _cfg(srv.port, "starttls", "red"), provide,
                                ssl_context=tls.client_context())
    assert [r.status for r in results] == ["sent", "sent"] and asked == ["smtp"]
    assert srv.logins == [("PLAIN", "red")] * 2


def test_missing_password_is_a_mail_error(tls: Tls, outbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.delenv("PBEM_SMTP_PASSWORD", raising=False)
    monkeypatch.setitem(sys.modules, "keyring", None)
    monkeypatch.setattr(sys, "stdin", None)  # not a terminal: must not prompt
    with smtp_server(tls=tls, users=USERS) as srv, pytest.raises(MailError) as e:
        send_or_queue(_msg(), _cfg(srv.port, "starttls", "red"), outbox, ssl_context=tls.client_context())
    assert "PBEM_SMTP_PASSWORD" in e.value.hint
    assert len(queued(outbox)) == 1


def test_named_mail_and_separate_sent_folder(tmp_path: Path) -> None:
    # How a game store uses it: outbox/<turn file>.eml, and sent/ next to outbox/.
    outbox, sent = tmp_path / "outbox", tmp_path / "sent"
    a = send_or_queue(_msg(1), None, outbox, name="g-000001-turn-red.pbem.eml", sent_dir=sent)
    assert a.path == outbox / "g-000001-turn-red.pbem.eml"
    # Queueing the same mail again changes nothing; another mail under that name is refused.
    assert send_or_queue(_msg(1), None, outbox, name=a.path.name, sent_dir=sent).path == a.path
    with pytest.raises(MailError, match="already holds a different mail"):
        write_eml(outbox, _msg(2), name=a.path.name)
    with pytest.raises(ValueError):
        write_eml(outbox, _msg(2), name="../escape.eml")
    (outbox / ".tmp-abc").write_bytes(b"half written")  # an interrupted write is never sent
    (outbox / "g-000001-turn-red.pbem").write_bytes(b"pbem-file/v1\n")  # the turn file itself stays
    with smtp_server() as srv:
        results = resend_outbox(outbox, _cfg(srv.port), sent_dir=sent)
    assert [(r.status, r.path) for r in results] == [("sent", sent / "g-000001-turn-red.pbem.eml")]
    assert len(srv.deliveries) == 1
    assert sorted(p.name for p in outbox.iterdir()) == [".tmp-abc", "g-000001-turn-red.pbem"]


def test_cli_play_when_the_server_is_down_then_resend(tmp_path: Path) -> None:
    """`pbem play` with SMTP down: the turn is saved, the mail stays queued (exit 11); `resend` sends it."""
    from click.testing import CliRunner
    from helpers import start_duel
    from mailservers import HOST, free_port, smtp_server

    from pbem.cli import cli
    from pbem.errors import ExitCode
    from pbem.protocol.identity import save_identity
    from pbem.store import gamestore as store
    from pbem.store.fsutil import atomic_write

    red, blue, gid = start_duel(tmp_path)
    save_identity(red.session.ident, red.home.identity_file, "pw-red", work_factor=10)
    atomic_write(red.home.card_file, red.card.to_text().encode())
    port = free_port()
    atomic_write(red.home.config_file, (f'[mail]\nfrom = "{red.card.email}"\nsmtp_host = "{HOST}"\n'
                                        f'smtp_port = {port}\nsmtp_security = "none"\ntimeout = 5\n').encode())
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    home, env = str(red.home.config.parent), {"PBEM_PASSPHRASE": "pw-red"}
    r = CliRunner().invoke(cli, ["--home", home, "play", gid.hex(), "--orders", str(orders)], env=env)
    assert r.exit_code == ExitCode.MAIL, r.output
    assert "turn file 1 written" in r.output and "pbem resend" in r.output
    gs = store.game_dir(red.home, gid)
    assert len(gs.files()) == 3 and len(list(gs.outbox.glob("*.eml"))) == 1
    with smtp_server() as srv:
        atomic_write(red.home.config_file, red.home.config_file.read_bytes().replace(
            str(port).encode(), str(srv.port).encode()))
        r = CliRunner().invoke(cli, ["--home", home, "resend", gid.hex()], env=env)
        assert r.exit_code == 0, r.output
        assert len(srv.deliveries) == 1 and srv.deliveries[0].rcpt_tos == [blue.card.email]
    assert not list(gs.outbox.glob("*.eml")) and len(list(gs.sent_dir.glob("*.eml"))) == 1
