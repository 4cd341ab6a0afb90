"""What a EuroFront summary shows: the map picture (pbem.present.render draws it), tables, facts.

A seat sees its own blocks face up (from its private state) and the enemy's as blank blocks of
the enemy's colour, except those the rules have turned face up (an active HQ, 5.2). The
mailed summary (no private state) shows every unrevealed block face down. Garrisons (SCW 2,
public) are drawn for every reader as "Gar" counters of their side's colour.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex
from pbem.kit.words import in_words

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


# --- event sentences ------------------------------------------------------------------------------
# Every event is public: the rules put in it only what both sides may know (a hidden block is a
# token; its unit is named only once the rules have opened it). So a sentence uses the event's own
# fields and nothing else: a token alone reads "a Nationalist block (n8)", never a looked-up name.

Event = dict[str, Any]
FIREPOWER = {"SF": "single fire", "DF": "double fire", "TF": "triple fire", "QF": "quadruple fire"}
HITS_ON = {"SF": 6, "DF": 5, "TF": 4, "QF": 3}  # combat.HITS_ON (7.31), named here for the reader


def _t(v: Any) -> str:
    """A value in words (None, a field the event lacks, as 'unknown')."""
    return in_words(v)


def _side(v: Any) -> str:
    """'nationalists' -> 'the Nationalists'."""
    return f"the {SIDES[v]['name']}" if isinstance(v, str) and v in SIDES else _t(v)


def _adj(v: Any) -> str:
    """'nationalists' -> 'Nationalist ' (a block's or a garrison's side); no side, no word."""
    return str(SIDES[v]["name"])[:-1] + " " if isinstance(v, str) and v in SIDES else ""


def _token_side(tok: Any) -> str | None:
    """A token's side from its letter (setup.PREFIX: n = Nationalists, r = Republicans): public."""
    first = str(tok)[:1] if isinstance(tok, str) else ""
    return {"n": "nationalists", "r": "republicans"}.get(first)


def _block(e: Event, key: str = "block") -> str:
    """'N-JDN (Nationalist block n5)' when the event names the unit, else 'a Nationalist block (n5)'."""
    tok = e.get(key)
    side = _adj(_token_side(tok))
    if e.get("unit"):
        return f"{_t(e['unit'])} (the {side}block {_t(tok)})"
    return f"a {side}block ({_t(tok)})"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _path(v: Any) -> str:
    return "-".join(_t(h) for h in v) if isinstance(v, (list, tuple)) and v else _t(v)


def _n(v: Any, one: str, many: str | None = None) -> str:
    return f"{_t(v)} {one if v == 1 else many or one + 's'}"


def _fire(e: Event) -> str:
    """'with single fire (SF, hits on 6): dice 6, 2: 1 hit'."""
    fp = e.get("firepower")
    how = f"{FIREPOWER[fp]} ({fp}, hits on {HITS_ON[fp]})" if isinstance(fp, str) and fp in FIREPOWER else _t(fp)
    dice = e.get("dice")
    word = "die" if isinstance(dice, list) and len(dice) == 1 else "dice"
    return f"with {how}: {word} {_t(dice)}: {_n(e.get('hits'), 'hit')}"


def _fire_event(e: Event) -> str:
    back = e.get("repulses")
    more = f", {_n(back, 'repulse')}" if back else ""
    return f"{_cap(_block(e))} fires at {_t(e.get('hex'))} {_fire(e)}{more} (7.31)"


def _pursuit(e: Event) -> str:
    if e.get("firepower") == "none":
        return f"{_cap(_block(e))} is too slow to fire on the retreat from {_t(e.get('hex'))} (6.52)"
    return f"{_cap(_block(e))} fires on the rearguard leaving {_t(e.get('hex'))} {_fire(e)} (6.52)"


def _eliminated(e: Event) -> str:
    why = f" ({_t(e['why'])})" if e.get("why") else ""
    return f"{_cap(_block(e))} is eliminated at {_t(e.get('hex'))}{why}"


def _activated(e: Event) -> str:
    deployed = ", and deploys" if e.get("deployed") else ""
    return (f"{_cap(_block(e))} activates at {_t(e.get('hex'))}: {_t(e.get('type'))}, CV {_t(e.get('cv'))}, "
            f"command range {_t(e.get('range'))}{deployed} (5.2)")


def _moved(e: Event, how: str = "moves") -> str:
    engage = ", engaging the enemy" if e.get("engage") else ""
    return f"{_cap(_block(e))} {how} {_path(e.get('path'))}{engage}"


def _battle(e: Event) -> str:
    kind = f" ({_t(e['assault'])} assault)" if e.get("assault") else ""
    return f"{_cap(_side(e.get('attacker')))} attack {_t(e.get('hex'))}: a new battle{kind} (7.11)"


def _militia(e: Event) -> str:
    again = ", taken already: roll again" if e.get("again") else ""
    return (f"{_cap(_side(e.get('side')))} roll for the militia block {_t(e.get('block'))}: region "
            f"{_t(e.get('region'))}, place {_t(e.get('place'))}, at {_t(e.get('hex'))}{again}")


def _production(e: Event) -> str:
    pp = e.get("pp")
    each = (", ".join(f"{SIDES[s]['name'] if s in SIDES else _t(s)} {_t(v)} PP" for s, v in pp.items())
            if isinstance(pp, dict) else f"{_t(pp)} PP")
    return f"Production for {_t(e.get('month'))}: {each} available (11.2)"


def _blockade(e: Event) -> str:
    aid = {"nationalists": "Axis", "republicans": "Soviet"}.get(str(e.get("side")), "Foreign")
    fate = "the aid arrives" if e.get("arrived") else "the aid is lost"
    at = f" (railhead at {_t(e['hex'])})" if e.get("hex") else ""
    return (f"{aid} Aid blockade roll{at}: die {_t(e.get('die'))} against {_n(e.get('ports'), 'port')}: "
            f"{fate} (SCW 5)")


def _weather(e: Event) -> str:
    dice = f", dice total {_t(e['total'])}" if e.get("total") is not None else ""
    return (f"Weather for {_t(e.get('month'))}, fortnight {_t(e.get('fortnight'))}: "
            f"{_t(e.get('weather'))}{dice} (12.1)")


def _recognition(e: Event) -> str:
    fate = "win the war by it" if e.get("won") else "fail"
    return (f"Foreign Recognition for {_side(e.get('leader'))} at Pacification Level {_t(e.get('level'))}: "
            f"they {fate} (SCW 9B)")


SENTENCES: dict[str, Callable[[Event], str]] = {
    "activated": _activated,
    "revealed": lambda e: (f"{_cap(_block(e))} is revealed at {_t(e.get('hex'))}: {_t(e.get('type'))}, "
                           f"CV {_t(e.get('cv'))}"),
    "moved": _moved,
    "airdropped": lambda e: _moved(e, "is airdropped") + " (14.3)",
    "rearguard": lambda e: (f"{_cap(_block(e))} at {_t(e.get('hex'))} retreats as a rearguard by "
                            f"{_path(e.get('path'))} (6.51)"),
    "deactivated": lambda e: f"{_cap(_block(e))} deactivates: CV {_t(e.get('cv'))} (5.5)",
    "hq-eliminated": lambda e: f"{_cap(_block(e))} deactivates at CV 0 and is eliminated (5.5)",
    "blitz-step": lambda e: (f"{_cap(_block(e))} expends a Blitz step: CV {_t(e.get('cv'))}, command range "
                             f"{_t(e.get('range'))} (4.331)"),
    "paradrop-hq": lambda e: (f"{_cap(_block(e))} commands a Paradrop, Air Range {_t(e.get('air_range'))} "
                              "(14.21)"),
    "battle": _battle,
    "active-battle": lambda e: (f"{_cap(_side(e.get('side')))} fight at {_t(e.get('hex'))} and reveal their "
                                "blocks there (7.14)"),
    "airstrike": lambda e: (f"{_cap(_block(e))} flies an airstrike against {_t(e.get('hex'))} at CV "
                            f"{_t(e.get('cv'))} (7.13)"),
    "air-fire": lambda e: f"The airstrike of {_block(e)} hits {_t(e.get('hex'))} {_fire(e)} (7.13)",
    "fire": _fire_event,
    "pursuit": _pursuit,
    "hit": lambda e: f"{_cap(_block(e))} takes a hit at {_t(e.get('hex'))}: CV {_t(e.get('cv'))} left",
    "eliminated": _eliminated,
    "repulsed": lambda e: (f"{_cap(_block(e))} is repulsed at {_t(e.get('hex'))} and returns to "
                           f"{_t(e.get('to'))} (7.62)"),
    "para-repulse-loss": lambda e: (f"{_cap(_block(e))}, airdropped and repulsed at {_t(e.get('hex'))}, loses a "
                                    "step (7.64)"),
    "para-linkup": lambda e: f"{_cap(_block(e))} links up at {_t(e.get('hex'))} (14.5)",
    "no-effect": lambda e: (f"The {_n(e.get('hits'), 'hit')} at {_t(e.get('hex'))} "
                            f"{'has' if e.get('hits') == 1 else 'have'} no effect: {_t(e.get('why'))}"),
    "battle-over": lambda e: f"The battle at {_t(e.get('hex'))} is over",
    "overstacked": lambda e: (f"{_cap(_side(e.get('side')))} are overstacked at {_t(e.get('hex'))} by "
                              f"{_n(e.get('excess'), 'block')} (6.22)"),
    "overstack-loss": lambda e: f"{_cap(_block(e))} loses a step for overstacking at {_t(e.get('hex'))} (6.22)",
    "attrition": lambda e: (f"{_cap(_block(e))} at {_t(e.get('hex'))} loses a step to supply attrition "
                            "(10.6)"),
    "isolated": lambda e: f"{_t(e.get('hex'))} is isolated and passes to {_side(e.get('side'))} (8.36)",
    "garrison-built": lambda e: f"{_cap(_side(e.get('side')))} build a garrison at {_t(e.get('hex'))} (SCW 2)",
    "garrison-eliminated": lambda e: f"The {_adj(e.get('side'))}garrison at {_t(e.get('hex'))} is eliminated",
    "placed": lambda e: f"{_cap(_side(e.get('side')))} place a block ({_t(e.get('block'))}) at {_t(e.get('hex'))}",
    "militia-roll": _militia,
    "placement-sealed": lambda e: f"{_cap(_side(e.get('side')))} seal their placement",
    "sealed": lambda e: (f"{_cap(_side(e.get('side')))} seal the identities of their "
                         f"{_n(e.get('blocks'), 'block')}"),
    "production": _production,
    "production-sealed": lambda e: f"{_cap(_side(e.get('side')))} seal their production choices (11.2)",
    "built": lambda e: f"{_cap(_block(e))} is built up a step for {_t(e.get('cost'))} PP (11.71)",
    "reinforcement": lambda e: f"{_cap(_block(e))} arrives as a reinforcement at {_t(e.get('hex'))} (11.8)",
    "cadre": lambda e: (f"{_cap(_block(e))} is rebuilt as a cadre at {_t(e.get('hex'))} for "
                        f"{_t(e.get('cost'))} PP (11.72)"),
    "disbanded": lambda e: f"{_cap(_block(e))} at {_t(e.get('hex'))} is disbanded (11.84)",
    "railhead": lambda e: f"{_cap(_side(e.get('side')))} place a railhead at {_t(e.get('hex'))} (SCW 4)",
    "blockade": _blockade,
    "french-aid": lambda e: (f"French Aid die {_t(e.get('die'))}: French Aid is now {_t(e.get('pp'))} PP "
                             "(SCW 3)"),
    "aid-end-die": lambda e: (f"{_cap(_side(e.get('side')))} roll {_t(e.get('die'))} for the end of foreign "
                              "aid (SCW 6)"),
    "aid-ended": lambda e: f"Foreign aid ends: the dice match ({_t(e.get('dice'))}) (SCW 6)",
    "weather-die": lambda e: f"{_cap(_side(e.get('side')))} roll {_t(e.get('die'))} for the weather (12.1)",
    "weather": _weather,
    "recognition-try": lambda e: (f"{_cap(_side(e.get('side')))} try for Foreign Recognition at Pacification "
                                  f"Level {_t(e.get('level'))} (SCW 9B)"),
    "recognition-dice": lambda e: (f"{_cap(_side(e.get('side')))} roll {_t(e.get('dice'))} for Foreign "
                                   "Recognition (SCW 9B)"),
    "recognition": _recognition,
}


def describe(e: Event) -> str:
    """The sentence for one event; a kind this version does not know still reads as words."""
    kind = str(e.get("kind", "?"))
    say = SENTENCES.get(kind)
    if say is not None:
        text = say(e)
    else:  # an event from a newer version of the rules: its facts without Python's notation
        facts = "; ".join(f"{k.replace('_', ' ')} {_t(v)}" for k, v in e.items() if k != "kind")
        text = f"{kind.replace('-', ' ').capitalize()}{': ' + facts if facts else ''}"
    return _cap(text) if text.endswith((".", "!", "?")) else _cap(text) + "."
