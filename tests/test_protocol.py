"""The protocol end to end at the library level, with the test game."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Player, make_player, start_duel, start_trio

from pbem.errors import (
    Equivocation,
    IllegalOrder,
    NotAddressedToYou,
    OutOfOrder,
    StateError,
    WrongGame,
)
from pbem.play import game
from pbem.protocol import turnfile
from pbem.store import gamestore as store


def _play(p, gid: bytes, orders: str) -> bytes:  # type: ignore[no-untyped-def]
    f, _ = game.play(p.session, store.game_dir(p.home, gid), orders)
    return f.raw


def test_genesis_and_three_turns(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1 = _play(red, gid, "roll\nseal 2\nsecret\n")
    assert game.receive(blue.session, f1).status == "added"
    f2 = _play(blue, gid, "roll\n")
    game.receive(red.session, f2)
    f3 = _play(red, gid, "open\nreveal\nroll\n")
    game.receive(blue.session, f3)
    dr = game.load(red.session, store.game_dir(red.home, gid))
    db = game.load(blue.session, store.game_dir(blue.home, gid))
    assert dr.public == db.public
    assert dr.seq == db.seq == 3
    assert dr.private == {"bid": None, "secret": None}
    kinds = [e["kind"] for e in db.log[-1]["events"]]
    assert kinds == ["opened", "revealed", "roll"]
    # the same file twice is fine
    assert game.receive(blue.session, f3).status == "duplicate"


@pytest.fixture(params=["duel", "trio"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[list[Player], bytes]:
    """A started game of the two-seat or the three-seat test game; players in move order."""
    if request.param == "duel":
        red, blue, gid = start_duel(tmp_path)
        return [red, blue], gid
    players, gid = start_trio(tmp_path)
    return players, gid


def test_illegal_order_changes_nothing(tmp_path: Path, table: tuple[list[Player], bytes]) -> None:
    players, gid = table
    before = __import__("pbem.store.fsutil", fromlist=["snapshot"]).snapshot(tmp_path)
    with pytest.raises(IllegalOrder) as e:
        _play(players[0], gid, "open\n")
    assert e.value.rule in ("Duel 3", "Trio 3")
    after = __import__("pbem.store.fsutil", fromlist=["snapshot"]).snapshot(tmp_path)
    assert before == after


def test_not_your_turn(table: tuple[list[Player], bytes]) -> None:
    players, gid = table
    for p in players[1:]:
        with pytest.raises(StateError):
            _play(p, gid, "pass\n")


def test_out_of_order_and_equivocation(table: tuple[list[Player], bytes]) -> None:
    players, gid = table
    red, blue = players[0], players[1]
    for p in players:  # one round, every file to every other seat
        f = _play(p, gid, "pass\n")
        for q in players:
            if q is not p:
                game.receive(q.session, f)
    n = len(players) + 1
    f3 = _play(red, gid, "pass\n")
    gs = store.game_dir(red.home, gid)
    d = game.load(red.session, gs)
    assert d.seq == n
    # blue gets red's file n, then a file two ahead (out of order), then a different signed file n
    game.receive(blue.session, f3)
    with pytest.raises(OutOfOrder):
        f5_like = turnfile.parse(f3)
        hdr = dict(f5_like.header)
        hdr["seq"] = n + 2
        game.receive(blue.session, turnfile.seal(hdr, red.session.ident.sign))
    hdr = dict(turnfile.parse(f3).header)
    hdr["time"] += 1
    evil = turnfile.seal(hdr, red.session.ident.sign)
    with pytest.raises(Equivocation):
        game.receive(blue.session, evil)
    ev = list(store.game_dir(blue.home, gid).evidence_dir.iterdir())
    assert len(ev) == 2


def test_third_identity_reads_nothing(tmp_path: Path, table: tuple[list[Player], bytes]) -> None:
    from pbem.crypto import age

    (red, *others), gid = table
    f1 = turnfile.parse(_play(red, gid, "seal 3\n"))
    eve = make_player(tmp_path, "eve")
    with pytest.raises(age.NoMatchError):
        age.decrypt(f1.header["public"], [eve.session.ident.age_identity])
    for part in f1.header["private"].values():
        with pytest.raises(age.NoMatchError):
            age.decrypt(part, [eve.session.ident.age_identity])
    # the others can read the public part but not red's private part
    for p in others:
        age.decrypt(f1.header["public"], [p.session.ident.age_identity])
        with pytest.raises(age.NoMatchError):
            age.decrypt(f1.header["private"][red.name], [p.session.ident.age_identity])
    # eve holds no copy of the game, and could not join it: her card has no seat
    with pytest.raises(WrongGame):
        game.receive(eve.session, f1.raw)
    proposal = store.game_dir(red.home, gid).files()[0].read()
    with pytest.raises(NotAddressedToYou):
        game.receive(eve.session, proposal)


def test_strict_dice_seeds_come_after_the_action(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    # nothing released ahead: red cannot roll (or foresee a roll) yet
    with pytest.raises(StateError, match="has not released"):
        _play(red, gid, "roll\n")
    f1 = _play(red, gid, "declare\n")
    dr = game.load(red.session, store.game_dir(red.home, gid))
    assert dr.est["released"]["blue"]["red"] == []  # red still cannot compute its roll
    game.receive(blue.session, f1)
    f2 = _play(blue, gid, "pass\n")  # blue's reply releases exactly the reserved seed
    game.receive(red.session, f2)
    dr = game.load(red.session, store.game_dir(red.home, gid))
    assert len(dr.est["released"]["blue"]["red"]) == 1
    f3 = _play(red, gid, "roll\n")
    game.receive(blue.session, f3)
    with pytest.raises(StateError, match="has not released"):
        _play(blue, gid, "roll\n")
