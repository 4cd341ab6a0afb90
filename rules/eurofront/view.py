"""What a EuroFront summary shows: the map picture (pbem.present.render draws it), tables, facts.

A seat sees its own blocks face up (from its private state) and the enemy's as blank blocks of
the enemy's colour, except those the rules have turned face up (an active HQ, 5.2). The
mailed summary (no private state) shows every unrevealed block face down. Garrisons (SCW 2,
public) are drawn for every reader as "Gar" counters of their side's colour.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import state as st
from .data import load

TERRAIN_FILL = {"clear": "#e9e6c9", "forest": "#b9c99a", "hill": "#c7c08e", "marsh": "#b6cfae",
                "mountain": "#a99b7a"}
OUT_OF_PLAY = "#d7d2c4"
SIDES = {"nationalists": {"name": "Nationalists", "fill": "#1f1f1f", "ink": "#f2d16b"},
         "republicans": {"name": "Republicans", "fill": "#b3261e", "ink": "#f6c26b"}}
ABBR = {"HQ": "HQ", "THQ": "THQ", "Armor": "Arm", "Mech": "Mech", "Infantry": "Inf", "Static": "Mil"}


@cache
def _static_map(name: str) -> dict[str, Any]:
    board = load(name).board
    hexes = []
    for h, terrain in sorted(board.terrain.items()):
        if terrain == "sea":
            continue
        place = board.at.get(h)
        marker, label = "none", ""
        if place is not None:
            marker = "capital" if place.name == "Madrid" else "port" if place.port else "city"
            label = place.name
        fill = TERRAIN_FILL.get(terrain, "#ddd") if board.enterable(h) else OUT_OF_PLAY
        hexes.append({"id": h, "fill": fill, "label": label, "marker": marker, "owner": None})
    sides = []
    for (a, b), kinds in sorted(board.sides.items()):
        if kinds & {"river", "strait"}:
            sides.append({"a": str(a), "b": str(b), "kind": "river"})
    for h in sorted(board.terrain):
        for n in board.neighbours(h):
            if n > h and "sea" not in (board.terrain[h], board.terrain[n]) and board.country[h] != board.country[n]:
                a, b = GRID.hexside(parse_hex(h), parse_hex(n))
                sides.append({"a": str(a), "b": str(b), "kind": "border"})
    lines = [{"hexes": list(hs), "kind": "rail"} for _name, hs in board.rail]
    return {"type": "hex", "cols": board.cols, "rows": board.rows, "low_columns": "even", "hexes": hexes,
            "hexsides": sides, "lines": lines, "sides": SIDES}


def _counter(tok: str, b: dict[str, Any], ident: dict[str, Any] | None) -> dict[str, Any]:
    if ident is None:
        return {"hex": b["hex"], "side": b["side"], "face_down": True}
    cv = int(ident["cv"]) - int(b["lost"])
    return {"hex": b["hex"], "id": tok, "text": str(ident["unit"]).split("-", 1)[-1][:7],
            "sub": f"{ABBR.get(ident['type'], ident['type'])} {cv}", "side": b["side"], "flags": [],
            "steps": [max(cv, 0), int(ident["max"])], "face_down": False}


def _garrison(h: str, g: dict[str, Any]) -> dict[str, Any]:
    """SCW 2: "blank black and red blocks, placed flat": public, so drawn face up for every reader,
    a counter of the side's colour marked "Gar" with no CV (not a unit); an unsupplied one has lost
    its ZOC (the out-of-supply dot)."""
    return {"hex": h, "id": f"garrison-{h}", "text": "Gar", "sub": "", "side": g["side"],
            "flags": ["no-supply"] if g.get("unsupplied") else [], "face_down": False}


def map_picture(public: dict[str, Any], private: dict[str, Any] | None, seat: str | None) -> dict[str, Any]:
    pic = dict(_static_map(public["scenario"]))
    board = load(public["scenario"]).board
    pic["hexes"] = [{**h, "owner": _owner(public, board, h["id"])} for h in pic["hexes"]]
    mine = (private or {}).get("blocks", {}) if seat else {}
    units = []
    for tok, b in sorted(public["blocks"].items(), key=lambda kv: st.token_key(kv[0])):
        ident = mine.get(tok) if b["side"] == seat else (b["opened"] if b["up"] else None)
        units.append(_counter(tok, b, ident))
    units.extend(_garrison(h, g) for h, g in sorted(public.get("garrisons", {}).items()))
    pic["units"] = units
    pic["highlights"] = [{"hex": h, "kind": "combat"} for h in sorted(public["battles"])]
    return pic


def _owner(public: dict[str, Any], board: Any, h: str) -> str | None:
    if not board.enterable(h):
        return None
    c = st.control(public, board, h)
    return c if c in SIDES else None


def summary_view(public: dict[str, Any], private: dict[str, Any] | None, seat: str | None) -> dict[str, Any]:
    facts = [["Turn", f"{public['turn']} ({public['month']}, fortnight {public['fortnight']})"],
             ["Phase", f"{public['phase']} ({public['active']})"],
             ["Weather", public["weather"]]]
    rows = []
    for side in SIDES:
        blocks = [b for b in public["blocks"].values() if b["side"] == side]
        rows.append([SIDES[side]["name"], len(blocks), sum(1 for b in blocks if b["up"])])
    tables = [{"title": "Blocks", "columns": ["side", "on the map", "face up"], "rows": rows}]
    if public["battles"]:
        tables.append({"title": "Battles", "columns": ["hex", "original attacker"],
                       "rows": [[h, b["attacker"]] for h, b in sorted(public["battles"].items())]})
    if public.get("garrisons"):  # SCW 2: blank blocks placed flat, public
        tables.append({"title": "Garrisons", "columns": ["hex", "side", "supply"],
                       "rows": [[h, g["side"], "unsupplied" if g["unsupplied"] else "supplied"]
                                for h, g in sorted(public["garrisons"].items())]})
    if public.get("over"):
        facts.append(["Result", public["over"]])
    return {"map": map_picture(public, private, seat), "tables": tables, "facts": facts}
