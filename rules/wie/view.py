"""What a War in Europe summary shows: the map picture (the format rules/use/view.py gives
pbem.present.render), tables and event sentences. Everything here is public."""

from __future__ import annotations

import functools
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID

from .data import load
from .sequence import label
from .state import date_text, stats

TERRAIN_FILL = {"clear": "#e9e6c9", "rough": "#c7c08e", "forest": "#9fbf86", "mountain": "#a99b7a",
                "marsh": "#b6cfae"}
SIDES = {
    "axis": {"name": "Axis", "fill": "#5b5f63", "ink": "#ffffff"},
    "allied": {"name": "Allied", "fill": "#2f6db5", "ink": "#ffffff"},
    "soviet": {"name": "Soviet", "fill": "#b3261e", "ink": "#ffffff"},
    "neutral": {"name": "Neutral", "fill": "#d9c27a", "ink": "#000000"},
}


@functools.cache
def _static(name: str) -> dict[str, Any]:
    """Terrain, rivers, borders, rail and places: the part of the picture that never changes."""
    b = load(name).board
    hexes = []
    for h in sorted(b.terrain):
        if not b.land(h):
            continue
        place = b.places.get(h, "")
        marker = "capital" if place == "Berlin" else "port" if h in b.ports else "city" if place else "none"
        hexes.append({"id": str(h), "fill": TERRAIN_FILL.get(b.terrain[h], "#ddd"), "label": place,
                      "marker": marker, "owner": None})
    sides = [{"a": str(a), "b": str(c), "kind": "river"} for a, c in sorted(b.rivers)]
    for h in sorted(b.terrain):
        if not b.land(h):
            continue
        for n in GRID.neighbours(h):
            if n > h and b.land(n) and b.country[n] != b.country[h]:
                a, c = GRID.hexside(h, n)
                sides.append({"a": str(a), "b": str(c), "kind": "border"})
    lines = [{"hexes": [str(x) for x in hexes_], "kind": "rail"} for _name, hexes_ in b.rail_lines]
    return {"type": "hex", "cols": b.cols, "rows": b.rows, "low_columns": "even", "hexes": hexes,
            "hexsides": sides, "lines": lines, "sides": SIDES}


def map_picture(public: dict[str, Any]) -> dict[str, Any]:
    pic = dict(_static(str(public["scenario"])))
    b = load(str(public["scenario"])).board
    held = public["held"]
    pic["hexes"] = [{**h, "owner": _owner(held.get(h["id"]) or b.held.get(_hex(h["id"]), "neutral"))}
                    for h in pic["hexes"]]
    pic["units"] = [{"hex": u["hex"], "id": k, "text": u["type"], "sub": u["nation"], "side": u["side"],
                     "flags": [stats(u["type"])["kind"]]}
                    for k, u in sorted(public["units"].items()) if u["hex"]]
    pic["highlights"] = [{"hex": h, "kind": "combat"} for h in public.get("attacked_hexes", [])]
    return pic


def _hex(text: str) -> Any:
    from pbem.kit.hexgrid import parse_hex

    return parse_hex(text)


def _owner(side: str) -> str | None:
    return side if side in SIDES else None


def summary_view(public: dict[str, Any]) -> dict[str, Any]:
    facts = [["Game-turn", f"{public['turn']} of {public['last']} ({date_text(public)})"],
             ["Phase", f"{label(public)} ({public['active']})"],
             ["Player-turn order (69.4)", ", ".join(public["order"])],
             ["Associated (69.0)", ", ".join(public["associated"]) or "none"]]
    if "politics" in public:
        p = public["politics"]
        facts.append(["Axis political points (71.4)", str(p["pp"])])
        facts += [[f"{c} (72, 73)", f"{r['status']}{', moved by ' + r['control'] if r['control'] else ''}"]
                  for c, r in sorted(p["neutrals"].items())]
    if public.get("collapse"):
        facts.append(["German economy (77.1)", f"collapsed on game-turn {public['collapse']}"])
    status = [[k, v] for k, v in sorted(public["status"].items())]
    air = [[s, *(public["air_points"][s][f] for f in ("west", "south", "east"))] for s in ("axis", "allied", "soviet")]
    units = [[s, sum(1 for u in public["units"].values() if u["side"] == s and u["hex"]),
              sum(1 for u in public["units"].values() if u["side"] == s and not u["hex"])]
             for s in ("axis", "allied", "soviet")]
    tables = [{"title": "Belligerency (71.0)", "columns": ["sides", "status"], "rows": status},
              {"title": "Air points by front (76.26)", "columns": ["side", "west", "south", "east"], "rows": air},
              {"title": "Units", "columns": ["side", "on the map", "eliminated"], "rows": units}]
    return {"map": map_picture(public), "tables": tables, "facts": facts}


def describe(e: dict[str, Any]) -> str:
    k = e.get("kind")
    if k == "moved":
        return f"{e['unit']} moved from {e['frm']} to {e['to']}"
    if k == "combat":
        lost = f"; eliminated: {', '.join(e['eliminated'])}" if e.get("eliminated") else ""
        return (f"{str(e['side']).title()} attacked {e['hex']} ({e['att']} against {e['dfn']}, {e['column']}): "
                f"die {e['die']}, {e['result']}{lost}")
    if k == "air-combat":
        more = (f"; {e['defender']} counter-attacked with {e['counter']}: die {e['counter_die']}, "
                f"{e['counter_loss']} lost" if "counter" in e else "")
        return (f"Air, {e['front']} front: {e['attacker']} attacked {e['defender']} with {e['points']}: die "
                f"{e['die']}, {e['loss']} lost{more}")
    if k == "air-superiority":
        return (f"Air, {e['front']} front: {e['side']} has superiority over {e['over']} (excess {e['excess']}): "
                f"die {e['die']}, {e['loss']} of its other missions lost")
    if k == "associated":
        return f"{' and '.join(e['sides'])} are now associated (69.0)"
    if k == "association-broken":
        return f"{e['side']} breaks its association with {e['other']} (69.0)"
    if k == "belligerency":
        return f"{' and '.join(e['sides'])}: {e['status']} ({e.get('why') or '71.0'})"
    if k == "port-suppressed":
        return f"{str(e['side']).title()} suppresses the port of {e['hex']} ([WiE-base 13.3])"
    if k == "rome-seized":
        return f"The Allied player has seized Rome ({e['hex']}, 71.2)"
    if k in ("rail", "advanced"):
        return f"{e['unit']} {'moved by rail' if k == 'rail' else 'advanced'} from {e['frm']} to {e['to']}"
    if k == "attack-declared":
        return f"{str(e['side']).title()} attacks {e['hex']} with {', '.join(e['attackers'])} (rolled in its next file)"
    if k == "interdiction":
        return f"{str(e['side']).title()} places an Air Interdiction marker on {e['hex']} (68.1)"
    if k == "reinforcement":
        return f"{str(e['side']).title()} reinforcement {e['unit']} ({e['type']}) arrives at {e['hex']}"
    if k == "air-points":
        return f"{str(e['side']).title()}: {e['points']} arriving air points join the {e['front']} front"
    if k == "standing-order":
        return f"{e['side']} will break its association with {e['other']} on entering the {e['at']} phase (69.0)"
    if k == "political-points":
        return f"Axis political points {e['change']:+d}: {e['why']} (71.4); now {e['total']}"
    if k == "neutral":
        by = f" (attacked by {e['by']})" if e.get("by") else ""
        return f"{e['country']}: {e['status']}, control {e['control']}{by}"
    if k in ("sailed", "landed"):
        how = "sailed" if k == "sailed" else "landed by amphibious assault"
        return f"{e['unit']} {how} from {e['frm']} to {e['to']} ([WiE-base 9])"
    if k == "sea-interdiction":
        return f"{e['what']} interdiction by {e['by']} of {e['unit']}: die {e['die']}, {e['result']}"
    if k == "offer":
        return f"{e['side']} offers {e['to']}: {e['what']}"
    return f"{k}: " + ", ".join(f"{a}={b}" for a, b in e.items() if a != "kind")
