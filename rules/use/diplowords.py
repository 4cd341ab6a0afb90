"""Sentences of the diplomacy and policy events (USE 10.2, 10.3, 13.1, 14.11, 14.12, 15.14, 15.21),
merged into events.SENTENCES."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .words import _side, _t

Event = dict[str, Any]


def _political(e: Event) -> str:
    if e.get("choice") == "none":
        return f"{_side(e.get('faction'))} declines the {_t(e.get('marker'))} marker [USE 10.2]"
    return (f"{_side(e.get('faction'))} plays {_t(e.get('marker'))}: {_t(e.get('choice'))} in "
            f"{_t(e.get('country'))} [USE 14.11, 14.12]")


def _evaluation(e: Event) -> str:
    return (f"Policy Evaluation of {_t(e.get('policy'))}: die {_t(e.get('die'))}, the policy "
            + ("ends" if e.get("ends") else "goes on") + " [USE 15.21]")


SENTENCES: dict[str, Callable[[Event], str]] = {
    "diplomacy-draw": lambda e: (f"{_side(e.get('faction'))} draws {_t(e.get('marker'))} from the Diplomacy Cup "
                                 f"(die {_t(e.get('pick'))} of {_t(e.get('of'))}) [USE 10.2]"),
    "diplomacy-owed": lambda e: (f"{_side(e.get('faction'))} is to choose what {_t(e.get('marker'))} does "
                                 "[USE 10.2]"),
    "diplomacy-return": lambda e: (f"{_side(e.get('faction'))} returns {_t(e.get('markers'))} from the Holding "
                                   "Box to the cup [USE 10.2]"),
    "political": _political,
    "marker-removed": lambda e: (f"the {_t(e.get('marker'))} marker"
                                 + (f" for {_t(e.get('policy'))}" if e.get("policy") else "")
                                 + " comes off the Turn Track [USE 15.0]"),
    "policy-evaluation": _evaluation,
    "moscow-treaty-roll": lambda e: (f"Moscow Treaty: die {_t(e.get('die'))}, the treaty "
                                     + ("ends" if e.get("ends") else "holds another turn") + " [USE 10.3.6]"),
    "policy-ends": lambda e: f"{_t(e.get('policy'))} ends: {_t(e.get('why'))} [USE 10.3]",
    "vichy-activation": lambda e: (f"{_t(e.get('country'))} activates: die {_t(e.get('die'))} + "
                                   f"{_t(e.get('drm'))}, {_t(e.get('result'))} [USE 13.1]"),
}
