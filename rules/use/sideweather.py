"""The weather one side reads in a hex (USE 11.0, 15.23 Russian Winter).

11.0 gives one weather per zone; 15.23 splits it on the Russian Winter turn: "Cold Zone
automatically Severe; USSR hexes treated as Poor for Soviets". Every rule that reads a hex's
weather for a side asks ``weather_for`` (attack MP cost, the attacker's -2 DRM, Tank and Air
Support DRMs, the Tanks marker, Severe halving, Amphibious Invasions); a Sea Zone's weather
(5.2) and the Weather Phase itself are not a side's.

DECISIONS:
* "Treated as Poor" softens the winter: on the turn of the Russian Winter marker (tracking.py) a
  Soviet-faction reading of a Severe USSR hex is Poor; Fair and Poor hexes stay what they are
  (the marker never makes the Soviets' weather worse). "USSR hexes" are every hex of the USSR's
  country, whatever its zone.
* In a combat each side reads its own weather for its own effects: the attacker's -2 DRM, each
  side's Tank, Air Support and Tanks-marker DRM, and the halving of each side's modified result
  (11.0 "modified combat results divided by 2": a side's own result is halved by its own
  reading). So a Soviet attack in a Cold USSR hex on that turn takes Poor's -2 and +1s and is not
  halved, while the Axis defender's result is halved and gets no Tank or Air Support DRM. The
  air duel's -2 is the same in Poor and Severe (airduel.harsh), so both sides keep it.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import State


def winter_turn(state: State) -> bool:
    """USE 15.23: the Russian Winter marker is in this turn's box."""
    extra: Any = state  # tracking.py's optional key
    return bool(extra.get("russian_winter") == state["turn"])


def weather_for(state: State, b: Board, h: str, faction: str | None) -> str:
    """The weather ``faction`` reads in hex ``h`` (see the DECISIONS)."""
    w: str = state["weather"][b.zone[h]]
    if w == "severe" and faction == "soviet" and b.country.get(h) == "USSR" and winter_turn(state):
        return "poor"  # USE 15.23: USSR hexes treated as Poor for Soviets
    return w
