"""Case-language statements for a faction split by country between two seats (partners.py).

PRESTATE::

    partners SEAT=FACTION:CODE+CODE ...  SEAT plays the units of these countries of FACTION
    part SEAT                            the partner SEAT is playing its part of the step

POSTSTATE::

    part SEAT|none                       whose part of the step is being played (none: the lead's)

(``seat-pending`` of eastcases.py names the lead or the partner as ``pending`` does.)
Kept apart from cases.py (at its size limit); eastcases.py adds these statements to its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .state import State


def _partners(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    split = {}
    for seat, v in kv.items():
        faction, _, codes = v.partition(":")
        split[seat] = {"faction": faction, "countries": sorted(codes.split("+"))}
    cast(dict[str, Any], s)["partners"] = split


def _part(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    cast(dict[str, Any], s)["part"] = pos[0]


def _check_part(s: State, w: list[str]) -> str | None:
    have = cast(dict[str, Any], s).get("part")
    return None if have == (None if w[1] == "none" else w[1]) else f"the part is {have}"


STATEMENTS: dict[str, Callable[[State, str, list[str], dict[str, str]], None]] = {
    "partners": _partners, "part": _part}
CHECKS: dict[str, Callable[[State, list[str]], str | None]] = {"part": _check_part}

__all__ = ["CHECKS", "STATEMENTS"]
