"""How a game ends: by the rules, by an agreement every seat signed, or by one seat alone.

A reveal (pbem.play.reveal) publishes its author's dice master and file keys, so
after the first reveal the game cannot go on. Who may reveal, and what the
reveal's ``reason`` says, is decided here:

* ``"over"``: the rules say the game is over, or another seat has already
  ended it alone (its reveal says ``conceded`` or ``abandoned``);
* ``"agreed"``: every seat signed the end. The seat whose move it is writes an
  **end proposal** (a turn file of phase ``end proposal``) instead of its
  move; then each other seat, in seat order after the proposer, writes an
  **end answer** (phase ``end answer``) that accepts or declines. A decline
  withdraws the proposal and play goes on from the proposer's move. Only when
  every seat has accepted is the game over and may anyone reveal ``agreed``.
  These files carry no orders and never reach the rules module; like every
  turn file they carry their author's dice-seed releases.
* ``"conceded"`` / ``"abandoned"``: one seat ends a live game alone; the
  reveal names it, and so does the game's result.

The agreement lives in the engine state: ``est["end"] = {"proposer": seat,
"accepted": [seats], "agreed": bool}`` (``EndAgreement``) while a proposal is open or agreed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from pbem.errors import InvalidInput, OutOfOrder, PbemError, StateError
from pbem.protocol import turnfile
from pbem.protocol.context import EndAgreement, EngineState, FileRejected
from pbem.rulesapi import Pending, RulesModule

if TYPE_CHECKING:
    from pbem.protocol.genesis import Constitution
    from pbem.store.gamestore import GameStore

END_PROPOSAL = "end proposal"
END_ANSWER = "end answer"
ANSWER_KIND = "end-answer"
VOTES = ("propose", "accept", "decline")
UNILATERAL = ("conceded", "abandoned")
REASONS = ("over", "agreed", *UNILATERAL)


class GameView(Protocol):
    """What this module reads of a game derived from its files (pbem.play.game.Derived)."""

    con: Constitution
    est: EngineState
    public: Any
    reveals: dict[str, turnfile.SignedFile]

    @property
    def started(self) -> bool: ...

    @property
    def rules(self) -> RulesModule: ...


def is_end_phase(phase: str) -> bool:
    return phase in (END_PROPOSAL, END_ANSWER)


def proposes(phase: str, pend: Pending) -> bool:
    """An end proposal replaces the move of the seat whose move it is (any phase but an answer)."""
    return phase == END_PROPOSAL and pend.kind != ANSWER_KIND


def agreed(est: EngineState) -> bool:
    e = est.get("end")
    return bool(e and e["agreed"])


def _next_acceptor(seats: list[str], e: EndAgreement) -> str:
    i = seats.index(e["proposer"])
    return next(s for s in [*seats[i + 1:], *seats[:i]] if s not in e["accepted"])


def pending(est: EngineState, seats: list[str], inner: Pending | None) -> Pending | None:
    """An open end proposal waits for the next seat's answer; an agreed end leaves nothing to do."""
    e = est.get("end")
    if not e:
        return inner
    if e["agreed"]:
        return None
    seat = _next_acceptor(seats, e)
    return Pending(seat, END_ANSWER, f"{e['proposer']} proposes to end the game here by agreement: accept or "
                   "decline ('pbem game end GAME --accept' or '--decline')",
                   kind=ANSWER_KIND, options=("accept", "decline"))


def file_orders(est: EngineState, pend: Pending, vote: str) -> tuple[str, dict[str, Any]]:
    """Author mode: the phase and engine orders of this seat's end file (``vote`` "" = none given)."""
    if pend.kind == ANSWER_KIND:
        if vote not in ("accept", "decline"):
            raise StateError(f"{est['end']['proposer']} proposed to end the game: your file answers that",
                             hint="run 'pbem game end GAME --accept' or 'pbem game end GAME --decline'")
        return END_ANSWER, {"engine": "end", "vote": vote}
    if vote != "propose":
        raise StateError("no end proposal is waiting for your answer",
                         hint="propose one with 'pbem game end GAME --propose' (it replaces your move)")
    return END_PROPOSAL, {"engine": "end", "vote": "propose"}


def apply(est: EngineState, seats: list[str], author: str, phase: str, orders: Any) -> None:
    """Check and apply an end proposal or answer (the caller checked that it was ``author``'s move)."""
    if (not isinstance(orders, dict) or set(orders) != {"engine", "vote"} or orders["engine"] != "end"
            or orders["vote"] not in VOTES):
        raise FileRejected(f"{author}'s {phase} file carries malformed orders")
    vote, e = orders["vote"], est.get("end")
    if phase == END_PROPOSAL:
        if vote != "propose" or e:
            raise FileRejected(f"{author}'s end proposal does not propose, or another one is open")
        est["end"] = {"proposer": author, "accepted": [author], "agreed": len(seats) == 1}
        return
    if phase != END_ANSWER or not e or e["agreed"] or vote == "propose":
        raise FileRejected(f"{author}'s {phase} file answers no open end proposal")
    if vote == "decline":
        del est["end"]
        return
    e["accepted"].append(author)
    e["agreed"] = set(e["accepted"]) == set(seats)


def _rules_over(d: GameView) -> bool:
    return d.started and d.rules.pending(d.public) is None


def _others_unilateral(d: GameView, store: GameStore, author: str) -> list[tuple[str, str]]:
    """(seat, reason) of other seats' reveals that ended the game alone (held or stored)."""
    found = {s: str(f.header["reason"]) for s, f in d.reveals.items()}
    for sf in store.files():
        if sf.kind == "reveal" and sf.author not in found and sf.author in d.con.cards:
            try:
                f = turnfile.parse(sf.read())
                f.verify_signature(d.con.cards[f.author].signing_key)
            except PbemError:
                continue
            found[f.author] = str(f.header["reason"])
    return sorted((s, r) for s, r in found.items() if s != author and r in UNILATERAL)


def reveal_reasons(d: GameView, store: GameStore, author: str) -> tuple[str, ...]:
    """The reasons a reveal by ``author`` may give now."""
    if agreed(d.est):
        return ("agreed",)
    if _rules_over(d) or _others_unilateral(d, store, author):
        return ("over",)
    return UNILATERAL


def choose_reason(d: GameView, store: GameStore, author: str, unilateral: str) -> str:
    """Author mode: the reason of this seat's reveal; refuses a reveal the others would refuse."""
    allowed = reveal_reasons(d, store, author)
    if unilateral:
        if unilateral not in UNILATERAL:
            raise InvalidInput(f"a reveal ends a game alone as 'conceded' or 'abandoned', not {unilateral!r}")
        if unilateral not in allowed:
            raise StateError(f"the game has already ended ({allowed[0]}): reveal without --concede or --abandon",
                             hint="run 'pbem game end GAME'")
        return unilateral
    e = d.est.get("end")
    if allowed == UNILATERAL and e and not e["agreed"]:
        if author in e["accepted"]:
            raise StateError("the game is not over, and not every seat has agreed to end it: the end proposal "
                             "waits for the other seats' answers",
                             hint="wait for their files and 'pbem receive' them; then reveal with 'pbem game end GAME'")
        raise StateError(f"the game is not over, and not every seat has agreed to end it: {e['proposer']} "
                         "proposed to end it, and your answer is wanted",
                         hint="accept with 'pbem game end GAME --agree' (or refuse with --decline); once every "
                              "seat has accepted, reveal with 'pbem game end GAME'")
    if allowed == UNILATERAL:
        raise StateError("the game is not over, and not every seat has agreed to end it",
                         hint="propose an end by agreement with 'pbem game end GAME --propose', or end it "
                              "alone with --concede or --abandon (a reveal publishes your dice secret: "
                              "after it the game cannot go on)")
    return allowed[0]


def check_reveal_reason(d: GameView, store: GameStore, f: turnfile.SignedFile) -> None:
    """Replay mode: the reveal's reason must be one the game allows its author now."""
    reason = f.header["reason"]
    allowed = reveal_reasons(d, store, f.author)
    if reason in allowed:
        return
    if reason == "over" and allowed == UNILATERAL:
        # Justified only by another seat's concession or abandonment, which has not arrived yet.
        raise OutOfOrder(f"{f.author}'s reveal says the game is over, but it is not over here yet",
                         hint="receive the other seats' reveals first, then this one again")
    raise FileRejected(f"{f.author}'s reveal gives reason {reason!r}, but the game allows only "
                       f"{' or '.join(repr(r) for r in allowed)} now",
                       hint="a reveal that claims an agreement not every seat signed is refused; "
                            "keep it as evidence")


def outcome(d: GameView) -> str | None:
    """The game's result: the agreement, who ended it alone, or the rules' result."""
    if agreed(d.est):
        return "ended by agreement of every seat"
    quits = [(s, str(f.header["reason"])) for s, f in sorted(d.reveals.items())
             if f.header["reason"] in UNILATERAL]
    if quits:
        return "; ".join(f"{s} conceded" if r == "conceded" else f"{s} abandoned the game" for s, r in quits)
    return d.rules.result(d.public) if d.started else None
