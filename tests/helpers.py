"""Deterministic players and games for tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from pbem import game, genesis, paths
from pbem.identity import Card, Identity, new_identity


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
    def __init__(self, start: int = 1_800_000_000) -> None:
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
    ident: Identity = new_identity(name.title(), f"{name}@example.org", rng=rng, now=lambda: 1.8e9)
    home = paths.resolve(root / name)
    return Player(name, game.Session(home, ident, rng=rng, now=Clock()))


def start_duel(tmp: Path, scenario: str = "standard", seed: str = "", **options: object
               ) -> tuple[Player, Player, bytes]:
    """red hosts, blue joins; returns (red, blue, game id)."""
    red, blue = make_player(tmp, "red", seed), make_player(tmp, "blue", seed)
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario=scenario,
                                 my_seat="red", cards={"red": red.card, "blue": blue.card},
                                 options=dict(options), rng=red.session.rng, now=1_800_000_000)
    d = game.create(red.session, data)
    game.receive(blue.session, data)
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    return red, blue, d.con.game_id
