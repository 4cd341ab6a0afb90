"""Telling one seat something (``Context.tell``), with the three-seat Trio (tests/toygame3.py).

Seat a tells seat b a number: b's tool checks it against a's public commitment
and records it in b's private state; c's part of the file holds nothing and c's
tool, without the number, reaches the same public state; a forged told value is
refused by b, naming a; after the reveals the full audit checks it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Player, start_trio

from pbem.crypto import age
from pbem.formats import canonical, padding
from pbem.play import audit, game
from pbem.protocol import turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _part(p: Player, f: turnfile.SignedFile, seat: str) -> Any:
    return canonical.decode(padding.unpad(age.decrypt(f.header["private"][seat], [p.session.ident.age_identity]),
                                          "a private part"))


def _told_game(tmp: Path) -> tuple[list[Player], bytes, turnfile.SignedFile]:
    (a, b, c), gid = start_trio(tmp, scenario="four-rounds", strict_dice=False)
    # window mode: b and c release their seeds for a first (no orders)
    for p, rest in ((b, (a, c)), (c, (a, b))):
        f, _ = game.play(p.session, _gs(p, gid), "")
        for q in rest:
            game.receive(q.session, f.raw)
    f, _ = game.play(a.session, _gs(a, gid), "tell b 7\nroll\n")
    return [a, b, c], gid, f


def test_a_tells_b_and_only_b_learns_it(tmp_path: Path) -> None:
    (a, b, c), gid, f = _told_game(tmp_path)
    for q in (b, c):
        assert game.receive(q.session, f.raw).status == "added"
    views = {p.name: game.load(p.session, _gs(p, gid)) for p in (a, b, c)}
    # b's private state changed from a's file; c's and a's did not learn the number
    assert views["b"].private["told"] == [7]
    assert "told" not in views["c"].private and "told" not in views["a"].private
    # everyone reaches the same public state, which counts the tell but holds no number
    assert views["a"].public == views["b"].public == views["c"].public
    assert views["c"].public["tells"] == 1
    assert 7 not in canonical.decode(padding.unpad(
        age.decrypt(f.header["public"], [c.session.ident.age_identity]), "public"))["orders"][0]
    # b's part carries the opening; c's part is the plain empty one; all parts are one length
    told = _part(b, f, "b")["told"]
    assert [(t["ref"], t["value"]) for t in told] == [(f"{f.seq}.0", 7)]
    assert _part(c, f, "c") == {"events": []}
    assert len({len(x) for x in f.header["private"].values()}) == 1
    # the public header holds the commitment, labelled in the public part, naming the recipient
    pub = canonical.decode(padding.unpad(age.decrypt(f.header["public"], [c.session.ident.age_identity]), "p"))
    assert pub["commits"] == [{"label": "tell:number", "ctx": f"{f.seq}:b:"}]
    assert len(f.header["commits"]) == 1


def test_a_forged_told_value_is_refused_by_b_naming_a(tmp_path: Path) -> None:
    (a, b, c), gid, f = _told_game(tmp_path)
    part = _part(b, f, "b")
    part["told"][0]["value"] = 8  # differs from what a committed to
    h = dict(f.header)
    h["private"] = dict(h["private"])
    size = len(padding.unpad(age.decrypt(f.header["private"]["c"], [c.session.ident.age_identity]), "c")) + 2
    plain = canonical.encode(part)
    h["private"]["b"] = age.encrypt(padding.pad(plain, to=padding.bucket(max(len(plain), size))),
                                    [b.card.age_recipient])
    bad = turnfile.seal(h, a.session.ident.sign)
    assert len({len(x) for x in h["private"].values()}) == 1
    before = sorted(x.name for x in _gs(b, gid).files_dir.iterdir())
    with pytest.raises(FileRejected, match=r"by a: what a told you \('number'.*differs from a's public commitment"):
        game.receive(b.session, bad)
    assert sorted(x.name for x in _gs(b, gid).files_dir.iterdir()) == before
    # c cannot tell the difference (its part and the public one are unchanged): it sees only the commitment
    assert game.receive(c.session, bad).status == "added"


def test_a_told_part_missing_is_refused(tmp_path: Path) -> None:
    (a, b, c), gid, f = _told_game(tmp_path)
    h = dict(f.header)
    h["private"] = dict(h["private"])
    # b's part as c's: nothing told, yet the rules tell b something
    h["private"]["b"] = age.encrypt(padding.pad(canonical.encode({"events": []}),
                                                to=len(padding.pad(canonical.encode(_part(b, f, "b"))))),
                                    [b.card.age_recipient])
    bad = turnfile.seal(h, a.session.ident.sign)
    with pytest.raises(FileRejected, match="sealed nothing of it in your private part"):
        game.receive(b.session, bad)


def test_tell_survives_the_reveal_and_full_audit(tmp_path: Path) -> None:
    (a, b, c), gid, f = _told_game(tmp_path)
    players = [a, b, c]
    for q in (b, c):
        game.receive(q.session, f.raw)
    for seat, orders in (("b", "tell c 3\n"), ("c", "pass\n")):
        p = next(x for x in players if x.name == seat)
        g, _ = game.play(p.session, _gs(p, gid), orders)
        for q in players:
            if q is not p:
                game.receive(q.session, g.raw)
    assert game.load(c.session, _gs(c, gid)).private["told"] == [3]
    # a concedes; the others reveal in turn, each after receiving the reveals before it
    ends: list[turnfile.SignedFile] = []
    for i, p in enumerate(players):
        e = game.end(p.session, _gs(p, gid), "conceded" if i == 0 else "")[0]
        ends.append(e)
        for q in players:
            if q is not p:
                game.receive(q.session, e.raw)
    for p in players:
        rep = audit.audit(p.session, _gs(p, gid))
        assert rep.clean, rep.violations
