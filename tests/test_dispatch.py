"""What leaves a home by mail after a play: one mail per opponent, the private view only when opted in."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

from helpers import start_duel

from pbem.mail import dispatch, parse_config
from pbem.play import game
from pbem.store import gamestore as store


def _eml(path: Path) -> email.message.EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, email.message.EmailMessage)
    return msg


def test_one_mail_per_opponent_with_the_file(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    gs = store.game_dir(red.home, gid)
    f, d = game.play(red.session, gs, "roll\nsecret\n")
    results = dispatch.dispatch(red.session, gs, d, f, None, use_config=False)
    assert [r.status for r in results] == ["queued"]
    msg = _eml(results[0].path)
    assert msg["To"] == blue.card.email and "blue to act" in msg["Subject"]
    att = [p for p in msg.iter_attachments() if p.get_filename() and p.get_filename().endswith(".pbem")]
    assert att and att[0].get_content() == f.raw
    assert "private view" not in msg.get_body(("html",)).get_content()


def test_private_view_to_self_only_when_opted_in(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    gs = store.game_dir(red.home, gid)
    f, d = game.play(red.session, gs, "secret\n")
    cfg = parse_config({"mail": {"from": red.card.email, "outbox_only": True, "private_to_self": True}})
    results = dispatch.dispatch(red.session, gs, d, f, cfg, use_config=False)
    tos = sorted(_eml(r.path)["To"] for r in results)
    assert tos == sorted([blue.card.email, red.card.email])
    mine = next(_eml(r.path) for r in results if _eml(r.path)["To"] == red.card.email)
    assert "private view" in mine.get_body(("html",)).get_content()
