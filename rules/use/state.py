"""USE game state as canonical dicts, plus typed accessors.

The public state is one dict of plain values (str keys, lists, str, int, bool,
None) so the engine can hash it; nothing here is a dataclass at rest. Every
function that changes the state works on a deep copy made once by ``apply``.

Layout (all keys always present)::

    v            format version (int)
    scenario     scenario name
    map          {"scenario": name} or {"blank": spec} (see geo.board)
    factions     playing factions in faction order (USE 1.2: Axis, Western, Soviet)
    turn, date   turn number (1-based) and "YYYY-MM"; last_turn ends the game
    phase        current phase name (PHASES); active: the phasing faction
    weather      {"cold"|"mild"|"warm"|"desert": "fair"|"poor"|"severe"}
    countries    {code: Country, see new_country}
    units        {id: unit dict, see new_unit}
    control      {city hex: faction}
    forts        {hex: faction}
    activation_forts {hex: country} fort markers placed when their neutral country activates (13.1)
    home_defense {country: [{"units", "within", "of"}]} Home Defense requirements (10.3.1)
    policies     sorted list of policy names in effect (USE 10.3); fixed_policies: those that cannot end
    markers      {"airdrop": {hex: faction}, "partisans": {...}, "no_ezoc": [hex], "bombed": {hex: faction}}
    event_markers {faction: {"airdrop"|"partisans": "available"|"placed"|turn|"removed"}}
    assaults     {target hex: {"faction", "units": [ids]}} designated Assaults (USE 5.3.3)
    disband      unit ids to eliminate voluntarily in the No Supply Phase (USE 7.5.2)
    activation   None or the unit being activated (USE 6.0)
    combats      pending combats waiting for Will Commit or resolution (USE 5.1)
    standing     {faction: standing orders} (no secrecy needed)
    flags        conditional-event flags (West Invaded 13.8, ...)
    done_turn    per-turn bookkeeping (improved units, supply reductions, transfers)
    victory      the scenario's victory conditions (12.1); next_combat: the last combat id
    over         None, or the sentence naming the winner

Optional keys (absent until the event happens): ``areas`` {map area: {"country", "capital"}}
areas that changed country (ceded 2.2, created 16.0; ``geo.board`` applies them), ``ceded``
ceded Disputed Areas (15.5), ``diplomacy_cup`` markers added to the Diplomacy Cup (13.2.2),
``lend_lease`` countries receiving Lend Lease (15.13), ``fac_lost`` {country: Fac Lost marker}
(15.10), ``turn_dice`` rolls deferred to the next turn and ``due`` orders waiting for their dice
(strict dice). The TypedDicts below spell out every value.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from pbem import rulesapi

# The state's shape for mypy. TypedDicts are plain dicts at runtime: the canonical encoding is
# whatever new_state / new_country / new_unit and the rules write, these only name it.


class Unit(TypedDict):
    id: str
    country: str
    kind: str
    hex: str | None
    box: str | None
    reduced: bool
    elite: bool
    supply: str
    sorties: int
    fort: bool
    sm: bool
    acted: bool
    attack_mode: str | None
    repatriated: bool
    setup: NotRequired[str | None]  # activation (13.1) or Turn Track (12.2) hex
    shock: NotRequired[bool]  # a Shock unit (3.2); the key is present only on Shock units
    arrive: NotRequired[int]  # turn of arrival from the Turn Track (12.2)


class Country(TypedDict):
    faction: str | None
    status: str
    will: int
    printed_will: int
    offmap: int
    mult: int
    pp: int
    major: bool
    conquered_by: str | None
    collapses: int
    can_dow: NotRequired[bool]  # scenario countries only (cases' blank maps omit it)
    pro: NotRequired[str | None]  # Pro-Faction marker (13.1, 13.2.2)
    capital: NotRequired[str | None]  # dormant countries (16.0)
    area: NotRequired[str | None]
    extra: NotRequired[int]  # Extra Factories Track (15.6, 15.13)
    will_removed: NotRequired[bool]  # UK/USA collapse (13.2)


class Activation(TypedDict):
    unit: str
    mp: int
    start: str | None
    fresh: bool
    stopped: bool
    no_ezoc: list[str]


class Combat(TypedDict):
    id: int
    kind: str
    attacker: str
    defender: str
    target: str
    defender_unit: str
    attackers: list[str]
    ref: str
    status: str
    def_commit: bool | None
    def_air: str | None
    retreat: str | None
    advance: bool
    advancer: str | None
    escorts: NotRequired[list[str]]  # air strike at an escorted naval unit (6.2.4)
    # 5.1 step 2 as written (actions.py): air units declared after the reveal, in turn
    declare: NotRequired[bool]
    att_commit: NotRequired[bool]
    att_air: NotRequired[str | None]
    turn: NotRequired[str]
    passed: NotRequired[bool]


class Assault(TypedDict):
    faction: str
    units: list[str]


class Markers(TypedDict):
    airdrop: dict[str, str]
    partisans: dict[str, str]
    no_ezoc: list[str]
    bombed: dict[str, str]


class Standing(TypedDict):
    will_commit: str | None
    retreat_toward: str | None
    skip: list[str]
    home_defense: NotRequired[list[str]]
    intercept: NotRequired[list[str]]
    pro_marker: NotRequired[list[str]]


# "from" is a keyword, hence the functional form.
Transfer = TypedDict("Transfer", {"from": str, "to": str, "pp": int})


class DoneTurn(TypedDict):
    improved: list[str]
    supply_reduced: list[str]
    transfers: list[Transfer]
    sm: list[str]


class HomeDefense(TypedDict):
    units: int
    within: int | None
    of: str | None


class Victory(TypedDict):
    faction: str
    timing: str
    test: str
    arg: str | None
    text: str


class AreaChange(TypedDict):
    country: str
    capital: str | None


class TurnDie(TypedDict):
    """A roll deferred to the next turn (strict dice): kind "strategic" (code, defender, drm)
    or "marker-return" (faction, marker, turn)."""

    kind: str
    code: NotRequired[str]
    defender: NotRequired[str]
    drm: NotRequired[int]
    faction: NotRequired[str]
    marker: NotRequired[str]
    turn: NotRequired[int]


class Due(TypedDict):
    roller: str
    order: dict[str, Any]


class State(TypedDict):
    v: int
    scenario: str
    map: dict[str, Any]  # {"scenario": name} or {"blank": spec}: the spec is geo's business
    factions: list[str]
    turn: int
    date: str
    last_turn: int
    phase: str
    active: str
    weather: dict[str, str]
    countries: dict[str, Country]
    units: dict[str, Unit]
    control: dict[str, str]
    forts: dict[str, str]
    activation_forts: dict[str, str]
    home_defense: dict[str, list[HomeDefense]]
    policies: list[str]
    fixed_policies: list[str]
    markers: Markers
    event_markers: dict[str, dict[str, str | int]]
    assaults: dict[str, Assault]
    disband: list[str]
    activation: Activation | None
    combats: list[Combat]
    standing: dict[str, Standing]
    flags: dict[str, bool]  # conditional events, named by the scenario
    done_turn: DoneTurn
    victory: list[Victory]
    next_combat: int
    over: str | None
    areas: NotRequired[dict[str, AreaChange]]
    ceded: NotRequired[list[str]]
    diplomacy_cup: NotRequired[list[str]]
    lend_lease: NotRequired[list[str]]
    fac_lost: NotRequired[dict[str, int]]
    turn_dice: NotRequired[list[TurnDie]]
    due: NotRequired[list[Due]]  # orders waiting for their dice (strict dice, module.run_order)
    will_commit_air: NotRequired[str]  # game option "sealed" (actions.AIR_OPTION); absent: as written
    seats: NotRequired[dict[str, list[str]]]  # seat -> its factions, where one holds several (seating.py)
    sea: NotRequired[dict[str, Any]]  # Surprise Attack/Mulberry markers at sea (amphib.py); absent: none

FACTIONS = ("axis", "western", "soviet")  # USE 1.2 faction order

# USE 1.2 Sequence of Play. Operations is split into its two Sub-Phases (1.2.1).
PHASES = (
    "weather",
    "declare-war",
    "economy",
    "strategic-warfare",
    "strategic-move",
    "actions",
    "supply-check",
    "no-supply",
    "replacements",
    "upgrade",
    "mobilization",
    "diplomacy",
    "victory",
    "end-of-turn",
)

WEATHER_ZONES = ("cold", "mild", "warm", "desert")
WEATHERS = ("fair", "poor", "severe")

# USE 3.2 unit kinds.
LEG = ("infantry", "paratroop", "garrison")
MOBILE = ("motorized", "tank")
GROUND = LEG + MOBILE
AIR = ("fighter", "bomber")
NAVAL = ("carrier", "surface", "convoy")
KINDS = GROUND + AIR + NAVAL

# USE 3.3: a hex holds at most one of each stacking class.
def stack_class(kind: str) -> str:
    if kind in GROUND:
        return "ground"
    if kind in ("carrier", "surface"):
        return "warship"
    return kind  # fighter, bomber, convoy


SUPPLY_STATES = ("full", "low", "no")  # USE 7.1
POLICIES = (
    "home-defense",
    "cooperation-limits",
    "neutral-non-violation",
    "appeasement",
    "nazi-soviet-pact",
    "moscow-treaty",
)
STATUSES = ("active", "neutral", "conquered")  # a collapse (13.2) is counted, not a status


def new_state(scenario: str, map_spec: dict[str, Any], factions: list[str], date: str,
              last_turn: int) -> State:
    return {
        "v": 1,
        "scenario": scenario,
        "map": map_spec,
        "factions": [f for f in FACTIONS if f in factions],
        "turn": 1,
        "date": date,
        "last_turn": last_turn,
        "phase": "weather",
        "active": "axis",
        "weather": {z: "fair" for z in WEATHER_ZONES},
        "countries": {},
        "units": {},
        "control": {},
        "forts": {},
        "activation_forts": {},
        "home_defense": {},
        "policies": [],
        "fixed_policies": [],  # policies the scenario says cannot end (no evaluation, no DOW)
        "markers": {"airdrop": {}, "partisans": {}, "no_ezoc": [], "bombed": {}},
        "event_markers": {},  # {faction: {"airdrop"|"partisans": "available"|turn|"removed"}}
        "assaults": {},
        "disband": [],  # units to eliminate voluntarily in the No Supply Phase (USE 7.5.2)
        "activation": None,
        "combats": [],
        "standing": {f: {"will_commit": None, "retreat_toward": None, "skip": []} for f in factions},
        "flags": {"west_invaded": False, "east_invaded": False, "usa_entry": False},
        "done_turn": {"improved": [], "supply_reduced": [], "transfers": [], "sm": []},
        "victory": [],  # scenario victory conditions (12.1), see war.victory_check
        "next_combat": 0,
        "over": None,
    }


def new_country(faction: str | None, status: str, will: int, *, printed_will: int | None = None,
                offmap: int = 0, mult: int = 1, major: bool = False) -> Country:
    """``offmap``: factories not printed on this map, added to the Factory Count (9.1)."""
    return {"faction": faction, "status": status, "will": will,
            "printed_will": will if printed_will is None else printed_will,
            "offmap": offmap, "mult": mult, "pp": 0, "major": major, "conquered_by": None,
            "collapses": 0}  # USE 13.2: times collapsed (the country stays active)


def new_unit(uid: str, country: str, kind: str, hex_: str | None, *, reduced: bool = False,
             elite: bool = False, supply: str = "full", sorties: int = 0, fort: bool = False,
             box: str | None = None) -> Unit:
    return {
        "id": uid,
        "country": country,
        "kind": kind,
        "hex": hex_,
        "box": box,  # None on the map; "mobilization", "eliminated", "upgrade" or a Map Box
        "reduced": reduced,
        "elite": elite,
        "supply": supply,
        "sorties": sorties,
        "fort": fort,
        "sm": False,  # Strategic Move marker (USE 4.1.4)
        "acted": False,  # activated this Actions Sub-Phase (USE 6.0: one activation each)
        "attack_mode": None,  # "mobile"/"assault" used this phase (USE 5.3.3)
        "repatriated": False,  # repatriated this turn: cannot be activated (USE 10.4)
    }


# Boxes a unit is out of play in; any other box is a Map Box (1.3.5), where a unit is in play.
OUT_OF_PLAY = ("mobilization", "eliminated", "inactive", "removed", "upgrade", "turn", "conditional")


def in_play(unit: Unit) -> bool:
    """On the map or in a Map Box: where collapse (13.2) and the like reach a unit."""
    return on_map(unit) or (unit["box"] is not None and unit["box"] not in OUT_OF_PLAY)


def clone(state: State) -> State:
    return cast(State, rulesapi.copy_data(state))


# --- accessors -------------------------------------------------------------


def faction_of(state: State, unit: Unit) -> str | None:
    c = state["countries"].get(unit["country"])
    return None if c is None else c["faction"]


def is_ground(unit: Unit) -> bool:
    return unit["kind"] in GROUND


def is_air(unit: Unit) -> bool:
    return unit["kind"] in AIR


def is_naval(unit: Unit) -> bool:
    return unit["kind"] in NAVAL


def is_leg(unit: Unit) -> bool:
    return unit["kind"] in LEG


def on_map(unit: Unit) -> bool:
    return unit["hex"] is not None and unit["box"] is None


def hex_of(unit: Unit) -> str:
    """The hex of a unit the caller knows to be in one (on the map, or inactive at its setup hex)."""
    h = unit["hex"]
    assert h is not None, f"{unit['id']} is in no hex"
    return h


def units_at(state: State, hex_: str) -> list[Unit]:
    return [u for u in state["units"].values() if u["hex"] == hex_ and u["box"] is None]


def ground_at(state: State, hex_: str) -> Unit | None:
    for u in units_at(state, hex_):
        if is_ground(u):
            return u
    return None


def enemies(a: str | None, b: str | None) -> bool:
    """USE 2.3: the three factions are mutually enemy; a neutral (None/"neutral") is nobody's enemy."""
    return a in FACTIONS and b in FACTIONS and a != b


def unit_enemy(state: State, unit: Unit, faction: str) -> bool:
    return enemies(faction_of(state, unit), faction)


def mp_allowance(unit: Unit) -> int:
    """USE 4.2 / 3.2: Leg 8 MP, all others 10; 4 and 5 in Low or No Supply (USE 7.1)."""
    if unit["supply"] == "full":
        return 8 if is_leg(unit) else 10
    return 4 if is_leg(unit) else 5


def activation_cost(unit: Unit) -> int:
    """USE 6.0: Leg 1 PP, Mobile 2 PP, air and naval 0 PP."""
    if is_leg(unit):
        return 1
    if unit["kind"] in MOBILE:
        return 2
    return 0


def add_sorties(unit: Unit, n: int) -> None:
    """USE 1.5: Sorties never exceed 6 (a unit may 'suffer' more, but the marker stops at 6)."""
    unit["sorties"] = max(0, min(6, unit["sorties"] + n))


def city_owner(state: State, hex_: str) -> str | None:
    owner: str | None = state["control"].get(hex_)
    return owner


def playing(state: State, faction: str) -> bool:
    return faction in state["factions"]


def next_faction(state: State, faction: str) -> str | None:
    order = state["factions"]
    i = order.index(faction)
    return order[i + 1] if i + 1 < len(order) else None


def date_add(date: str, months: int) -> str:
    y, m = (int(x) for x in date.split("-"))
    total = y * 12 + (m - 1) + months
    return f"{total // 12:04d}-{total % 12 + 1:02d}"
