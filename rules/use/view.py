"""What a USE summary shows: the map picture, tables and event sentences.

The engine draws (pbem.present.render); this module only says what to draw, from the
public state (USE has no hidden units: the Will Commit secrets are sealed by
the engine, never held in the state).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .hexgrid import hexside

TERRAIN_FILL = {"clear": "#e9e6c9", "rough": "#c7c08e", "mountain": "#a99b7a", "marsh": "#b6cfae"}
SIDES = {
    "axis": {"name": "Axis", "fill": "#5b5f63", "ink": "#ffffff"},
    "western": {"name": "Western Allies", "fill": "#2f6db5", "ink": "#ffffff"},
    "soviet": {"name": "Soviet", "fill": "#b3261e", "ink": "#ffffff"},
    "neutral": {"name": "Neutral", "fill": "#d9c27a", "ink": "#000000"},
}
GROUND_KINDS = frozenset({"infantry", "paratroop", "garrison", "motorized", "tank"})
KIND_ABBR = {"infantry": "Inf", "paratroop": "Para", "garrison": "Gar", "motorized": "Mot", "tank": "Tank",
             "fighter": "Ftr", "bomber": "Bmb", "carrier": "CV", "surface": "BB", "convoy": "Cvy"}


@lru_cache(maxsize=4)
def _scenario(name: str) -> Any:
    from .scenario import load_scenario

    return load_scenario(name)


# USE 2.2: "Occupied France, Occupied USSR, and Vichy ... the Disputed border denotes new borders":
# drawn as borders inside their country.
NEW_BORDER_AREAS = frozenset({"occupied-france", "vichy", "occupied-ussr"})


def _new_border(a: str | None, b: str | None) -> bool:
    return a != b and bool({a, b} & NEW_BORDER_AREAS)


def _static_map(name: str) -> dict[str, Any]:
    """The parts of the picture that never change: terrain, rivers, borders, lines, cities."""
    sc = _scenario(name)
    gm = sc.map
    hexes = []
    for h, info in gm.hexes.items():
        if info.is_water:
            continue
        city = gm.city_at(h)
        marker = "none"
        label = ""
        if city is not None:
            marker = "capital" if city.capital else ("factory" if city.factories else
                                                     ("port" if city.port else "city"))
            label = city.name
        hexes.append({"id": str(h), "fill": "#d7d2c4" if info.faded_dot else TERRAIN_FILL.get(info.terrain, "#ddd"),
                      "label": label, "marker": marker, "owner": None})
    sides = []
    for (a, b), feats in gm.hexsides.items():
        if "river" in feats:
            sides.append({"a": str(a), "b": str(b), "kind": "river"})
    for h, info in gm.hexes.items():
        if not info.is_land:
            continue
        for n in gm.neighbours(h):
            other = gm.info(n)
            if n > h and other.is_land and (other.country != info.country or _new_border(info.area, other.area)):
                a, b = hexside(h, n)
                sides.append({"a": str(a), "b": str(b), "kind": "border"})
    lines = [{"hexes": [str(x) for x in t.hexes], "kind": "rail"} for t in gm.transport_lines]
    return {"type": "hex", "cols": gm.cols, "rows": gm.rows, "hexes": hexes, "hexsides": sides,
            "lines": lines, "sides": SIDES}


def _counter(uid: str, u: dict[str, Any], side: str) -> dict[str, Any]:
    """What a USE counter shows: its name (* elite), type, steps (ground: 2 full, 1 reduced) or Sorties."""
    flags = [f"{u['supply']}-supply"] if u.get("supply") in ("low", "no") else []
    short = uid.split("-", 1)[1] if "-" in uid else uid
    sub = KIND_ABBR.get(u["kind"], u["kind"][:4])
    out: dict[str, Any] = {"hex": u["hex"], "id": uid, "text": short[:7] + ("*" if u.get("elite") else ""),
                           "sub": sub, "side": side, "flags": flags}
    if u["kind"] in GROUND_KINDS:
        # 3.2: a ground unit has two steps, one left when reduced (a garrison is always reduced)
        out["steps"] = [1, 1] if u["kind"] == "garrison" else [1 if u.get("reduced") else 2, 2]
    elif u.get("sorties"):
        out["sub"] = f"{sub} S{u['sorties']}"  # 1.5: Sorties marked on air and naval units
    return out


def map_picture(public: dict[str, Any]) -> dict[str, Any] | None:
    name = public.get("map", {}).get("scenario")
    if not name:
        return None
    pic = dict(_static_map(name))
    control = public.get("control", {})
    pic["hexes"] = [{**h, "owner": control.get(h["id"])} for h in pic["hexes"]]
    units = []
    for uid, u in sorted(public["units"].items()):
        if not u.get("hex") or u.get("box"):
            continue
        # state.faction_of's lookup; ``public`` may be a partial state here (a map preview)
        side = public["countries"].get(u["country"], {}).get("faction") or "neutral"
        units.append(_counter(uid, u, side))
    pic["units"] = units
    pic["highlights"] = [{"hex": c["target"], "kind": "combat"} for c in public.get("combats", [])
                         if isinstance(c, dict) and c.get("target")]
    return pic


def summary_view(public: dict[str, Any]) -> dict[str, Any]:
    weather = ", ".join(f"{z} {w}" for z, w in sorted(public.get("weather", {}).items()))
    facts = [["Turn", f"{public['turn']} ({public['date']})"],
             ["Phase", f"{public['phase']} ({public['active']})"],
             ["Weather", weather or "not rolled yet"],
             ["Policies in effect", ", ".join(public.get("policies", [])) or "none"]]
    rows = []
    for code, c in sorted(public["countries"].items(), key=lambda kv: (str(kv[1].get("faction")), kv[0])):
        units = [u for u in public["units"].values() if u["country"] == code]
        on_map = sum(1 for u in units if u.get("hex") and not u.get("box"))
        elim = sum(1 for u in units if u.get("box") == "eliminated")
        rows.append([code, c.get("faction") or "neutral", c.get("status", ""), c.get("will", ""),
                     c.get("pp", 0), on_map, elim])
    supply_rows = [[uid, u["hex"], u["supply"]] for uid, u in sorted(public["units"].items())
                   if u.get("hex") and u.get("supply") in ("low", "no")]
    tables = [{"title": "Countries: National Will, production and forces",
               "columns": ["country", "faction", "status", "National Will", "PP", "units on map", "eliminated"],
               "rows": rows}]
    if supply_rows:
        tables.append({"title": "Units out of full supply", "columns": ["unit", "hex", "supply"],
                       "rows": supply_rows})
    return {"map": map_picture(public), "tables": tables, "facts": facts}
