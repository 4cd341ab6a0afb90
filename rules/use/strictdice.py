"""Strict dice for USE (issue 8; docs/protocol.md §11): no seat can compute a roll that decides
a contested outcome before the file fixing the action that uses it is signed.

The engine releases a roller's seeds only for rolls reserved in an earlier signed file, and
the roller must roll them in its very next file (unrolled ones are burnt). USE meets that in
three ways, each chosen for the fewest emails:

* Combats (5.1, 6.2.2): the attacker reserves the dice when it declares; the defender's Will
  Commit file (or, under a standing Will Commit order, a release-only file) releases them;
  the attacker's next file resolves every pending combat before anything else.
* Rolls nobody acts on until the next turn (Strategic Warfare 9.2, marker return 6.1) and the
  Weather Phase (11.0): the Axis reserves them in the file that reaches the end of the turn
  (or at genesis) and rolls them first thing in its first file of the next turn.
* Any other roll inside an order (activation die 13.1, Airdrop city 6.1.1, interception of a
  Bombing Run, a naval move or a sea supply line 6.2.5/6.4.3): the order raises ``NeedDice``
  with an upper bound of the dice it may need; ``module.run_order`` undoes it, reserves the
  bound, records the order as due and ends the file there; the author's next file replays the
  order with the dice (nobody else's file can change the state in between: the engine only
  asks the other seats for a release-only file).

Window mode (``strict_dice`` false) rolls everything at once, as before.
"""

from __future__ import annotations

from typing import Any


class NeedDice(Exception):
    """An order needs ``count`` dice at most; in strict mode it must wait for a later file."""

    def __init__(self, count: int) -> None:
        super().__init__(f"needs {count} dice")
        self.count = count


def strict(ctx: Any) -> bool:
    return ctx is not None and bool(getattr(ctx, "strict_dice", False))


def need(ctx: Any, count: int) -> None:
    """Call before the first roll of an order: in strict mode, unless the order is being
    replayed with its reserved dice, stop here (``run_order`` defers the whole order)."""
    if count > 0 and strict(ctx) and not getattr(ctx, "resuming", False):
        raise NeedDice(count)


def reserve(ctx: Any, count: int, roller: str | None = None) -> None:
    if count > 0 and strict(ctx):
        ctx.reserve_rolls(count, roller=roller)


class Resuming:
    """The file's context, marked so that ``need`` lets a due order roll its reserved dice."""

    resuming = True

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)


def interception_bound(interceptors: int, escorts: int) -> int:
    """Dice an interception run may use: each interceptor fights at most once per run (the
    escorts, then the unit), each fight two dice (5.2)."""
    return 2 * interceptors * (escorts + 1)
