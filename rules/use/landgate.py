"""USE 1.7.1 / 6.3.2.4: an invader landed in an EZOC "must either end its activation or
immediately resolve an Assault attack against an enemy ground unit in an adjacent hex".

DECISION (Interpretations 6.3.2.4): "immediately" is read on the faction's orders. Once the
invader has landed in an EZOC (amphib.invade arms the gate), the faction's next order either is
the invader's ``assault HEX`` (which ends its activation, 5.3.3) or ends the activation (any
other order). After that designation the next order must be ``resolve HEX`` for that Assault:
no other unit is activated, no further unit joins the Assault and the phase does not end first.
Units that designated an Assault on the same hex earlier take part, as in any Assault.

State: ``state["sea"]["immediate"]`` = {"faction", "unit", "target"} while the gate is armed;
it goes away by itself once its Assault is gone, so a stale entry never binds.
"""

from __future__ import annotations

from typing import Any

from .refusals import illegal
from .state import State

Order = dict[str, Any]
FREE_VERBS = ("standing", "will-commit")  # answers and standing orders are no activation


def arm(state: State, unit_id: str, faction: str) -> None:
    """The invader ``unit_id`` has landed in an EZOC."""
    state.setdefault("sea", {})["immediate"] = {"faction": faction, "unit": unit_id, "target": None}


def _disarm(state: State) -> None:
    sea = state["sea"]
    del sea["immediate"]


def _names(state: State, order: Order, uid: str) -> bool:
    """Whether ``order`` names ``uid`` as its unit (by id, or by its hex as attack orders may)."""
    ref = order.get("unit")
    return ref == uid or (ref is not None and ref == state["units"][uid]["hex"])


def gate(state: State, order: Order, seat: str) -> None:
    """Refuse an order that would come between the landing in an EZOC and its Assault."""
    pend = state.get("sea", {}).get("immediate")
    if pend is None or order["verb"] in FREE_VERBS:
        return
    uid, target = pend["unit"], pend["target"]
    if target is None:
        act = state["activation"]
        if seat == pend["faction"] and order["verb"] == "assault" and _names(state, order, uid) \
                and act is not None and act["unit"] == uid:
            pend["target"] = order["target"]
            return
        _disarm(state)  # the invader ends its activation (1.7.1's first choice)
        return
    entry = state["assaults"].get(target)
    if entry is None or uid not in entry["units"]:
        _disarm(state)  # resolved (or void): the gate has done its work
        return
    if seat != pend["faction"]:
        return
    if order["verb"] == "resolve" and order.get("target") == target:
        _disarm(state)
        return
    illegal(order, f"{uid} landed in an enemy ZOC and Assaults {target}: the Assault is resolved "
            "immediately, before any other order", "6.3.2.4", f"write 'resolve {target}' next")
