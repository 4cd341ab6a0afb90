"""The scenarios this module loads and the state a game starts from."""

from __future__ import annotations

from typing import Any

from pbem.rulesapi import Scenario

from . import bombing, politics, transport
from .air import initial_pools
from .state import initial_state

BASE = "battle-for-germany-1945"
# name -> (directory, number of seats): the two-player seating of 71.32 holds Allied and Soviet in one seat.
SCENARIOS = {BASE: (BASE, 3), f"{BASE}-2p": (BASE, 2)}


def new_state(scenario: Scenario) -> dict[str, Any]:
    data = scenario.data
    state = initial_state(data, scenario.side_map())
    state["air_points"] = initial_pools(data.tables)
    state["strategic_cycles"] = []
    state["combats"] = []  # attacks declared, to be rolled in the attacker's next file (strict dice)
    state["pool"] = {}  # side -> reinforcements waiting: units, ap, ir, mr, fort (76.25)
    state["standing"] = []  # [side, other, phase]: association broken on entering phase (69.0)
    state["oos"] = {}  # unit -> Initial Supply Phases in a row out of supply ([WiE-base 11.4])
    state["cut"] = []  # rail hexes taken and not yet repaired ([WiE-base 8.2])
    state["rail_used"] = 0  # units moved by rail this player-turn ([WiE-base 8.1])
    state["interdiction"] = {}  # side -> hexes of its Air Interdiction markers (68.1 phase 8)
    state["vacated"] = {}  # hex -> attackers that may advance into it this Combat Phase ([WiE-base 10.5])
    state["politics"] = politics.initial(state, data.tables)  # 71.4, 72, 73.1
    state["transport"] = transport.initial(data.tables)  # [WiE-base 9, 13.5], 76.26
    state["setup"] = False  # in the Starting Sequence of 76.3 (the option starting_sequence)
    state["collapse"] = 0  # the game-turn the German economy collapsed (77.1)
    state["bombing"] = bombing.initial(data.tables, data.board.names)  # [WiE-base 24], 70.2, 76.25
    state["phase"], state["active"] = "air-commit", scenario.seats[0]
    return state
