"""Sentences of the sea events (USE 6.3.2, 6.4.5, 14.8, 14.17, 15.16), merged into events.SENTENCES."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .words import _side, _t

Event = dict[str, Any]


SENTENCES: dict[str, Callable[[Event], str]] = {
    "surprise-attack": lambda e: (f"{_side(e.get('faction'))} Surprise Attack marker in "
                                  f"{_t(e.get('zone') or e.get('hex'))} [USE 14.17]"),
    "surprise-removed": lambda e: (f"{_side(e.get('faction'))} Surprise Attack marker in "
                                   f"{_t(e.get('zone') or e.get('hex'))} returns to the Holding Box [USE 14.17]"),
    "surprise-bought": lambda e: (f"{_side(e.get('faction'))} buys back its Surprise Attack marker for "
                                  f"{_t(e.get('pp'))} {_t(e.get('country'))} PP: back on turn {_t(e.get('back'))} "
                                  "[USE 8.3]"),
    "invasion-assault": lambda e: (f"{_t(e.get('unit'))} Assaults {_t(e.get('defender'))} at {_t(e.get('hex'))} "
                                   "from the sea [USE 6.3.2]"),
    "invasion-repulsed": lambda e: (f"{_t(e.get('unit'))} does not land at {_t(e.get('hex'))}: it stays in its "
                                    "port [USE 6.3.2]"),
    "temporary-unit": lambda e: (f"{_side(e.get('faction'))} {_t(e.get('marker'))}: temporary unit "
                                 f"{_t(e.get('unit'))} at {_t(e.get('hex'))} [USE 14.3, 14.16]"),
    "temporary-removed": lambda e: (f"Temporary unit {_t(e.get('unit'))} comes off; its marker is back on turn "
                                    f"{_t(e.get('back'))} [USE 14.3, 14.16]"),
    "invasion": lambda e: (f"{_t(e.get('unit'))} invades {_t(e.get('hex'))} from the sea, carried by "
                           f"{_t(e.get('by'))} [USE 6.3.2]"),
    "invasion-aborted": lambda e: f"The invasion by {_t(e.get('unit'))} is aborted at {_t(e.get('at'))} [USE 6.3.2]",
    "invasion-landed": lambda e: f"{_t(e.get('unit'))} lands at {_t(e.get('hex'))} [USE 6.3.2]",
    "invasion-move": lambda e: f"{_t(e.get('unit'))} moves inland {_t(e.get('from'))} → {_t(e.get('to'))} [USE 6.3.2]",
    "mulberry": lambda e: f"{_side(e.get('faction'))} Mulberry placed at {_t(e.get('hex'))} [USE 15.16]",
    "carrier-strike": lambda e: f"{_t(e.get('unit'))} launches a Carrier Strike at {_t(e.get('target'))} [USE 6.4.5]",
    "naval-evacuation": lambda e: (f"{_t(e.get('unit'))} is evacuated by sea {_t(e.get('from'))} → "
                                   f"{_t(e.get('to'))}{' instead of retreating' if e.get('retreat') else ''} "
                                   "[USE 14.8]"),
}
