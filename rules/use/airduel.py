"""Dice, weather effects and the air/naval duel (USE 5.2, 11.0) that combat and sea supply share.

Kept apart from combat.py so that sea supply (seasupply.py), which movement
reaches through supply, can fight an air duel without importing the whole of
ground combat: combat -> movement -> supply -> seasupply would otherwise lead
back to combat.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .release import since_0_11
from .state import State, Unit, add_sorties, faction_of
from .tables import authored

Events = list[dict[str, Any]]


class Roller:
    """The dice of one file (ctx.roll), so combat code needs no engine import."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def d6(self, purpose: str) -> int:
        v: int = self.ctx.roll(6, purpose)[0]
        return v


def weather_at(state: State, b: Board, h: str) -> str:
    w: str = state["weather"][b.zone[h]]
    return w


def harsh(weather: str) -> bool:
    """USE 11.0 with weather.toml [effects.severe].authored: Severe includes the Poor effects it
    does not replace, so the attacker's -2 combat DRM and the air/naval -2 DRM apply in Poor
    and in Severe weather.
    DECISION: 11.0 lists the Severe effects without saying whether Poor's also hold; the data
    (weather.toml, docs/use-map.md) says they do, and Severe is the worse weather."""
    return weather in ("poor", "severe")


def severe_halves(state: State, weather: str) -> bool:
    """USE 11.0 Severe: "modified combat results divided by 2 (round up)".
    DECISION: in air/naval combat too: the sentence has no "Ground only" mark (5.1 step 5, which
    applies "halving if instructed", is not marked either), where Poor's names air/naval units
    when it means them. Halvings do not stack (No Supply and Severe halve once), as in ground
    combat. Games of 0.9 and 0.10 halve air/naval combat for No Supply only (release.py)."""
    return weather == "severe" and since_0_11(state)


def boost(weather: str) -> int:
    """USE 11.0: Tank, Air Support and Naval Support DRMs: +2 Fair, +1 Poor, none in Severe."""
    return {"fair": 2, "poor": 1, "severe": 0}[weather]


DRM_CAP = 10  # USE 5.1 step 4: the net DRM is at most +10 or -10


def final_value(die: int, drm: int, halve: bool) -> int:
    """USE 5.1 step 5: die + DRM, halved (round up) if instructed, never below 1."""
    v = die + drm
    if halve:
        v = -(-v // 2)
    return max(1, v)


def cap(drm: int) -> int:
    return max(-DRM_CAP, min(DRM_CAP, drm))


def supply_drm(u: Unit) -> int:
    """USE 7.1: a unit in Low or No Supply has a -2 combat DRM, in air/naval combat as in
    ground combat (DECISION: 7.1 names no kind of combat; No Supply also halves, final_value)."""
    return -2 if u["supply"] in ("low", "no") else 0


def air_duel(state: State, b: Board, att: Unit, dfn: Unit, where: str | None, roll: Roller,
             events: Events, weather: str | None = None, zone: str | None = None,
             commit: tuple[bool, bool] = (False, False)) -> str:
    """USE 5.2 air/naval combat between two air or naval units (authored results): 'att', 'def'
    or 'tie'. ``weather``: the Sea Zone's weather when the combat is in a Sea Zone (5.2); then
    ``where`` is not needed (None for a naval unit sailing out of a Map Box). ``commit``: the
    (attacker, defender) sides that take Will Commit's authored DRM (an Air Strike's)."""
    tab = authored()["air_combat"]
    if not weather:
        assert where is not None, "an air combat in no hex needs its Sea Zone's weather"
        weather = weather_at(state, b, where)
    w = weather
    penalty = -2 if harsh(w) else 0  # USE 11.0: air/naval units have -2 DRM in Poor (and Severe) weather
    a_die = roll.d6(f"air combat {att['id']}")
    d_die = roll.d6(f"air combat {dfn['id']}")
    a = penalty + (tab["fighter_drm"] if att["kind"] == "fighter" else 0) + supply_drm(att)
    d = penalty + (tab["fighter_drm"] if dfn["kind"] == "fighter" else 0) + supply_drm(dfn)
    from .eventplay import air  # USE 14.7, 14.14, 14.19: markers ready for an air/naval combat

    a_ev, d_ev = air(state, att, dfn, faction_of(state, att), faction_of(state, dfn), events)
    a, d = a + a_ev, d + d_ev
    will_drm = int(authored()["will_commit"]["drm"])
    a, d = a + will_drm * commit[0], d + will_drm * commit[1]
    from .seamarks import air as sea_air  # USE 14.15, 14.17: Submarines, Surprise Attack (``zone``: its Sea Zone)

    a_sea, d_sea = sea_air(state, b, att, dfn, where, zone, events)
    # USE 5.1 steps 4-5 (not marked "Ground only"): the net DRM capped at +-10, the die + DRM
    # halved for No Supply (7.1) and in Severe weather (11.0, ``severe_halves``), never below 1.
    severe = severe_halves(state, w)
    a = final_value(a_die, cap(a + a_sea), att["supply"] == "no" or severe)
    d = final_value(d_die, cap(d + d_sea), dfn["supply"] == "no" or severe)
    winner = "att" if a > d else "def" if d > a else "tie"
    if winner == "tie":
        add_sorties(att, tab["tie_sorties"])
        add_sorties(dfn, tab["tie_sorties"])
    else:
        win, lose = (att, dfn) if winner == "att" else (dfn, att)
        add_sorties(win, tab["winner_sorties"])
        add_sorties(lose, tab["loser_sorties"])
    events.append({"kind": "air-combat", "attacker": att["id"], "defender": dfn["id"],
                   "att_side": faction_of(state, att), "def_side": faction_of(state, dfn),
                   "att_die": a_die, "def_die": d_die, "att_final": a, "def_final": d, "winner": winner})
    return winner
