"""What a player knows of a game: the session, the derived state and the keyring.

The state is rebuilt from the files (pbem.play.game.derive) or the cache;
this module holds its shape, the genesis steps that start it, and the
keyring that opens encrypted parts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem import rulesapi
from pbem.crypto import age
from pbem.errors import (
    Equivocation,
    NotAddressedToYou,
    Replayed,
    StateError,
    TamperedCiphertext,
)
from pbem.formats import canonical, padding
from pbem.play import ending
from pbem.protocol import dice, dicefiles, releases, signedtime
from pbem.protocol.context import (
    EngineState,
    FileRejected,
    GameParams,
    apply_releases,
    new_engine_state,
)
from pbem.protocol.genesis import (
    Constitution,
    check_join,
    genesis_hash,
    initial_engine_state,
    joins_release,
    open_escrow,
    read_proposal,
)
from pbem.protocol.identity import Keys
from pbem.protocol.turnfile import SignedFile
from pbem.store.paths import Home

Rng = Callable[[int], bytes]


@dataclass
class Session:
    """An unlocked player in a home, with injected randomness and clock."""

    home: Home
    ident: Keys
    rng: Rng = os.urandom
    now: Callable[[], float] = time.time

    def clock(self) -> int:
        return int(self.now())


def _no_secrets() -> dict[str, Any]:
    return {"openings": {}, "secret_rolls": {}}


@dataclass
class Derived:
    """Everything this player knows about a game, rebuilt from its files.

    A player may hold several seats where the scenario allows it
    (docs/protocol.md §6a): ``my_seats`` lists them, and what each seat alone
    knows (private state, secrets, dice master) is kept per seat. ``my_seat``,
    ``private``, ``secrets`` and ``master`` are those of the seat in focus: the
    one set with ``focus``, else the pending seat when it is one of this
    player's, else the first.
    """

    con: Constitution
    my_seats: tuple[str, ...] = ()
    joins: dict[str, SignedFile] = field(default_factory=dict)
    roots: dict[str, bytes] = field(default_factory=dict)
    est: EngineState = field(default_factory=lambda: new_engine_state([]))
    seq: int = 0
    last_hash: bytes = b""
    public: Any = None
    privates: dict[str, Any] = field(default_factory=dict)
    secrets_by: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The event log, one entry per turn file: read from the game's log file only when asked for
    # (``log``); a file's entry is added without reading it (``add_log``), so `receive` and
    # `play` never decode a log that grows with the game (issue 11; pbem.play.game.load).
    _log: list[dict[str, Any]] | None = field(default_factory=list, repr=False)
    _log_load: Callable[[], list[dict[str, Any]]] | None = field(default=None, repr=False)
    _log_added: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _log_last: dict[str, Any] | None = field(default=None, repr=False)
    #: (entries, bytes) of the log file this state was loaded with: what a save appends to
    log_on_disk: tuple[int, int] | None = field(default=None, repr=False)
    masters: dict[str, bytes] = field(default_factory=dict)
    keys: Keyring | None = None
    reveals: dict[str, SignedFile] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    focus: str | None = None
    #: seat -> the sides it plays (``Scenario.side_map``), known once the game has started
    sides: dict[str, list[str]] = field(default_factory=dict)
    #: seat -> the signing keys of the cards that held it before a handover (pbem.play.handover)
    past_keys: dict[str, list[bytes]] = field(default_factory=dict)

    @property
    def log(self) -> list[dict[str, Any]]:
        if self._log is None:
            assert self._log_load is not None
            self._log = [*self._log_load(), *self._log_added]
            self._log_added = []
        return self._log

    @log.setter
    def log(self, entries: list[dict[str, Any]]) -> None:
        self._log, self._log_load, self._log_added, self.log_on_disk = entries, None, [], None
        self._log_last = entries[-1] if entries else None

    def lazy_log(self, load: Callable[[], list[dict[str, Any]]], last: dict[str, Any] | None,
                 on_disk: tuple[int, int]) -> None:
        """The log is in a file: ``load`` reads it when someone asks; ``last`` is its last entry."""
        self._log, self._log_load, self._log_added, self._log_last = None, load, [], last
        self.log_on_disk = on_disk

    def add_log(self, entry: dict[str, Any]) -> None:
        if self._log is None:
            self._log_added.append(entry)
        else:
            self._log.append(entry)
        self._log_last = entry

    def last_log(self) -> dict[str, Any] | None:
        """The newest entry of the log, without reading the log."""
        if self._log is not None:
            return self._log[-1] if self._log else None
        return self._log_last

    def log_since(self, n: int) -> list[dict[str, Any]]:
        """The entries after the first ``n``, without reading the log when they were added since."""
        if self._log is None:
            assert self.log_on_disk is not None and n == self.log_on_disk[0]
            return list(self._log_added)
        return self._log[n:]

    @property
    def log_len(self) -> int:
        if self._log is not None:
            return len(self._log)
        assert self.log_on_disk is not None
        return self.log_on_disk[0] + len(self._log_added)

    @property
    def my_seat(self) -> str | None:
        """The seat in focus (see the class docstring), None for a seatless observer."""
        if len(self.my_seats) <= 1:
            return self.my_seats[0] if self.my_seats else None
        if self.focus is not None:
            return self.focus
        pend = self.pending() if self.started else None
        return pend.seat if pend is not None and pend.seat in self.my_seats else self.my_seats[0]

    def use_seat(self, seat: str | None) -> None:
        """Focus on one of this player's seats (None: follow the pending seat)."""
        if seat is not None and seat not in self.my_seats:
            raise NotAddressedToYou(f"seat {seat!r} is not yours in this game",
                                    hint=f"your seats: {', '.join(self.my_seats) or 'none'}")
        self.focus = seat

    @property
    def private(self) -> Any:
        seat = self.my_seat
        return self.privates.get(seat) if seat is not None else None

    # The setters rebind the per-seat maps instead of changing them, as the advance of a game
    # does (pbem.play.chain): a shallow copy of a Derived stays a fork that moves on alone.
    @private.setter
    def private(self, value: Any) -> None:
        seat = self.my_seat
        if seat is not None:
            self.privates = {**self.privates, seat: value}

    @property
    def secrets(self) -> dict[str, Any]:
        seat = self.my_seat
        return self.secrets_by.get(seat, _no_secrets()) if seat is not None else _no_secrets()

    @secrets.setter
    def secrets(self, value: dict[str, Any]) -> None:
        seat = self.my_seat
        if seat is not None:
            self.secrets_by = {**self.secrets_by, seat: value}

    @property
    def master(self) -> bytes | None:
        seat = self.my_seat
        return self.masters.get(seat) if seat is not None else None

    @property
    def closed(self) -> bool:
        """A game is closed once any player has revealed its secrets."""
        return bool(self.reveals)

    @property
    def keyring(self) -> Keyring:
        assert self.keys is not None
        return self.keys

    @property
    def started(self) -> bool:
        return self.public is not None

    @property
    def waiting_for_joins(self) -> list[str]:
        return [s for s in self.con.seats if s != self.con.host and s not in self.joins]

    @property
    def params(self) -> GameParams:
        return self.con.params(self.roots)

    @property
    def rules(self) -> rulesapi.RulesModule:
        return self.con.rules

    def rules_pending(self) -> rulesapi.Pending | None:
        return self.rules.pending(self.public) if self.started else None

    def pending(self) -> rulesapi.Pending | None:
        """The rules' next decision, or first a dice release it waits for (pbem.protocol.dicefiles)."""
        return ending.pending(self.est, self.con.seats,  # an open end proposal first (pbem.play.ending)
                              dicefiles.pending(self.params, self.est, self.rules_pending()))

    def tree(self) -> dice.SeedTree:
        seat = self.my_seat
        if seat is None or seat not in self.masters:
            raise StateError("this tool holds no seat's dice seeds in this game")
        # the Merkle tree itself is built once per process (pbem.protocol.dice)
        return dice.SeedTree(self.masters[seat], self.con.game_id, seat, self.params.depth)


class Keyring:
    """Opens encrypted parts: with this player's key, or with file keys published in reveals.

    Labels name a part: "<seq>/public" or "<seq>/<seat>".
    """

    def __init__(self, ident: Keys) -> None:
        self.ident = ident
        self.file_keys: dict[str, bytes] = {}
        #: seat escrow keys a quorum handover gave this player (pbem.play.handover)
        self.extra: list[age.Identity] = []

    def identities(self) -> list[age.Identity]:
        return [self.ident.age_key(), *self.extra]

    def open(self, label: str, blob: bytes, what: str) -> Any:
        try:
            if label in self.file_keys:
                plain = age.decrypt_with_file_key(blob, self.file_keys[label])
            else:
                plain = age.decrypt(blob, self.identities())
        except age.NoMatchError:
            raise NotAddressedToYou(f"{what} is not encrypted to your key") from None
        except age.AgeError as e:
            raise TamperedCiphertext(f"{what} cannot be decrypted: {e}") from None
        return canonical.decode(padding.unpad(plain, what))


def _start(d: Derived) -> None:
    con = d.con
    public, private = con.initial_state()
    d.public = public
    d.sides = {s: list(v) for s, v in con.scenario.side_map().items()}
    d.privates = {s: private.get(s) for s in d.my_seats}
    d.secrets_by = {s: _no_secrets() for s in d.my_seats}
    d.last_hash = genesis_hash(con.proposal, d.joins)


def begin(session: Session, proposal: SignedFile) -> Derived:
    d = _open(session, proposal)
    d.est = initial_engine_state(d.con)
    if not d.waiting_for_joins:
        _start(d)
    return d


def resume(session: Session, proposal: SignedFile, joins: list[SignedFile]) -> Derived | None:
    """The genesis part of a game whose state comes from its cache (pbem.play.game.load): the
    checks of ``begin`` and ``add_join``, without the initial state the cache replaces.

    None while a join is missing (the caller replays: there is nothing cached to resume).
    """
    d = _open(session, proposal)
    for f in joins:
        check_join(d.con, f)
        signedtime.check_follows(f, int(d.con.proposal.header["time"]))
        if f.author in d.joins:
            raise Equivocation(f"{f.author} signed two different joins for this game")
        d.roots[f.author] = f.header["seed_root"]
        d.joins[f.author] = f
        if f.author in d.my_seats:
            d.masters[f.author] = open_escrow(session.ident, f.header["escrow"])
    return None if d.waiting_for_joins else d


def _open(session: Session, proposal: SignedFile) -> Derived:
    con = read_proposal(proposal)
    releases.check_rules(con.rules, con.h)
    d = Derived(con=con, my_seats=con.seats_of(session.ident.card()), keys=Keyring(session.ident))
    d.roots[con.host] = proposal.header["seed_root"]
    if con.host in d.my_seats:
        d.masters[con.host] = open_escrow(session.ident, proposal.header["escrow"])
    return d


def add_join(session: Session, d: Derived, f: SignedFile) -> None:
    check_join(d.con, f)
    signedtime.check_follows(f, int(d.con.proposal.header["time"]))
    if f.author in d.joins:
        if d.joins[f.author].raw == f.raw:
            raise Replayed(f"already have {f.author}'s join")
        raise Equivocation(f"{f.author} signed two different joins for this game")
    d.roots[f.author] = f.header["seed_root"]
    if not joins_release(d.con) and f.header["releases"]:
        raise FileRejected(f"{f.author}'s join releases dice seeds before every seed root is fixed")
    apply_releases(d.params, d.est, f.author, f.header["releases"], require_window=joins_release(d.con))
    d.joins[f.author] = f
    if f.author in d.my_seats:
        d.masters[f.author] = open_escrow(session.ident, f.header["escrow"])
    if not d.waiting_for_joins:
        _start(d)
