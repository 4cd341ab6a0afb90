"""Game operations: derive state from files, receive a file, play a phase, verify.

Everything here checks first and writes last: a refused file or order leaves
the home byte-identical (except that a proven equivocation keeps both files
under evidence/, which is the point of detecting it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem import age, canonical, dice, dicefiles, ending, padding, rulesapi, schema, signedtime, turnfile
from pbem.engine import (
    EngineContext,
    FileRejected,
    GameParams,
    Payload,
    apply_releases,
    clone,
    make_releases,
    payload_from_wire,
)
from pbem.errors import (
    BrokenChain,
    Equivocation,
    NotAddressedToYou,
    NotFound,
    OrderError,
    OrderErrors,
    OutOfOrder,
    PbemError,
    Replayed,
    StateError,
    TamperedCiphertext,
    Unsupported,
    WrongGame,
)
from pbem.genesis import (
    Constitution,
    check_join,
    genesis_hash,
    initial_engine_state,
    joins_release,
    open_escrow,
    read_proposal,
)
from pbem.identity import Card, Identity
from pbem.paths import Home
from pbem.store import GameStore, game_dir
from pbem.turnfile import SignedFile

Rng = Callable[[int], bytes]


@dataclass
class Session:
    """An unlocked player in a home, with injected randomness and clock."""

    home: Home
    ident: Identity
    rng: Rng = os.urandom
    now: Callable[[], float] = time.time

    def clock(self) -> int:
        return int(self.now())


@dataclass
class Derived:
    """Everything this player knows about a game, rebuilt from its files."""

    con: Constitution
    my_seat: str | None
    joins: dict[str, SignedFile] = field(default_factory=dict)
    roots: dict[str, bytes] = field(default_factory=dict)
    est: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    last_hash: bytes = b""
    public: Any = None
    private: Any = None
    secrets: dict[str, Any] = field(default_factory=lambda: {"openings": {}, "secret_rolls": {}})
    log: list[dict[str, Any]] = field(default_factory=list)
    master: bytes | None = None
    keys: Keyring | None = None
    reveals: dict[str, SignedFile] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

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
        """The rules' next decision, or first a dice release it waits for (pbem.dicefiles)."""
        return ending.pending(self.est, self.con.seats,  # an open end proposal first (pbem.ending)
                              dicefiles.pending(self.params, self.est, self.rules_pending()))

    def tree(self) -> dice.SeedTree:
        if self.master is None or self.my_seat is None:
            raise StateError("this tool holds no seat's dice seeds in this game")
        return dice.SeedTree(self.master, self.con.game_id, self.my_seat, self.params.depth)


class Keyring:
    """Opens encrypted parts: with this player's key, or with file keys published in reveals.

    Labels name a part: "<seq>/public" or "<seq>/<seat>".
    """

    def __init__(self, ident: Identity) -> None:
        self.ident = ident
        self.file_keys: dict[str, bytes] = {}

    def open(self, label: str, blob: bytes, what: str) -> Any:
        try:
            if label in self.file_keys:
                plain = age.decrypt_with_file_key(blob, self.file_keys[label])
            else:
                plain = age.decrypt(blob, [self.ident.age_identity])
        except age.NoMatchError:
            raise NotAddressedToYou(f"{what} is not encrypted to your key") from None
        except age.AgeError as e:
            raise TamperedCiphertext(f"{what} cannot be decrypted: {e}") from None
        return canonical.decode(padding.unpad(plain, what))


def _start(d: Derived) -> None:
    con = d.con
    scen = d.rules.load_scenario(con.h["scenario"])
    seats = {s: c.name for s, c in con.cards.items()}
    public, private = d.rules.initial_state(scen, seats, con.options)
    d.public = public
    d.private = private.get(d.my_seat) if d.my_seat else None
    d.last_hash = genesis_hash(con.proposal, d.joins)


def begin(session: Session, proposal: SignedFile) -> Derived:
    con = read_proposal(proposal)
    if con.rules.rules_hash() != con.h["rules_hash"]:
        raise Unsupported(
            f"this game was played with {con.h['rules']} rules {con.h['rules_version']} "
            f"whose hash differs from this pbem's ({con.rules.version})",
            hint="verify and play a game with the pbem release that started it")
    d = Derived(con=con, my_seat=con.seat_of(session.ident.card()), keys=Keyring(session.ident))
    d.est = initial_engine_state(con)
    d.roots[con.host] = proposal.header["seed_root"]
    if d.my_seat == con.host:
        d.master = open_escrow(session.ident, proposal.header["escrow"])
    if not d.waiting_for_joins:
        _start(d)
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
    if f.author == d.my_seat:
        d.master = open_escrow(session.ident, f.header["escrow"])
    if not d.waiting_for_joins:
        _start(d)


def check_turn_place(store: GameStore, d: Derived, f: SignedFile) -> None:
    """Where does ``f`` go in the chain? Raise the precise chain error if not right here."""
    if f.game != d.con.game_id:
        raise WrongGame("this file belongs to another game")
    if not d.started:
        raise StateError(f"the game has not started: waiting for joins from {', '.join(d.waiting_for_joins)}",
                         hint="receive the missing join files first")
    expected = d.seq + 1
    if f.seq < expected:
        same = [x for x in store.find(f.seq, "turn")]
        if same and same[0].read() == f.raw:
            raise Replayed(f"file {f.seq} from {f.author} was received already")
        if f.author in d.con.cards:
            f.verify_signature(d.con.cards[f.author].signing_key)
            if same and same[0].author == f.author:
                for raw in (f.raw, same[0].read()):
                    name = f"{f.seq:06d}-{f.author}-{turnfile.file_hash(raw).hex()[:16]}.pbem"
                    store.add_evidence(name, raw)
                raise Equivocation(
                    f"{f.author} signed two different files with sequence number {f.seq}: "
                    "this is proof of cheating")
        _attested_equivocation(store, d, f)
        raise Replayed(f"file {f.seq} is older than the game's current file {d.seq}",
                       hint="an old file was sent again; nothing to do")
    if f.seq > expected:
        raise OutOfOrder(f"file {f.seq} arrived before file {expected}: waiting for file {expected}")
    if f.prev != d.last_hash:
        _attested_equivocation(store, d, f)
        raise BrokenChain(f"file {f.seq} does not follow the game's file {d.seq} (previous-file hash differs)",
                          hint="the author built on a different history; compare with 'pbem verify'")
    check_attest(stored_turn(store, d.seq), f)


def stored_turn(store: GameStore, seq: int) -> SignedFile | None:
    """This home's turn file ``seq`` (None for the genesis, or when it holds none)."""
    have = store.find(seq, "turn") if seq >= 1 else []
    return turnfile.parse(have[0].read()) if have else None


def prev_attest(store: GameStore, d: Derived) -> list[Any]:
    """What the next turn file carries as ``prev_attest``: the statement of the file it builds on."""
    prev = stored_turn(store, d.seq)
    return prev.attestation.to_wire() if prev is not None else []


def check_attest(prev: SignedFile | None, f: SignedFile) -> None:
    """``f`` chains to ``prev``: the statement it carries must be exactly ``prev``'s own."""
    want = prev.attestation if prev is not None else None
    if f.prev_attest != want:
        raise FileRejected(f"file {f.seq} by {f.author}: its prev_attest is not the signed statement of "
                           f"file {f.seq - 1} it builds on",
                           hint="its author's tool is not a conforming pbem; keep the file as evidence")


def _attested_equivocation(store: GameStore, d: Derived, f: SignedFile) -> None:
    """Raise Equivocation if ``f`` carries a signed statement for file ``f.seq``-1 that ours contradicts.

    With three or more seats, S can send one file to B and another to C for
    the same place. C then meets B's next file as a broken chain; B's file
    carries S's signed statement (tcsig over game, seq, author and body hash)
    of the file B built on, so C holds two signatures by S for one place.
    """
    att = f.prev_attest
    ours = stored_turn(store, f.seq - 1)
    if (att is None or ours is None or att.author != ours.author or att.kind != ours.kind
            or att == ours.attestation or att.author not in d.con.cards or f.author not in d.con.cards):
        return
    if not att.verify(d.con.game_id, f.seq - 1, d.con.cards[att.author].signing_key):
        return
    f.verify_signature(d.con.cards[f.author].signing_key)
    for g in (ours, f):
        store.add_evidence(f"{g.seq:06d}-{g.author}-{g.hash.hex()[:16]}.pbem", g.raw)
    raise Equivocation(
        f"{att.author} signed two different files with sequence number {ours.seq}: this home holds one, "
        f"and {f.author}'s file {f.seq} carries {att.author}'s signature of the other; this is proof of cheating",
        hint="both were kept under evidence/; 'pbem verify GAME --proof FILE' writes a proof anyone can check "
             "with 'pbem check-proof', to show the other players")


def apply_turn(session: Session, d: Derived, f: SignedFile) -> None:
    """Verify ``f`` completely and advance ``d`` (``d`` is left unchanged on error)."""
    h = f.header
    con = d.con
    if f.author not in con.cards:
        raise FileRejected(f"file {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    signedtime.check_follows(f, signedtime.last_time(d.log, con.proposal, d.joins.values()))
    if h["rules_hash"] != con.h["rules_hash"] or h["scenario_hash"] != con.h["scenario_hash"]:
        raise Unsupported(f"file {f.seq} was made with other rules or another scenario than this game's")
    pend = d.pending()
    if pend is None:
        raise StateError("the game is over; no more turn files are accepted")
    if f.author != pend.seat:
        raise FileRejected(f"file {f.seq} is by {f.author}, but it was {pend.seat}'s move ({pend.phase})")
    if set(h["private"]) != set(con.seats):
        raise FileRejected(f"file {f.seq} must carry one private part per seat")
    if d.closed:
        raise StateError("the game is closed: secrets were revealed; no more turns are accepted")
    public = d.keyring.open(f"{f.seq}/public", h["public"], f"the public part of file {f.seq}")
    mine = None
    if d.my_seat is not None:
        mine = d.keyring.open(f"{f.seq}/{d.my_seat}", h["private"][d.my_seat],
                              f"your private part of file {f.seq}")
        # Checked before anything changes: ``d`` must stay as it was if it is malformed.
        where = f"file {f.seq} by {f.author}: your private part"
        mine = (schema.private_part(mine, where) if f.author == d.my_seat
                else schema.other_private_part(mine, where))
    payload = payload_from_wire(public, h["commits"], where=f"file {f.seq} by {f.author}")
    # The phase names game content, so it travels in the encrypted public part
    # (docs/protocol.md §7a); it is checked as soon as that part is open.
    phase = str(public["phase"])
    engine_file = is_engine_phase(phase)
    if phase != pend.phase and not (phase == dicefiles.DICE_REQUEST
                                    and pend.kind != dicefiles.RELEASE_KIND) and not ending.proposes(phase, pend):
        raise FileRejected(f"file {f.seq} claims phase {phase!r}; the game is in {pend.phase!r}")
    est = clone(d.est)
    rules = d.rules
    if engine_file:
        if any(public[k] for k in ("rolls", "roller_seeds", "revealed", "openings", "events")) or h["commits"]:
            raise FileRejected(f"file {f.seq}: a {phase} file may carry nothing but seeds")
        apply_engine_orders(d.params, est, f.author, phase, public["orders"], d.rules_pending())
        out_public = d.public
    else:
        ctx = EngineContext(d.params, est, f.author, f.seq, author_mode=False, payload=payload)
        try:
            orders = rules.orders_from_wire(public["orders"], None)
            out = rules.apply(clone(d.public), {}, f.author, orders, ctx)
        except PbemError as e:
            raise FileRejected(f"file {f.seq} by {f.author} breaks the rules: {e}",
                               hint="its author's tool is not a conforming pbem; keep the file as evidence"
                               ) from None
        except Exception as e:  # see below: deliberately broad
            # On purpose: the orders are another player's bytes, and a rules module
            # cannot foresee every shape a modified tool may sign. Whatever it trips
            # on, the file is what is wrong, and receive must say so, not crash.
            raise _rules_crash(f, "the rules", e) from e
        ctx.finish()
        out_public = out.public
    apply_releases(d.params, est, f.author, public["releases"], require_window=True)
    try:
        digest = rules.digest(out_public)
    except Exception as e:  # the state came from another player's orders: as above
        raise _rules_crash(f, "the rules' state digest", e) from e
    if digest != public["digest"]:
        raise FileRejected(f"file {f.seq}: the state its author claims differs from the rules' result")
    d.est = est
    d.public = out_public
    d.seq = f.seq
    d.last_hash = f.hash
    d.log.append({"seq": f.seq, "author": f.author, "phase": phase, "time": h["time"],
                  "events": public["events"]})
    if f.author == d.my_seat and mine is not None:
        d.private = mine["state"]
        d.secrets["openings"].update(mine["openings"])
        d.secrets["secret_rolls"].update(mine["secret_rolls"])


def is_engine_phase(phase: str) -> bool:
    """A file the engine writes on its own, which never reaches the rules module."""
    return dicefiles.is_engine_phase(phase) or ending.is_end_phase(phase)


def apply_engine_orders(params: GameParams, est: dict[str, Any], author: str, phase: str, orders: Any,
                        rules_pending: rulesapi.Pending | None) -> None:
    """An engine file's orders: an end proposal or answer (pbem.ending), or dice (pbem.dicefiles)."""
    if ending.is_end_phase(phase):
        ending.apply(est, params.seats, author, phase, orders)
    else:
        dicefiles.apply(params, est, author, phase, orders, rules_pending)


def _rules_crash(f: SignedFile, what: str, e: Exception) -> FileRejected:
    return FileRejected(
        f"file {f.seq} by {f.author} is malformed: {what} failed on it ({type(e).__name__}: {e})"[:500],
        hint="its author's tool is not a conforming pbem; keep the file as evidence and ask for a fresh one")


Progress = Callable[[int, int], None]


def derive(session: Session, store: GameStore, progress: Progress | None = None) -> Derived:
    """Rebuild the game from its files, checking every one of them."""
    files = store.files()
    if not files or files[0].kind != "proposal":
        raise NotFound(f"game folder {store.root} holds no proposal")
    from pbem import reveal

    d = begin(session, turnfile.parse(files[0].read()))
    parsed = [(sf, turnfile.parse(sf.read())) for sf in files[1:]]
    # Reveals publish file keys; load them first so a seatless observer can read the game.
    reveal.preload_keys(d, [f for _, f in parsed if f.kind == "reveal"])
    last_turn: SignedFile | None = None
    for i, (sf, f) in enumerate(parsed, start=1):
        if progress is not None:
            progress(i, len(parsed))
        if f.kind == "join":
            add_join(session, d, f)
        elif f.kind == "turn":
            if f.seq != d.seq + 1 or f.prev != d.last_hash:
                raise BrokenChain(f"stored file {sf.path.name} does not follow file {d.seq}")
            check_attest(last_turn, f)
            apply_turn(session, d, f)
            last_turn = f
        elif f.kind == "reveal":
            reveal.add_reveal(d, store, f)
    return d


# cache.bin holds public derived state only; what only this seat may know is
# sealed to its own age key in cache-private.age (pbem.store).
CACHED = ("seq", "last_hash", "public", "log", "est")
CACHED_PRIVATE = ("private", "secrets")


def _cache_key(files: list[Any]) -> bytes:
    from pbem.hashing import lhash

    return lhash("pbem/v1/cache-key", *[f.path.name for f in files],
                 *[turnfile.file_hash(f.read()) for f in files[-1:]])


def save_cache(store: GameStore, d: Derived) -> None:
    key = _cache_key(store.files())
    sealed = None
    if d.my_seat is not None:
        plain = canonical.encode({"key": key, **{k: getattr(d, k) for k in CACHED_PRIVATE}})
        # Fresh OS randomness, not the session's rng: this local file is never
        # compared, and drawing from a deterministic rng would shift every
        # later nonce of the game's files.
        sealed = age.encrypt(padding.pad(plain), [d.keyring.ident.age_recipient])
    store.save_cache({"key": key, **{k: getattr(d, k) for k in CACHED}}, sealed)


def _private_cache(store: GameStore, d: Derived, key: bytes) -> dict[str, Any] | None:
    """The sealed secrets matching ``key``, or None (missing, stale or unreadable: rebuild)."""
    blob = store.load_private_cache()
    if blob is None:
        return None
    try:
        plain = age.decrypt(blob, [d.keyring.ident.age_identity])
        m = canonical.decode(padding.unpad(plain, "your cached secrets"))
    except PbemError:  # age errors included
        return None
    if not isinstance(m, dict) or m.get("key") != key or any(k not in m for k in CACHED_PRIVATE):
        return None
    return m


def load(session: Session, store: GameStore) -> Derived:
    """The game's state: from the cache when it matches the files, else replayed from them.

    Never writes: a command that fails must leave the home as it was.
    """
    files = store.files()
    cache = store.load_cache()
    if (cache is None or not files or cache.get("key") != _cache_key(files)
            or any(sf.kind == "reveal" for sf in files)):
        return derive(session, store)
    d = begin(session, turnfile.parse(files[0].read()))
    for sf in files[1:]:
        if sf.kind == "join":
            add_join(session, d, turnfile.parse(sf.read()))
    if not d.started:
        return derive(session, store)
    if d.my_seat is not None:
        mine = _private_cache(store, d, cache["key"])
        if mine is None:
            return derive(session, store)
        for k in CACHED_PRIVATE:
            setattr(d, k, mine[k])
    for k in CACHED:
        setattr(d, k, cache[k])
    return d


def peek(card: Card, store: GameStore) -> Derived | None:
    """The public view from the clear genesis files and cache.bin alone, with no unlock.

    For commands that need no secret (`status`): cache.bin holds only public
    derived state (the secrets are sealed apart), so nothing here needs the
    identity. None when the cache does not match the files: then the caller
    unlocks and replays (``load``).
    """
    files = store.files()
    cache = store.load_cache()
    if (cache is None or not files or files[0].kind != "proposal" or cache.get("key") != _cache_key(files)
            or any(sf.kind == "reveal" for sf in files)):
        return None
    con = read_proposal(turnfile.parse(files[0].read()))
    d = Derived(con=con, my_seat=con.seat_of(card))
    d.est = initial_engine_state(con)
    d.roots[con.host] = con.h["seed_root"]
    for sf in files[1:]:
        if sf.kind == "join":
            jf = turnfile.parse(sf.read())
            check_join(con, jf)
            d.roots[jf.author] = jf.header["seed_root"]
            d.joins[jf.author] = jf
    if d.waiting_for_joins:
        return d
    for k in CACHED:
        setattr(d, k, cache[k])
    return d


def my_move(d: Derived) -> tuple[rulesapi.Pending, str]:
    """The pending decision and this player's seat; refuses when it is not this player's move."""
    pend = d.pending()
    if d.closed:
        raise StateError("the game is closed: secrets were revealed; no more turns are accepted")
    if pend is None:
        raise StateError("the game is over", hint="run 'pbem verify GAME' to check the archive")
    if d.my_seat is None or d.my_seat != pend.seat:
        raise StateError(f"it is {pend.seat}'s move ({pend.phase}), not yours",
                         hint=f"wait for {pend.seat}'s file, then 'pbem receive' it")
    return pend, d.my_seat


def produce_turn(session: Session, store: GameStore, d: Derived, orders_text: str,
                 dice_request: int = 0, end_vote: str = "") -> bytes:
    """Author mode: apply this player's orders and seal the next turn file (not yet stored).

    ``dice_request``: instead of orders, ask the other seats for that many more
    dice seeds (window mode; pbem.dicefiles). ``end_vote``: instead of orders,
    propose, accept or decline ending the game by agreement (pbem.ending).
    """
    pend, seat = my_move(d)
    rules = d.rules
    est = clone(d.est)
    seq = d.seq + 1
    phase = pend.phase
    if pend.kind in (dicefiles.RELEASE_KIND, ending.ANSWER_KIND) or dice_request or end_vote:
        # An engine file: no rules call, no state change but the dice bookkeeping.
        if end_vote or pend.kind == ending.ANSWER_KIND:
            phase, eorders = ending.file_orders(d.est, pend, end_vote)
        elif dice_request:
            phase = dicefiles.DICE_REQUEST
            eorders = dicefiles.request_orders(d.params, dice_request)
        else:
            eorders = dicefiles.release_orders(orders_text)
        apply_engine_orders(d.params, est, seat, phase, eorders, d.rules_pending())
        p = Payload()
        p.public["orders"] = p.private["orders"] = eorders
        p.private["state"] = d.private
        out_public = d.public
    else:
        orders = rules.parse_orders(orders_text, seat, d.public, d.private)
        ctx = EngineContext(d.params, est, seat, seq, author_mode=True, tree=d.tree(),
                            secrets=clone(d.secrets), rng=session.rng)
        out = rules.apply(clone(d.public), {seat: clone(d.private)}, seat, orders, ctx)
        ctx.finish()
        p = ctx.payload
        p.public["orders"] = rules.public_orders(orders)
        p.private["orders"] = rules.private_orders(orders)
        p.private["state"] = out.private.get(seat, d.private)
        out_public = out.public
    p.public["releases"] = make_releases(d.params, est, d.tree(), seat)
    # Game content stays out of the clear header (docs/protocol.md §7a).
    p.public["phase"] = phase
    p.public["digest"] = rules.digest(out_public)
    recipients = [c.age_recipient for c in d.con.cards.values()]
    # Every seat's part is padded to the bucket of the largest: sizes tell
    # neither what the author sealed nor whom it had something to tell.
    plains = padding.pad_all({s: canonical.encode(p.private if s == seat else {"events": []})
                              for s in d.con.cards})
    private_parts = {s: age.encrypt(plains[s], [c.age_recipient], rng=session.rng)
                     for s, c in d.con.cards.items()}
    header = {
        "v": 1, "kind": "turn", "game": d.con.game_id, "seq": seq, "prev": d.last_hash,
        "author": seat, "time": session.clock(),
        "rules_hash": d.con.h["rules_hash"], "scenario_hash": d.con.h["scenario_hash"],
        "public": age.encrypt(padding.pad(canonical.encode(p.public)), recipients, rng=session.rng),
        "private": private_parts, "commits": p.commits, "prev_attest": prev_attest(store, d),
    }
    return turnfile.seal(header, session.ident.sign)


def check_orders(session: Session, store: GameStore, orders_text: str) -> list[Any]:
    """Every problem with an order text, exactly as `play` would meet it; writes nothing."""
    d = load(session, store)
    pend, seat = my_move(d)
    if pend.kind == dicefiles.RELEASE_KIND:
        dicefiles.release_orders(orders_text)  # a dice release takes no orders
        return []
    ctx = EngineContext(d.params, clone(d.est), seat, d.seq + 1, author_mode=True, tree=d.tree(),
                        secrets=clone(d.secrets), rng=session.rng)
    errs = d.rules.check_orders(orders_text, seat, clone(d.public), clone(d.private), ctx)
    if errs:
        return errs
    # The rules module's check may be partial (the default only parses): the
    # real thing, made and thrown away, is what `play` will meet.
    try:
        produce_turn(session, store, d, orders_text)
    except OrderErrors as e:
        return list(e.errors)
    except OrderError as e:
        return [e]
    return []


def outbox_name(f: SignedFile) -> str:
    return f"{f.game.hex()[:12]}-{f.seq:06d}-{f.kind}-{f.author}.pbem"


def repair(session: Session, store: GameStore) -> list[str]:
    d = load(session, store)
    return store.repair(d.my_seat, lambda data: outbox_name(turnfile.parse(data)))


def play(session: Session, store: GameStore, orders_text: str,
         dice_request: int = 0, end_vote: str = "") -> tuple[SignedFile, Derived]:
    repair(session, store)
    d = load(session, store)
    data = produce_turn(session, store, d, orders_text, dice_request, end_vote)
    f = turnfile.parse(data)
    # Replay our own file exactly as every opponent will before anything is written.
    check_turn_place(store, d, f)
    apply_turn(session, d, f)
    store.add(f.seq, "turn", f.author, data)
    store.put_outbox(outbox_name(f), data)
    save_cache(store, d)
    return f, d


@dataclass
class Received:
    game: bytes
    kind: str
    seq: int
    author: str
    status: str  # "added", "duplicate", "invitation"


def receive(session: Session, data: bytes) -> Received:
    f = turnfile.parse(data)
    store = game_dir(session.home, f.game)
    if f.kind == "proposal":
        con = read_proposal(f)
        signedtime.check_not_future(f, session.clock())
        if store.exists():
            have = store.find(0, "proposal")
            if have and have[0].read() == data:
                return Received(f.game, f.kind, 0, f.author, "duplicate")
            raise Equivocation("a different proposal for an existing game id")
        if con.seat_of(session.ident.card()) is None:
            raise NotAddressedToYou("this proposal gives your card no seat")
        from pbem.fsutil import atomic_write

        atomic_write(session.home.invitations / f"{f.game.hex()}.pbem", data)
        return Received(f.game, f.kind, 0, f.author, "invitation")
    if not store.exists():
        raise WrongGame(f"no game {f.game.hex()[:12]} in this home",
                        hint="join the game first ('pbem game join'), or receive into the right --home")
    # Check the signature against the genesis cards before replaying anything:
    # a forged or damaged file costs one signature check, not a game replay.
    props = store.find(0, "proposal")
    if not props:
        raise NotFound(f"game folder {store.root} holds no proposal")
    con = read_proposal(turnfile.parse(props[0].read()))
    if f.author not in con.cards:
        raise FileRejected(f"file {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    # Only on intake: a stored game replayed later has no "now" to compare with.
    signedtime.check_not_future(f, session.clock())
    d = load(session, store)
    if f.kind == "join":
        if f.author in d.joins and d.joins[f.author].raw == data:
            return Received(f.game, f.kind, 0, f.author, "duplicate")
        add_join(session, d, f)
        store.add(0, "join", f.author, data)
        save_cache(store, d)
        return Received(f.game, f.kind, 0, f.author, "added")
    if f.kind == "turn":
        try:
            check_turn_place(store, d, f)
        except Replayed:
            if any(x.read() == data for x in store.find(f.seq, "turn")):
                return Received(f.game, f.kind, f.seq, f.author, "duplicate")
            raise
        apply_turn(session, d, f)
        store.add(f.seq, "turn", f.author, data)
        save_cache(store, d)
        return Received(f.game, f.kind, f.seq, f.author, "added")
    if f.kind == "reveal":
        from pbem import reveal

        have = store.find(f.seq, "reveal", f.author)
        if have and have[0].read() == data:
            return Received(f.game, f.kind, f.seq, f.author, "duplicate")
        reveal.add_reveal(d, store, f)
        store.add(f.seq, "reveal", f.author, data)
        return Received(f.game, f.kind, f.seq, f.author, "added")
    raise Unsupported(f"receiving {f.kind} files is not supported")


def end(session: Session, store: GameStore, unilateral: str = "") -> tuple[SignedFile, Derived]:
    """Write this player's reveal: the game is over, every seat agreed to end it, or
    (``unilateral`` "conceded" or "abandoned") this player ends it alone (pbem.ending)."""
    from pbem import reveal

    d = derive(session, store)
    data = reveal.make_reveal(session, store, d, unilateral)
    f = turnfile.parse(data)
    reveal.add_reveal(d, store, f)
    store.add(f.seq, "reveal", f.author, data)
    store.put_outbox(outbox_name(f), data)
    return f, d


def join(session: Session, proposal_data: bytes) -> tuple[SignedFile, Derived]:
    from pbem.genesis import check_local_rules, make_join

    p = turnfile.parse(proposal_data)
    con = read_proposal(p)
    check_local_rules(con)
    store = game_dir(session.home, p.game)
    if store.exists():
        raise StateError(f"game {p.game.hex()[:12]} is already in this home",
                         hint="run 'pbem status' to see it")
    now = session.clock()
    signedtime.check_not_future(p, now)
    data = make_join(session.ident, con, rng=session.rng, now=now)
    jf = turnfile.parse(data)
    d = begin(session, p)
    add_join(session, d, jf)
    store.add(0, "proposal", p.author, proposal_data)
    store.add(0, "join", jf.author, data)
    store.put_outbox(outbox_name(jf), data)
    save_cache(store, d)
    inv = session.home.invitations / f"{p.game.hex()}.pbem"
    if inv.exists():
        inv.unlink()
    return jf, d


def create(session: Session, proposal_data: bytes) -> Derived:
    p = turnfile.parse(proposal_data)
    store = game_dir(session.home, p.game)
    d = begin(session, p)
    store.add(0, "proposal", p.author, proposal_data)
    store.put_outbox(outbox_name(p), proposal_data)
    save_cache(store, d)
    return d

