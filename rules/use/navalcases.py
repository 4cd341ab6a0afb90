"""Rules-case statements for the sea markers (tests/cases/use; called by cases.py).

PRESTATE::

    surprise-attack ZONE FACTION [used=N]   a Surprise Attack marker in a Sea Zone (14.17) that
                                            has already allowed N invasions this phase
    mulberry HEX FACTION                    a Mulberry on the map (15.16)
    surprise-hex HEX FACTION                a Surprise Attack marker in a land hex (14.17)
    temporary UNIT MARKER                   UNIT is the temporary unit of convoy-action|surface-action

POSTSTATE::

    surprise-attack ZONE FACTION|none | mulberry HEX FACTION|none | invasions ZONE N
    surprise-hex HEX FACTION|none | no-unit UNIT (a temporary unit taken off, 14.3 / 14.16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import State


def _sea(s: State) -> dict[str, Any]:
    return s.setdefault("sea", {})


def _surprise(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    _sea(s).setdefault("surprise", {})[pos[0]] = pos[1]
    _sea(s).setdefault("invasions", {})[pos[0]] = int(kv.get("used", 0))


def _mulberry(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    _sea(s).setdefault("mulberry", {})[pos[0]] = pos[1]


def _surprise_hex(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    _sea(s).setdefault("surprise_hex", {})[pos[0]] = pos[1]


def _temporary(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    _sea(s).setdefault("temporary", {})[pos[0]] = pos[1]


def _check(s: State, w: list[str]) -> str | None:
    got = s.get("sea", {})
    if w[0] == "no-unit":
        return None if w[1] not in s["units"] else "is still in the game"
    if w[0] == "surprise-hex":
        have_hex = got.get("surprise_hex", {}).get(w[1]) or "none"
        return None if have_hex == w[2] else f"is {have_hex}"
    if w[0] == "invasions":
        have: Any = got.get("invasions", {}).get(w[1], 0)
        return None if str(have) == w[2] else f"is {have}"
    have = got.get("surprise" if w[0] == "surprise-attack" else "mulberry", {}).get(w[1]) or "none"
    return None if have == w[2] else f"is {have}"


STATEMENTS: dict[str, Callable[[State, str, list[str], dict[str, str]], None]] = {
    "surprise-attack": _surprise, "mulberry": _mulberry, "surprise-hex": _surprise_hex,
    "temporary": _temporary,
}
CHECKS: dict[str, Callable[[State, list[str]], str | None]] = dict.fromkeys(
    ("surprise-attack", "mulberry", "invasions", "surprise-hex", "no-unit"), _check)
