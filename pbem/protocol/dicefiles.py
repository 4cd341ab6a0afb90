"""Turn files the engine writes on its own: dice releases and dice requests.

A roll needs every other seat's seed for its slot (pbem.protocol.dice). Most seeds
travel in the files the alternation of play needs anyway; two cases need a
file of their own, which carries no orders and never reaches the rules module:

* a **dice release**: the rules' next mover needs seeds that another seat has
  not released yet (strict mode: the rolls were reserved in a file after that
  seat's last one, e.g. a combat against a seat whose standing orders answer
  for it; window mode: the start of the game, or a mover that rolled past its
  window). The game waits for that seat's release, whoever's move it is in
  the rules. It also carries a seat's seed root of a new dice epoch when
  the seeds needed fall in an epoch whose roots are not all committed yet
  (the mover's own among them; ``apply_seed_root`` below).
* a **dice request** (window mode only): the mover asks for more than the
  window before writing a file that rolls more dice than the window holds, so
  a long phase never deadlocks. Strict mode refuses it: there a request would
  let the roller learn its rolls before choosing, which strict mode exists to
  prevent; a rules module reserves the rolls with the action instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import InvalidInput, StateError
from pbem.protocol import dice
from pbem.protocol.context import EngineState, FileRejected, GameParams
from pbem.protocol.schema import PublicPart
from pbem.rulesapi import Pending

DICE_RELEASE = "dice release"
DICE_REQUEST = "dice request"
RELEASE_KIND = "dice-release"
MAX_REQUEST = 1024


def pending(params: GameParams, est: EngineState, rules_pending: Pending | None) -> Pending | None:
    """The rules' pending decision, or first the dice release it waits for."""
    if rules_pending is None:
        return None
    mover = rules_pending.seat
    owed = params.release_owed(est, mover)
    if not owed:
        return rules_pending
    what = (f"commit your next dice seed root, due before {mover}'s next rolls" if owed[0] == mover
            else f"release your dice seeds for {mover}'s next rolls")
    return Pending(seat=owed[0], phase=DICE_RELEASE, kind=RELEASE_KIND,
                   wanted=f"{what} (play with an empty orders file: no choice is asked of you)")


def release_orders(orders_text: str) -> dict[str, Any]:
    """A dice release carries no orders: refuse any, so nobody thinks a move was made."""
    for line in orders_text.splitlines():
        if line.split("#")[0].strip():
            raise InvalidInput("this file is a dice release: it takes no orders",
                               hint="play it with an empty orders file; your own move comes after")
    return {"engine": "dice-release"}


def request_orders(params: GameParams, count: int) -> dict[str, Any]:
    if params.strict:
        raise StateError("dice requests exist only in window mode",
                         hint="in strict dice mode the rules reserve rolls with the action that needs them")
    if not 1 <= count <= MAX_REQUEST:
        raise InvalidInput(f"a dice request asks for 1 to {MAX_REQUEST} rolls, not {count}")
    return {"engine": "dice-request", "count": count}


def apply(params: GameParams, est: EngineState, author: str, phase: str, orders: Any,
          rules_pending: Pending | None) -> None:
    """Check and apply an engine file's orders to the engine state (both modes of play)."""
    if phase == DICE_RELEASE:
        if orders != {"engine": "dice-release"}:
            raise FileRejected("a dice release carries orders")
        return
    if phase != DICE_REQUEST:
        raise FileRejected(f"unknown engine file phase {phase!r}")
    if params.strict:
        raise FileRejected("a dice request in a strict-dice game (it would show the roller its rolls)")
    if rules_pending is None or rules_pending.seat != author:
        raise FileRejected(f"a dice request by {author}, whose move it is not")
    if (not isinstance(orders, dict) or set(orders) != {"engine", "count"}
            or orders["engine"] != "dice-request" or not isinstance(orders["count"], int)
            or isinstance(orders["count"], bool) or not 1 <= orders["count"] <= MAX_REQUEST):
        raise FileRejected("a malformed dice request")
    used = int(est["used"][author])
    est["reserved"][author] = max(int(est["reserved"].get(author, 0)), used + int(orders["count"]))


def is_engine_phase(phase: str) -> bool:
    return phase in (DICE_RELEASE, DICE_REQUEST)


# --- dice epochs: a seat's next seed root, in its files of play (docs/protocol.md, Dice) -----


class BadSeedRoot(FileRejected):
    """A file's new dice seed root (a dice epoch) missing where due, present where not, or malformed."""

    default_hint = "its author's tool is not a conforming pbem; keep the file as evidence and ask its author"


def apply_seed_root(params: GameParams, est: EngineState, author: str, public: Mapping[str, Any]) -> None:
    """Check and record the new seed root a turn file carries (a new dice epoch of its author).

    A file carries one exactly when its author has committed fewer trees than
    are due after its rules ran (``GameParams.trees_due``), so every
    conforming tool writes the same files and a missing or extra root is
    refused. Called before the file's releases, which may then use it; the
    root is signed with the file and fixed for everyone by every later file
    chaining to it, as the genesis roots are by the genesis hash.
    """
    have = params.trees(est, author)
    due = have < params.trees_due(est)
    wire = public.get("seed_root")
    if wire is None:
        if due:
            raise BadSeedRoot(f"{author}'s file lacks its seed root of dice epoch {have}, due by now")
        return
    if not due:
        raise BadSeedRoot(f"{author}'s file carries a seed root that is not due")
    if (not isinstance(wire, dict) or set(wire) != {"epoch", "root"} or wire["epoch"] != have
            or not isinstance(wire["root"], bytes) or len(wire["root"]) != 32):
        raise BadSeedRoot(f"{author}'s seed root of dice epoch {have} is malformed or for another epoch")
    epochs = est.get("epochs", {})
    earlier = [params.roots[author], *epochs.get(author, [])]
    if wire["root"] in earlier:
        # an old tree's seeds are public: a seat reusing one would hand its rollers their dice
        raise BadSeedRoot(f"{author}'s seed root of dice epoch {have} repeats an earlier one")
    # new maps and lists: a copy of the state (a fork, the audit's) must not move with this one
    est["epochs"] = {**epochs, author: [*epochs.get(author, []), wire["root"]]}


def add_seed_root(params: GameParams, est: EngineState, tree: dice.SeedTree, author: str,
                  public: PublicPart) -> None:
    """Author mode: put ``author``'s next seed root in ``public`` when one is due, and record it."""
    have = params.trees(est, author)
    if have < params.trees_due(est):
        public["seed_root"] = {"epoch": have, "root": tree.for_epoch(have).root}
        apply_seed_root(params, est, author, public)


def master_roots_match(params: GameParams, est: EngineState, seat: str, master: bytes) -> bool:
    """Whether a revealed dice master gives every seed root ``seat`` committed (genesis and epochs)."""
    tree = dice.SeedTree(master, params.game_id, seat, params.depth)
    return all(tree.for_epoch(e).root == params.root(est, seat, e) for e in range(params.trees(est, seat)))
