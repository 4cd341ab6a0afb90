"""Case-language statements for seats holding several factions (rules/use/seating.py).

PRESTATE::

    seats SEAT=FACTION,FACTION ...       a seating variant: SEAT plays these factions (§6a)

POSTSTATE::

    seat-pending SEAT [KIND]             the SEAT that must act now (module.pending's seat)

Kept apart from cases.py (at its size limit), which looks statements up here.
"""

from __future__ import annotations

from collections.abc import Callable

from .partnercases import CHECKS as PARTNER_CHECKS
from .partnercases import STATEMENTS as PARTNERS
from .partners import seat_for
from .state import State


def _seats(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    s["seats"] = {seat: v.split(",") for seat, v in kv.items()}


def _seat_pending(s: State, w: list[str]) -> str | None:
    from .sequence import pending

    p = pending(s)
    have = None if p is None else (seat_for(s, p), p[1])  # seat_of's, or a split faction's part
    ok = have is not None and have[0] == w[1] and (len(w) < 3 or have[1] == w[2])
    return None if ok else f"the seat pending is {have}"


STATEMENTS: dict[str, Callable[[State, str, list[str], dict[str, str]], None]] = {"seats": _seats, **PARTNERS}
CHECKS: dict[str, Callable[[State, list[str]], str | None]] = {"seat-pending": _seat_pending, **PARTNER_CHECKS}

__all__ = ["CHECKS", "STATEMENTS"]
