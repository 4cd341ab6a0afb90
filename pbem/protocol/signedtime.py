"""The signed ``time`` of a file: a claim by its author, bounded by two checks.

Nobody can prove when a file was made; what pbem can do is keep a chain's
times from lying grossly, so that "their move since ..." and a proof
bundle's "signed time" mean something:

* **never far before its predecessor**: a file may not claim a time more than
  ``BACKWARD_TOLERANCE`` (20 minutes) before the newest file it follows (a
  turn follows the previous turn or, for file 1, the proposal and every join;
  a join follows the proposal; a reveal follows the file it was made at).
  This is checked on replay too, from the files alone.
* **never far ahead of the receiver's clock**: on intake, a file may not claim
  a time more than ``FUTURE_TOLERANCE`` (10 minutes) ahead of the receiving
  tool's clock. This needs a clock, so it is checked when a file arrives, not
  when a stored game is replayed later.

The backward tolerance is the forward one plus room for honest clock skew: a
file dated as far ahead as a receiver accepts still lets the next honest
author, whose clock is right, follow it without being refused.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pbem.protocol.context import FileRejected

if TYPE_CHECKING:
    from pbem.protocol.turnfile import SignedFile

BACKWARD_TOLERANCE = 20 * 60
FUTURE_TOLERANCE = 10 * 60
# Far beyond any real date, small enough that every tool can print it.
MAX_TIME = 253402300799  # 9999-12-31 23:59:59 UTC

_HINT = ("a file's signed time may not be more than 20 minutes before the file it follows, nor more "
         "than 10 minutes ahead of your clock; if your own clock is right, keep the file as evidence "
         "and ask its author to set their computer's clock")


def _what(f: SignedFile) -> str:
    return f"{f.author}'s {f.kind} file {f.seq}" if f.kind == "turn" else f"{f.author}'s {f.kind}"


def check_range(f: SignedFile) -> None:
    t = f.header["time"]
    if not 0 <= t <= MAX_TIME:
        raise FileRejected(f"{_what(f)} claims an impossible signed time ({t})", hint=_HINT)


def check_follows(f: SignedFile, prev_time: int) -> None:
    """``f`` must not claim a time much earlier than the newest file it follows."""
    check_range(f)
    t = int(f.header["time"])
    if t < prev_time - BACKWARD_TOLERANCE:
        raise FileRejected(f"{_what(f)} claims a signed time {(prev_time - t) // 60} minutes before "
                           "the file it follows", hint=_HINT)


def check_not_future(f: SignedFile, now: int) -> None:
    """On intake: ``f`` must not claim a time much later than the receiver's clock ``now``."""
    check_range(f)
    t = int(f.header["time"])
    if t > now + FUTURE_TOLERANCE:
        raise FileRejected(f"{_what(f)} claims a signed time {(t - now) // 60} minutes ahead of this "
                           "computer's clock", hint=_HINT)


def describe(t: object) -> str:
    """A signed time for people: a UTC date, or the raw value when it is no date at all."""
    if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= MAX_TIME:
        return f"{t!r} (not a valid time)"
    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def genesis_time(proposal: SignedFile, joins: Iterable[SignedFile]) -> int:
    """The newest signed time among the proposal and the joins (what file 1 follows)."""
    return max([int(proposal.header["time"]), *(int(j.header["time"]) for j in joins)])


def last_time(log: list[dict[str, Any]], proposal: SignedFile, joins: Iterable[SignedFile]) -> int:
    """The signed time of the newest file of the chain so far (``log``: one entry per turn file)."""
    return int(log[-1]["time"]) if log else genesis_time(proposal, joins)
