"""75.9 Victory in the three-player campaign (``state["campaign"]``: a campaign game or a case's
``campaign on``; the 1945 scenario keeps 76.4).

Each player's five criteria (75.91-75.93) are counted at the end of the game: five a decisive,
four a substantial, three a marginal victory. 75.94: the Axis loses if Germany surrenders, the
Soviet if the USSR surrenders (74.9), the Allied player if England surrenders (War in the West's
rule is not in the seed: authored, the Axis holding London, campaign.check_england_surrender).
Cities are found by name in map.txt's places, or in ``politics["places"]`` (a case's
``place HEX NAME``: Kiev, Rostov, Sevastopol, Bucharest and Istanbul are off the 1945 map).
"""

from __future__ import annotations

from typing import Any

from .state import board, holder, neutral

LEVELS = {5: "decisive", 4: "substantial", 3: "marginal"}
ALIASES = {"Prag": "Prague"}


def _hex(state: Any, name: str) -> str:
    name = ALIASES.get(name, name)
    extra = {v: k for k, v in state["politics"].get("places", {}).items()}
    if name in extra:
        return str(extra[name])
    return next((str(h) for h, n in board(state).places.items() if n == name), "")


def controls(state: Any, side: str, *names: str) -> bool:
    hexes = [_hex(state, n) for n in names]
    return all(h and holder(state, h) == side for h in hexes)


def _istanbul(state: Any, side: str) -> bool:
    """"Control Istanbul (automatic if neutral)"."""
    rec = neutral(state, "TUR")
    if not rec["control"]:
        return rec["status"] in ("armed", "pro-axis")
    h = _hex(state, "Istanbul")
    return holder(state, h) == side if h else rec["control"] == side


def _axis_nations(state: Any) -> bool:
    """75.91: Italy, Hungary and Rumania in the game as Axis nations or pro-Axis neutrals."""
    ok = ("axis", "pro-axis")
    return all(state["politics"]["neutrals"].get(c, {"status": "axis"})["status"] in ok for c in ("ITA",)) and all(
        neutral(state, c)["status"] in ok for c in ("HUN", "RUM"))


def criteria(state: Any) -> dict[str, list[bool]]:
    b, pp = board(state), int(state["politics"]["pp"])
    mfg = [str(h) for h in b.mfg]
    wk = [str(h) for h in b.wehrkreise]
    return {
        "axis": [pp >= 50, controls(state, "axis", "Paris", "Amsterdam", "Marseilles", "Kiev", "Rostov", "Sevastopol"),
                 all(holder(state, h) == "axis" for h in mfg), all(holder(state, h) == "axis" for h in wk),
                 _axis_nations(state)],
        "allied": [pp <= 20, controls(state, "allied", "Rome", "Paris", "Lille", "Brussels")
                   and any(holder(state, h) == "allied" for h in mfg),
                   controls(state, "allied", "Berlin", "Prag", "Vienna"),
                   controls(state, "allied", "Belgrade", "Budapest", "Bucharest"), _istanbul(state, "allied")],
        "soviet": [pp <= 0, controls(state, "soviet", "Belgrade", "Bucharest", "Budapest"),
                   controls(state, "soviet", "Berlin", "Prag", "Vienna"),
                   sum(1 for h in mfg if holder(state, h) == "soviet") >= 10, _istanbul(state, "soviet")],
    }


def verdict(state: Any, germany_surrendered: bool) -> str:
    """The end-of-game sentence; ``state["victory"]``: side -> level (or "lost", "none")."""
    out: dict[str, str] = {}
    for side, met in criteria(state).items():
        out[side] = LEVELS.get(sum(met), "none")
    if germany_surrendered:
        out["axis"] = "lost"  # 75.94
    if state.get("soviet_surrender"):
        out["soviet"] = "lost"  # 75.94, 74.9
    if state.get("england_surrender"):
        out["allied"] = "lost"  # 75.94
    state["victory"] = out
    return "75.9: " + "; ".join(f"{s} {lvl}" for s, lvl in out.items())
