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
KIND_ABBR = {"infantry": "Inf", "paratroop": "Para", "garrison": "Gar", "motorized": "Mot", "tank": "Tank",
             "fighter": "Ftr", "bomber": "Bmb", "carrier": "CV", "surface": "BB", "convoy": "Cvy"}


@lru_cache(maxsize=4)
def _scenario(name: str) -> Any:
    from .scenario import load_scenario

    return load_scenario(name)


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
            if n > h and other.is_land and other.country != info.country:
                a, b = hexside(h, n)
                sides.append({"a": str(a), "b": str(b), "kind": "border"})
    lines = [{"hexes": [str(x) for x in t.hexes], "kind": "rail"} for t in gm.transport_lines]
    return {"type": "hex", "cols": gm.cols, "rows": gm.rows, "hexes": hexes, "hexsides": sides,
            "lines": lines, "sides": SIDES}


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
        flags = [f"{u['supply']}-supply"] if u.get("supply") in ("low", "no") else []
        short = uid.split("-", 1)[1] if "-" in uid else uid
        sub = KIND_ABBR.get(u["kind"], u["kind"][:4]) + ("·r" if u.get("reduced") else "")
        units.append({"hex": u["hex"], "text": short[:7], "sub": sub, "side": side, "flags": flags})
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


def _dice(e: dict[str, Any]) -> str:
    return f"{e.get('att_die')}/{e.get('def_die')}"


def describe(e: dict[str, Any]) -> str:
    k = e.get("kind", "?")
    g = e.get
    if k == "weather":
        return f"Weather in the {g('zone')} zone: {g('weather')} (die {g('die')}) [USE 11.0]"
    if k == "declare-war":
        what = f"; {g('on')} joins the {g('joins')}" if g("joins") else (f"; ends {g('ends')}" if g("ends") else "")
        return f"{str(g('by')).title()} declares war on {g('on')}{what} [USE 10.1]"
    if k == "move":
        return f"{g('unit')} moves {g('from')} → {g('to')} ({g('mp_left')} MP left)"
    if k == "strategic-move":
        path = g("path") or []
        return f"{g('unit')} moves strategically to {path[-1] if path else '?'} via {len(path)} hex(es) [USE 4.1]"
    if k == "attack":
        return (f"{', '.join(g('attackers') or [])} attack{'s' if len(g('attackers') or []) == 1 else ''} "
                f"{g('defender')} in {g('target')} ({g('mode')}); Will Commit choices sealed [USE 5.1]")
    if k == "will-commit":
        c = g("commit")
        choice = "yes" if c else ("no" if c is not None else "sealed")
        return f"{str(g('side')).title()} Will Commit for combat {g('combat')}: {choice}"
    if k == "combat":
        return (f"Combat at {g('target')}: {', '.join(g('attackers') or [])} vs {g('defender')}; "
                f"dice {_dice(e)}, DRM {g('att_drm'):+d}/{g('def_drm'):+d}, final {g('att_final')}–{g('def_final')}: "
                f"{g('result')} [USE 5.1]" if isinstance(g("att_drm"), int) and isinstance(g("def_drm"), int)
                else f"Combat at {g('target')}: {g('result')}")
    if k == "air-combat":
        return f"Air combat: {g('attacker')} {g('att_final')} vs {g('defender')} {g('def_final')}, winner {g('winner')}"
    if k in ("eliminated", "reduced"):
        return f"{g('unit')} {k} ({g('cause')})"
    if k == "retreat":
        return f"{g('unit')} retreats {g('from')} → {g('to')} [USE 5.3.5]"
    if k == "advance":
        return f"{g('unit')} advances {g('from')} → {g('to')} [USE 5.3.7]"
    if k == "control":
        return f"{g('city')} ({g('hex')}) passes from {g('from')} to {g('to')}"
    if k == "supply":
        return f"{g('unit')}: supply {g('from')} → {g('to')} [USE 7.2]"
    if k == "production":
        return f"{g('country')} production: {g('pp')} PP [USE 9.1]"
    if k == "will":
        return f"{g('country')} National Will {g('from')} → {g('to')} ({g('why')})"
    if k == "phase":
        return f"— {g('faction')}: {g('phase')} —"
    if k == "phase-skipped":
        return f"({g('faction')} {g('phase')}: nothing to do)"
    if k == "turn":
        return f"=== Turn {g('turn')}: {g('date')} ==="
    if k == "activate":
        return f"{g('unit')} activated ({g('pp')} PP) [USE 6.0]"
    if k == "activation-end":
        return f"{g('unit')}: activation ends"
    if k == "assault-designated":
        return f"{g('unit')} designated to assault {g('target')} [USE 5.3.3]"
    if k == "activation":
        return f"{g('country')} activates and joins the {g('faction')} faction [USE 13.1]"
    if k == "conditional-event":
        return f"Conditional event: {g('name')} (at {g('hex')}) [USE 13.8]"
    if k == "standing":
        return f"{str(g('seat')).title()} standing order: {g('what')} {g('value')}"
    if k == "dice-wait":
        return (f"{str(g('faction')).title()}'s '{g('verb')}' waits for its dice: it finishes in its next "
                "file (strict dice)")
    if k == "game-over":
        return f"Game over: {g('result')}"
    if k == "air-move":
        return f"{g('unit')} flies {g('from')} → {g('to')} [USE 6.2.1]"
    fields = ", ".join(f"{a}={b}" for a, b in e.items() if a != "kind")
    return f"{k}: {fields}"
