"""End of game: reveals, the full audit with every secret, export to an observer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Player, make_player, start_duel

from pbem.errors import PbemError, StateError
from pbem.formats import canonical
from pbem.play import archive, audit, game
from pbem.play.reveal import RevealMismatch
from pbem.protocol import turnfile
from pbem.store import gamestore as store
from pbem.store.fsutil import snapshot


def _turn(p: Player, other: Player, gid: bytes, orders: str) -> None:
    f, _ = game.play(p.session, store.game_dir(p.home, gid), orders)
    game.receive(other.session, f.raw)


def _played(tmp: Path) -> tuple[Player, Player, bytes]:
    red, blue, gid = start_duel(tmp)
    _turn(red, blue, gid, "seal 2\nsecret\nroll\n")
    _turn(blue, red, gid, "seal 3\nroll\n")
    _turn(red, blue, gid, "open\nroll\n")
    _turn(blue, red, gid, "secret\n")
    return red, blue, gid


def _end_both(red: Player, blue: Player, gid: bytes) -> None:
    # the game is live: red ends it alone (a concession), then blue reveals the game over
    fr, _ = game.end(red.session, store.game_dir(red.home, gid), "conceded")
    game.receive(blue.session, fr.raw)
    fb, _ = game.end(blue.session, store.game_dir(blue.home, gid))
    game.receive(red.session, fb.raw)


def test_full_audit_after_reveals(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    rep = audit.audit(red.session, store.game_dir(red.home, gid))
    assert rep.missing_reveals == ["blue", "red"]
    _end_both(red, blue, gid)
    for p in (red, blue):
        rep = audit.audit(p.session, store.game_dir(p.home, gid))
        assert rep.clean, rep.violations
        assert rep.turns_replayed == 4
        assert rep.secrets_checked == 4  # two bids, two secret rolls
    # the game is closed: no more turns
    with pytest.raises(StateError):
        game.play(red.session, store.game_dir(red.home, gid), "roll\n")


def test_unopened_commitment_is_listed(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    gs = store.game_dir(red.home, gid)
    d = game.derive(red.session, gs)
    # blue's bid (file 2) was never opened in play; blue's reveal opens it.
    assert any(c["seat"] == "blue" and ref not in d.est["opened"] for ref, c in d.est["commits"].items())
    _end_both(red, blue, gid)
    rep = audit.audit(red.session, gs)
    assert rep.clean


def test_export_to_observer(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    _end_both(red, blue, gid)
    data = archive.export(store.game_dir(red.home, gid))
    obs = make_player(tmp_path, "observer")
    gs, d = archive.import_archive(obs.session, data)
    assert d.my_seat is None
    rep = audit.audit(obs.session, gs)
    assert rep.clean and rep.turns_replayed == 4
    # the observer sees everything the players saw, and their secrets
    dr = game.derive(red.session, store.game_dir(red.home, gid))
    assert d.public == dr.public


def test_archive_without_reveals_is_unreadable_to_observer(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    data = archive.export(store.game_dir(red.home, gid))
    obs = make_player(tmp_path, "observer")
    before = snapshot(obs.home.data)
    with pytest.raises(PbemError):
        archive.import_archive(obs.session, data)
    assert snapshot(obs.home.data) == before


def test_recovery_from_archive(tmp_path: Path) -> None:
    """A player who lost the game folder rebuilds it from the files and the identity."""
    import shutil

    red, blue, gid = _played(tmp_path)
    gs = store.game_dir(blue.home, gid)
    data = archive.export(gs)
    before = game.derive(blue.session, gs)
    shutil.rmtree(gs.root)
    gs2, d = archive.import_archive(blue.session, data)
    assert d.public == before.public and d.private == before.private and d.master == before.master
    _turn(red, blue, gid, "roll\n")  # play goes on


def _forged_reveal(p: Player, gid: bytes, change: Any) -> bytes:
    gs = store.game_dir(p.home, gid)
    d = game.derive(p.session, gs)
    from pbem.play import reveal

    good = turnfile.parse(reveal.make_reveal(p.session, gs, d, "conceded"))
    h = dict(good.header)
    m = canonical.decode(h["payload"])
    change(m)
    h["payload"] = canonical.encode(m)
    return turnfile.seal(h, p.session.ident.sign)


@pytest.mark.parametrize("what", ["opening", "file_key", "dice_master"])
def test_wrong_reveal_is_caught(tmp_path: Path, what: str) -> None:
    red, blue, gid = _played(tmp_path)

    def change(m: dict[str, Any]) -> None:
        if what == "opening":
            ref = next(iter(m["openings"]))
            m["openings"][ref]["value"] = 1
        elif what == "file_key":
            label = next(iter(m["file_keys"]))
            m["file_keys"][label] = bytes(16)
        else:
            m["dice_master"] = bytes(32)

    bad = _forged_reveal(blue, gid, change)
    home = store.game_dir(red.home, gid).root
    before = snapshot(home)
    with pytest.raises(RevealMismatch):
        game.receive(red.session, bad)
    assert snapshot(home) == before


def test_secret_move_differing_from_commitment_is_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """A modified client seals bid 1 but records bid 3 as its orders: only the audit can see it."""
    from toygame import Duel

    red, blue, gid = start_duel(tmp_path)
    orig = Duel.private_orders

    def lying(self: Duel, orders: Any) -> Any:
        return [["seal", 3] if o[0] == "seal" else o for o in orig(self, orders)]

    monkeypatch.setattr(Duel, "private_orders", lying)
    _turn(red, blue, gid, "seal 1\n")
    monkeypatch.setattr(Duel, "private_orders", orig)
    _turn(blue, red, gid, "roll\n")
    _end_both(red, blue, gid)
    rep = audit.audit(blue.session, store.game_dir(blue.home, gid))
    assert not rep.clean
    assert any("file 1 by red" in v and "sealed 1" in v for v in rep.violations), rep.violations


def test_recovery_from_loose_files(tmp_path: Path) -> None:
    """The files as they came by mail, in any order, rebuild the folder."""
    import shutil

    red, blue, gid = _played(tmp_path)
    gs = store.game_dir(blue.home, gid)
    blobs = [sf.read() for sf in gs.files()][::-1]
    before = game.derive(blue.session, gs)
    shutil.rmtree(gs.root)
    (data,) = archive.from_files(blobs + blobs[:2]).values()
    _, d = archive.import_archive(blue.session, data)
    assert d.public == before.public and d.secrets == before.secrets


@pytest.mark.parametrize("damage", ["truncate", "flip", "other-game"])
def test_damaged_archive_refused_and_nothing_written(tmp_path: Path, damage: str) -> None:
    red, blue, gid = _played(tmp_path)
    data = archive.export(store.game_dir(red.home, gid))
    if damage == "truncate":
        bad = data[: len(data) // 2]
    elif damage == "flip":
        b = bytearray(data)
        b[len(b) // 2] ^= 0x10
        bad = bytes(b)
    else:
        r2, b2, g2 = start_duel(tmp_path / "g2", seed="second ")
        other = archive.read(archive.export(store.game_dir(r2.home, g2)))[1]
        mixed = archive.read(data)[1] + other[:1]
        bad = archive.MAGIC + canonical.encode({"game": gid, "rules": "duel", "scenario": "standard",
                                                "files": [f.raw for f in mixed]})
    obs = make_player(tmp_path, "observer")
    before = snapshot(tmp_path)
    with pytest.raises(PbemError):
        archive.import_archive(obs.session, bad)
    assert snapshot(tmp_path) == before


def test_reveal_from_a_stranger_is_refused(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    eve = make_player(tmp_path, "eve")
    gs = store.game_dir(blue.home, gid)
    from pbem.play import reveal

    good = turnfile.parse(reveal.make_reveal(blue.session, gs, game.derive(blue.session, gs), "conceded"))
    forged = turnfile.seal(dict(good.header), eve.session.ident.sign)  # eve signs as "blue"
    before = snapshot(store.game_dir(red.home, gid).root)
    with pytest.raises(PbemError):
        game.receive(red.session, forged)
    assert snapshot(store.game_dir(red.home, gid).root) == before
