"""Finding pbem files in mails and receiving them with the real game engine."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import Player, start_duel
from mailservers import HOST, smtp_server

from pbem.errors import ExitCode, InvalidInput, NotFound, PbemError
from pbem.mail import (
    Attachment,
    InlineImage,
    MailConfig,
    MailError,
    attachments_from_eml,
    build_message,
    file_message,
    from_eml_files,
    from_maildir,
    ingest,
    send_or_queue,
    to_eml,
)
from pbem.play import game
from pbem.store import gamestore as store

PNG = bytes.fromhex("89504e470d0a1a0a") + b"\x00" * 64
WHEN = datetime(2027, 1, 1, tzinfo=UTC)


def _play(p: Player, gid: bytes, orders: str = "roll\n") -> bytes:
    f, _ = game.play(p.session, store.game_dir(p.home, gid), orders)
    return f.raw


def _mail(attachments: list[Attachment], subject: str = "[pbem] duel", text: str = "hi\n") -> bytes:
    return to_eml(build_message(
        sender="red@example.org", recipients=["blue@example.org"], subject=subject, text=text,
        html='<p>hi <img src="cid:map@pbem"></p>', inline_images=[InlineImage("map@pbem", PNG)],
        attachments=attachments, message_id="<m@example.org>", date=WHEN))


# --- finding ---------------------------------------------------------------------------


def test_finds_pbem_attachments_only() -> None:
    good = b"pbem-file/v1\n" + b"\x00\x01" * 100
    data = _mail([
        Attachment("notes.txt", b"pbem-file/v1 is mentioned here", "text/plain"),  # named .txt, no magic+LF
        Attachment("photo.jpg", b"\xff\xd8\xff\xe0", "image/jpeg"),
        Attachment("a.pbem", good),
        Attachment("unnamed.bin", good + b"2", "application/octet-stream"),  # sniffed by content
        Attachment("empty-but-named.pbem", b"", "application/octet-stream"),
    ], text="pbem-file/v1\nthis is the body, not a file\n")
    found = attachments_from_eml(data, "x.eml")
    assert [(f.filename, f.data) for f in found] == [
        ("a.pbem", good), ("unnamed.bin", good + b"2"), ("empty-but-named.pbem", b"")]
    assert all(f.source.startswith("x.eml part ") for f in found)


@pytest.mark.parametrize(("name", "safe"), [
    ("../../etc/cron.d/evil.pbem", "evil.pbem"),
    ("C:\\Users\\x\\turn.pbem", "turn.pbem"),
    ("..pbem", "pbem"),
    ("tür 1.pbem", "t_r_1.pbem"),
])
def test_attachment_names_are_made_safe(name: str, safe: str) -> None:
    found = attachments_from_eml(_mail([Attachment(name, b"pbem-file/v1\nx")]))
    assert [f.filename for f in found] == [safe]


def test_not_a_mail_at_all() -> None:
    assert attachments_from_eml(b"\x00\xff garbage without headers") == []


def test_from_eml_files_errors(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        from_eml_files([tmp_path / "missing.eml"])
    with pytest.raises(MailError, match="is a folder"):
        from_eml_files([tmp_path])
    with pytest.raises(MailError, match="not a Maildir"):
        from_maildir(tmp_path)


# --- receiving with the real engine -------------------------------------------------


def test_eml_file_added_then_duplicate(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    f1 = _play(red, gid)
    eml = tmp_path / "turn.eml"
    eml.write_bytes(to_eml(file_message(f1, sender=red.card.email, recipients=[blue.card.email])))
    found = from_eml_files([eml])
    assert [f.data for f in found] == [f1]
    seen: list[tuple[int, int]] = []
    results = ingest(blue.session, found, progress=lambda i, n, f: seen.append((i, n)))
    assert [r.status for r in results] == ["added"] and seen == [(1, 1)]
    assert results[0].received is not None and results[0].received.seq == 1
    assert [r.status for r in ingest(blue.session, from_eml_files([eml]))] == ["duplicate"]
    # The sender receiving its own mail (it is among the recipients) is fine too.
    assert [r.status for r in ingest(red.session, found)] == ["duplicate"]


def test_maildir_new_and_cur_read_only(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    f1 = _play(red, gid)
    game.receive(blue.session, f1)
    f2 = _play(blue, gid)
    md = mailbox.Maildir(tmp_path / "Maildir", create=True)
    md.add(_mail([], subject="lunch?"))
    k1 = md.add(to_eml(file_message(f1, sender=red.card.email, recipients=[blue.card.email])))
    msg = mailbox.MaildirMessage(to_eml(file_message(f2, sender=blue.card.email, recipients=[red.card.email])))
    msg.set_subdir("cur")
    msg.add_flag("S")  # already read in the mail client
    md.add(msg)
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "Maildir").rglob("*"))
    found = from_maildir(tmp_path / "Maildir")
    assert sorted(f.data for f in found) == sorted([f1, f2])
    assert any(k1 in f.source for f in found)
    after = sorted(p.relative_to(tmp_path) for p in (tmp_path / "Maildir").rglob("*"))
    assert before == after  # nothing moved from new/ to cur/, no flags changed
    results = {r.found.data: r.status for r in ingest(red.session, found)}
    assert results == {f1: "duplicate", f2: "added"}


def test_a_corrupted_attachment_does_not_stop_the_others(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    f1 = _play(red, gid)
    flipped = bytearray(f1)
    flipped[len(f1) // 2] ^= 0x01
    data = _mail([
        Attachment("truncated.pbem", f1[: len(f1) // 2]),
        Attachment("flipped.pbem", bytes(flipped)),
        Attachment("garbage.pbem", b"PK\x03\x04 a zip file, misnamed"),
        Attachment("photo.jpg", b"\xff\xd8\xff", "image/jpeg"),
        Attachment("good.pbem", f1),
    ])
    found = attachments_from_eml(data, "mixed.eml")
    assert [f.filename for f in found] == ["truncated.pbem", "flipped.pbem", "garbage.pbem", "good.pbem"]
    results = ingest(blue.session, found)
    assert [r.status for r in results] == ["error", "error", "error", "added"]
    for r in results[:3]:
        assert isinstance(r.error, PbemError) and r.error.hint
    assert isinstance(results[0].error, InvalidInput) and results[0].error.exit_code == ExitCode.INVALID
    assert results[1].error is not None and results[1].error.exit_code in (ExitCode.INVALID, ExitCode.AUTH)
    assert game.load(blue.session, store.game_dir(blue.home, gid)).seq == 1


def _fresh_copy(p: Player, root: Path) -> Player:
    """The same player in a copy of their home as it is now (a second machine, say)."""
    import shutil

    from pbem.store import paths

    shutil.copytree(p.home.data.parent, root)
    return Player(p.name, game.Session(paths.resolve(root), p.session.ident, rng=p.session.rng))


def test_files_are_applied_in_game_order(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    laptop = _fresh_copy(blue, tmp_path / "laptop")  # blue's second machine, still at the start
    other_red, _, other_gid = start_duel(tmp_path / "other", scenario="short")  # another game
    f1 = _play(red, gid)
    game.receive(blue.session, f1)
    f2 = _play(blue, gid)
    game.receive(red.session, f2)
    f3 = _play(red, gid)
    foreign = _play(other_red, other_gid)
    # Newest first, as a mail client sorted by date descending would hand them over.
    found = attachments_from_eml(_mail([Attachment("3.pbem", f3), Attachment("x.pbem", foreign),
                                        Attachment("1.pbem", f1), Attachment("2.pbem", f2)]))
    results = ingest(laptop.session, found)
    assert [r.status for r in results] == ["added", "error", "added", "added"]
    assert results[1].error is not None and results[1].error.exit_code == ExitCode.CHAIN  # no such game here
    assert game.load(laptop.session, store.game_dir(laptop.home, gid)).seq == 3


def test_a_missing_file_leaves_the_later_one_out_of_order(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    laptop = _fresh_copy(blue, tmp_path / "laptop")
    f1 = _play(red, gid)
    game.receive(blue.session, f1)
    f2 = _play(blue, gid)
    game.receive(red.session, f2)
    f3 = _play(red, gid)
    results = ingest(laptop.session, attachments_from_eml(_mail([Attachment("3.pbem", f3),
                                                                Attachment("1.pbem", f1)])))
    assert [r.status for r in results] == ["error", "added"]
    assert results[0].error is not None and results[0].error.exit_code == ExitCode.CHAIN
    assert "waiting for file 2" in results[0].error.message


def test_smtp_to_maildir_to_game(tmp_path: Path) -> None:
    """The whole trip: red's turn sent over SMTP, delivered into a Maildir, received by blue."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Mailbox
    from mailservers import free_port

    red, blue, gid = start_duel(tmp_path / "g")
    f1 = _play(red, gid)
    outbox = store.game_dir(red.home, gid).outbox
    port = free_port()
    ctl = Controller(Mailbox(tmp_path / "Maildir"), hostname=HOST, port=port, ready_timeout=10)
    ctl.start()
    try:
        cfg = MailConfig(sender=f"Red <{red.card.email}>", smtp_host=HOST, smtp_port=port,
                         smtp_security="none", timeout=5)
        r = send_or_queue(file_message(f1, sender=cfg.sender, recipients=[red.card.email, blue.card.email]),
                          cfg, outbox)
    finally:
        ctl.stop()
    assert r.status == "sent" and r.path.parent == outbox / "sent"
    results = ingest(blue.session, from_maildir(tmp_path / "Maildir"))
    assert [(r.found.data, r.status) for r in results] == [(f1, "added")]
    assert [r.status for r in ingest(red.session, from_maildir(tmp_path / "Maildir"))] == ["duplicate"]


def test_smtp_recorder_sanity() -> None:
    # The recording server used by the other mail tests accepts a bare message too.
    import smtplib

    with smtp_server() as srv:
        with smtplib.SMTP(HOST, srv.port, timeout=5) as s:
            s.sendmail("a@example.org", ["b@example.org"], b"Subject: x\r\n\r\nbody\r\n")
    assert srv.deliveries[0].data == b"Subject: x\r\n\r\nbody\r\n"


# --- the seen-set and the pending folder (issue 11) -----------------------------------------


def _no_receive(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object) -> None:
        raise AssertionError("a file the game holds was received again")

    monkeypatch.setattr(game, "receive", boom)


def test_a_held_file_is_not_received_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1 = _play(red, gid)
    assert [r.status for r in ingest(blue.session, attachments_from_eml(_mail([Attachment("1.pbem", f1)])))
            ] == ["added"]
    _no_receive(monkeypatch)
    # The same attachment in a mail under another Message-ID (anyone may send one): skipped by its hash.
    again = to_eml(build_message(sender="eve@example.org", recipients=["blue@example.org"], subject="[pbem] duel",
                                 text="hi\n", attachments=[Attachment("renamed.pbem", f1)],
                                 message_id="<other@example.org>", date=WHEN))
    results = ingest(blue.session, attachments_from_eml(again))
    assert [r.status for r in results] == ["duplicate"]
    assert results[0].received is not None and results[0].received.seq == 1


def test_a_file_before_its_predecessor_waits_in_the_pending_folder(tmp_path: Path) -> None:
    from pbem.play.intake import pending_dir

    red, blue, gid = start_duel(tmp_path / "g")
    laptop = _fresh_copy(blue, tmp_path / "laptop")
    f1 = _play(red, gid)
    game.receive(blue.session, f1)
    f2 = _play(blue, gid)
    game.receive(red.session, f2)
    f3 = _play(red, gid)
    first = ingest(laptop.session, attachments_from_eml(_mail([Attachment("3.pbem", f3)])))
    assert [r.status for r in first] == ["error"]
    assert len(list(pending_dir(laptop.session).glob("*.pbem"))) == 1
    # The mail carrying file 3 is not read again: the pending folder brings it back.
    later = ingest(laptop.session, attachments_from_eml(_mail([Attachment("1.pbem", f1),
                                                              Attachment("2.pbem", f2)])))
    assert [r.status for r in later] == ["added", "added", "added"]
    assert later[2].found.source.startswith("pending ")
    assert game.load(laptop.session, store.game_dir(laptop.home, gid)).seq == 3
    assert not list(pending_dir(laptop.session).glob("*.pbem"))


def test_a_pending_file_still_waiting_is_not_reported(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path / "g")
    laptop = _fresh_copy(blue, tmp_path / "laptop")
    f1 = _play(red, gid)
    game.receive(blue.session, f1)
    f2 = _play(blue, gid)
    game.receive(red.session, f2)
    f3 = _play(red, gid)
    ingest(laptop.session, attachments_from_eml(_mail([Attachment("3.pbem", f3)])))
    assert [r.status for r in ingest(laptop.session, attachments_from_eml(_mail([Attachment("1.pbem", f1)])))
            ] == ["added"]
