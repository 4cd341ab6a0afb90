"""Reading game mails from a real IMAP server: a private Dovecot on loopback."""

from __future__ import annotations

import imaplib
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from helpers import start_duel
from mailservers import HOST, IMAP_PASSWORD, IMAP_USER, Dovecot, dovecot, fake_server, free_port

from pbem.errors import ExitCode, InvalidInput
from pbem.mail import (
    Attachment,
    InlineImage,
    MailConfig,
    MailError,
    build_message,
    file_message,
    from_imap,
    ingest,
    to_eml,
)
from pbem.mail.imap import encode_mailbox, search_criteria
from pbem.play import game
from pbem.store import gamestore as store

GOOD = b"pbem-file/v1\n" + bytes(range(256)) * 16
TRUNCATED = GOOD[:40]
PNG = bytes.fromhex("89504e470d0a1a0a") + b"\x00" * 64
WHEN = datetime(2027, 1, 1, tzinfo=UTC)


def _mail(subject: str, attachments: list[Attachment], game_header: bool = True) -> bytes:
    return to_eml(build_message(
        sender="red@example.org", recipients=["player@example.org"], subject=subject, text="hello\n",
        html='<p>hello <img src="cid:map@pbem"></p>', inline_images=[InlineImage("map@pbem", PNG)],
        attachments=attachments, headers={"X-Pbem-Game": "ef" * 16} if game_header else {},
        message_id=f"<{abs(hash(subject))}@example.org>", date=WHEN))


@pytest.fixture(scope="module")
def server() -> Iterator[Dovecot]:
    with dovecot() as d:
        yield d


@pytest.fixture
def inbox(server: Dovecot) -> Iterator[Dovecot]:
    server.clear()
    yield server
    server.clear()


def _cfg(d: Dovecot, security: str = "none", port: int | None = None, **kw: object) -> MailConfig:
    return MailConfig(sender="player@example.org", imap_host=HOST, imap_port=port or d.port,
                      imap_security=security, imap_user=IMAP_USER, timeout=10, **kw)  # type: ignore[arg-type]


def _pw(kind: str) -> str:
    assert kind == "imap"
    return IMAP_PASSWORD


def _fill(d: Dovecot) -> None:
    d.append(_mail("[pbem] Duel: file 1 by red", [Attachment("duel-000001-turn-red.pbem", GOOD)]))
    d.append(_mail("[pbem] Duel: the rules, no file", []))
    d.append(_mail("[pbem] Duel: holiday photos", [Attachment("beach.jpg", b"\xff\xd8\xff" + b"\x00" * 50,
                                                              "image/jpeg")]))
    d.append(_mail("[pbem] Duel: file 2 by blue", [Attachment("duel-000002-turn-blue.pbem", TRUNCATED)]))
    # Sent by hand from a mail client: no header, no subject prefix.
    d.append(_mail("my move", [Attachment("move.bin", GOOD + b"2", "application/octet-stream")],
                   game_header=False))
    d.append(_mail("lunch?", [], game_header=False))


def _flags(d: Dovecot) -> list[bytes]:
    c = d.connect()
    try:
        c.select("INBOX", readonly=True)
        typ, data = c.fetch("1:*", "(FLAGS)")
        return [x for x in data if isinstance(x, bytes)]
    finally:
        c.logout()


def test_finds_exactly_the_pbem_attachments_and_changes_nothing(inbox: Dovecot) -> None:
    _fill(inbox)
    before = _flags(inbox)
    found = from_imap(_cfg(inbox), _pw)
    assert [(f.filename, f.data) for f in found] == [("duel-000001-turn-red.pbem", GOOD),
                                                     ("duel-000002-turn-blue.pbem", TRUNCATED)]
    assert found[0].source.startswith("imap INBOX uid ")
    # Read-only: no \Seen flag set, nothing moved or deleted.
    after = _flags(inbox)
    assert after == before and len(after) == 6
    assert not any(b"\\Seen" in x for x in after)


def test_search_all_finds_hand_sent_files(inbox: Dovecot) -> None:
    _fill(inbox)
    found = from_imap(_cfg(inbox), _pw, search="all")
    assert [f.data for f in found] == [GOOD, TRUNCATED, GOOD + b"2"]
    assert found[2].filename == "move.bin"
    assert from_imap(_cfg(inbox), _pw, since=date(2000, 1, 1)) != []
    assert from_imap(_cfg(inbox), _pw, since=date(2999, 1, 1)) == []


def test_empty_folder(inbox: Dovecot) -> None:
    assert from_imap(_cfg(inbox), _pw) == []


def test_starttls(inbox: Dovecot) -> None:
    _fill(inbox)
    found = from_imap(_cfg(inbox, "starttls"), _pw, ssl_context=inbox.tls.client_context())
    assert len(found) == 2


def test_implicit_tls(inbox: Dovecot) -> None:
    _fill(inbox)
    found = from_imap(_cfg(inbox, "ssl", inbox.ssl_port), _pw, ssl_context=inbox.tls.client_context())
    assert len(found) == 2


def test_untrusted_certificate(server: Dovecot) -> None:
    with pytest.raises(MailError) as e:
        from_imap(_cfg(server, "starttls"), _pw)  # system CAs only: the test CA is unknown
    assert "certificate" in e.value.message


def test_wrong_password(server: Dovecot) -> None:
    with pytest.raises(MailError) as e:
        from_imap(_cfg(server), lambda kind: "wrong")
    assert "rejected the login of player" in e.value.message
    assert "PBEM_IMAP_PASSWORD" in e.value.hint
    assert e.value.exit_code == ExitCode.MAIL


def test_missing_folder(server: Dovecot) -> None:
    with pytest.raises(MailError) as e:
        from_imap(_cfg(server, imap_folder="No Such Folder"), _pw)
    assert "No Such Folder" in e.value.message and "imap_folder" in e.value.hint


def test_folder_with_spaces_and_non_ascii_name(server: Dovecot) -> None:
    folder = 'Partien "Düel" & co'
    server.append(_mail("[pbem] x", [Attachment("a.pbem", GOOD)]), folder)
    found = from_imap(_cfg(server, imap_folder=folder), _pw)
    assert [f.data for f in found] == [GOOD]
    assert found[0].source.startswith(f"imap {folder} uid")


def test_closed_port() -> None:
    cfg = MailConfig(sender="a@example.org", imap_host=HOST, imap_port=free_port(), imap_security="none",
                     imap_user="a", timeout=5)
    with pytest.raises(MailError) as e:
        from_imap(cfg, _pw)
    assert "refused the connection" in e.value.message


def _capability(line: bytes) -> bytes:
    """Answer CAPABILITY like a server without STARTTLS; hang up on anything else."""
    tag, _, cmd = line.partition(b" ")
    if cmd.strip().upper() != b"CAPABILITY":
        return b""
    return b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n"


def test_server_without_starttls_is_refused() -> None:
    asked: list[str] = []
    with fake_server(b"* OK fake ready\r\n", reply=_capability) as port:
        cfg = MailConfig(sender="a@example.org", imap_host=HOST, imap_port=port, imap_security="starttls",
                         imap_user="a", timeout=5)
        with pytest.raises(MailError) as e:
            from_imap(cfg, lambda kind: asked.append(kind) or "secret")
    assert "does not offer STARTTLS" in e.value.message
    assert asked == []  # the password was never even looked up


def test_dropped_connection() -> None:
    with fake_server(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] fake ready\r\n") as port:
        cfg = MailConfig(sender="a@example.org", imap_host=HOST, imap_port=port, imap_security="none",
                         imap_user="a", timeout=5)
        with pytest.raises(MailError) as e:
            from_imap(cfg, _pw)
    assert "dropped the connection" in e.value.message or "closed" in e.value.message


def test_not_configured() -> None:
    with pytest.raises(MailError, match="no IMAP server"):
        from_imap(MailConfig(sender="a@example.org"), _pw)


def test_mailbox_encoding_and_search() -> None:
    assert encode_mailbox("INBOX") == '"INBOX"'
    assert encode_mailbox("a&b") == '"a&-b"'
    assert encode_mailbox("Düel") == '"D&APw-el"'  # RFC 3501 modified UTF-7
    assert encode_mailbox('say "hi" \\') == '"say \\"hi\\" \\\\"'
    assert search_criteria("all", None) == ["ALL"]
    assert search_criteria("all", date(2027, 3, 5)) == ["SINCE", "5-Mar-2027"]


def test_imap_to_game_end_to_end(inbox: Dovecot, tmp_path: Path) -> None:
    """A real turn file: mailed into Dovecot, found over IMAP, received by the real engine."""
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    mail = file_message(f1.raw, sender=red.card.email, recipients=[blue.card.email])
    inbox.append(to_eml(mail))
    inbox.append(_mail("[pbem] damaged", [Attachment("bad.pbem", f1.raw[:-7])]))
    results = ingest(blue.session, from_imap(_cfg(inbox), _pw))
    assert [r.status for r in results] == ["added", "error"]
    assert isinstance(results[1].error, InvalidInput)
    again = ingest(blue.session, from_imap(replace(_cfg(inbox), imap_security="starttls"), _pw,
                                           ssl_context=inbox.tls.client_context()))
    # The damaged file was reported once and put in quarantine: this run skips it.
    assert [r.status for r in again] == ["duplicate", "quarantined"]
    assert game.load(blue.session, store.game_dir(blue.home, gid)).seq == 1


def test_fixture_login_sanity(server: Dovecot) -> None:
    # The passwd-file user logs in with LOGIN too (ASCII-only passwords would).
    c = imaplib.IMAP4(HOST, server.port, timeout=10)
    with pytest.raises(imaplib.IMAP4.error):
        c.login(IMAP_USER, "wrong")
    c.logout()


def test_cli_receive_imap_then_status(inbox: Dovecot, tmp_path: Path) -> None:
    """`pbem receive --imap` then `pbem status`: the player sees that it is their move."""
    from click.testing import CliRunner

    from pbem.cli import cli
    from pbem.protocol.identity import save_identity
    from pbem.store.fsutil import atomic_write

    red, blue, gid = start_duel(tmp_path)
    save_identity(blue.session.ident, blue.home.identity_file, "pw-blue", work_factor=10)
    atomic_write(blue.home.card_file, blue.card.to_text().encode())
    atomic_write(blue.home.config_file, (
        f'[mail]\nfrom = "{blue.card.email}"\noutbox_only = true\nimap_host = "{HOST}"\n'
        f'imap_port = {inbox.port}\nimap_security = "none"\nimap_user = "{IMAP_USER}"\n').encode())
    f1, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    inbox.append(to_eml(file_message(f1.raw, sender=red.card.email, recipients=[blue.card.email])))
    env = {"PBEM_PASSPHRASE": "pw-blue", "PBEM_IMAP_PASSWORD": IMAP_PASSWORD}
    home = str(blue.home.config.parent)
    r = CliRunner().invoke(cli, ["--home", home, "receive", "--imap"], env=env)
    assert r.exit_code == 0, r.output
    assert "turn 1 from red: added" in r.output
    r = CliRunner().invoke(cli, ["--home", home, "status"], env=env)
    assert "YOUR MOVE" in r.output
    r = CliRunner().invoke(cli, ["--home", home, "receive", "--imap"], env=env)
    assert r.exit_code == 0 and "no pbem files found" in r.output  # the mail read before is not fetched again
    r = CliRunner().invoke(cli, ["--home", home, "receive", "--imap", "--all"], env=env)
    assert "already had it" in r.output  # --all looks again; the seen-set answers without a game load


def test_watermark_fetches_only_new_mails(inbox: Dovecot, tmp_path: Path) -> None:
    from pbem.mail.imap import Watermark, watermark_path

    _fill(inbox)
    mark = Watermark()
    assert len(from_imap(_cfg(inbox), _pw, watermark=mark)) == 2
    assert mark.uidvalidity and mark.last
    path = watermark_path(tmp_path, _cfg(inbox))
    mark.save(path)
    mark = Watermark.load(path)
    assert from_imap(_cfg(inbox), _pw, watermark=mark) == []  # nothing new: nothing fetched
    inbox.append(_mail("[pbem] Duel: file 3 by red", [Attachment("duel-000003-turn-red.pbem", GOOD + b"3")]))
    assert [f.data for f in from_imap(_cfg(inbox), _pw, watermark=mark)] == [GOOD + b"3"]
    # Another UIDVALIDITY renumbered the folder: everything is read again.
    stale = Watermark(mark.uidvalidity + 1, mark.last)
    assert len(from_imap(_cfg(inbox), _pw, watermark=stale)) == 3
    assert stale.uidvalidity == mark.uidvalidity
