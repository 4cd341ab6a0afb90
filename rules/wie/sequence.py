"""The three-player game-turn (68.1) on pbem.kit.sequence.

A. the Joint Tactical Air War turn: every seat's sealed commitment (``air-commit``), then every
seat's opening (``air-open``; the last one resolves the air combat); B-D. the player-turns in
the order 69.4 requires (``state["order"]``, fixed at the start of each game-turn), each with
its Movement, Combat, Mechanized Movement and Air Interdiction phases ([WiE-base 4.0] phases
3, 4, 5 and 8, the last as 68.1 changes it; the others are not implemented, README);
E. housekeeping. The Strategic Cycle (68.2) after game-turn 4 of each cycle is announced, not
played (README).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.sequence import Sequence, Step

from . import campaign, minors, politics, production, special, transport, victory
from .data import SIDES
from .diplomacy import play_order
from .rail import repair
from .reinforce import arrive
from .state import STEPS, board, date, holder, new_air, scenario_data, seat_of, seat_order
from .supply import initial_supply_phase, refresh

SIDE_PHASES = ("movement", "combat", "mechanized", "interdiction")


def steps(state: Any) -> list[Step]:
    seats = [s for s in seat_order(state) if not campaign.eliminated_seat(state, s)]  # 74.9
    out: list[Step] = [(p, seat_of(state, side)) for p, side in STEPS.items()] if state.get("setup") else []
    out += [("air-commit", s) for s in seats]
    out += [("air-open", s) for s in seats]
    for side in state["order"]:
        out += [(f"{side}-{ph}", seat_of(state, side)) for ph in SIDE_PHASES]
    return [*out, ("housekeeping", None)]


SEQUENCE = Sequence(steps)


def label(state: Any) -> str:
    phase = str(state["phase"])
    side, _, ph = phase.partition("-")
    if ph in SIDE_PHASES:
        return f"{side.title()} {ph.title()} Phase"
    return {"air-commit": "Joint Tactical Air War: Commitment Phase (sealed)",
            "air-open": "Joint Tactical Air War: opening the commitments",
            "housekeeping": "Housekeeping", "setup-1": "Starting Sequence step 1 (76.3): Allied supply",
            "setup-4": "Starting Sequence step 4 (76.3): Axis army groups",
            "setup-5": "Starting Sequence step 5 (76.3): Soviet deployment"}.get(phase, phase)


def visit(state: Any, phase: str, seat: str | None) -> bool:
    _standing(state, phase)
    if phase in STEPS:
        return True
    if phase == "air-commit":
        state["setup"] = False  # 76.3 step 6: the first game-turn begins
        if seat == seat_order(state)[0]:
            state["air"] = new_air()
            special.new_game_turn(state)  # [WiE-base 13.3]: a suppression lasts the game-turn
        return True
    if phase.endswith("-movement"):
        # 68.1 phase 8: a player's Air Interdiction markers stay until the start of his next player-turn
        state["interdiction"].pop(phase.partition("-")[0], None)
        state["rail_used"] = 0
        transport.new_player_turn(state, phase.partition("-")[0])  # [WiE-base 9.4, 13.8]
        initial_supply_phase(state, phase.partition("-")[0])  # phase 1, Initial Supply
        arrive(state, phase.partition("-")[0])  # phase 2, Reinforcement
    if phase.endswith("-movement") or phase.endswith("-mechanized"):
        state["moved"] = []
        return True
    if phase.endswith("-combat"):
        state["attacked_hexes"], state["attackers"], state["vacated"] = [], [], {}
        return True
    if phase == "axis-interdiction" and _surrendered(state):
        return False
    if phase.endswith("-interdiction"):
        repair(state, phase.partition("-")[0])  # phase 6, Rail Repair, just before phase 8
    if phase == "housekeeping":
        _housekeeping(state)
        return False
    return True


def _standing(state: Any, phase: str) -> None:
    """Standing orders breaking an association on entering ``phase`` (69.0 "at any time")."""
    due = [s for s in state["standing"] if s[2] == phase]
    if not due:
        return
    state["standing"] = [s for s in state["standing"] if s[2] != phase]
    for me, other, _at in due:
        pair = "/".join(sorted((me, other)))
        if pair in state["associated"]:
            state["associated"] = [p for p in state["associated"] if p != pair]
    refresh(state, list(SIDES))  # 69.0 Example 2: supply changes at once


def _surrendered(state: Any) -> bool:
    """[WiE-base 15.1] in the Surrender Phase of the Axis player-turn (phase 7, just before 8):
    Allied and Soviet together hold Berlin and 12 of the 18 Placement Centers (77.7)."""
    b = board(state)
    table = scenario_data(state).tables.get("surrender", {})
    berlin = next((h for h, name in b.places.items() if name == "Berlin"), None)
    taken = [h for h in b.wehrkreise if holder(state, str(h)) in ("allied", "soviet")]
    if berlin is None or holder(state, str(berlin)) not in ("allied", "soviet"):
        return False
    need = table.get("collapsed_placement_centers", 9) if state.get("collapse") else table.get("placement_centers", 12)
    if len(taken) < int(need):  # [WiE-base 15.1]: 9 after the collapse of 15.2 (77.1)
        return False
    points = {s: sum(n for h, n in b.centers.items() if holder(state, str(h)) == s) for s in ("allied", "soviet")}
    lead = ("the Allied player" if points["allied"] > points["soviet"] else "the Soviet player"
            if points["soviet"] > points["allied"] else "neither")
    state["over"] = (f"Germany surrenders ([WiE-base 15.1]: Berlin and {len(taken)} Placement Centers taken): "
                     f"the Axis player loses; centers held (76.4): Allied {points['allied']}, Soviet "
                     f"{points['soviet']}, {lead} ahead")
    if state.get("campaign"):
        state["over"] = f"Germany surrenders ([WiE-base 15.1]): {victory.verdict(state, True)}"
    return True


def _housekeeping(state: Any) -> None:
    """68.1 E: the turn marker moves; 69.3's record of attacks is per game-turn; 69.4 sets the
    next game-turn's order; 76.4: the Axis wins if it has not surrendered after the last turn."""
    gt, _, _ = date(state)
    if gt == 4:
        state.setdefault("strategic_cycles", []).append(int(state["turn"]))  # 68.2: only Soviet production runs
        production.cycle(state)  # 74.3, 74.4, 74.34 (campaign or case boards only)
        minors.cycle(state)  # 73.24, 73.27, 73.34, 73.36 (campaign or case boards only)
        campaign.cycle(state)  # 74.41, 77.6 (campaign or case boards only)
    politics.housekeeping(state, None)  # 72.0: Finland two game-turns into an Axis-Soviet war
    state["attacked"] = {}
    state["order"] = [s for s in play_order(state) if not (s == "soviet" and state.get("soviet_surrender"))]
    if int(state["turn"]) >= int(state["last"]):
        state["over"] = (f"The Axis has not surrendered by the end of game-turn {state['last']}: "
                         "the Axis player wins (76.4)")
        if state.get("campaign"):
            state["over"] = f"The campaign ends after game-turn {state['last']}: {victory.verdict(state, False)}"
        return
    state["turn"] = int(state["turn"]) + 1


def advance(state: Any) -> None:
    SEQUENCE.advance(state, lambda phase, seat: visit(state, phase, seat))
