"""War in Europe among three homes on the real protocol (issue 14, point 4).

- The Joint Tactical Air War's sealed commitment by all three: one round of commitments and one of
  openings; before the last opening no home can read another's missions, associates included.
- A player who sends different files to the other two (here: two different sealed air
  commitments) is caught, with both signatures kept as evidence and a proof anyone can check.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import Player, make_player, start_game

from pbem import rulesapi
from pbem.errors import Equivocation
from pbem.play import game, proof
from pbem.protocol import turnfile
from pbem.store import gamestore, paths

SEATS = ("axis", "allied", "soviet")
COMMITS = {"axis": "air east superiority 12", "allied": "air west support 30", "soviet": "air east superiority 40"}


def _gs(p: Player, gid: bytes) -> gamestore.GameStore:
    return gamestore.game_dir(p.home, gid)


def _start(tmp: Path) -> tuple[dict[str, Player], bytes]:
    assert "wie" in rulesapi.available(), "War in Europe registers through its entry point (setup.cfg)"
    players = {s: make_player(tmp, s) for s in SEATS}
    return players, start_game(players, "wie", "battle-for-germany-1945", {"strict_dice": True})


def _send(players: dict[str, Player], gid: bytes, seat: str, text: str) -> turnfile.SignedFile:
    f, _ = game.play(players[seat].session, _gs(players[seat], gid), text)
    for s, p in players.items():
        if s != seat:
            game.receive(p.session, f.raw)
    return f


def _pending(p: Player, gid: bytes) -> Any:
    return game.load(p.session, _gs(p, gid)).pending()


def test_the_sealed_air_war_costs_one_round_of_each_and_tells_nobody_early(tmp_path: Path) -> None:
    players, gid = _start(tmp_path)
    files = 0
    for seat in SEATS:
        assert _pending(players["axis"], gid).seat == seat
        _send(players, gid, seat, COMMITS[seat])
        files += 1
    for seat in SEATS:
        for other, p in players.items():
            d = game.load(p.session, _gs(p, gid))
            theirs = [s for s in SEATS if s != other and s not in d.public["air"]["opened"]]
            # nothing another seat sealed is in what this home can read: no mission, no opening
            refs = d.public["air"]["refs"]
            for s in theirs:
                assert COMMITS[s].split(" ", 2)[2] not in repr(d.public), (other, s)
                assert s not in refs or refs[s] not in d.secrets["openings"], (other, s)
        assert _pending(players["axis"], gid).seat == seat
        _send(players, gid, seat, "")
        files += 1
    assert files == 6  # 2 x seats: one round of commitments, one of openings; no dice release
    views = [game.load(p.session, _gs(p, gid)).public for p in players.values()]
    assert views[0] == views[1] == views[2] and set(views[0]["air"]["opened"]) == set(SEATS)


def _fork(p: Player, tmp: Path) -> Player:
    """The cheater's second home: the same identity, another history."""
    root = tmp / f"{p.name}-fork"
    shutil.copytree(tmp / p.name, root)
    return Player(p.name, game.Session(paths.resolve(root), p.session.ident, rng=p.session.rng, now=p.session.now))


def test_a_player_sending_different_commitments_to_the_other_two_is_caught(tmp_path: Path) -> None:
    players, gid = _start(tmp_path)
    axis, allied, soviet = (players[s] for s in SEATS)
    twin = _fork(axis, tmp_path)
    x, _ = game.play(axis.session, _gs(axis, gid), "air east superiority 12")
    x2, _ = game.play(twin.session, _gs(twin, gid), "air west superiority 10")
    assert x.seq == x2.seq == 1 and x.body != x2.body
    game.receive(allied.session, x.raw)  # the Allied player is told one thing...
    game.receive(soviet.session, x2.raw)  # ...and the Soviet player another
    y, _ = game.play(allied.session, _gs(allied, gid), COMMITS["allied"])  # builds on X
    with pytest.raises(Equivocation, match=r"^axis signed two different files with sequence number 1"):
        game.receive(soviet.session, y.raw)
    gs = _gs(soviet, gid)
    assert {p.read_bytes() for p in gs.evidence_dir.iterdir()} == {x2.raw, y.raw}
    assert game.load(soviet.session, gs).seq == 1  # the Soviet game did not move
    rep = proof.check(proof.make(gs, waiting_for=None))
    found = [s for s in rep.findings if s.startswith("EQUIVOCATION")]
    assert not rep.problems and len(found) == 1 and "seat axis" in found[0], (rep.problems, rep.findings)
    with pytest.raises(Equivocation):  # the Allied home, given X' directly, sees it too
        game.receive(allied.session, x2.raw)
