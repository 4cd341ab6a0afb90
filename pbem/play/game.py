"""Game operations: derive state from files, receive a file, play a phase, verify.

Everything here checks first and writes last: a refused file or order leaves
the home byte-identical (except that a proven equivocation keeps both files
under evidence/, which is the point of detecting it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem import rulesapi
from pbem.crypto import age
from pbem.errors import (
    BrokenChain,
    EncodingError,
    Equivocation,
    NotAddressedToYou,
    NotFound,
    OrderError,
    OrderErrors,
    PbemError,
    Replayed,
    StateError,
    Unsupported,
    WrongGame,
)
from pbem.formats import canonical, padding
from pbem.play import ending, handover, reveal
from pbem.play.chain import (
    apply_engine_orders,
    apply_turn,
    check_attest,
    check_turn_place,
    copy_engine_state,
    is_engine_phase,
    prev_attest,
    signed_by,
    stored_turn,
)
from pbem.play.derived import Derived, Keyring, Session, add_join, begin, resume
from pbem.protocol import dicefiles, signedtime, turnfile
from pbem.protocol.context import (
    EngineContext,
    FileRejected,
    Payload,
    clone,
    make_releases,
)
from pbem.protocol.genesis import (
    check_join,
    initial_engine_state,
    read_proposal,
)
from pbem.protocol.identity import Card
from pbem.protocol.turnfile import SignedFile
from pbem.store import glance
from pbem.store.gamestore import GameStore, game_dir

# The public face of a game's operations: callers import these from here.
__all__ = ["Derived", "Keyring", "Received", "Session", "add_join", "apply_engine_orders", "apply_turn", "begin",
           "check_orders", "check_turn_place", "create", "derive", "end", "end_all", "glance_facts", "hand_over",
           "is_engine_phase", "join", "join_seats", "load", "my_move", "outbox_name", "peek", "play", "prev_attest",
           "produce_turn", "receive", "refresh_glance", "repair", "save_cache", "unmailed"]


Progress = Callable[[int, int], None]


def derive(session: Session, store: GameStore, progress: Progress | None = None) -> Derived:
    """Rebuild the game from its files, checking every one of them."""
    files = store.files()
    if not files or files[0].kind != "proposal":
        raise NotFound(f"game folder {store.root} holds no proposal")
    d = begin(session, turnfile.parse(files[0].read()))
    parsed = [(sf, turnfile.parse(sf.read())) for sf in files[1:]]
    # Reveals publish file keys; load them first so a seatless observer can read the game.
    # A handover to this player does too, for the parts sealed to the departing player.
    handovers = [f for _, f in parsed if f.kind == handover.KIND]
    reveal.preload_keys(d, [f for _, f in parsed if f.kind == "reveal"],
                        handover.follow(d.con, handovers).cards if handovers else None)
    handover.preload(session, d, [f for _, f in parsed])
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
        elif f.kind == handover.KIND:
            handover.apply(session, store, d, f, last_turn)
            last_turn = f
        elif f.kind == "reveal":
            reveal.add_reveal(d, store, f)
    return d


# cache.bin holds public derived state only; what only this seat may know is
# sealed to its own age key in cache-private.age (pbem.store.gamestore).
CACHED = ("seq", "last_hash", "public", "est", "sides")
# The event log is in log.bin, appended to as files come (pbem.store.gamestore); cache.bin says how
# many entries and bytes of it are current, and holds the last entry (status, signed-time checks).
CACHED_LOG = ("log_n", "log_end", "log_last")
# Per seat: a player holding several seats keeps each seat's secrets apart (pbem.play.derived).
CACHED_PRIVATE = ("privates", "secrets_by")


def _cache_key(files: list[Any]) -> bytes:
    return glance.cache_key([f.path.name for f in files], files[-1].read() if files else None)


def save_cache(store: GameStore, d: Derived) -> None:
    key = _cache_key(store.files())
    sealed = None
    if d.my_seats:
        plain = canonical.encode({"key": key, **{k: getattr(d, k) for k in CACHED_PRIVATE}})
        # Fresh OS randomness, not the session's rng: this local file is never
        # compared, and drawing from a deterministic rng would shift every
        # later nonce of the game's files.
        sealed = age.encrypt(padding.pad(plain), [d.keyring.ident.age_recipient])
    n, end = _save_log(store, d)
    log = {"log_n": n, "log_end": end, "log_last": d.last_log()}
    store.save_cache({"key": key, **{k: getattr(d, k) for k in CACHED}, **log}, sealed,
                     glance_data=None if d.closed else glance.encode(key, glance_facts(d)))


def _save_log(store: GameStore, d: Derived) -> tuple[int, int]:
    """Bring log.bin up to ``d``'s log: the new entries appended, or the whole log written."""
    if d.log_on_disk is not None:
        n, end = d.log_on_disk
        new = d.log_since(n)
        try:
            end = store.append_log(new, end) if new else end
        except (OSError, EncodingError):
            pass
        else:
            d.log_on_disk = (n + len(new), end)
            return d.log_on_disk
    log = d.log
    d.log_on_disk = (len(log), store.write_log(log))
    return d.log_on_disk


def _lazy_log(d: Derived, store: GameStore, cache: dict[str, Any],
              rebuild: Callable[[], list[dict[str, Any]]]) -> bool:
    """Point ``d`` at the log in log.bin (read when asked for); False when the file cannot hold it."""
    n, end, last = cache["log_n"], cache["log_end"], cache["log_last"]
    if not isinstance(n, int) or not isinstance(end, int) or store.log_size() < end:
        return False

    def load() -> list[dict[str, Any]]:
        got = store.read_log(n, end)
        return got if got is not None else rebuild()

    d.lazy_log(load, last, (n, end))
    return True


def refresh_glance(store: GameStore, d: Derived) -> None:
    """Write the glance of a game whose cache is current (``peek``) when it is missing or stale:
    a home from an older pbem, whose next `status` then takes the fast path."""
    files = store.files()
    if not files or d.closed:
        return
    data = glance.encode(_cache_key(files), glance_facts(d))
    try:
        if store.glance_path.read_bytes() == data:
            return
    except OSError:
        pass
    from pbem.store.fsutil import atomic_write

    atomic_write(store.glance_path, data, durable=False)


def glance_facts(d: Derived) -> dict[str, Any]:
    """What `pbem status` shows of a game not closed (pbem.store.glance, pbem.cli.statusline)."""
    pend = d.pending() if d.started else None
    return {
        "rules": d.con.h["rules"], "scenario": d.con.h["scenario"], "my_seats": list(d.my_seats),
        "players": {s: list(held) for s, held in d.con.players().items()},
        "sides": {s: list(v) for s, v in d.sides.items()}, "seq": d.seq, "started": d.started,
        "waiting_for_joins": d.waiting_for_joins,
        "pending": None if pend is None else {"seat": pend.seat, "phase": pend.phase, "kind": pend.kind},
        "over": ending.outcome(d) if d.started and pend is None else None,
        "since": last["time"] if (last := d.last_log()) else d.con.proposal.header["time"],
    }


def _private_cache(store: GameStore, d: Derived, key: bytes) -> dict[str, Any] | None:
    """The sealed secrets matching ``key``, or None (missing, stale or unreadable: rebuild)."""
    blob = store.load_private_cache()
    if blob is None:
        return None
    try:
        plain = age.decrypt(blob, [d.keyring.ident.age_key()])
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
            or any(sf.kind in ("reveal", handover.KIND) for sf in files)
            or any(k not in cache for k in (*CACHED, *CACHED_LOG))):
        return derive(session, store)
    # No initial state is built only to be replaced by the cached one.
    resumed = resume(session, turnfile.parse(files[0].read()),
                     [turnfile.parse(sf.read()) for sf in files[1:] if sf.kind == "join"])
    if resumed is None:
        return derive(session, store)
    d = resumed
    if d.my_seats:
        mine = _private_cache(store, d, cache["key"])
        if mine is None:
            return derive(session, store)
        for k in CACHED_PRIVATE:
            setattr(d, k, mine[k])
    for k in CACHED:
        setattr(d, k, cache[k])
    if not _lazy_log(d, store, cache, lambda: derive(session, store).log):
        return derive(session, store)
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
            or any(sf.kind in ("reveal", handover.KIND) for sf in files)
            or any(k not in cache for k in (*CACHED, *CACHED_LOG))):
        return None
    con = read_proposal(turnfile.parse(files[0].read()))
    d = Derived(con=con, my_seats=con.seats_of(card))
    d.roots[con.host] = con.h["seed_root"]
    for sf in files[1:]:
        if sf.kind == "join":
            jf = turnfile.parse(sf.read())
            check_join(con, jf)
            d.roots[jf.author] = jf.header["seed_root"]
            d.joins[jf.author] = jf
    if d.waiting_for_joins:
        # Only a game not started shows its genesis state; a started one's comes from the
        # cache, and building it would load the scenario for nothing.
        d.est = initial_engine_state(con)
        return d
    for k in CACHED:
        setattr(d, k, cache[k])
    return d if _lazy_log(d, store, cache, _damaged_log(store)) else None


def _damaged_log(store: GameStore) -> Callable[[], list[dict[str, Any]]]:
    def fail() -> list[dict[str, Any]]:
        raise StateError(f"the event log {store.log_path} does not match its cache",
                         hint=f"delete {store.cache_path}: the next command that unlocks rebuilds both")
    return fail


def my_move(d: Derived) -> tuple[rulesapi.Pending, str]:
    """The pending decision and the seat of this player's that acts; refuses when it is not this
    player's move (or not the move of the seat in focus, ``Derived.use_seat``)."""
    pend = d.pending()
    if d.closed:
        todo = [s for s in d.my_seats if s not in d.reveals]
        raise StateError("the game is closed: secrets were revealed; no more turns are accepted",
                         hint="reveal too with 'pbem game end GAME'" if todo else
                         "you have revealed: 'pbem status' shows whose reveals are missing")
    if pend is None:
        raise StateError("the game is over", hint="run 'pbem verify GAME' to check the archive")
    if pend.seat not in d.my_seats or d.focus not in (None, pend.seat):
        whose = "yours" if d.focus is None else f"your seat {d.focus}'s"
        raise StateError(f"it is {pend.seat}'s move ({pend.phase}), not {whose}",
                         hint=f"wait for {pend.seat}'s file, then 'pbem receive' it; every order (standing "
                              "orders too) goes in your next file")
    d.use_seat(pend.seat)
    return pend, pend.seat


def produce_turn(session: Session, store: GameStore, d: Derived, orders_text: str,
                 dice_request: int = 0, end_vote: str = "") -> bytes:
    """Author mode: apply this player's orders and seal the next turn file (not yet stored).

    ``dice_request``: instead of orders, ask the other seats for that many more
    dice seeds (window mode; pbem.protocol.dicefiles). ``end_vote``: instead of orders,
    propose, accept or decline ending the game by agreement (pbem.play.ending).
    """
    pend, seat = my_move(d)
    rules = d.rules
    est = copy_engine_state(d.est)
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
    dicefiles.add_seed_root(d.params, est, d.tree(), seat, p.public)  # a new dice epoch's root, when due
    p.public["releases"] = make_releases(d.params, est, d.tree(), seat)
    # Game content stays out of the clear header (docs/protocol.md §7a).
    p.public["phase"] = phase
    p.public["digest"] = rules.digest(out_public)
    recipients = handover.recipients(d)  # the cards, and the seats' escrow keys in a quorum game
    # Every seat's part is padded to the bucket of the largest: sizes tell
    # neither what the author sealed nor whom it had something to tell.
    plains = padding.pad_all({s: canonical.encode(p.private if s == seat else p.other_part(s))
                              for s in d.con.cards})
    private_parts = {s: age.encrypt(plains[s], handover.recipients(d, s), rng=session.rng) for s in d.con.cards}
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
    ctx = EngineContext(d.params, copy_engine_state(d.est), seat, d.seq + 1, author_mode=True, tree=d.tree(),
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


def unmailed(store: GameStore, d: Derived) -> bool:
    """Whether a file of ours lacks its mail to some seat (pbem.mail.dispatch.missing_mails lists them).

    From file names alone, no file read: `status` asks it of every game at every run.
    """
    if not d.my_seats:
        return False
    files = [(sf.seq, sf.kind, sf.author, sf.path.name) for sf in store.files()]
    players = {s: list(held) for s, held in d.con.players().items()}
    return glance.missing_mail(d.con.game_id.hex(), files, d.my_seats, players, store.mail_names())


def repair(session: Session, store: GameStore) -> list[str]:
    d = load(session, store)
    return repair_seats(store, d.my_seats)


def repair_seats(store: GameStore, seats: tuple[str, ...]) -> list[str]:
    """The store's repair for every seat this player holds (one seat: exactly the store's)."""
    done: list[str] = []
    for seat in seats or (None,):
        done += [m for m in store.repair(seat, lambda data: outbox_name(turnfile.parse(data))) if m not in done]
    return done


def play(session: Session, store: GameStore, orders_text: str,
         dice_request: int = 0, end_vote: str = "", seat: str | None = None,
         *, loaded: Derived | None = None) -> tuple[SignedFile, Derived]:
    """Play the pending decision of this player's seat (``seat``: refuse unless it is that seat's).

    ``loaded``: the game as the caller just loaded and repaired it (`pbem play` reads it
    first for the lookahead); it is played on, not loaded again."""
    if loaded is None:
        repair(session, store)
        d = load(session, store)
    else:
        d = loaded
    d.use_seat(seat)
    data = produce_turn(session, store, d, orders_text, dice_request, end_vote)
    f = turnfile.parse(data)
    # Replay our own file exactly as every opponent will before anything is written.
    check_turn_place(store, d, f)
    apply_turn(session, d, f)
    store.add(f.seq, "turn", f.author, data)
    store.put_outbox(outbox_name(f), data)
    save_cache(store, d)
    d.use_seat(None)
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
        if not con.seats_of(session.ident.card()):
            raise NotAddressedToYou("this proposal gives your card no seat")
        from pbem.store.fsutil import atomic_write

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
    # the cards of now: a seat handed over signs with its substitute's (pbem.play.handover)
    con, past = handover.in_store(read_proposal(turnfile.parse(props[0].read())), store)
    if f.author not in con.cards:
        raise FileRejected(f"file {f.seq} names seat {f.author!r}, which is not in this game")
    if not any(signed_by(f, key) for key in past.get(f.author, [])):  # an older card: a place below ours
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
    if f.kind in turnfile.CHAIN_KINDS:
        try:
            check_turn_place(store, d, f)
        except Replayed:
            if any(x.read() == data for x in store.find(f.seq, f.kind)):
                return Received(f.game, f.kind, f.seq, f.author, "duplicate")
            raise
        if f.kind == "turn":
            apply_turn(session, d, f)
        else:
            handover.apply(session, store, d, f, stored_turn(store, d.seq))
        store.add(f.seq, f.kind, f.author, data)
        save_cache(store, d)
        return Received(f.game, f.kind, f.seq, f.author, "added")
    if f.kind == "reveal":
        have = store.find(f.seq, "reveal", f.author)
        if have and have[0].read() == data:
            return Received(f.game, f.kind, f.seq, f.author, "duplicate")
        reveal.add_reveal(d, store, f)
        store.add(f.seq, "reveal", f.author, data)
        return Received(f.game, f.kind, f.seq, f.author, "added")
    raise Unsupported(f"receiving {f.kind} files is not supported")


def hand_over(session: Session, store: GameStore, seat: str, card: Card,
              consents: list[bytes] | None = None) -> tuple[SignedFile, Derived]:
    """Hand ``seat`` (this player's, or with ``consents`` a lost player's) to ``card``'s player
    (pbem.play.handover): checked as every receiver will, then stored and queued for every player."""
    repair(session, store)
    d = load(session, store)
    data = handover.make(session, store, d, seat, card, consents)
    f = turnfile.parse(data)
    check_turn_place(store, d, f)
    handover.apply(session, store, d, f, stored_turn(store, d.seq))
    store.add(f.seq, f.kind, f.author, data)
    store.put_outbox(outbox_name(f), data)
    save_cache(store, d)
    return f, d


def end(session: Session, store: GameStore, unilateral: str = "") -> tuple[SignedFile, Derived]:
    """Write this player's reveal: the game is over, every seat agreed to end it, or
    (``unilateral`` "conceded" or "abandoned") this player ends it alone (pbem.play.ending).

    A player holding several seats reveals for each (``end_all``); this returns the first.
    """
    files, d = end_all(session, store, unilateral)
    return files[0], d


def end_all(session: Session, store: GameStore, unilateral: str = "") -> tuple[list[SignedFile], Derived]:
    """One reveal per seat of this player's not yet revealed: each seat's own master and secrets.

    Only the first may end a live game alone; the others follow it ("over").
    """
    d = derive(session, store)
    out: list[SignedFile] = []
    todo: list[str | None] = [s for s in d.my_seats if s not in d.reveals]
    for seat in todo or [None]:  # None: make_reveal says why this player cannot reveal
        d.use_seat(seat)
        data = reveal.make_reveal(session, store, d, "" if out else unilateral)
        f = turnfile.parse(data)
        reveal.add_reveal(d, store, f)
        store.add(f.seq, "reveal", f.author, data)
        store.put_outbox(outbox_name(f), data)
        out.append(f)
    d.use_seat(None)
    return out, d


def join(session: Session, proposal_data: bytes) -> tuple[SignedFile, Derived]:
    """Join the game proposed; a player holding several seats joins them all (``join_seats``):
    this returns the first join."""
    joins, d = join_seats(session, proposal_data)
    return joins[0], d


def join_seats(session: Session, proposal_data: bytes) -> tuple[list[SignedFile], Derived]:
    """One join per seat this player holds in the proposal (but the host's), each with its own master."""
    from pbem.protocol.genesis import check_local_rules, joining_seats

    p = turnfile.parse(proposal_data)
    con = read_proposal(p)
    check_local_rules(con)
    store = game_dir(session.home, p.game)
    if store.exists():
        raise StateError(f"game {p.game.hex()[:12]} is already in this home",
                         hint="run 'pbem status' to see it")
    now = session.clock()
    signedtime.check_not_future(p, now)
    if not joining_seats(con, session.ident.card()):
        raise StateError("the host joined by proposing; there is nothing to join")
    d = begin(session, p)
    made = _join_my_seats(session, d, now)
    store.add(0, "proposal", p.author, proposal_data)
    _store_joins(store, made)
    save_cache(store, d)
    inv = session.home.invitations / f"{p.game.hex()}.pbem"
    if inv.exists():
        inv.unlink()
    return made, d


def _join_my_seats(session: Session, d: Derived, now: int) -> list[SignedFile]:
    from pbem.protocol.genesis import joining_seats, make_join

    made = []
    for seat in joining_seats(d.con, session.ident.card()):
        jf = turnfile.parse(make_join(session.ident, d.con, rng=session.rng, now=now, seat=seat))
        add_join(session, d, jf)
        made.append(jf)
    return made


def _store_joins(store: GameStore, joins: list[SignedFile]) -> None:
    for jf in joins:
        store.add(0, "join", jf.author, jf.raw)
        store.put_outbox(outbox_name(jf), jf.raw)


def create(session: Session, proposal_data: bytes) -> Derived:
    """Store the host's proposal, and the joins of the host's other seats where it holds several."""
    p = turnfile.parse(proposal_data)
    store = game_dir(session.home, p.game)
    d = begin(session, p)
    # No clock read (nor randomness) unless the host holds further seats: a one-seat host's files
    # stay exactly those of earlier releases.
    made = _join_my_seats(session, d, session.clock()) if len(d.my_seats) > 1 else []
    store.add(0, "proposal", p.author, proposal_data)
    store.put_outbox(outbox_name(p), proposal_data)
    _store_joins(store, made)
    save_cache(store, d)
    return d
