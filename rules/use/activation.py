"""Activating a unit (USE 6.0): the one active unit of a phase, its PP cost and its limits.

Kept apart from actions.py because naval movement (naval.py) activates units
too, and actions.py dispatches naval moves to naval.py: sharing this module
keeps the two from importing each other.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .refusals import illegal
from .seamarks import check_temporary
from .state import Activation, State, Unit, activation_cost, mp_allowance

Order = dict[str, Any]
Events = list[dict[str, Any]]


def end_activation(state: State, events: Events) -> None:
    act = state["activation"]
    if act is not None:
        events.append({"kind": "activation-end", "unit": act["unit"]})
        state["activation"] = None


def activate(state: State, b: Board, order: Order, unit: Unit, events: Events) -> Activation:
    """USE 6.0: one unit at a time; 6 Sorties or a Strategic Move marker bar activation;
    ground units cost 1 PP (Leg) or 2 PP (Mobile) of their country, air and naval 0 PP.
    DECISION: a unit may be activated again later in the same phase (paying again): the
    text limits activations only by PP and Sorties, and 5.3.3 presumes several per phase."""
    act = state["activation"]
    if act is not None and act["unit"] == unit["id"]:
        return act.copy()
    check_activate(state, order, unit)
    end_activation(state, events)
    cost = 0 if unit["country"] == "USA" else activation_cost(unit)  # 9.0: USA production unlimited
    country = state["countries"][unit["country"]]
    country["pp"] -= cost
    act = {"unit": unit["id"], "mp": mp_allowance(unit), "start": unit["hex"],
           "fresh": True, "stopped": False, "no_ezoc": []}
    state["activation"] = act
    events.append({"kind": "activate", "unit": unit["id"], "pp": cost})
    return act.copy()


def check_activate(state: State, order: Order, unit: Unit) -> None:
    """Refuse ``order`` if ``unit`` may not be activated now (``activate``); changes nothing."""
    act = state["activation"]
    if act is not None and act["unit"] == unit["id"]:
        return
    if unit["sm"]:
        illegal(order, f"{unit['id']} is marked with Strategic Move and cannot be activated", "4.1.4")
    if unit["sorties"] >= 6:
        illegal(order, f"{unit['id']} has 6 Sorties and cannot be activated", "1.5")
    if unit["repatriated"]:
        illegal(order, f"{unit['id']} was repatriated this turn and cannot be activated", "10.4")
    check_temporary(state, order, unit)  # USE 14.3 / 14.16: a temporary unit acts once
    if any(unit["id"] in a["units"] for a in state["assaults"].values()):
        illegal(order, f"{unit['id']} designated an Assault, which ended its movement", "5.3.3",
                "resolve the Assault first ('resolve HEX')")
    cost = activation_cost(unit)
    country = state["countries"][unit["country"]]
    if cost > country["pp"] and unit["country"] != "USA":
        illegal(order, f"activating {unit['id']} costs {cost} PP; {unit['country']} has {country['pp']}",
                "6.0")


def activation_after(state: State, unit: Unit) -> tuple[int, bool]:
    """The MP left and whether movement has ended once ``unit`` is activated (``activate``)."""
    act = state["activation"]
    if act is not None and act["unit"] == unit["id"]:
        return act["mp"], act["stopped"]
    return mp_allowance(unit), False
