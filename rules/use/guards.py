"""USE 13.2 "USSR Guards delayed 1 year" (the USSR's Major Power Special Collapse, conditional.py).

Guards are Upgrade units (8.2 "e.g., USSR Guards"); counters carry no Guards flag, so a Guards
unit is a USSR unit whose id holds "GDS" or "GUARDS".
"""

from __future__ import annotations

from typing import Any

from .state import State, Unit

Events = list[dict[str, Any]]
GUARDS_DELAY = 12  # 13.2: "USSR Guards delayed 1 year" (a turn is a month, 1.1.5)


def delay_guards(state: State, events: Events) -> None:
    """USE 13.2 "USSR Guards delayed 1 year": those on the Turn Track arrive 12 turns later; those
    already in the Upgrade box (8.2 "e.g., USSR Guards") cannot be used for 12 turns
    (DECISION: they stay in the box with ``arrive``, the turn they may upgrade again, which
    economy.check_upgrade enforces; a second collapse delays them again)."""
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["country"] != "USSR" or not ("GDS" in uid.upper() or "GUARDS" in uid.upper()):
            continue
        if u["box"] == "turn":
            u["arrive"] = int(u.get("arrive", state["turn"])) + GUARDS_DELAY
        elif u["box"] == "upgrade":
            u["arrive"] = max(int(u.get("arrive", 0)), state["turn"]) + GUARDS_DELAY
        else:
            continue
        events.append({"kind": "guards-delayed", "unit": uid, "turn": u["arrive"]})


def guards_delay(state: State, u: Unit) -> int | None:
    """The turn a delayed Guards unit of the Upgrade box may be used again (13.2), or None."""
    due = int(u.get("arrive", 0))
    return due if u["box"] == "upgrade" and due > state["turn"] else None
