"""Ending a game: by an agreement every seat signs, by the rules, or alone and named as such."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Player, start_duel, start_trio

from pbem.errors import OutOfOrder, StateError
from pbem.play import audit, ending, game
from pbem.protocol import turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _play(p: Player, gid: bytes, orders: str) -> bytes:
    f, _ = game.play(p.session, _gs(p, gid), orders)
    return f.raw


def _vote(p: Player, gid: bytes, vote: str) -> bytes:
    f, _ = game.play(p.session, _gs(p, gid), "", end_vote=vote)
    return f.raw


def _reveal(p: Player, gid: bytes, alone: str = "") -> bytes:
    f, _ = game.end(p.session, _gs(p, gid), alone)
    return f.raw


def _deal(raw: bytes, *to: Player) -> None:
    for p in to:
        game.receive(p.session, raw)


def _load(p: Player, gid: bytes) -> game.Derived:
    return game.derive(p.session, _gs(p, gid))


def _forge_reason(raw: bytes, p: Player, reason: str) -> bytes:
    h = dict(turnfile.parse(raw).header)
    h["reason"] = reason
    return turnfile.seal(h, p.session.ident.sign)


def test_one_player_cannot_end_the_game_for_everyone(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    _deal(_play(red, gid, "roll\n"), blue)
    # red's tool refuses to reveal "agreed" when nobody agreed
    with pytest.raises(StateError, match="not every seat has agreed"):
        _reveal(red, gid)
    # a modified tool signs it anyway: blue refuses it
    conceded = _reveal(red, gid, "conceded")
    before = sorted(p.name for p in _gs(blue, gid).files_dir.iterdir())
    with pytest.raises(FileRejected, match="'agreed'"):
        game.receive(blue.session, _forge_reason(conceded, red, "agreed"))
    assert sorted(p.name for p in _gs(blue, gid).files_dir.iterdir()) == before
    assert not _load(blue, gid).closed


def test_end_by_agreement_is_signed_by_every_seat_before_any_reveal(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    _deal(_play(red, gid, "roll\n"), blue)
    # only the seat whose move it is may propose, in place of its move
    with pytest.raises(StateError, match="blue's move"):
        _vote(red, gid, "propose")
    _deal(_vote(blue, gid, "propose"), red)
    d = _load(red, gid)
    pend = d.pending()
    assert pend is not None and pend.seat == "red" and pend.kind == ending.ANSWER_KIND
    # a proposal is not an agreement: nobody may reveal "agreed" yet
    with pytest.raises(StateError, match="not every seat has agreed"):
        _reveal(blue, gid)
    with pytest.raises(StateError, match="answers that"):
        _play(red, gid, "roll\n")
    _deal(_vote(red, gid, "accept"), blue)
    for p in (red, blue):
        d = _load(p, gid)
        assert ending.agreed(d.est) and d.pending() is None
        assert ending.outcome(d) == "ended by agreement of every seat"
    with pytest.raises(StateError, match="over"):
        _play(blue, gid, "roll\n")
    r1 = _reveal(red, gid)
    assert turnfile.parse(r1).header["reason"] == "agreed"
    _deal(r1, blue)
    r2 = _reveal(blue, gid)
    assert turnfile.parse(r2).header["reason"] == "agreed"
    _deal(r2, red)
    d = _load(red, gid)
    assert set(d.reveals) == {"red", "blue"} and not d.violations
    assert audit.audit(red.session, _gs(red, gid)).clean


def test_a_decline_withdraws_the_proposal_and_play_goes_on(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    # red reserves a roll; blue's files release it; the end files must not burn it
    _deal(_play(red, gid, "declare\n"), blue)
    before = _load(blue, gid).public
    _deal(_vote(blue, gid, "propose"), red)
    _deal(_vote(red, gid, "decline"), blue)
    d = _load(blue, gid)
    assert "end" not in d.est and d.public == before
    pend = d.pending()
    assert pend is not None and pend.seat == "blue" and pend.kind != ending.ANSWER_KIND
    _deal(_play(blue, gid, "pass\n"), red)
    _deal(_play(red, gid, "roll\n"), blue)  # red's reserved roll is still there
    assert _load(blue, gid).log[-1]["events"][0]["kind"] == "roll"
    # the full audit replays the end files beside the rules' files
    _deal(_reveal(red, gid, "abandoned"), blue)
    _deal(_reveal(blue, gid), red)
    rep = audit.audit(blue.session, _gs(blue, gid))
    assert rep.clean and rep.turns_replayed == 5
    assert ending.outcome(_load(blue, gid)) == "red abandoned the game"


def test_an_answer_nobody_asked_for_is_refused(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    with pytest.raises(StateError, match="no end proposal"):
        _vote(red, gid, "accept")


def test_concession_is_named_and_closes_the_game(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    _deal(_play(red, gid, "roll\n"), blue)
    r = _reveal(blue, gid, "conceded")  # not blue's move: a concession needs none
    assert turnfile.parse(r).header["reason"] == "conceded"
    _deal(r, red)
    d = _load(red, gid)
    assert d.closed and ending.outcome(d) == "blue conceded"
    with pytest.raises(StateError, match="closed"):
        _play(red, gid, "roll\n")
    # the other seat's reveal says the game is over; it may not claim to concede too
    with pytest.raises(StateError, match="already ended"):
        _reveal(red, gid, "abandoned")
    r2 = _reveal(red, gid)
    assert turnfile.parse(r2).header["reason"] == "over"
    _deal(r2, blue)
    assert ending.outcome(_load(blue, gid)) == "blue conceded"


def test_three_seats_every_seat_must_accept(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    _deal(_vote(a, gid, "propose"), b, c)
    assert _load(c, gid).pending().seat == "b"  # type: ignore[union-attr]
    _deal(_vote(b, gid, "accept"), a, c)
    d = _load(a, gid)
    assert not ending.agreed(d.est) and d.pending().seat == "c"  # type: ignore[union-attr]
    # two of three is not an agreement: a forged "agreed" reveal is refused
    forged = _forge_reason(_reveal(a, gid, "abandoned"), a, "agreed")
    with pytest.raises(FileRejected, match="'agreed'"):
        game.receive(c.session, forged)
    # (a has now abandoned: it is out of the game; the others may still record the end)
    _deal(_vote(c, gid, "accept"), b)
    assert ending.agreed(_load(b, gid).est)


def test_over_after_a_concession_waits_for_it(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    conceded = _reveal(b, gid, "conceded")
    _deal(conceded, a)
    over = _reveal(a, gid)
    assert turnfile.parse(over).header["reason"] == "over"
    # c meets a's "over" before b's concession that justifies it
    with pytest.raises(OutOfOrder):
        game.receive(c.session, over)
    _deal(conceded, c)
    _deal(over, c)
    # replayed from the files (a's reveal sorts before b's): still accepted
    d = _load(c, gid)
    assert set(d.reveals) == {"a", "b"} and ending.outcome(d) == "b conceded"
