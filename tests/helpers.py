"""Deterministic players and games for tests."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem import rulesapi
from pbem.cli import demo
from pbem.play import archive, audit, game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import Card, Identity, new_identity
from pbem.store import gamestore, paths


class DetRng:
    """Deterministic randomness: SHA-256 in counter mode over a label."""

    def __init__(self, label: str) -> None:
        self.label = label.encode()
        self.n = 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(self.label + self.n.to_bytes(8, "big")).digest()
            self.n += 1
        return out[:size]


class Clock:
    def __init__(self, start: int = 1_700_000_000) -> None:
        self.t = start

    def __call__(self) -> float:
        self.t += 60
        return float(self.t)


@dataclass
class Player:
    name: str
    session: game.Session

    @property
    def card(self) -> Card:
        return self.session.ident.card()

    @property
    def home(self) -> paths.Home:
        return self.session.home


def make_player(root: Path, name: str, seed: str = "") -> Player:
    rng = DetRng(seed + name)
    ident: Identity = new_identity(name.title(), f"{name}@example.org", rng=rng, now=lambda: 1.7e9)
    home = paths.resolve(root / name)
    return Player(name, game.Session(home, ident, rng=rng, now=Clock()))


def start_duel(tmp: Path, scenario: str = "standard", seed: str = "", **options: object
               ) -> tuple[Player, Player, bytes]:
    """red hosts, blue joins; returns (red, blue, game id).

    The duel rolls freely, so its tests play in window dice mode unless they
    ask for strict mode (the real default) with ``strict_dice=True``.
    """
    options.setdefault("strict_dice", False)
    red, blue = make_player(tmp, "red", seed), make_player(tmp, "blue", seed)
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario=scenario,
                                 my_seat="red", cards={"red": red.card, "blue": blue.card},
                                 options=dict(options), rng=red.session.rng, now=1_700_000_000)
    d = game.create(red.session, data)
    game.receive(blue.session, data)
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    return red, blue, d.con.game_id


def start_game(players: dict[str, Player], rules: str, scenario: str, options: dict[str, Any] | None = None
               ) -> bytes:
    """The first seat of ``players`` hosts, every other seat joins, every join reaches every seat;
    returns the game id."""
    seats = list(players)
    host = players[seats[0]]
    data = genesis.make_proposal(host.session.ident, rules_name=rules, scenario=scenario, my_seat=seats[0],
                                 cards={s: p.card for s, p in players.items()}, options=dict(options or {}),
                                 rng=host.session.rng, now=1_700_000_000)
    gid = game.create(host.session, data).con.game_id
    joins = []
    for s in seats[1:]:
        game.receive(players[s].session, data)
        jf, _ = game.join(players[s].session, data)
        joins.append((s, jf.raw))
    for s, p in players.items():
        for q, raw in joins:
            if q != s:
                game.receive(p.session, raw)
    return gid


def start_trio(tmp: Path, scenario: str = "standard", seed: str = "", **options: object
               ) -> tuple[list[Player], bytes]:
    """a hosts, b and c join, every join reaches every seat; returns ([a, b, c], game id).

    Trio plays in the real default dice mode (strict) unless ``strict_dice`` is given.
    """
    players = {s: make_player(tmp, s, seed) for s in ("a", "b", "c")}
    return list(players.values()), start_game(players, "trio", scenario, dict(options))


def start_france_1940(tmp: Path, options: dict[str, Any] | None = None, now: int = 1_700_000_000
                      ) -> tuple[dict[str, Player], bytes]:
    """USE's France 1940: axis hosts, western joins; returns (players by seat, game id)."""
    players = {s: make_player(tmp, s) for s in ("axis", "western")}
    data = genesis.make_proposal(players["axis"].session.ident, rules_name="use", scenario="france-1940",
                                 my_seat="axis", cards={s: p.card for s, p in players.items()},
                                 options=dict(options or {}), rng=players["axis"].session.rng, now=now)
    gid = game.create(players["axis"].session, data).con.game_id
    jf, _ = game.join(players["western"].session, data)
    game.receive(players["axis"].session, jf.raw)
    return players, gid


def deliver(players: dict[str, Player], gid: bytes, seat: str, text: str
            ) -> tuple[turnfile.SignedFile, game.Derived]:
    """``seat`` plays ``text``; every other player receives the file."""
    p = players[seat]
    f, d = game.play(p.session, gamestore.game_dir(p.home, gid), text)
    for other in players.values():
        if other is not p:
            game.receive(other.session, f.raw)
    return f, d


def demo_turns(players: dict[str, Player], gid: bytes, steps: list[tuple[str, str]] | None = None
               ) -> Iterator[tuple[str, str]]:
    """The France 1940 demo's files in order, as (seat, orders), for the caller to play (``deliver``).

    A dice release owed first comes as (seat, "") (strict dice, pbem.protocol.dicefiles);
    `PASS-UNTIL` lines become the end-phase files they stand for. ``steps``: what is left of the
    parsed script, to go on with a game already under way.
    """
    if steps is None:
        script = rulesapi.get("use").demo_script("france-1940")
        assert script is not None
        steps = demo.parse_script(script)
    watcher = next(iter(players.values()))
    while steps:
        pend = game.load(watcher.session, gamestore.game_dir(watcher.home, gid)).pending()
        if pend is not None and pend.kind == "dice-release":
            yield pend.seat, ""
            continue
        seat, text = steps.pop(0)
        if seat == "*":  # PASS-UNTIL: whoever must act ends its step until the phase prefix
            if pend is not None and not pend.phase.startswith(text):
                steps[:0] = [(pend.seat, "end-phase\n"), ("*", text)]
            continue
        yield seat, text


def end_and_audit(players: dict[str, Player], gid: bytes, tmp: Path) -> None:
    """Every seat agrees to stop and reveals; every home and an observer (importing the archive)
    audit the whole game, and the observer's public state is every home's."""
    seats = list(players)

    def gs(seat: str) -> gamestore.GameStore:
        return gamestore.game_dir(players[seat].home, gid)

    for _ in seats:
        pend = game.load(players[seats[0]].session, gs(seats[0])).pending()
        assert pend is not None
        vote = "propose" if pend.kind != "end-answer" else "accept"
        f, _ = game.play(players[pend.seat].session, gs(pend.seat), "", end_vote=vote)
        for o in seats:
            if o != pend.seat:
                game.receive(players[o].session, f.raw)
    for s in seats:
        f, _ = game.end(players[s].session, gs(s))
        for o in seats:
            if o != s:
                game.receive(players[o].session, f.raw)
    for s in seats:
        rep = audit.audit(players[s].session, gs(s))
        assert rep.clean, (s, rep)
    obs = make_player(tmp, "observer")
    store, d = archive.import_archive(obs.session, archive.export(gs(seats[0])))
    assert d.my_seat is None and audit.audit(obs.session, store).clean
    assert all(d.public == game.derive(players[s].session, gs(s)).public for s in seats)
