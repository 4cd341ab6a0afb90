"""Conditional events (USE 13.3-13.7) and the USSR's Major Power Special Collapse (13.2).

13.8 West Invaded lives in war.py (``west_invaded``); this module fires it too when the USA
joins the Western faction (13.3, 13.4 and 13.8 all name that trigger).

State (optional keys, absent until the event): ``flags`` gains ``east_invaded`` (present from
the start), ``med_crisis``, ``northern_border``, ``southern_border``; the markers East Invaded
places are ``lend_lease`` "USSR", ``fac_lost`` USSR, ``event_markers`` soviet partisans,
``russian_winter`` (turn) and ``urals`` (the turn it was placed): tracking.py moves them.

DECISIONS (the seed gives each event in one line):
* Triggers are checked where they happen: an Axis ground unit entering a hex (movement.
  enter_hex) or declaring an attack on a hex (actions._open_combat), and after every order
  (sequence.settle) for those that follow from the state (Finland/Turkey active, the USA Entry
  marker, 13.5). Each event fires once, and only while the country it acts for is active.
* East Invaded (13.3): an Axis ground unit enters, or the Axis attacks, a hex of the USSR
  (ceded areas included: geo.board gives them to the USSR) or of a Baltic State. "Axis
  Poland" is read as the Polish areas the USSR holds, which the USSR's hexes already cover.
* "Mobilizes N units": as 8.3 places them but free (as West Invaded's French air unit): the
  lowest-id units of the kind in the Mobilization box, each in the USSR's capital or the
  nearest Soviet-held USSR Mainland city with room (3.3) and no enemy; air with 4 Sorties,
  ground at full strength (a conditional mobilization, not 8.3's reduced purchase). When the
  capital is a Map Box city (Moscow in Central Russia, east-med-1941) they go to that box, as
  8.3 places Soviet units there ("up to 5 units in Central Russia Box"): a box has no stacking
  limit (3.3), and 8.3's five a phase bound the Mobilization Phase's purchases, not this.
* Reserves (13.3 Soviet, 13.4 French and UK): units of those countries in the ``reserves``
  box set up at their ``setup`` hex when it is of their country (an Overseas Area for 13.4)
  and free, else go to the Mobilization box (8.3 places them later).
* Mediterranean Crisis (13.4): an Axis ground unit enters a country, other than France and the
  UK, that has a land hex next to a French or UK Overseas Area hex: "entering" is crossing into
  it from a hex of another country (or landing from the sea or a Map Box), as 13.3/13.8's
  "enters"; a move within the country (Italian units in Italy) sets nothing off.
* "Emergency convoy shipping" (13.4) is how the French and UK Reserves reach their Overseas
  Areas: at once, with no Naval Transport action, no convoy or warship, no Sortie and no
  interception or air/naval combat, whatever enemy units are at sea or in the air. A Reserve
  whose set-up hex is taken (enemy, full stack, enemy city or fort) lands in another hex of that
  Overseas Area (a port first, then the nearest), and only when none has room goes to the
  Mobilization box.
* Northern/Southern Border (13.6/13.7): Finland/Turkey becomes active, or an Axis ground unit
  enters a USSR hex numbered 16xx (north) / 36xx (south), the "hex row" of the seed. Two full
  strength USSR ground units of the Conditional box (lowest ids) are placed at their setup
  hex if free, else in the Soviet-held USSR city with room nearest the trigger (Finland or
  Turkey activating: as East Invaded's, the capital or its Map Box first).
* USSR collapse (13.2): after the Collapse Procedure the Moscow Treaty comes into effect first
  (its marker in the next turn's box, policies.py), which makes the Occupied USSR border active
  (occupied.py): the cities of the map area ``occupied-ussr`` come under Axis control, Soviet
  units there are repatriated (10.4, never behind the border; to the Mobilization box when no
  hex takes them), USSR Guards (ids holding "GDS" or "GUARDS": counters carry no Guards flag)
  are delayed 12 turns, on the Turn Track and in the Upgrade box alike, Germany's Conditional
  ground unit goes to the Mobilization box and Germany gains 10 Will (both the first time
  only: the parenthesis closes Germany's gains), and the Axis resolves 1 Political Success
  at every collapse, as it is listed after the Moscow Treaty (diplomacy.grant_success).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .geo import OVERSEAS, Board
from .guards import delay_guards
from .state import State, Unit, enemies, faction_of, is_air, is_ground, stack_class, units_at

Events = list[dict[str, Any]]
ChangeWill = Callable[[State, Board | None, str, int, str, Events], None]

BALTIC = frozenset({"EST", "LAT", "LIT"})
BORDERS = {"northern_border": ("16", "FIN", "13.6"), "southern_border": ("36", "TUR", "13.7")}
EAST_AIR, EAST_GROUND = 1, 5  # 13.3
BORDER_UNITS = 2  # 13.6 / 13.7
USSR_FAC_LOST = 0  # 13.3: as the UK's marker of 13.8 (authored.toml [west_invaded] uk_fac_lost)
USA_DELAY = 6  # 13.5
GERMAN_GAIN = 10  # 13.2 Major Power Special Collapse
WINTER_MONTH = 12  # 15.23: the Russian Winter marker goes to the next December's box


def _active(state: State, code: str) -> bool:
    c = state["countries"].get(code)
    return c is not None and c["status"] == "active"


def _fire(state: State, name: str, h: str | None, events: Events) -> bool:
    if state["flags"].get(name):
        return False
    state["flags"][name] = True
    events.append({"kind": "conditional-event", "name": name.replace("_", "-"), "hex": h})
    return True


def on_enter(state: State, b: Board, unit: Unit, h: str, events: Events, src: str | None = None) -> None:
    """An Axis ground unit entered ``h`` from ``src`` (None: from the sea or a Map Box;
    entry.entered)."""
    if faction_of(state, unit) != "axis":
        return
    on_axis_hex(state, b, h, events)
    code = b.country.get(h)
    if (src is None or b.country.get(src) != code) and _med_country(state, b, code):
        med_crisis(state, b, h, events)


def on_attack(state: State, b: Board, faction: str, h: str, events: Events) -> None:
    """The Axis declared an attack on ``h`` (actions._open_combat): 13.3 "enters/attacks"."""
    if faction == "axis" and (b.country.get(h) == "USSR" or b.country.get(h) in BALTIC):
        east_invaded(state, b, h, events)


def on_axis_hex(state: State, b: Board, h: str, events: Events) -> None:
    code = b.country.get(h)
    if code == "USSR" or code in BALTIC:
        east_invaded(state, b, h, events)
    for name, (row, _, _) in BORDERS.items():
        if code == "USSR" and h.startswith(row):
            border(state, b, name, h, events)


def after_order(state: State, b: Board, events: Events) -> None:
    """Triggers that follow from the state (sequence.settle): Finland/Turkey active (13.6/13.7)
    and both policies ended (13.5). Nothing changes unless one fires."""
    for name, (_, code, _) in BORDERS.items():
        if _active(state, code) and not state["flags"].get(name):
            border(state, b, name, None, events)
    usa_entry_due(state, events)


def usa_entry_due(state: State, events: Events) -> None:
    """USE 13.5: the USA Entry marker goes 6 turns later on the Turn Track (tracking.py) once
    neither Appeasement nor the Nazi-Soviet Pact is in effect while the USA is in the game and
    not active. DECISION: once; a scenario starting so places it on its first order (it may put
    ``usa_entry_turn`` itself instead). Nothing changes unless the marker is placed."""
    usa = state["countries"].get("USA")
    if usa is None or usa["status"] == "active" or state["flags"].get("usa_entry"):
        return
    if "appeasement" in state["policies"] or "nazi-soviet-pact" in state["policies"]:
        return
    extra: Any = state
    state["flags"]["usa_entry"] = True
    extra["usa_entry_turn"] = state["turn"] + USA_DELAY
    events.append({"kind": "marker-placed", "marker": "usa-entry", "country": "USA",
                   "turn": extra["usa_entry_turn"]})


def usa_joins(state: State, b: Board, events: Events) -> None:
    """13.3 / 13.4 / 13.8: the USA joining the Western faction fires all three."""
    east_invaded(state, b, None, events)
    med_crisis(state, b, None, events)
    if not state["flags"]["west_invaded"]:
        from .war import west_invaded

        state["flags"]["west_invaded"] = True
        events.append({"kind": "conditional-event", "name": "west-invaded", "hex": None})
        west_invaded(state, b, events)


def east_invaded(state: State, b: Board, h: str | None, events: Events) -> None:
    """USE 13.3 (see the DECISIONS)."""
    if not _active(state, "USSR") or not _fire(state, "east_invaded", h, events):
        return
    from .policies import place_evaluation

    place_evaluation(state, "nazi-soviet-pact", events)
    pool = sorted(uid for uid, u in state["units"].items() if u["country"] == "USSR" and u["box"] == "mobilization")
    air = [uid for uid in pool if is_air(state["units"][uid])][:EAST_AIR]
    ground = [uid for uid in pool if is_ground(state["units"][uid])][:EAST_GROUND]
    for uid in air + ground:
        _place(state, b, state["units"][uid], "USSR", None, "East Invaded (13.3)", events)
    _reserves(state, b, ("USSR",), False, events)
    if "USSR" not in state.setdefault("lend_lease", []):
        state["lend_lease"].append("USSR")
        events.append({"kind": "marker-placed", "marker": "lend-lease", "country": "USSR"})
    state.setdefault("fac_lost", {}).setdefault("USSR", USSR_FAC_LOST)
    soviet = state["event_markers"].setdefault("soviet", {})
    soviet.setdefault("partisans", "available")
    month = int(state["date"].split("-")[1])
    extra: Any = state  # tracking.py's optional keys
    extra["russian_winter"] = state["turn"] + (WINTER_MONTH - month if month < WINTER_MONTH else 12)
    extra["urals"] = state["turn"]
    for marker in ("fac-lost", "partisans", "russian-winter", "urals-fac"):
        events.append({"kind": "marker-placed", "marker": marker, "country": "USSR"})


def _med_country(state: State, b: Board, code: str | None) -> bool:
    if code is None or code in ("FRA", "UK"):
        return False
    for h, c in b.country.items():
        if c != code or b.is_water(h):
            continue
        for n in b.neighbours(h):
            if b.country.get(n) in ("FRA", "UK") and b.area.get(n) in OVERSEAS and not b.is_water(n):
                return True
    return False


def med_crisis(state: State, b: Board, h: str | None, events: Events) -> None:
    """USE 13.4 (see the DECISIONS)."""
    if not (_active(state, "FRA") or _active(state, "UK")) or not _fire(state, "med_crisis", h, events):
        return
    _reserves(state, b, ("FRA", "UK"), True, events)


def border(state: State, b: Board, name: str, h: str | None, events: Events) -> None:
    """USE 13.6 / 13.7 (see the DECISIONS)."""
    if not _active(state, "USSR") or not _fire(state, name, h, events):
        return
    pool = sorted(uid for uid, u in state["units"].items()
                  if u["country"] == "USSR" and u["box"] == "conditional" and is_ground(u))
    for uid in pool[:BORDER_UNITS]:
        u = state["units"][uid]
        u["reduced"] = False
        setup = u.get("setup")
        if setup and _room(state, b, u, setup, "USSR", overseas=None):
            _put(u, setup, f"{name.replace('_', ' ').title()} ({BORDERS[name][2]})", events)
        else:
            _place(state, b, u, "USSR", h, f"{name.replace('_', ' ').title()} ({BORDERS[name][2]})", events)


def _room(state: State, b: Board, u: Unit, h: str, code: str, overseas: bool | None) -> bool:
    """``h`` of ``code`` takes ``u`` (3.3, no enemy unit, city or fort); ``overseas`` True: an
    Overseas Area hex, False: Mainland, None: either."""
    from .occupied import occupied

    f = faction_of(state, u)
    if b.country.get(h) != code or b.is_water(h) or b.ground_prohibited(h) or occupied(state, b, h):
        return False
    if overseas is not None and b.mainland(h) == overseas:
        return False
    if b.city(h) is not None and state["control"].get(h) != f:
        return False
    if enemies(state["forts"].get(h), f):
        return False
    return not any(enemies(faction_of(state, o), f) or stack_class(o["kind"]) == stack_class(u["kind"])
                   for o in units_at(state, h) if o["id"] != u["id"])


def _place(state: State, b: Board, u: Unit, code: str, near: str | None, why: str, events: Events) -> None:
    """In the capital (its Map Box when it is a box city: ``_capital_box``) or the nearest
    friendly Mainland city of ``code`` with room, else the Mobilization box."""
    box = _capital_box(state, b, u, code) if near is None and b.capital_hex(code) is None else None
    if box is not None:
        u.update({"hex": None, "box": box, "supply": "full", "fort": False, "sm": False})
        u.update({"sorties": 4} if is_air(u) else {"reduced": False})
        events.append({"kind": "mobilize", "unit": u["id"], "hex": box, "why": why})
        return
    target = near or b.capital_hex(code)
    cities = [h for h in b.cities if b.cities[h].country == code and b.mainland(h)
              and _room(state, b, u, h, code, overseas=False)]
    if not cities:
        u.update({"hex": None, "box": "mobilization"})
        events.append({"kind": "arrival", "unit": u["id"], "to": "mobilization"})
        return
    cap = b.capital_hex(code)
    dest = min(cities, key=lambda h: (0 if near is None and h == cap else 1,
                                      b.distance(h, target) if target else 0, h))
    _put(u, dest, why, events)


def _capital_box(state: State, b: Board, u: Unit, code: str) -> str | None:
    """The friendly land Map Box holding ``code``'s box city where 8.3 places its units (Moscow
    in Central Russia on east-med-1941): "Moscow (or the capital) first" (module DECISIONS)."""
    from .economy import BOX_PLACEMENTS

    boxes, _ = BOX_PLACEMENTS.get(code, (frozenset(), 0))
    f = faction_of(state, u)
    held = sorted(box for c, box in b.box_cities.values()
                  if c == code and box in boxes and box in b.land_boxes and b.land_boxes[box][0] == f)
    return held[0] if held else None


def _put(u: Unit, h: str, why: str, events: Events) -> None:
    u.update({"hex": h, "box": None, "supply": "full", "fort": False, "sm": False})
    if is_air(u):
        u["sorties"] = 4
    else:
        u["reduced"] = False
    events.append({"kind": "mobilize", "unit": u["id"], "hex": h, "why": why})


def _reserves(state: State, b: Board, codes: tuple[str, ...], overseas: bool, events: Events) -> None:
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["country"] not in codes or u["box"] != "reserves" or not _active(state, u["country"]):
            continue
        setup = u.get("setup")
        dest = setup if setup and _room(state, b, u, setup, u["country"], overseas=True if overseas else None) \
            else _convoy_hex(state, b, u, setup) if overseas else None
        if dest is not None:
            u.update({"hex": dest, "box": None, "supply": "full", "fort": False, "sm": False})
            ev: dict[str, Any] = {"kind": "arrival", "unit": uid, "to": dest}
            if overseas:
                ev["why"] = "emergency convoy shipping (13.4)"
            events.append(ev)
        else:
            u.update({"hex": None, "box": "mobilization"})
            events.append({"kind": "arrival", "unit": uid, "to": "mobilization"})


def _convoy_hex(state: State, b: Board, u: Unit, setup: str | None) -> str | None:
    """USE 13.4 emergency convoy shipping (module DECISIONS): a Reserve whose set-up hex is taken
    lands elsewhere in that Overseas Area (any of its country's when the set-up hex is in none):
    a port first, then the hex nearest its set-up hex."""
    code = u["country"]
    area = b.area.get(setup) if setup and b.country.get(setup) == code else None
    spots = [h for h in b.terrain if b.country.get(h) == code and b.area.get(h) in OVERSEAS
             and (area not in OVERSEAS or b.area.get(h) == area)
             and _room(state, b, u, h, code, overseas=True)]
    if not spots:
        return None

    def rank(h: str) -> tuple[bool, int, str]:
        city = b.city(h)
        return (not (city is not None and city.port), b.distance(h, setup) if setup in b.terrain else 0, h)

    return min(spots, key=rank)


def ussr_collapse(state: State, b: Board, events: Events, change_will: ChangeWill) -> None:
    """USE 13.2 Major Power Special Collapse of the USSR, after the Collapse Procedure."""
    from .homedef import repatriate
    from .occupied import AREA, occupy

    # The treaty first: it makes the Occupied USSR border active (occupied.py), so that no
    # repatriated unit is put back behind it.
    if "moscow-treaty" not in state["policies"]:
        state["policies"] = sorted([*state["policies"], "moscow-treaty"])
        extra: Any = state  # policies.py's optional key
        extra["moscow_treaty_turn"] = state["turn"] + 1
        events.append({"kind": "marker-placed", "marker": "moscow-treaty", "country": "USSR"})
    occupy(state, b, events)
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if faction_of(state, u) != "soviet" or u["box"] is not None or u["hex"] is None:
            continue
        if b.area.get(u["hex"]) == AREA and not repatriate(
                state, b, u, {"units": 1, "within": None, "of": None}, events):
            u.update({"hex": None, "box": "mobilization", "fort": False})
            events.append({"kind": "arrival", "unit": uid, "to": "mobilization"})
    delay_guards(state, events)  # USE 13.2 "USSR Guards delayed 1 year"
    if state["countries"]["USSR"]["collapses"] == 1 and _active(state, "GER"):
        for uid in sorted(state["units"]):
            u = state["units"][uid]
            if u["country"] == "GER" and u["box"] == "conditional" and is_ground(u):
                u["box"] = "mobilization"
                events.append({"kind": "conditional-unit", "unit": uid, "to": "mobilization"})
                break
        change_will(state, b, "GER", GERMAN_GAIN, "USSR collapsed (13.2)", events)
    if _active(state, "GER"):
        from .diplomacy import grant_success

        grant_success(state, "axis", "USSR collapsed (13.2)", events)

