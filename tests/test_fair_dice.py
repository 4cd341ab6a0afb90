"""Fair dice by construction: no seed before every root is fixed, strict dice by default.

Each test replays an attack a cheating player with a modified pbem would try
(issue 8) and shows that it no longer works.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import DetRng, make_player, start_duel

from pbem.errors import InvalidInput, StateError
from pbem.play import game
from pbem.protocol import dice, dicefiles, genesis, turnfile
from pbem.protocol.context import EngineContext, FileRejected
from pbem.store import gamestore as store


def _play(p, gid: bytes, orders: str, **kw: int) -> bytes:  # type: ignore[no-untyped-def]
    f, _ = game.play(p.session, store.game_dir(p.home, gid), orders, **kw)
    return f.raw


def _proposal(tmp_path: Path, **options: object) -> tuple[bytes, object, object]:
    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard",
                                 my_seat="red", cards={"red": red.card, "blue": blue.card},
                                 options=dict(options), rng=red.session.rng, now=1_700_000_000)
    return data, red, blue


@pytest.mark.parametrize("strict", [True, False])
def test_grinding_joiner_cannot_choose_a_die(tmp_path: Path, strict: bool) -> None:
    """The attack of issue 8: a joiner tries masters until its own first rolls suit it.

    Before the fix the proposal published the host's seeds for the joiner's
    slots, so 686 tries fixed four dice. Now the proposal releases nothing:
    the joiner cannot compute a single one of its rolls before its root is
    signed, whatever master it tries.
    """
    data, _red, blue = _proposal(tmp_path, strict_dice=strict)
    header = turnfile.parse(data).header
    assert "releases" not in header
    d = game.begin(blue.session, turnfile.parse(data))  # everything the joiner can know
    assert all(seeds == [] for seeds in d.est["released"]["red"].values())
    for i in range(50):  # the grinder's loop: each candidate master fails at the first die
        master = DetRng(f"grind{i}")(32)
        tree = dice.SeedTree(master, d.con.game_id, "blue", 4)
        params = d.con.params({"red": header["seed_root"], "blue": tree.root})
        ctx = EngineContext(params, d.est, "blue", 1, author_mode=True, tree=tree, rng=DetRng("x"))
        with pytest.raises(StateError, match="has not released"):
            ctx.roll(6, "first combat")


def test_strict_dice_is_the_default(tmp_path: Path) -> None:
    data, _, _ = _proposal(tmp_path)
    con = genesis.read_proposal(turnfile.parse(data))
    assert con.options["strict_dice"] is True
    assert genesis.dice_mode(con.options) == "strict"


def test_game_new_refuses_a_mode_the_rules_do_not_support(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from toygame import DUEL

    monkeypatch.setattr(DUEL, "dice_modes", ("strict",))
    from pbem.errors import Unsupported

    with pytest.raises(Unsupported, match="window"):
        _proposal(tmp_path, strict_dice=False)
    with pytest.raises(InvalidInput):
        _proposal(tmp_path, strict_dice="yes")


def test_strict_roll_needs_a_reservation_and_a_later_release(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    with pytest.raises(StateError, match="has not released"):
        _play(red, gid, "declare\nroll\n")  # the roll in the file that reserves it: refused
    f1 = _play(red, gid, "declare\n")
    dr = game.load(red.session, store.game_dir(red.home, gid))
    assert dr.est["released"]["blue"]["red"] == []
    game.receive(blue.session, f1)
    game.receive(red.session, _play(blue, gid, "pass\n"))
    game.receive(blue.session, _play(red, gid, "roll\n"))


def test_unrolled_reserved_dice_are_burnt(tmp_path: Path) -> None:
    """A roller may not keep a known roll for a later choice: what it does not roll at once is burnt."""
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    game.receive(blue.session, _play(red, gid, "declare\ndeclare\n"))
    game.receive(red.session, _play(blue, gid, "pass\n"))
    dr = game.load(red.session, store.game_dir(red.home, gid))
    assert len(dr.est["released"]["blue"]["red"]) == 2
    game.receive(blue.session, _play(red, gid, "roll\n"))  # one of the two
    for p in (red, blue):
        d = game.load(p.session, store.game_dir(p.home, gid))
        assert d.est["used"]["red"] == 2
    game.receive(red.session, _play(blue, gid, "pass\n"))
    with pytest.raises(StateError, match="has not released"):
        _play(red, gid, "roll\n")  # the burnt slot cannot be used later


def test_dice_release_file_when_no_file_of_the_alternation_comes_between(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    # red reserves and moves again: blue owes a release before red can go on
    game.receive(blue.session, _play(red, gid, "declare\nagain\n"))
    db = game.load(blue.session, store.game_dir(blue.home, gid))
    pend = db.pending()
    assert pend is not None and pend.seat == "blue" and pend.kind == dicefiles.RELEASE_KIND
    with pytest.raises(StateError):
        _play(red, gid, "roll\n")
    with pytest.raises(InvalidInput, match="takes no orders"):
        _play(blue, gid, "roll\n")
    f2 = _play(blue, gid, "# nothing to decide\n")
    game.receive(red.session, f2)
    assert game.load(red.session, store.game_dir(red.home, gid)).log[-1]["phase"] == dicefiles.DICE_RELEASE
    game.receive(blue.session, _play(red, gid, "roll\n"))
    dr = game.load(red.session, store.game_dir(red.home, gid))
    assert dr.public["to_move"] == "blue"


def test_reservation_for_another_seat_is_released_by_its_author(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    game.receive(blue.session, _play(red, gid, "reserve-other\n"))
    game.receive(red.session, _play(blue, gid, "roll\n"))  # red's own file released blue's slot


def test_window_mode_dice_request_refills_on_demand(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, dice_window=4)
    with pytest.raises(StateError, match="has not released"):
        _play(red, gid, "roll\n" * 6)  # more rolls than the window: no deadlock, a request
    game.receive(blue.session, _play(red, gid, "", dice_request=6))
    db = game.load(blue.session, store.game_dir(blue.home, gid))
    assert db.pending() is not None and db.pending().kind == dicefiles.RELEASE_KIND  # type: ignore[union-attr]
    game.receive(red.session, _play(blue, gid, ""))
    game.receive(blue.session, _play(red, gid, "roll\n" * 6))


def test_strict_mode_refuses_dice_requests(tmp_path: Path) -> None:
    red, _blue, gid = start_duel(tmp_path, strict_dice=True)
    with pytest.raises(StateError, match="window mode"):
        _play(red, gid, "", dice_request=3)


def test_forged_release_file_carrying_a_roll_is_refused(tmp_path: Path) -> None:
    """A dice release made by a modified pbem that sneaks in orders is refused by the others."""
    from pbem.protocol import dicefiles as df

    red, blue, gid = start_duel(tmp_path, strict_dice=True)
    game.receive(blue.session, _play(red, gid, "declare\nagain\n"))
    db = game.load(blue.session, store.game_dir(blue.home, gid))
    with pytest.raises(FileRejected):
        df.apply(db.params, db.est, "blue", df.DICE_RELEASE, [["roll"]], db.rules_pending())
    with pytest.raises(FileRejected, match="strict"):
        df.apply(db.params, db.est, "red", df.DICE_REQUEST, {"engine": "dice-request", "count": 2},
                 db.rules_pending())

