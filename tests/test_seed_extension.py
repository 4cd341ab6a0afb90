"""Seeds that last (issue 16, point 4): dice epochs past the genesis seed trees, and trees sized
from the rules' estimate (docs/protocol.md §11, "Epochs").

A tiny ``dice_depth`` (4: 16 leaves, 8 rolls of each of two seats, 5 of each of three) makes the
genesis trees run out within a few turns; play goes on in new epochs whose roots each seat
commits in its files, and every player verifies and fully audits the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import Player, make_player, start_duel, start_trio
from toygame import DUEL

from pbem.errors import Equivocation
from pbem.play import archive, audit, game, reveal
from pbem.play.reveal import RevealMismatch
from pbem.protocol import dice, dicefiles, genesis, schema, turnfile
from pbem.protocol.dicefiles import BadSeedRoot
from pbem.store import gamestore as store


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _send(p: Player, gid: bytes, orders: str, others: list[Player]) -> turnfile.SignedFile:
    f, _ = game.play(p.session, _gs(p, gid), orders)
    for q in others:
        assert game.receive(q.session, f.raw).status == "added"
    return f


def _move(players: dict[str, Player], gid: bytes, orders: Callable[[str], str]) -> list[turnfile.SignedFile]:
    """The pending seat plays ``orders(seat)``, after any dice-release files owed first."""
    files = []
    watcher = next(iter(players.values()))
    while True:
        pend = game.load(watcher.session, _gs(watcher, gid)).pending()
        assert pend is not None
        p = players[pend.seat]
        others = [q for q in players.values() if q is not p]
        if pend.kind == "dice-release":
            files.append(_send(p, gid, "", others))
            continue
        files.append(_send(p, gid, orders(pend.seat), others))
        return files


def _public(p: Player, gid: bytes, f: turnfile.SignedFile) -> Any:
    d = game.load(p.session, _gs(p, gid))
    return d.keyring.open(f"{f.seq}/public", f.header["public"], "public part")


def _end_all(players: list[Player], gid: bytes) -> None:
    first, *rest = players
    f, _ = game.end(first.session, _gs(first, gid), "conceded")
    for q in rest:
        game.receive(q.session, f.raw)
    for p in rest:
        f, _ = game.end(p.session, _gs(p, gid))
        for q in players:
            if q is not p:
                game.receive(q.session, f.raw)


def _duel_orders(turns: dict[str, int]) -> Callable[[str], str]:
    """Strict dice: declare, then each turn rolls what it declared (every third one in secret,
    revealed the turn after) and declares again."""
    def orders(seat: str) -> str:
        n = turns[seat] = turns.get(seat, 0) + 1
        if n == 1:
            return "declare\n"
        if n % 3 == 0:
            return "secret\ndeclare\n"
        return ("reveal\n" if n % 3 == 1 else "") + "roll\ndeclare\nreserve-other\n"
    return orders


@pytest.mark.parametrize("mode", [{"strict_dice": True}, {"strict_dice": False, "dice_window": 2},
                                  {"strict_dice": False, "dice_window": 64}], ids=["strict", "window", "wide"])
def test_duel_plays_past_the_genesis_trees_verified_and_audited(tmp_path: Path, mode: dict[str, Any]) -> None:
    red, blue, gid = start_duel(tmp_path, scenario="endless", dice_depth=4, **mode)
    players = {"red": red, "blue": blue}
    per = dice.per_epoch(4, 2)
    orders = _duel_orders({})
    files: list[turnfile.SignedFile] = []
    for _ in range(44):
        files += _move(players, gid, orders)
    d = game.load(red.session, _gs(red, gid))
    assert min(d.est["used"].values()) > 2 * per  # every roller is in its third tree
    assert all(len(d.est.get("epochs", {})[s]) >= 2 for s in ("red", "blue"))
    # Each new root came in a file of play, before any seed of its epoch was out.
    roots = [(f.seq, f.author, _public(red, gid, f)["seed_root"]) for f in files
             if "seed_root" in _public(red, gid, f)]
    assert [(a, r["epoch"]) for _, a, r in roots][:4] == [("red", 1), ("blue", 1), ("red", 2), ("blue", 2)]
    if mode["strict_dice"]:  # a new root is due only past the middle of the last tree
        assert 2 < min(seq for seq, _, _ in roots)
    for p in (red, blue):  # a fresh replay of every file agrees with the cached state
        assert game.derive(p.session, _gs(p, gid)).est == d.est
    _end_all([red, blue], gid)
    for p in (red, blue):
        rep = audit.audit(p.session, _gs(p, gid))
        assert rep.clean, rep.violations
        assert rep.secrets_checked >= 5
    # the archive's replay checks every tree as well
    obs = make_player(tmp_path, "observer")
    gs, od = archive.import_archive(obs.session, archive.export(_gs(red, gid)))
    assert od.est["epochs"] == d.est["epochs"]
    assert audit.audit(obs.session, gs).clean


def test_three_seats_play_past_the_genesis_trees(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path, scenario="endless", dice_depth=4)
    players = {"a": a, "b": b, "c": c}
    per = dice.per_epoch(4, 3)
    turns: dict[str, int] = {}

    def orders(seat: str) -> str:
        n = turns[seat] = turns.get(seat, 0) + 1
        return "declare 2\n" if n == 1 else "roll\nroll\ndeclare 2\n"

    for _ in range(24):
        _move(players, gid, orders)
    d = game.load(a.session, _gs(a, gid))
    assert min(d.est["used"].values()) > per
    assert all(len(d.est.get("epochs", {})[s]) >= 1 for s in players)
    _end_all([a, b, c], gid)
    for p in (a, b, c):
        rep = audit.audit(p.session, _gs(p, gid))
        assert rep.clean, rep.violations


def test_a_roller_short_of_its_new_root_commits_it_in_a_dice_release(tmp_path: Path) -> None:
    """Blue's one file reserves red more rolls than the genesis trees hold: red's own epoch-1 root
    is missing, so red owes a dice release carrying it, then blue releases, then red rolls."""
    red, blue, gid = start_duel(tmp_path, scenario="endless", strict_dice=True, dice_depth=4)
    _send(red, gid, "declare\n", [blue])
    _send(blue, gid, "reserve-other\n" * 10, [red])
    d = game.load(red.session, _gs(red, gid))
    assert d.est["reserved"]["red"] == 11 and len(d.est["released"]["blue"]["red"]) == dice.per_epoch(4, 2)
    pend = d.pending()
    assert pend is not None and (pend.seat, pend.kind) == ("red", "dice-release")
    assert "seed root" in pend.wanted
    f = _send(red, gid, "", [blue])
    assert _public(blue, gid, f)["seed_root"]["epoch"] == 1
    pend = game.load(red.session, _gs(red, gid)).pending()
    assert pend is not None and (pend.seat, pend.kind) == ("blue", "dice-release")
    _send(blue, gid, "", [red])
    _send(red, gid, "roll\n" * 11, [blue])  # three of them from the epoch-1 trees
    assert game.load(blue.session, _gs(blue, gid)).est["used"]["red"] == 11
    _end_all([red, blue], gid)
    for p in (red, blue):
        assert audit.audit(p.session, _gs(p, gid)).clean


def test_a_short_game_carries_no_seed_root(tmp_path: Path) -> None:
    """Below the threshold nothing changes: no root in any file, no epochs in the state."""
    red, blue, gid = start_duel(tmp_path, scenario="endless", strict_dice=True)
    players = {"red": red, "blue": blue}
    orders = _duel_orders({})
    files = [f for _ in range(6) for f in _move(players, gid, orders)]
    assert all("seed_root" not in _public(red, gid, f) for f in files)
    assert "epochs" not in game.load(blue.session, _gs(blue, gid)).est


NEXT = "roll\ndeclare\nreserve-other\n"  # red's orders in the file that carries its first new root


def _to_first_root(tmp_path: Path) -> tuple[Player, Player, bytes]:
    """A strict duel at depth 4, up to the file in which red's first new root falls due."""
    red, blue, gid = start_duel(tmp_path, scenario="endless", strict_dice=True, dice_depth=4)
    players = {"red": red, "blue": blue}
    orders = _duel_orders({})
    for _ in range(60):
        d = game.load(red.session, _gs(red, gid))
        pend = d.pending()
        assert pend is not None
        if pend.seat == "red" and pend.kind != "dice-release" and d.est["reserved"].get("red"):
            # would red's next file carry its root? (the file is made and thrown away)
            pub = _public_of(red, gid, game.produce_turn(red.session, _gs(red, gid), d, NEXT))
            if "seed_root" in pub:
                return red, blue, gid
        _move(players, gid, orders)
    raise AssertionError("no seed root fell due")



def _public_of(p: Player, gid: bytes, data: bytes) -> Any:
    f = turnfile.parse(data)
    d = game.load(p.session, _gs(p, gid))
    return d.keyring.open(f"{f.seq}/public", f.header["public"], "public part")


def _forge(monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None]) -> None:
    """Red's tool, modified: its new root is changed after the honest one was made."""
    real = dicefiles.add_seed_root

    def forged(params: Any, est: Any, tree: Any, author: str, public: Any) -> None:
        real(params, est, tree, author, public)
        change(public)

    monkeypatch.setattr(dicefiles, "add_seed_root", forged)


@pytest.mark.parametrize("how", ["missing", "other-epoch", "genesis-root", "malformed"])
def test_a_tampered_or_missing_seed_root_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    how: str) -> None:
    red, blue, gid = _to_first_root(tmp_path)
    d = game.load(red.session, _gs(red, gid))
    changes: dict[str, Callable[[dict[str, Any]], None]] = {
        "missing": lambda pub: pub.pop("seed_root"),
        "other-epoch": lambda pub: pub["seed_root"].update(epoch=2),
        "genesis-root": lambda pub: pub["seed_root"].update(root=d.roots["red"]),
        "malformed": lambda pub: pub["seed_root"].update(root=b"short"),
    }
    _forge(monkeypatch, changes[how])
    data = game.produce_turn(red.session, _gs(red, gid), d, NEXT)
    err = schema.MalformedPart if how == "malformed" else BadSeedRoot
    with pytest.raises(err):
        game.receive(blue.session, data)


def test_a_seed_root_that_is_not_due_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue, gid = start_duel(tmp_path, scenario="endless", strict_dice=True, dice_depth=4)
    _forge(monkeypatch, lambda pub: pub.__setitem__("seed_root", {"epoch": 1, "root": bytes(range(32))}))
    d = game.load(red.session, _gs(red, gid))
    with pytest.raises(BadSeedRoot, match="not due"):
        game.receive(blue.session, game.produce_turn(red.session, _gs(red, gid), d, "declare\n"))


def test_a_new_root_cannot_be_swapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files for one place, one with each root: equivocation, proven by red's two signatures."""
    red, blue, gid = _to_first_root(tmp_path)
    d = game.load(red.session, _gs(red, gid))
    honest = game.produce_turn(red.session, _gs(red, gid), d, NEXT)
    game.receive(blue.session, honest)
    _forge(monkeypatch, lambda pub: pub["seed_root"].update(root=bytes(range(32))))
    other = game.produce_turn(red.session, _gs(red, gid), d, NEXT)
    with pytest.raises(Equivocation):
        game.receive(blue.session, other)


def test_a_root_not_from_the_revealed_master_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tool that commits an epoch root of another master plays on, but its reveal is refused."""
    red, blue, gid = _to_first_root(tmp_path)
    stray = dice.SeedTree(b"s" * 32, gid, "red", 4)
    real_for_epoch = dice.SeedTree.for_epoch

    def for_epoch(self: dice.SeedTree, epoch: int) -> dice.SeedTree:
        if self.seat == "red" and epoch == 1:
            return stray
        return real_for_epoch(self, epoch)

    monkeypatch.setattr(dice.SeedTree, "for_epoch", for_epoch)
    players = {"red": red, "blue": blue}
    for _ in range(12):  # red's epoch-1 seeds are the stray tree's, consistently
        _move(players, gid, lambda seat: NEXT)
    assert game.load(blue.session, _gs(blue, gid)).est["epochs"]["red"][0] == stray.root
    monkeypatch.undo()
    data = reveal.make_reveal(red.session, _gs(red, gid), game.load(red.session, _gs(red, gid)), "conceded")
    with pytest.raises(RevealMismatch, match="committed seed root"):
        game.receive(blue.session, data)


def _propose(tmp_path: Path, **options: object) -> genesis.Constitution:
    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options=dict(options),
                                 rng=red.session.rng, now=1_700_000_000)
    return genesis.read_proposal(turnfile.parse(data))


def test_the_rules_estimate_picks_the_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _propose(tmp_path / "none").options["dice_depth"] == 13  # no estimate: the default
    monkeypatch.setattr(DUEL, "dice_estimate", lambda scenario: 100)
    con = _propose(tmp_path / "est")
    # 100 rolls and a quarter more must come before the middle of a tree of 2^(d-1) rolls per seat
    assert con.options["dice_depth"] == 9
    assert genesis.depth_for(100, 2, {"strict_dice": False, "dice_window": 64}) == 10  # the window too
    assert genesis.depth_for(0, 2, {}) == genesis.MIN_DEPTH
    assert genesis.depth_for(10**9, 2, {}) == 20  # capped: epochs take over in play
    # the proposer's own depth wins
    assert _propose(tmp_path / "set", dice_depth=6).options["dice_depth"] == 6
    monkeypatch.setattr(DUEL, "dice_estimate", lambda scenario: -1)
    with pytest.raises(Exception, match="dice estimate"):
        _propose(tmp_path / "bad")
