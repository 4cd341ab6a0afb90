"""What a War in Europe summary shows: the map picture (the format rules/use/view.py gives
pbem.present.render), tables and event sentences. Everything here is public."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.words import in_words

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


# --- event sentences ------------------------------------------------------------------------------
# One entry of SENTENCES per event kind the rules record (tests/test_messages_games.py checks every
# kind in the code has one). The values read as words: lists joined, a missing value "none".

Event = dict[str, Any]


def _t(v: Any) -> str:
    """A value in words (None, a field the event lacks, as 'unknown')."""
    return in_words(v)


def _title(v: Any) -> str:
    return _t(v).title()


def _and(v: Any) -> str:
    return " and ".join(_t(x) for x in v) if isinstance(v, (list, tuple)) else _t(v)


def _signed(v: Any) -> str:
    return f"{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else _t(v)


def _combat(e: Event) -> str:
    lost = f"; eliminated: {_t(e['eliminated'])}" if e.get("eliminated") else ""
    return (f"{_title(e.get('side'))} attacked {_t(e.get('hex'))} ({_t(e.get('att'))} against {_t(e.get('dfn'))}, "
            f"{_t(e.get('column'))}): die {_t(e.get('die'))}, {_t(e.get('result'))}{lost}")


def _air_combat(e: Event) -> str:
    more = (f"; {_t(e.get('defender'))} counter-attacked with {_t(e.get('counter'))}: die "
            f"{_t(e.get('counter_die'))}, {_t(e.get('counter_loss'))} lost" if "counter" in e else "")
    return (f"Air, {_t(e.get('front'))} front: {_t(e.get('attacker'))} attacked {_t(e.get('defender'))} with "
            f"{_t(e.get('points'))}: die {_t(e.get('die'))}, {_t(e.get('loss'))} lost{more}")


def _moved(how: str) -> Callable[[Event], str]:
    return lambda e: f"{_t(e.get('unit'))} {how} from {_t(e.get('frm'))} to {_t(e.get('to'))}"


def _neutral(e: Event) -> str:
    by = f" (attacked by {_t(e['by'])})" if e.get("by") else ""
    why = f" ({_t(e['why'])})" if e.get("why") else ""
    return f"{_t(e.get('country'))}: {_t(e.get('status'))}, control {_t(e.get('control'))}{by}{why}"


def _raid(e: Event) -> str:
    return (f"Strategic bombing of {_t(e.get('hex'))}: {_t(e.get('sb'))} SB points with {_t(e.get('escort'))} "
            f"escort against {_t(e.get('interceptors'))} interceptors and {_t(e.get('aa'))} AA: "
            f"{_t(e.get('lost'))} SB lost, {_t(e.get('dice'))} bombing dice ([WiE-base 24.3])")


def _bombed(e: Event) -> str:
    hits = e.get("hits")
    got = "no hits" if hits in ("-", "", None) else f"hits {_t(hits)}"
    return f"Bombing of {_t(e.get('hex'))}: dice {_t(e.get('dice'))}, {got} ([WiE-base 24.4])"


def _partisans(e: Event) -> str:
    return f"Western partisans: die {_t(e.get('die'))}, they join the {_title(e.get('side'))} player (73.6)"


SENTENCES: dict[str, Callable[[Event], str]] = {
    "moved": _moved("moved"),
    "rail": _moved("moved by rail"),
    "advanced": _moved("advanced"),
    "sailed": lambda e: _moved("sailed")(e) + " ([WiE-base 9])",
    "landed": lambda e: _moved("landed by amphibious assault")(e) + " ([WiE-base 9])",
    "combat": _combat,
    "attack-declared": lambda e: (f"{_title(e.get('side'))} attacks {_t(e.get('hex'))} with "
                                  f"{_t(e.get('attackers'))} (rolled in its next file)"),
    "air-combat": _air_combat,
    "air-superiority": lambda e: (f"Air, {_t(e.get('front'))} front: {_t(e.get('side'))} has superiority over "
                                  f"{_t(e.get('over'))} (excess {_t(e.get('excess'))}): die {_t(e.get('die'))}, "
                                  f"{_t(e.get('loss'))} of its other missions lost"),
    "associated": lambda e: f"{_and(e.get('sides'))} are now associated (69.0)",
    "association-broken": lambda e: f"{_t(e.get('side'))} breaks its association with {_t(e.get('other'))} (69.0)",
    "belligerency": lambda e: f"{_and(e.get('sides'))}: {_t(e.get('status'))} ({_t(e.get('why') or '71.0')})",
    "port-suppressed": lambda e: (f"{_title(e.get('side'))} suppresses the port of {_t(e.get('hex'))} "
                                  "for the game-turn (68.1 A, [WiE-base 13.3])"),
    "port-suppression-failed": lambda e: (f"{_title(e.get('side'))}'s Port Suppression mission on {_t(e.get('hex'))} "
                                          "fails: fewer than 5 points survived the air combat ([WiE-base 13.3])"),
    "rome-seized": lambda e: f"The Allied player has seized Rome ({_t(e.get('hex'))}, 71.2)",
    "interdiction": lambda e: (f"{_title(e.get('side'))} places an Air Interdiction marker on {_t(e.get('hex'))} "
                               "(68.1)"),
    "reinforcement": lambda e: (f"{_title(e.get('side'))} reinforcement {_t(e.get('unit'))} ({_t(e.get('type'))}) "
                                f"arrives at {_t(e.get('hex'))}"),
    "air-points": lambda e: (f"{_title(e.get('side'))}: {_t(e.get('points'))} arriving air points join the "
                             f"{_t(e.get('front'))} front"),
    "standing-order": lambda e: (f"{_t(e.get('side'))} will break its association with {_t(e.get('other'))} on "
                                 f"entering the {_t(e.get('at'))} phase (69.0)"),
    "political-points": lambda e: (f"Axis political points {_signed(e.get('change'))}: {_t(e.get('why'))} (71.4); "
                                   f"now {_t(e.get('total'))}"),
    "neutral": _neutral,
    "sea-interdiction": lambda e: (f"{_t(e.get('what'))} interdiction by {_t(e.get('by'))} of {_t(e.get('unit'))}: "
                                   f"die {_t(e.get('die'))}, "
                                   + ("the unit and its transport point are lost ([WiE-base 13.6])"
                                      if e.get("result") == "D" else "no effect")),
    "offer": lambda e: f"{_t(e.get('side'))} offers {_t(e.get('to'))}: {_t(e.get('what'))}",
    "interdiction-reserved": lambda e: (f"{_t(e.get('unit'))} faces {_t(e.get('rolls'))} interdiction dice, rolled "
                                        "in the mover's next file ([WiE-base 13.6])"),
    "raid": _raid,
    "bomb-dice-reserved": lambda e: (f"{_t(e.get('rolls'))} bombing dice against {_t(e.get('hex'))} are rolled in "
                                     "the bomber's next file ([WiE-base 24.4])"),
    "bombed": _bombed,
    "repair-die-reserved": lambda e: (f"The repair die for {_t(e.get('hex'))} is rolled in the owner's next file "
                                      "([WiE-base 24.68])"),
    "center-repair": lambda e: (f"Repair of {_t(e.get('hex'))}: die {_t(e.get('die'))}, {_t(e.get('hits'))} "
                                "hits left ([WiE-base 24.68])"),
    "collapse": lambda e: f"The German economy collapses on game-turn {_t(e.get('turn'))} (77.1)",
    "german-production": lambda e: f"Germany spends {_t(e.get('points'))} production points (77.6)",
    "grant": lambda e: f"The Soviet Union grants the Axis {_t(e.get('points'))} resource points a cycle (74.41)",
    "fortified": lambda e: f"{_title(e.get('side'))} builds a fortification at {_t(e.get('hex'))}",
    "reformed": lambda e: (f"{_t(e.get('unit'))} is reformed into the division {_t(e.get('division'))} at "
                           f"{_t(e.get('hex'))}"),
    "rebuilt": lambda e: f"{_t(e.get('unit'))} is rebuilt at {_t(e.get('hex'))}",
    "england-surrender": lambda e: f"England surrenders on game-turn {_t(e.get('turn'))}: the Axis holds London",
    "soviet-surrender": lambda e: f"The Soviet Union surrenders on game-turn {_t(e.get('turn'))} (74.9)",
    "partisan-die-reserved": lambda e: ("The die for the Western partisans is rolled in the Soviet player's next "
                                        "file (73.6)"),
    "western-partisans": _partisans,
    "winter-war": lambda e: f"The Soviet player decides the Winter War: {_t(e.get('choice'))} (72.0)",
    "winter-war-territory": lambda e: (f"The Winter War makes {_t(e.get('hexes'))} Soviet territory (72.3)"),
    "coin-reserved": lambda e: (f"Control of {_t(e.get('country'))}, between {_and(e.get('between'))}, is decided "
                                "by a coin thrown in the attacker's next file (73.11)"),
    "siberians": lambda e: f"Siberian {_t(e.get('type'))} {_t(e.get('unit'))} arrives at {_t(e.get('hex'))}",
    "rail-repaired": lambda e: f"{_title(e.get('side'))} repairs the railway at {_t(e.get('hexes'))}",
    "deployed": lambda e: f"{_t(e.get('unit'))} is deployed at {_t(e.get('hex'))}",
    "dropped": lambda e: (f"Airborne {_t(e.get('type'))} {_t(e.get('unit'))} drops on {_t(e.get('hex'))} "
                          "([WiE-base 13.5])"),
}


def describe(e: Event) -> str:
    """The sentence for one event; a kind this version does not know still reads as words. A
    sentence that does not already end in a stop or a closing bracket ends with a period."""
    kind = str(e.get("kind", "?"))
    say = SENTENCES.get(kind)
    if say is not None:
        text = say(e)
    else:  # an event from a newer version of the rules: its facts without Python's notation
        facts = "; ".join(f"{k.replace('_', ' ')} {_t(v)}" for k, v in e.items() if k != "kind")
        text = f"{kind.replace('-', ' ').capitalize()}{': ' + facts if facts else ''}"
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")", "]")) else text + "."
