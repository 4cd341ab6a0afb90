"""Signed times: never far before the file they follow, never far ahead of the receiver's clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Player, start_duel

from pbem.play import game, proof
from pbem.protocol import signedtime, turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _redate(raw: bytes, p: Player, t: int) -> bytes:
    h = dict(turnfile.parse(raw).header)
    h["time"] = t
    return turnfile.seal(h, p.session.ident.sign)


def _snapshot(p: Player, gid: bytes) -> list[str]:
    return sorted(x.name for x in _gs(p, gid).files_dir.iterdir())


def test_a_backdated_turn_is_refused(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, _gs(red, gid), "roll\n")
    d = game.load(blue.session, _gs(blue, gid))
    prev = signedtime.genesis_time(d.con.proposal, d.joins.values())
    before = _snapshot(blue, gid)
    evil = _redate(f1.raw, red, prev - signedtime.BACKWARD_TOLERANCE - 60)
    with pytest.raises(FileRejected, match="minutes before") as e:
        game.receive(blue.session, evil)
    assert "clock" in e.value.hint
    assert _snapshot(blue, gid) == before
    # within the tolerance (honest clock skew) it is accepted
    ok = _redate(f1.raw, red, prev - signedtime.BACKWARD_TOLERANCE + 60)
    assert game.receive(blue.session, ok).status == "added"


def test_a_turn_from_the_future_is_refused_on_intake(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, _gs(red, gid), "roll\n")
    blue.session.now = lambda: 1_700_000_000.0
    evil = _redate(f1.raw, red, 1_700_000_000 + 86_400)
    with pytest.raises(FileRejected, match="ahead of this computer's clock"):
        game.receive(blue.session, evil)
    # a day later by blue's clock, the same file is fine
    blue.session.now = lambda: 1_700_000_000.0 + 86_400
    assert game.receive(blue.session, evil).status == "added"
    # and replaying a stored game needs no clock: a stopped one changes nothing
    blue.session.now = lambda: 0.0
    assert game.derive(blue.session, _gs(blue, gid)).seq == 1


def test_an_impossible_time_is_refused(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, _gs(red, gid), "roll\n")
    with pytest.raises(FileRejected, match="impossible"):
        game.receive(blue.session, _redate(f1.raw, red, -5))


def test_a_backdated_join_is_refused(tmp_path: Path) -> None:
    from helpers import make_player

    from pbem.protocol import genesis

    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={"strict_dice": False},
                                 rng=red.session.rng, now=1_700_000_000)
    game.create(red.session, data)
    jf, _ = game.join(blue.session, data)
    with pytest.raises(FileRejected, match="minutes before"):
        game.receive(red.session, _redate(jf.raw, blue, 1_700_000_000 - 3600))


def test_a_backdated_reveal_is_refused(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, _gs(red, gid), "roll\n")
    game.receive(blue.session, f1.raw)
    r, _ = game.end(red.session, _gs(red, gid), "conceded")
    with pytest.raises(FileRejected, match="minutes before"):
        game.receive(blue.session, _redate(r.raw, red, int(f1.header["time"]) - 3600))


def test_proof_bundles_present_the_time_as_a_claim(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f1, _ = game.play(red.session, _gs(red, gid), "roll\n")
    rep = proof.check(proof.make(_gs(red, gid), waiting_for="blue"))
    text = "\n".join(rep.findings)
    assert "(as claimed by its author)" in text and "dated" not in text
    assert signedtime.describe(f1.header["time"]) in text
    assert "not a valid time" in signedtime.describe(-1)
