"""What a unit entering a hex sets off, however it got there (USE 13.2, 13.3, 13.4, 13.6-13.8).

Operational movement (movement.enter_hex), Strategic Movement (4.1) and retreats (5.3.5) all
call ``entered`` once the unit stands in the hex: the conditional-event triggers are worded
"Axis enters ..." (13.3, 13.8) or "Axis crosses ..." (13.6/13.7), not "moves into", so the way
the unit came does not matter.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import State, Unit, faction_of

Events = list[dict[str, Any]]


def entered(state: State, b: Board, unit: Unit, h: str, events: Events, ctx: Any = None,
            src: str | None = None) -> None:
    """Fire the entry triggers for ``unit`` now in ``h``, come from hex ``src`` (None: from the
    sea or a Map Box; 13.4 "entering country" needs it). ``ctx`` is unused today (no entry
    trigger draws or commits anything); it is taken so callers need not change if one does."""
    del ctx
    west_invaded(state, b, unit, h, events)
    from .conditional import on_enter

    on_enter(state, b, unit, h, events, src)  # USE 13.3, 13.4, 13.6, 13.7
    code = b.country.get(h)
    if code is not None:
        from .will import check_conquest

        check_conquest(state, b, code, events)  # USE 13.2: an invader entering a collapsed country


def west_invaded(state: State, b: Board, unit: Unit, h: str, events: Events) -> None:
    """USE 13.8 trigger: the Axis enters Belgium, Netherlands, Ireland, or Mainland France/UK."""
    if state["flags"]["west_invaded"] or faction_of(state, unit) != "axis":
        return
    code = b.country.get(h)
    if code in ("BEL", "NET", "IRE") or (code in ("FRA", "UK") and b.mainland(h)):
        state["flags"]["west_invaded"] = True
        events.append({"kind": "conditional-event", "name": "west-invaded", "hex": h})
        from .war import west_invaded as declare

        declare(state, b, events)
