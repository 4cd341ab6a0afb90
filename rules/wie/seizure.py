"""Total War by seizing three Soviet Personnel Centers (71.1) and 71.2's Rome condition.

71.1: a Soviet Limited War ends in Total War when "either the Allied or Axis Player invades the
Soviet Union and seizes three personnel centers". Read as: the moment the player holds three
Soviet Personnel Centers at once (Moscow is one; ``politics["centers"]``, 77.7), his war with the
Soviet becomes Total (a peace with the Soviet is not a Limited War: an Axis entry at peace is
Total War already, 71.0; an Allied one is refused, 71.2).

71.2: the Allied player may not "advance into Russia and seize three personnel centers until
after he has seized Rome": the entry that would give him his third is refused before then.
Rome is seized once the Allied player takes its hex (for good: a later loss does not undo it);
a Rome the map prints as Allied-held (the 1945 scenario: it fell in June 1944) was seized before
the game. ``politics["rome"]`` records it when it changes (a case may set it: ``rome no``).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import parse_hex

from .diplomacy import refuse
from .state import board, holder, key, status

CENTERS = ("personnel", "moscow")
NEEDED = 3  # 71.1


def rome_hex(state: Any) -> str:
    return next((str(h) for h, name in board(state).places.items() if name == "Rome"), "")


def rome_seized(state: Any) -> bool:
    p = state["politics"]
    if "rome" in p:
        return bool(p["rome"])
    h = rome_hex(state)
    return bool(h) and board(state).held.get(parse_hex(h)) == "allied"


def _held(state: Any, side: str, besides: str = "") -> int:
    return sum(1 for h, kind in state["politics"]["centers"].items()
               if kind in CENTERS and h != besides and holder(state, h) == side)


def check_entry(state: Any, me: str, h: str, o: dict[str, Any] | None) -> None:
    """71.2: the Allied player's third Soviet Personnel Center waits for Rome."""
    if me != "allied" or state["politics"]["centers"].get(h) not in CENTERS or holder(state, h) == me:
        return
    if not rome_seized(state) and _held(state, me, besides=h) + 1 >= NEEDED:
        refuse(o, f"{h} would be the Allied player's third Soviet Personnel Center before he has seized Rome",
               "71.2")


def taken(state: Any, h: str, side: str, ctx: Any) -> None:
    """After ``side`` takes ``h``: Rome (71.2), or Total War at the third Personnel Center (71.1)."""
    if side == "allied" and h == rome_hex(state) and not rome_seized(state):
        state["politics"]["rome"] = True
        if ctx is not None:
            ctx.event("rome-seized", hex=h)
    if side not in ("axis", "allied") or state["politics"]["centers"].get(h) not in CENTERS:
        return
    if status(state, side, "soviet") == "limited-war" and _held(state, side) >= NEEDED:
        state["status"][key(side, "soviet")] = "total-war"
        if ctx is not None:
            ctx.event("belligerency", sides=sorted((side, "soviet")), status="total-war",
                      why=f"{side} holds {NEEDED} Soviet Personnel Centers (71.1)")
