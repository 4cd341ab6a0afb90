"""The end of a faction's Actions Sub-Phase (USE 1.2.1, 3.1, 6.1, 14.x), before its Supply Check.

1.2.1: "When all Actions are done, remove any Airdrop, Assault, Partisans, or Surprise Attack
markers in a hex or Sea Zone." 3.1: "Roll a die after using and put the marker that many turns
later on the Turn Track"; 14.7 / 14.18: Jets and Tanks are "placed on next turn".

DECISIONS (games of 0.11 and later, release.since_0_11):
* "remove any" is read as written: the markers of every faction come off, not only the
  phasing faction's (in play only the phasing faction places them, so this rarely differs).
* An event marker a faction used while defending in another faction's Actions Sub-Phase (or in
  its Supply Check's interceptions, or in the Axis's Strategic Warfare) comes off at the end of
  the first Actions Sub-Phase after its use, as the phasing faction's do: its return die, or
  Jets' and Tanks' "next turn", counts from the turn it was used, not from the end of its own
  faction's next Actions Sub-Phase (a turn late when its faction moves earlier in the order).
The games of 0.9 and 0.10 keep their rule: only the phasing faction's markers come off.
"""

from __future__ import annotations

from typing import Any

from . import markers
from .release import since_0_11
from .state import State

Events = list[dict[str, Any]]


def _factions(state: State, faction: str) -> list[str]:
    """The phasing faction first (its dice as before), then the others in faction order."""
    if not since_0_11(state):
        return [faction]
    return [faction, *(f for f in state["factions"] if f != faction)]


def markers_off(state: State, faction: str, ctx: Any, events: Events) -> None:
    """Event markers used since they last came off go on the Turn Track (3.1, 14.7, 14.18)."""
    for f in _factions(state, faction):
        markers.end_of_actions(state, f, ctx, events)


def end_of_actions(state: State, faction: str, ctx: Any, events: Events) -> None:
    """1.2.1: the hex and Sea Zone markers come off, and the event markers used go on the Turn
    Track, before ``faction``'s Supply Check."""
    from .navalevents import end_of_actions as sea_end

    everyone = _factions(state, faction)
    for f in everyone:
        markers.end_of_actions(state, f, ctx, events)
        sea_end(state, f, ctx, events)  # USE 1.2.1 / 14.17 / 14.8
    state["assaults"] = {h: a for h, a in state["assaults"].items() if a["faction"] not in everyone}
