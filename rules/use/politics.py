"""Politics: entry bans from neutrality and policies (2.1.1, 10.3), Declare War (10.1),
Country Activation (13.1), Collapse and Conquest (13.2), National Will, Victory (12.1)."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .refusals import illegal
from .state import Country, State, Unit, faction_of

# Counters of these countries are exempt from Cooperation Limits between minors (USE 10.3.2).
COOP_EXEMPT = frozenset({"FRA", "GER", "UK", "USA", "USSR"})
MAJORS = frozenset({"GER", "UK", "USA", "USSR"})


def policy(state: State, name: str) -> bool:
    return name in state["policies"]


def country_of_hex(state: State, b: Board, h: str) -> Country | None:
    code = b.country.get(h)
    if code is None:
        return None
    return state["countries"].get(code)


def entry_ban(state: State, b: Board, unit: Unit, h: str, purpose: str,
              final: bool = True) -> tuple[str, str] | None:
    """Why ``unit`` may not enter ``h`` (rule, message), or None.

    ``purpose``: "move" (operational or air), "retreat", "strategic", "supply".
    ``final``: whether ``h`` is where the unit ends (some bans exempt passing through).
    """
    code = b.country.get(h)
    if code is None:
        return None
    if code in b.prohibited_countries:
        return "1.3.8", f"hex {h} is in {code}, a Prohibited Country"
    faction = faction_of(state, unit)
    c = state["countries"].get(code)
    status = c["status"] if c else "neutral"
    if status == "neutral":
        # DECISION (rules-gaps 16): 2.1.1 bars only non-coastal neutral hexes; 10.3.3 is a
        # policy that, while in effect, bars the whole country. Both hold: the policy is stricter.
        if policy(state, "neutral-non-violation"):
            return "10.3.3", f"hex {h} is in neutral {code}; Neutral Non-Violation bars entering it"
        if h not in b.coastal:
            return "2.1.1", f"hex {h} is a non-coastal hex of neutral {code}"
    owner = c["faction"] if c else None
    if purpose == "supply":
        return None
    if policy(state, "nazi-soviet-pact"):
        if faction == "axis" and owner == "soviet":
            return "10.3.5", f"Nazi-Soviet Pact: Axis units cannot enter Soviet country {code}"
        if faction == "soviet" and owner not in (None, "soviet"):
            return "10.3.5", f"Nazi-Soviet Pact: Soviet units cannot enter enemy country {code}"
    if policy(state, "appeasement"):
        if faction == "axis" and owner == "western":
            return "10.3.4", f"Appeasement: Axis units cannot enter Western country {code}"
        if faction == "western" and owner not in (None, "western"):
            return "10.3.4", f"Appeasement: Western units cannot enter enemy country {code}"
    if policy(state, "moscow-treaty"):
        ban = _treaty_ban(state, b, unit, h, code, status == "active")
        if ban:
            return ban
    if policy(state, "cooperation-limits") and not (purpose == "strategic" and not final):
        home = unit["country"]
        if faction == "soviet" and code in ("FRA", "UK"):
            return "10.3.2", f"Cooperation Limits: Soviet counters cannot enter {code}"
        if faction == "western" and code == "USSR":
            return "10.3.2", "Cooperation Limits: Western counters cannot enter the USSR"
        if (home not in COOP_EXEMPT and code not in COOP_EXEMPT and code != home
                and owner == faction):
            return "10.3.2", f"Cooperation Limits: {home} counters cannot enter friendly minor country {code}"
    return None


def _treaty_ban(state: State, b: Board, unit: Unit, h: str, code: str, active: bool) -> tuple[str, str] | None:
    """USE 10.3.6: "cannot leave active USSR" and "Axis cannot enter active USSR"; Occupied USSR
    (occupied.py) is conquered land, not active USSR: the Axis may enter it, USSR counters may not.
    DECISION: "cannot leave active USSR" binds USSR counters (Map Boxes have no country: the
    Central Russia box stays open); supply lines are not units and may cross."""
    from .occupied import occupied

    behind = occupied(state, b, h)
    if faction_of(state, unit) == "axis" and code == "USSR" and active and not behind:
        return "10.3.6", "Moscow Treaty: Axis units cannot enter active USSR"
    if unit["country"] == "USSR" and behind:
        return "10.3.6", f"Moscow Treaty: hex {h} is Occupied USSR (conquered); USSR units cannot leave active USSR"
    if unit["country"] == "USSR" and code != "USSR":
        return "10.3.6", f"Moscow Treaty: USSR units cannot leave the USSR (hex {h} is in {code})"
    return None


def check_entry(state: State, b: Board, unit: Unit, h: str, purpose: str, order: dict[str, Any],
                final: bool = True) -> None:
    ban = entry_ban(state, b, unit, h, purpose, final)
    if ban:
        illegal(order, ban[1], ban[0])


def may_attack(state: State, attacker: str, defender: str) -> tuple[str, str] | None:
    """USE 10.3.4 / 10.3.5: factions under Appeasement or the Pact cannot attack each other."""
    pair = {attacker, defender}
    if policy(state, "nazi-soviet-pact") and pair == {"axis", "soviet"}:
        return "10.3.5", "Nazi-Soviet Pact: Axis and Soviet cannot attack each other"
    if policy(state, "appeasement") and pair == {"axis", "western"}:
        return "10.3.4", "Appeasement: Axis and Western cannot attack each other"
    return None


# 10.3.4 / 10.3.5: (policy, the faction it confines, rule)
_CONFINED = (("nazi-soviet-pact", "soviet", "10.3.5"), ("appeasement", "western", "10.3.4"))


def end_ban(state: State, b: Board, unit: Unit, where: str) -> tuple[str, str] | None:
    """Why ``unit`` may not END a move in ``where`` (a hex or a Map Box id), or None.

    USE 10.3.5 (Pact): Soviet units cannot "end outside home/Map Boxes"; 10.3.4 (Appeasement):
    the same for Western units.
    DECISION: "home" is the unit's own country (the hexes of its country code, Mainland and
    Overseas alike), as in Repatriation's "friendly home city" (10.4); a Map Box is any box,
    land or sea. Passing through other hexes is allowed (the text bans only ending there);
    forced moves (retreat, displacement, repatriation) are not moves the player ends and are
    not checked. In France 1940 the Soviet faction has no counters and Appeasement is off,
    so the ban never bites there.
    """
    if where in b.land_boxes or where in b.sea_boxes:
        return None
    over = overseas_ban(state, b, unit, where)
    if over:
        return over
    faction = faction_of(state, unit)
    for name, confined, rule in _CONFINED:
        if policy(state, name) and faction == confined and b.country.get(where) != unit["country"]:
            what = "Nazi-Soviet Pact" if rule == "10.3.5" else "Appeasement"
            return rule, (f"{what}: {faction.title()} units cannot end a move outside their home country "
                          f"or a Map Box ({unit['id']} is {unit['country']}, {where} is not)")
    return None


def overseas_ban(state: State, b: Board, unit: Unit, where: str) -> tuple[str, str] | None:
    """USE 13.1 "Italy max 3 field ground units in Overseas Areas", wherever a unit ends: a move
    (``end_ban``), an Advance after Combat (combat._advance) or an Amphibious Invasion."""
    from .war import italy_overseas_full

    if b.country.get(where) is not None and not b.mainland(where) and italy_overseas_full(state, b, unit):
        return "13.1", (f"Italy may have at most 3 field ground units in Overseas Areas; {where} is "
                        f"Overseas and 3 are there already")
    return None


def check_end(state: State, b: Board, unit: Unit, where: str, order: dict[str, Any]) -> None:
    ban = end_ban(state, b, unit, where)
    if ban:
        illegal(order, ban[1], ban[0])
