"""Strategic Warfare Phase (USE 9.2, 9.2.1) and the Fac Lost markers it moves (15.10).

9.2: fought between the Axis (always the attacker) and an Allied faction:
  1. USSR Fac Lost marker on the track: strategic combat against the Soviet faction;
  2. UK Fac Lost marker on the track: strategic combat against the Western faction;
  3. every Bombed marker comes off (15.4).
The result moves the defender's Fac Lost marker, never below 1 nor above 9.

The seed prints no Strategic Combat table: ``data/authored.toml`` ``[strategic_combat]`` holds
the authored one (each side one die; every Bombed marker a DRM on the Axis roll; the higher
total moves the marker one step).

DECISIONS:
* The phase has no choice for anyone, so it is played automatically in the file that reaches
  it (in France 1940 always the Axis's: Declare War, Economy and Strategic Warfare follow the
  Axis's Weather/Declare War orders and the Western faction can never declare war under the
  Pact); no order and no extra email. Both dice are public, rolled by that file's ctx.roll.
* 15.10 / 13.8 vs the clamp: West Invaded places the UK Fac Lost marker at 0 (authored start,
  "no factory lost yet") while 9.2 says results cannot take a marker below 1. The clamp bounds
  what a *result* may do: an Axis win moves 0 -> 1 (up to 9), an Allied win moves the marker
  down but never below 1, so a marker at 0 or 1 stays where it is. The clamp never lifts a
  marker by itself (that would cost the UK a factory no die took), and a marker at 0 is still
  "on the track" (13.8 placed it), so step 2 is fought from the turn after West Invaded.
* No Will Commit (5.1's procedure is for combats between units) and no Sorties: no unit fights.
* Germany's Fac Lost marker (9.1 counts it, 9.2 names it among those results move): it moves
  only when a scenario has put it on the track (``fac-lost GER N``). Then an Allied win moves
  Germany's marker up one (German factories lost to the Allied campaign the Bombed markers
  feed) instead of moving the defender's down; without it an Allied win moves the defender's
  marker down (France 1940 never places it, so its games read as before).
* Event markers (14.10, 14.13, 14.19; eventplay.strategic): ready Rockets halve the defender's
  total, the defender's ready Partisans and (vs the Western faction) ULTRA halve the Axis
  total, rounding up as 5.1 halves; a total is halved once at most, and never below 1.
* Bombed markers (15.4) are only ever placed on German factory cities (airops.check_bombing_run)
  and all come off in step 3 whether or not a combat was fought.
"""

from __future__ import annotations

from typing import Any

from .state import State
from .tables import authored

Events = list[dict[str, Any]]
FAC_LOST_MIN = 1  # USE 9.2: results cannot take a Fac Lost marker below 1 ...
FAC_LOST_MAX = 9  # ... or above 9
# 9.2 steps 1 and 2, in order: (country whose Fac Lost marker is checked, defending faction).
STEPS = (("USSR", "soviet"), ("UK", "western"))


def strategic_warfare(state: State, ctx: Any, events: Events) -> None:
    """USE 9.2 steps 1-3, in order (played by the Axis, no choice involved)."""
    from .airops import clear_bombed
    from .strictdice import strict

    fac_lost = state.get("fac_lost", {})
    for code, defender in STEPS:
        if code in fac_lost and defender in state["factions"] and ctx is not None:
            if strict(ctx):
                # Strict dice: rolled by the Axis first thing next turn (sequence.roll_turn_start)
                # with the DRM the Bombed markers give now, before they come off.
                drm = bombed_drm(state, authored()["strategic_combat"])
                state.setdefault("turn_dice", []).append(
                    {"kind": "strategic", "code": code, "defender": defender, "drm": drm})
            else:
                strategic_combat(state, code, defender, ctx, events)
    clear_bombed(state, events)


def bombed_drm(state: State, tab: dict[str, Any]) -> int:
    """The Axis DRM from the Bombed markers on the map (9.1, 15.4; authored value and cap)."""
    n = min(len(state["markers"]["bombed"]), int(tab["bombed_drm_max"]))
    return n * int(tab["bombed_drm"])


def _total(v: int, halve: bool) -> int:
    """A strategic combat total, halved (round up) when a marker says so, never below 1 (5.1
    step 5: "final value cannot be less than 1"; a SNAFU -1 can take a 1 to 0)."""
    return max(1, -(-v // 2) if halve else v)


def move_fac_lost(value: int, step: int) -> int:
    """The Fac Lost marker after a result of ``step`` (see the clamp DECISION above)."""
    if step > 0:
        return min(FAC_LOST_MAX, value + step)
    if step < 0:
        return max(min(value, FAC_LOST_MIN), value + step)
    return value


def strategic_combat(state: State, code: str, defender: str, ctx: Any, events: Events,
                     drm: int | None = None) -> None:
    tab = authored()["strategic_combat"]
    att_die = ctx.roll(6, f"strategic combat vs {defender} (Axis)")[0]
    def_die = ctx.roll(6, f"strategic combat vs {defender} ({defender.title()})")[0]
    if drm is None:
        drm = bombed_drm(state, tab)
    from .eventplay import strategic, strategic_snafu

    halve_axis, halve_def = strategic(state, defender, events)
    snafu_axis, snafu_def = strategic_snafu(state, defender, events)  # USE 14.14
    drm += snafu_axis
    att_final, def_final = _total(att_die + drm, halve_axis), _total(def_die + snafu_def, halve_def)
    if att_final > def_final:
        step, winner = int(tab["attacker_wins"]), "axis"
    elif att_final < def_final:
        step, winner = int(tab["defender_wins"]), defender
    else:
        step, winner = int(tab["tie"]), None
    if winner == defender and "GER" in state["fac_lost"]:
        code, step = "GER", -step  # see the DECISION on Germany's marker
    before = int(state["fac_lost"][code])
    after = move_fac_lost(before, step)
    state["fac_lost"][code] = after
    events.append({"kind": "strategic-combat", "att_side": "axis", "def_side": defender,
                   "att_die": att_die, "def_die": def_die, "att_drm": drm, "def_drm": snafu_def,
                   "att_final": att_final, "def_final": def_final, "winner": winner,
                   "country": code, "fac_lost_from": before, "fac_lost_to": after})
