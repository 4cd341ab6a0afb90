"""No blind orders: what the start of this player's next file will resolve, before it is written.

A file first runs the steps that need its author's dice but no choice (a combat whose Will
Commit answers are in, an order that waited for its dice in strict mode, a turn's first
rolls): the rules module runs them before the file's first order. Their dice are the
author's own, at roll indices already fixed by the files before (strict dice reserved them
when the action that needs them was signed), and nothing the file orders can change them.
So the author's tool computes them here, by applying an empty file in author mode and
throwing everything away, and shows them before the player writes the rest of the phase:
no email is spent just to see a result. Nothing is stored and no randomness of the session
is drawn (the files a later ``play`` writes stay exactly what they would have been).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import OrderError, PbemError
from pbem.play import ending
from pbem.play.derived import Derived
from pbem.protocol import dicefiles
from pbem.protocol.context import EngineContext, clone


@dataclass
class FileStart:
    """What the start of the pending file will do: sentences, or why it cannot be told."""

    sentences: list[str] = field(default_factory=list)
    unknown: str = ""  # non-empty: the start rolls dice this tool cannot compute now
    # The seat's view once the start has run (None: as it stands): what its orders then meet.
    public: Any = None
    private: Any = None

    def lines(self) -> list[str]:
        if self.unknown:
            return [f"Before your orders: {self.unknown}"]
        return [f"Before your orders: {s}" for s in self.sentences]


def file_start(d: Derived) -> FileStart:
    """Apply an empty file for the seat of this player's that must act; its events as sentences.

    Empty when it is not this player's move, when the file is the engine's (a dice release,
    an end answer), or when nothing automatic runs first.
    """
    pend = d.pending()
    if (d.closed or pend is None or pend.seat not in d.my_seats
            or pend.kind in (dicefiles.RELEASE_KIND, ending.ANSWER_KIND)):
        return FileStart()
    focus = d.focus
    d.use_seat(pend.seat)
    try:
        return _simulate(d, pend.seat)
    finally:
        d.use_seat(focus)


def _simulate(d: Derived, seat: str) -> FileStart:
    rules = d.rules
    try:
        orders = rules.parse_orders("", seat, d.public, d.private)
        ctx = EngineContext(d.params, clone(d.est), seat, d.seq + 1, author_mode=True, tree=d.tree(),
                            secrets=clone(d.secrets), rng=os.urandom)
        out = rules.apply(clone(d.public), {seat: clone(d.private)}, seat, orders, ctx)
    except OrderError:
        return FileStart()  # a game that refuses an empty file runs nothing before its orders
    except PbemError as e:
        return FileStart(unknown="the start of your file rolls dice this tool cannot compute before "
                                 f"you sign it ({e}); its results come with your file's summary")
    if not ctx.events:
        return FileStart()
    return FileStart([rules.describe_event(e) for e in ctx.events], public=out.public,
                     private=out.private.get(seat, d.private))
