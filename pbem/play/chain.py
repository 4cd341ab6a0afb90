"""Checking one turn file against the chain and the rules: where it goes, and what it does.

Every check happens before ``d`` changes: a refused file leaves the derived
state, and so the home, as it was (pbem.play.game writes only after).
"""

from __future__ import annotations

from typing import Any, cast

from pbem import rulesapi
from pbem.errors import (
    BadSignature,
    BrokenChain,
    Equivocation,
    OutOfOrder,
    PbemError,
    Replayed,
    StateError,
    Unsupported,
    WrongGame,
)
from pbem.play import ending
from pbem.play.derived import Derived, Session
from pbem.protocol import dicefiles, schema, signedtime, turnfile
from pbem.protocol.context import (
    EngineContext,
    EngineState,
    FileRejected,
    GameParams,
    Payload,
    apply_releases,
    clone,
    payload_from_wire,
)
from pbem.protocol.schema import PublicPart, RefOpening
from pbem.protocol.turnfile import SignedFile
from pbem.store.gamestore import GameStore


def check_turn_place(store: GameStore, d: Derived, f: SignedFile) -> None:
    """Where does ``f`` go in the chain? Raise the precise chain error if not right here."""
    if f.game != d.con.game_id:
        raise WrongGame("this file belongs to another game")
    if not d.started:
        raise StateError(f"the game has not started: waiting for joins from {', '.join(d.waiting_for_joins)}",
                         hint="receive the missing join files first")
    expected = d.seq + 1
    if f.seq < expected:
        same = _at(store, f.seq)
        if same and same[0].read() == f.raw:
            raise Replayed(f"file {f.seq} from {f.author} was received already")
        if f.author in d.con.cards:
            # A seat handed over (pbem.play.handover) signed its older files with an older card:
            # equivocation is two files for one place signed by one key.
            key = signed_as(d, f)
            if same and same[0].author == f.author and signed_by(turnfile.parse(same[0].read()), key):
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


def signed_by(f: SignedFile, key: bytes) -> bool:
    try:
        f.verify_signature(key)
    except BadSignature:
        return False
    return True


def signed_as(d: Derived, f: SignedFile) -> bytes:
    """The key, of those that held ``f``'s seat (its card now, or before a handover), that signed ``f``."""
    for key in d.past_keys.get(f.author, []):
        if signed_by(f, key):
            return key
    f.verify_signature(d.con.cards[f.author].signing_key)
    return bytes(d.con.cards[f.author].signing_key)


def _at(store: GameStore, seq: int) -> list[Any]:
    """This home's file at place ``seq`` of the chain: a turn file, or a handover (pbem.play.handover)."""
    return [x for kind in turnfile.CHAIN_KINDS for x in store.find(seq, kind)] if seq >= 1 else []


def stored_turn(store: GameStore, seq: int) -> SignedFile | None:
    """This home's file at place ``seq`` of the chain (None for the genesis, or when it holds none)."""
    have = _at(store, seq)
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
    # the seat's card then: its card now, or one it held before a handover (pbem.play.handover)
    keys = [*d.past_keys.get(att.author, []), bytes(d.con.cards[att.author].signing_key)]
    if not any(att.verify(d.con.game_id, f.seq - 1, k) for k in keys):
        return
    signed_as(d, f)
    for g in (ours, f):
        store.add_evidence(f"{g.seq:06d}-{g.author}-{g.hash.hex()[:16]}.pbem", g.raw)
    raise Equivocation(
        f"{att.author} signed two different files with sequence number {ours.seq}: this home holds one, "
        f"and {f.author}'s file {f.seq} carries {att.author}'s signature of the other; this is proof of cheating",
        hint="both were kept under evidence/; 'pbem verify GAME --proof FILE' writes a proof anyone can check "
             "with 'pbem check-proof', to show the other players")


# The engine state's parts a file changes only by setting a key (never inside a value): a copy of
# each map shares the values. "released" grows by appending seeds to lists, which are copied.
_SET_ONLY = ("used", "commits", "opened", "revealed_rolls", "reserved")


def copy_engine_state(est: EngineState) -> EngineState:
    """A copy of ``est`` that a file's changes leave ``est`` untouched by, for the cost of its keys.

    The state grows with the game (every seed released, commitment and opening), and a
    deep copy at every file made a long game's replay quadratic in its values (issue 11).
    Anything not known to be changed only so (a new part, the end agreement) is deep-copied.
    """
    out: dict[str, Any] = {}
    for k, v in est.items():
        if k in _SET_ONLY:
            out[k] = dict(v)  # type: ignore[call-overload]
        elif k == "released":
            out[k] = {p: {r: list(seeds) for r, seeds in by.items()} for p, by in est["released"].items()}
        else:
            out[k] = clone(v)
    return cast(EngineState, out)


def apply_turn(session: Session, d: Derived, f: SignedFile) -> None:
    """Verify ``f`` completely and advance ``d`` (``d`` is left unchanged on error)."""
    h = f.header
    con = d.con
    if f.author not in con.cards:
        raise FileRejected(f"file {f.seq} names seat {f.author!r}, which is not in this game")
    f.verify_signature(con.cards[f.author].signing_key)
    last = d.last_log()  # the newest entry alone: the log itself stays on disk
    signedtime.check_follows(f, signedtime.last_time([last] if last else [], con.proposal, d.joins.values()))
    if h["rules_hash"] != con.h["rules_hash"] or h["scenario_hash"] != con.h["scenario_hash"]:
        raise Unsupported(f"file {f.seq} was made with other rules or another scenario than this game's")
    pend = d.pending()
    if pend is None:
        raise StateError("the game is over; no more turn files are accepted")
    if f.author != pend.seat:
        raise FileRejected(f"file {f.seq} is by {f.author}, but it was {pend.seat}'s move ({pend.phase})")
    if set(h["private"]) != set(con.seats):
        raise FileRejected(f"file {f.seq} must carry one private part per seat")
    if len({len(part) for part in h["private"].values()}) != 1:
        # Equal lengths are what keeps a private part from telling whom the
        # author had something to tell (docs/protocol.md §7).
        raise FileRejected(f"file {f.seq}: its private parts differ in length")
    if d.closed:
        raise StateError("the game is closed: secrets were revealed; no more turns are accepted")
    public = d.keyring.open(f"{f.seq}/public", h["public"], f"the public part of file {f.seq}")
    parts = _my_parts(d, f)
    payload = payload_from_wire(public, h["commits"], where=f"file {f.seq} by {f.author}")
    # The phase names game content, so it travels in the encrypted public part
    # (docs/protocol.md §7a); it is checked as soon as that part is open.
    phase = str(public["phase"])
    engine_file = is_engine_phase(phase)
    if not _may_claim(phase, pend):
        raise FileRejected(f"file {f.seq} claims phase {phase!r}; the game is in {pend.phase!r}")
    est = copy_engine_state(d.est)
    rules = d.rules
    told_states: dict[str, Any] = {}
    if engine_file:
        if any(public[k] for k in ("rolls", "roller_seeds", "revealed", "openings", "events")) or h["commits"]:
            raise FileRejected(f"file {f.seq}: a {phase} file may carry nothing but seeds")
        apply_engine_orders(d.params, est, f.author, phase, public["orders"], d.rules_pending())
        out_public = d.public
    else:
        out_public, told_states = _replay_held(d, est, f, payload, public, parts)
    dicefiles.apply_seed_root(d.params, est, f.author, public)  # a new dice epoch's root, when due
    apply_releases(d.params, est, f.author, public["releases"], require_window=True)
    try:
        digest = rules.digest(out_public)
    except Exception as e:  # the state came from another player's orders: as in _replay_rules
        raise _rules_crash(f, "the rules' state digest", e) from e
    if digest != public["digest"]:
        raise FileRejected(f"file {f.seq}: the state its author claims differs from the rules' result")
    d.est = est
    d.public = out_public
    d.seq = f.seq
    d.last_hash = f.hash
    d.add_log({"seq": f.seq, "author": f.author, "phase": phase, "time": h["time"],
               "events": public["events"]})
    # New maps, not changed ones: a shallow copy of ``d`` (a fork) must not move with it.
    d.privates = {**d.privates, **told_states}
    own = parts.get(f.author)
    if own is not None:
        d.privates[f.author] = own["state"]
        old = d.secrets_by.get(f.author, {"openings": {}, "secret_rolls": {}})
        d.secrets_by = {**d.secrets_by, f.author: {"openings": {**old["openings"], **own["openings"]},
                                                   "secret_rolls": {**old["secret_rolls"], **own["secret_rolls"]}}}


def _my_parts(d: Derived, f: SignedFile) -> dict[str, Any]:
    """The private part of ``f`` of every seat this player holds, opened and checked
    (``schema.PrivatePart`` for the author's seat, ``schema.OtherPart`` for the others).

    Checked before anything changes: ``d`` must stay as it was if one is malformed.
    """
    parts: dict[str, Any] = {}
    for seat in d.my_seats:
        part = d.keyring.open(f"{f.seq}/{seat}", f.header["private"][seat],
                              f"{seat}'s private part of file {f.seq}")
        where = f"file {f.seq} by {f.author}: the private part of your seat {seat}"
        parts[seat] = (schema.private_part(part, where) if f.author == seat
                       else schema.other_private_part(part, where))
    return parts


def _replay_held(d: Derived, est: EngineState, f: SignedFile, payload: Payload, public: PublicPart,
                 parts: dict[str, dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """The rules on ``f`` in replay mode: (new public state, {held seat: new private state} of the
    seats it told something).

    The rules see one held seat per run (the engine checks what that seat was
    told, pbem.protocol.context); a player holding several seats replays once
    more, on a copy, for each further seat the file told something.
    """
    others = [s for s in parts if s != f.author]
    holder = others[0] if others else None
    out_public, first = _replay_rules(d, est, f, payload, public, holder,
                                      parts[holder].get("told", []) if holder is not None else None)
    told_states = dict([first] if first is not None else [])
    for seat in others[1:]:
        if parts[seat].get("told"):
            _, st = _replay_rules(d, copy_engine_state(d.est), f, payload, public, seat, parts[seat]["told"])
            if st is not None:
                told_states[st[0]] = st[1]
    return out_public, told_states


def _replay_rules(d: Derived, est: EngineState, f: SignedFile, payload: Payload, public: PublicPart,
                  holder: str | None, told: list[RefOpening] | None) -> tuple[Any, tuple[str, Any] | None]:
    """The rules on ``f`` in replay mode: (new public state, (``holder``, its new private state) if told)."""
    rules = d.rules
    told_state: tuple[str, Any] | None = None
    # Another seat's file may tell this tool's seat something (ctx.tell): its rules then
    # update this seat's private state, which they get here, beside the public state.
    ctx = EngineContext(d.params, est, f.author, f.seq, author_mode=False, payload=payload,
                        holder=holder, told_part=told)
    try:
        orders = rules.orders_from_wire(public["orders"], None)
        own = {holder: clone(d.privates.get(holder))} if holder is not None else {}
        out = rules.apply(clone(d.public), own, f.author, orders, ctx)
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
    if holder is not None and holder in out.private:
        told_state = (holder, out.private[holder])
    return out_public, told_state


def _may_claim(phase: str, pend: rulesapi.Pending) -> bool:
    """The pending decision's phase, or an engine file its seat may send in its place.

    In place of its move the mover may ask for more dice (window mode) or propose
    to end the game; a seat that owes a dice release owes exactly that.
    """
    if phase == pend.phase or ending.proposes(phase, pend):
        return True
    return phase == dicefiles.DICE_REQUEST and pend.kind != dicefiles.RELEASE_KIND


def is_engine_phase(phase: str) -> bool:
    """A file the engine writes on its own, which never reaches the rules module."""
    return dicefiles.is_engine_phase(phase) or ending.is_end_phase(phase)


def apply_engine_orders(params: GameParams, est: EngineState, author: str, phase: str, orders: Any,
                        rules_pending: rulesapi.Pending | None) -> None:
    """An engine file's orders: an end proposal or answer (pbem.play.ending), or dice (pbem.protocol.dicefiles)."""
    if ending.is_end_phase(phase):
        ending.apply(est, params.seats, author, phase, orders)
    else:
        dicefiles.apply(params, est, author, phase, orders, rules_pending)


def _rules_crash(f: SignedFile, what: str, e: Exception) -> FileRejected:
    return FileRejected(
        f"file {f.seq} by {f.author} is malformed: {what} failed on it ({type(e).__name__}: {e})"[:500],
        hint="its author's tool is not a conforming pbem; keep the file as evidence and ask for a fresh one")
