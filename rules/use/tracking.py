"""Tracking markers on the Turn Track and the tracks (USE 15.2, 15.23, 15.28, 15.29).

State (optional keys, absent until placed): ``usa_entry_turn`` the USA Entry marker's box;
``policy_ends`` {policy: turn} the Appsmt/Pact Ends markers' boxes; ``russian_winter`` the
Russian Winter marker's box; ``urals`` the turn the Urals Fac marker was placed.

DECISIONS:
* 13.5 (conditional.usa_entry_due) places the USA Entry marker.
* 15.29: when its box comes (12.2) the USA activates and joins the Western faction (13.1
  set-up), which fires East Invaded, the Mediterranean Crisis and West Invaded (13.3/13.4/13.8).
* 15.2: an Appsmt/Pact Ends marker ends its policy when its box comes, even one the scenario
  otherwise fixes (the marker is how a scenario fixes its end). The Scenario Ends marker is
  the scenario's last turn (sequence.end_of_turn).
* 15.23: the Russian Winter marker (placed by East Invaded in the next December's box) makes
  the Cold zone Severe on its turn whatever the Weather die says (the die is still rolled: the
  dice stay in step); it comes off at the end of that turn. The Soviet "treated as Poor in
  USSR hexes" half is each side's own reading of the weather (sideweather.weather_for).
* 15.28: the Urals Fac marker advances the USSR Extra Factories Track by 1 every second
  Economy Phase after the one of the turn it was placed (turns +2, +4, ...), up to 9.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import State

Events = list[dict[str, Any]]
EXTRA_MAX = 9  # 15.28 "up to 9"


def turn_track(state: State, b: Board | None, events: Events) -> None:
    """USE 12.2: this module's markers in the new turn's box act and come off."""
    extra: Any = state
    turn = state["turn"]
    for policy, due in sorted(extra.get("policy_ends", {}).items()):
        if int(due) > turn:
            continue
        del extra["policy_ends"][policy]
        state["fixed_policies"] = [p for p in state["fixed_policies"] if p != policy]
        if policy in state["policies"]:
            state["policies"].remove(policy)
            events.append({"kind": "policy-ends", "policy": policy, "why": "its Ends marker (15.2)"})
    if extra.get("russian_winter") is not None and int(extra["russian_winter"]) < turn:
        del extra["russian_winter"]
    due_usa = extra.get("usa_entry_turn")
    if due_usa is not None and int(due_usa) <= turn and b is not None:
        del extra["usa_entry_turn"]
        usa = state["countries"].get("USA")
        if usa is not None and usa["status"] != "active":
            from .conditional import usa_joins
            from .war import activate_country

            activate_country(state, b, "USA", "western", events)
            usa_joins(state, b, events)


def russian_winter(state: State, events: Events) -> None:
    """USE 15.23, after the Weather dice (sequence.roll_weather)."""
    extra: Any = state
    if extra.get("russian_winter") == state["turn"] and state["weather"].get("cold") != "severe":
        state["weather"]["cold"] = "severe"
        events.append({"kind": "weather", "zone": "cold", "die": None, "weather": "severe",
                       "why": "Russian Winter (15.23)"})


def urals(state: State, events: Events) -> None:
    """USE 15.28, at the Economy Phase before production is counted."""
    extra: Any = state
    placed = extra.get("urals")
    ussr = state["countries"].get("USSR")
    if placed is None or ussr is None or ussr["status"] != "active":
        return
    since = state["turn"] - int(placed)
    if since <= 0 or since % 2:
        return
    new = min(EXTRA_MAX, ussr.get("extra", 0) + 1)
    if new != ussr.get("extra", 0):
        events.append({"kind": "extra-factories", "country": "USSR", "from": ussr.get("extra", 0), "to": new,
                       "why": "Urals Fac (15.28)"})
        ussr["extra"] = new
