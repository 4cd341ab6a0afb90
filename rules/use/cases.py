"""PRESTATE / POSTSTATE line language of the USE rules cases (tests/cases/use/*.case).

PRESTATE (one statement a line; words in [] optional)::

    map blank 20x20 [country=FRA]        a rectangle of clear, mild-zone land (default 20x20 FRA)
    map france-1940                      the scenario's real map, no units (countries from the scenario)
    scenario france-1940                 the scenario's full start (then statements modify it)
    hex 1204 terrain=rough [country=GER] [area=NAME] [zone=cold] [faded] [coastal]
    side 1204 1205 river|prohibited|water|strait
    transport 1201 1202 1203 ...         a Transport Line through consecutive hexes
    city 1305 NAME COUNTRY [capital] [port] [factories=N]   (control goes to the country's faction)
    prohibit SWI                         a Prohibited Country (1.3.8)
    factions axis western
    turn 1940-05 [n=1] [last=10]
    phase actions axis                   the current step (phase, phasing faction)
    weather mild poor | weather all severe
    country GER axis|western|soviet|neutral [active|neutral|collapsed] [will=N] [printed=N] [offmap=N] [mult=N]
            [pp=N] [dow=no] [pro=F] [collapses=N]   (collapsed = active, collapsed once: 13.2)
    unit ID COUNTRY KIND HEX|box=BOX [reduced] [elite] [shock] [supply=low|no] [sorties=N] [fort] [sm] [setup=HEX]
         [arrive=N]                      (box=turn arrive=N setup=HEX: arrives on turn N, 12.2)
    control HEX FACTION | fort HEX FACTION | policy NAME [fixed] | policy NAME off
    marker airdrop|partisans|bombed HEX FACTION | marker no-ezoc HEX
    seazone ID HEX... | seazone-adj A B | seabox ID FACTION ZONE...   sea zones and sea Map Boxes
    strait A B HEX HEX                   the A-B zone border is a Strait pointing to the two hexes (4.2.4)
    landbox ID FACTION EDGEHEX...        a land Map Box and its edge hexes (1.3.5)
    home-defense CODE units=N [within=N of=HEX]   a Home Defense requirement (10.3.1)
    activation-fort HEX COUNTRY          a fort marker placed when COUNTRY activates (13.1)
    repatriated ID                       ID was repatriated this turn (10.4)
    activation ID [mp=N] [moved]         ID is mid-activation with N MP left
    supply-reduced ID | improved ID      per-turn bookkeeping (7.2 once a turn, 8.1 once a turn)
    event-marker FACTION airdrop|partisans [available|placed|removed|N]
                                         the faction's event marker (default available; N: in
                                         turn N's box of the Turn Track, 1.6)
    assault HEX ID [ID ...]              Assault marker of the units' faction on HEX
    standing FACTION will-commit yes|no | standing FACTION retreat-toward HEX | standing FACTION skip PHASE
    lend-lease CODE | fac-lost CODE N | flag NAME true|false   (13.8 markers, conditional-event flags)
    victory FACTION sudden|end collapsed|conquered|controls|otherwise [ARG] ["text"]
    option will_commit_air=sealed        a game option of the proposal (module.initial_state)
    option air_commit_drm=no             the air combat of rules 0.9/0.10's games (module.started_by)

    surprise-attack ZONE FACTION [used=N] | mulberry HEX FACTION: rules/use/navalcases.py (14.17,
    15.16; checks too). Not representable: a policy-dependent starting Will (10.3.4, 10.3.5) is
    scenario data, already applied in countries.txt's will= (write it as `country ... will=N`).

POSTSTATE checks::

    unit ID at HEX | unit ID reduced|full|fort|no-fort|sm|no-sm|shock|no-shock|elite|no-elite
    unit ID FIELD=VALUE                  any attribute (supply=S, sorties=N, box=B, kind=K, setup=HEX,
                                         arrive=N; an attribute the unit lacks reads none, shock false)
    eliminated ID | alive ID | pp COUNTRY N | will COUNTRY N | control HEX FACTION|none
    fort HEX FACTION|none | phase PHASE [FACTION] | turn N | date YYYY-MM | weather ZONE W
    pending SEAT [KIND] | combats N | country CODE FACTION [STATUS|collapsed] | collapses CODE N
    policy NAME on|off
    flag NAME true|false | mp N | activation none|ID | over [TEXT] | not-over
    standing FACTION will-commit V | assault HEX [ID ...] | no-assault HEX
    activation-fort HEX COUNTRY|none | extra CODE N | fac-lost CODE N|none | lend-lease CODE on|off
    marker airdrop|partisans|bombed HEX FACTION|none | marker no-ezoc HEX on|off
    event-marker FACTION MARKER available|placed|removed|N|None
    track CODE NAME V                    any track of a country: will, pp, extra, fac-lost, printed-will,
                                         offmap, mult, collapses (none: not on the track)
    track turn N                         the Turn marker
    turn-track N ITEM...|empty           exactly what is in turn N's box of the Turn Track: unit ids
                                         (box=turn arrive=N) and event markers as FACTION:MARKER

The engine's EVENT / NO-EVENT lines check the files' public events (pbem.kit.cases), e.g.
``EVENT combat att_die=5 att_parts.supply=-2 att_final=3 result=DR``.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import Any

from pbem.errors import InvalidInput

from .state import FACTIONS, State, new_country, new_state, new_unit

DEFAULT_COUNTRIES = {
    "GER": ("axis", 40), "ITA": ("axis", 12), "FRA": ("western", 35), "UK": ("western", 20),
    "BEL": ("western", 3), "NET": ("western", 3), "USSR": ("soviet", 85),
}


def _kv(words: list[str]) -> tuple[list[str], dict[str, str]]:
    pos, kv = [], {}
    for w in words:
        if "=" in w:
            k, _, v = w.partition("=")
            kv[k] = v
        else:
            pos.append(w)
    return pos, kv


def prestate(lines: list[tuple[int, str]]) -> tuple[State, dict[str, Any]]:
    spec: dict[str, Any] = {"cols": 20, "rows": 20, "country": "FRA", "hexes": {}, "sides": [],
                            "transport": [], "cities": {}, "prohibited": []}
    s: State | None = None
    rest: list[tuple[int, list[str]]] = []
    for no, line in lines:
        try:
            words = shlex.split(line)
        except ValueError as e:
            raise InvalidInput(f"PRESTATE line {no}: {e}") from None
        if not words:
            continue
        if words[0] == "map" and len(words) > 1 and words[1] == "blank":
            _blank_map(spec, words[2:])
        elif words[0] in ("map", "scenario"):
            s = _from_scenario(words[1], full=words[0] == "scenario")
        elif words[0] in _MAP_STATEMENTS:
            _MAP_STATEMENTS[words[0]](spec, words)
        else:
            rest.append((no, words))
    if s is None:
        s = _blank_state(spec)
    extra: Any = s
    extra["air_commit_drm"] = True  # this release's rules (module.started_by); `option air_commit_drm=no`: 0.10's
    for no, words in rest:
        try:
            _statement(s, words)
        except (KeyError, IndexError, ValueError) as e:
            raise InvalidInput(f"PRESTATE line {no}: cannot read {' '.join(words)!r} ({e})") from None
    return s, {f: None for f in s["factions"]}


# -- map statements: they describe the blank map, which is built once they are all read --------

def _blank_map(spec: dict[str, Any], words: list[str]) -> None:
    _, kv = _kv(words)
    for w in words:
        if "x" in w and "=" not in w:
            c, _, r = w.partition("x")
            spec["cols"], spec["rows"] = int(c), int(r)
    spec["country"] = kv.get("country", "FRA")


def _map_hex(spec: dict[str, Any], words: list[str]) -> None:
    pos, kv = _kv(words[1:])
    attrs: dict[str, Any] = dict(kv)
    for flag in pos[1:]:
        attrs[flag] = True
    spec["hexes"].setdefault(pos[0], {}).update(attrs)


def _map_city(spec: dict[str, Any], words: list[str]) -> None:
    pos, kv = _kv(words[1:])
    spec["cities"][pos[0]] = {"name": pos[1], "country": pos[2], "capital": "capital" in pos,
                              "port": "port" in pos, "factories": int(kv.get("factories", 0))}


def _map_seazone(spec: dict[str, Any], words: list[str]) -> None:
    """seazone ID HEX...: the hexes (water, coastal, ports) belonging to sea zone ID (1.3.6)."""
    for h in words[2:]:
        spec.setdefault("seazones", {}).setdefault(h, [])
        spec["seazones"][h] = sorted(set(spec["seazones"][h]) | {words[1]})


def _map_strait(spec: dict[str, Any], words: list[str]) -> None:
    """strait A B HEX HEX: zones A and B meet at a Strait pointing to the two hexes (4.2.4)."""
    spec.setdefault("straits", []).append(words[1:5])
    spec.setdefault("zone_adj", []).append([words[1], words[2]])


def _map_seabox(spec: dict[str, Any], words: list[str]) -> None:
    """seabox ID FACTION ZONE...: a sea Map Box friendly to FACTION next to the zones (1.3.5)."""
    spec.setdefault("sea_boxes", {})[words[1]] = words[2]
    for z in words[3:]:
        spec.setdefault("zone_adj", []).append([words[1], z])


def _map_landbox(spec: dict[str, Any], words: list[str]) -> None:
    """landbox ID FACTION EDGEHEX...: a land Map Box friendly to FACTION (1.3.5)."""
    spec.setdefault("land_boxes", {})[words[1]] = [words[2], words[3:]]


_MAP_STATEMENTS: dict[str, Callable[[dict[str, Any], list[str]], None]] = {
    "hex": _map_hex,
    "side": lambda spec, words: spec["sides"].append([words[1], words[2], words[3]]),
    "transport": lambda spec, words: spec["transport"].append(words[1:]),
    "city": _map_city,
    "prohibit": lambda spec, words: spec["prohibited"].append(words[1]),
    "seazone": _map_seazone,
    "seazone-adj": lambda spec, words: spec.setdefault("zone_adj", []).append([words[1], words[2]]),
    "strait": _map_strait,
    "landbox": _map_landbox,
    "seabox": _map_seabox,
}


def _blank_state(spec: dict[str, Any]) -> State:
    """The state on the blank map: the default countries, their cities' control, Axis actions."""
    s = new_state("case", {"blank": spec}, ["axis", "western"], "1940-05", 10)
    for code, (f, will) in DEFAULT_COUNTRIES.items():
        s["countries"][code] = new_country(f, "active", will, mult=1)
        s["countries"][code]["pp"] = 20
    for h, c in spec["cities"].items():
        owner = s["countries"].get(c["country"])
        s["control"][h] = (owner["faction"] if owner is not None else None) or "neutral"
    s["phase"], s["active"] = "actions", "axis"
    return s


def _from_scenario(name: str, full: bool) -> State:
    from . import scenario as scen
    from .initial import state_from_scenario

    s = state_from_scenario(scen.load_scenario(name))
    if not full:
        s["units"] = {}
    s["phase"], s["active"] = "actions", "axis"
    for c in s["countries"].values():
        c["pp"] = 20 if c["status"] == "active" else 0
    return s


def _statement(s: State, words: list[str]) -> None:
    head, args = words[0], words[1:]
    pos, kv = _kv(args)
    from .diplocases import STATEMENTS as DIPLO
    from .eastcases import STATEMENTS as EAST
    from .navalcases import STATEMENTS as SEA
    from .trackcases import STATEMENTS as TRACK

    handler = (_STATEMENTS.get(head) or SEA.get(head) or DIPLO.get(head)  # navalcases.py, diplocases.py
               or TRACK.get(head) or EAST.get(head))  # trackcases.py, eastcases.py
    if handler is None:
        raise ValueError(f"unknown statement {head!r}")
    handler(s, head, pos, kv)


# -- state statements: each reads (state, head, positional words, key=value words) -------------

def _clock(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    """factions, turn, phase, weather."""
    if head == "factions":
        s["factions"] = [f for f in FACTIONS if f in pos]
        for f in s["factions"]:
            s["standing"].setdefault(f, {"will_commit": None, "retreat_toward": None, "skip": []})
    elif head == "turn":
        s["date"] = pos[0]
        s["turn"] = int(kv["n"]) if "n" in kv else s["turn"]
        s["last_turn"] = int(kv["last"]) if "last" in kv else s["last_turn"]
    elif head == "phase":
        s["phase"] = pos[0]
        s["active"] = pos[1] if len(pos) > 1 else s["active"]
    else:
        zones = ("cold", "mild", "warm") if pos[0] == "all" else (pos[0],)
        for z in zones:
            s["weather"][z] = pos[1]


def _country(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    code = pos[0]
    faction = None if pos[1] == "neutral" else pos[1]
    status = pos[2] if len(pos) > 2 else ("neutral" if faction is None else "active")
    c = s["countries"].get(code) or new_country(faction, status, 10)
    if status == "collapsed":  # USE 13.2: collapsed once, still active
        status = "active"
        c["collapses"] = max(1, c["collapses"])
    c["faction"] = faction
    c["status"] = status
    for k in ("will", "offmap", "mult", "pp", "collapses", "extra"):
        if k in kv:
            c[k] = int(kv[k])
    if "will" in kv and "printed" not in kv:
        c["printed_will"] = int(kv["will"])
    if "printed" in kv:
        c["printed_will"] = int(kv["printed"])
    if "dow" in kv:
        c["can_dow"] = kv["dow"] != "no"
    if "pro" in kv:
        c["pro"] = kv["pro"]
    if "capital" in kv:  # dormant country: capital and map area it is created from (16.0)
        c["capital"] = kv["capital"]
    if "area" in kv:
        c["area"] = kv["area"]
    s["countries"][code] = c


def _unit(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    uid, country, kind = pos[0], pos[1], pos[2]
    hex_ = pos[3] if len(pos) > 3 else None
    u = new_unit(uid, country, kind, hex_, reduced="reduced" in pos or kind == "garrison",
                 elite="elite" in pos, supply=kv.get("supply", "full"),
                 sorties=int(kv.get("sorties", 0)), fort="fort" in pos, box=kv.get("box"))
    u["sm"] = "sm" in pos
    if "shock" in pos:
        u["shock"] = True
    if "setup" in kv:
        u["setup"] = kv["setup"]
    if "arrive" in kv:  # box=turn arrive=N setup=HEX: arrives on turn N (12.2)
        u["arrive"] = int(kv["arrive"])
    if u["box"] is not None and u["box"] != "inactive":
        u["hex"] = None
    if country not in s["countries"]:
        f, will = DEFAULT_COUNTRIES.get(country, ("axis", 10))
        s["countries"][country] = new_country(f, "active", will)
    s["units"][uid] = u


def _board(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    """control, fort, policy, marker, home-defense, activation-fort: what lies on the map."""
    if head == "control":
        s["control"][pos[0]] = pos[1]
    elif head == "fort":
        s["forts"][pos[0]] = pos[1]
    elif head == "policy" and "off" in pos[1:]:
        s["policies"] = [p for p in s["policies"] if p != pos[0]]
        s["fixed_policies"] = [p for p in s["fixed_policies"] if p != pos[0]]
    elif head == "policy":
        s["policies"] = sorted(set(s["policies"]) | {pos[0]})
        if "fixed" in pos:
            s["fixed_policies"] = sorted(set(s["fixed_policies"]) | {pos[0]})
    elif head == "marker":
        markers: Mapping[str, Any] = s["markers"]  # the case names the marker kind
        kind = markers[pos[0].replace("-", "_")]
        if isinstance(kind, list):  # no-ezoc HEX: No EZOC markers live with the activation (15.17)
            if s["activation"] is None:
                raise ValueError("a No EZOC marker needs the activation statement before it")
            s["activation"]["no_ezoc"].append(pos[1])
        else:
            kind[pos[1]] = pos[2]
    elif head == "home-defense":
        s["home_defense"].setdefault(pos[0], []).append(
            {"units": int(kv.get("units", 1)), "within": int(kv["within"]) if "within" in kv else None,
             "of": kv.get("of")})
    else:
        s["activation_forts"][pos[0]] = pos[1]


def _activation(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    from .state import mp_allowance

    u = s["units"][pos[0]]
    s["activation"] = {"unit": pos[0], "mp": int(kv.get("mp", mp_allowance(u))), "start": u["hex"],
                       "fresh": "moved" not in pos, "stopped": False, "no_ezoc": []}


def _assault(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    faction = s["countries"][s["units"][pos[1]]["country"]]["faction"]
    if faction is None:
        raise ValueError(f"{pos[1]} belongs to a neutral country")
    s["assaults"][pos[0]] = {"faction": faction, "units": pos[1:]}
    for uid in pos[1:]:
        s["units"][uid]["attack_mode"] = "assault"


def _standing(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    st = s["standing"].setdefault(pos[0], {"will_commit": None, "retreat_toward": None, "skip": []})
    if pos[1] == "will-commit":
        st["will_commit"] = pos[2]
    elif pos[1] == "retreat-toward":
        st["retreat_toward"] = pos[2]
    elif pos[1] in ("home-defense", "intercept", "pro-marker"):
        named = [] if pos[2:] == ["none"] else pos[2:]
        if pos[1] == "home-defense":
            st["home_defense"] = named
        elif pos[1] == "intercept":
            st["intercept"] = named
        else:
            st["pro_marker"] = named
    else:
        st["skip"] = sorted(pos[2:])


def _bookkeeping(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    """repatriated, lend-lease, fac-lost, flag, event-marker, supply-reduced, improved, victory."""
    if head == "repatriated":
        s["units"][pos[0]]["repatriated"] = True
    elif head == "lend-lease":
        s.setdefault("lend_lease", []).append(pos[0])
    elif head == "fac-lost":
        s.setdefault("fac_lost", {})[pos[0]] = int(pos[1])
    elif head == "flag":
        s["flags"][pos[0]] = pos[1] == "true"
    elif head == "event-marker":
        where = pos[2] if len(pos) > 2 else "available"
        s["event_markers"].setdefault(pos[0], {})[pos[1]] = int(where) if where.isdigit() else where
    elif head == "supply-reduced":
        s["done_turn"]["supply_reduced"].append(pos[0])
    elif head == "improved":
        s["done_turn"]["improved"].append(pos[0])
    else:
        s["victory"].append({"faction": pos[0], "timing": pos[1], "test": pos[2],
                             "arg": pos[3] if len(pos) > 3 else None,
                             "text": pos[4] if len(pos) > 4 else "victory"})


def _option(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    """Game options, as the proposal's: only will_commit_air (5.1 step 2) changes the state; and
    air_commit_drm=no, the air combat of the games of releases 0.9 and 0.10 (module.started_by)."""
    for k, v in kv.items():
        if k == "air_commit_drm" and v == "no":
            extra: Any = s
            del extra["air_commit_drm"]
            continue
        if k != "will_commit_air" or v not in ("as-written", "sealed"):
            raise ValueError(f"unknown option {k}={v}")
        if v == "sealed":
            s["will_commit_air"] = v


# USE rules the module does not represent (rules-coverage: n/a): a case naming them is refused
# by name rather than as an unknown statement.
_NOT_REPRESENTED = {  # surprise-attack, mulberry: navalcases.py
    "amphibious-invasion": "an Amphibious Invasion (6.3.2) is an order: write 'invade CONVOY HEX carry UNIT'",
}


def _not_represented(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    raise ValueError(_NOT_REPRESENTED[head])


_Statement = Callable[[State, str, list[str], dict[str, str]], None]
_STATEMENTS: dict[str, _Statement] = {
    **dict.fromkeys(("factions", "turn", "phase", "weather"), _clock),
    "country": _country,
    "unit": _unit,
    **dict.fromkeys(("control", "fort", "policy", "marker", "home-defense", "activation-fort"), _board),
    "activation": _activation,
    "assault": _assault,
    "standing": _standing,
    "option": _option,
    **dict.fromkeys(_NOT_REPRESENTED, _not_represented),
    **dict.fromkeys(("repatriated", "lend-lease", "fac-lost", "flag", "event-marker", "supply-reduced",
                     "improved", "victory"), _bookkeeping),
}


def check(s: State, lines: list[tuple[int, str]]) -> list[str]:
    bad: list[str] = []
    for no, line in lines:
        words = shlex.split(line)
        try:
            msg = _check(s, words)
        except (KeyError, IndexError, ValueError) as e:
            msg = f"cannot check ({type(e).__name__}: {e})"
        if msg:
            bad.append(f"line {no}: {line}: {msg}")
    return bad


def _check(s: State, w: list[str]) -> str | None:
    """None when the POSTSTATE check ``w`` holds, else what the state has instead."""
    from .diplocases import CHECKS as DIPLO
    from .eastcases import CHECKS as EAST
    from .navalcases import CHECKS as SEA
    from .trackcases import CHECKS as TRACK

    check_ = (_CHECKS.get(w[0]) or SEA.get(w[0]) or DIPLO.get(w[0]) or TRACK.get(w[0])  # trackcases.py
              or EAST.get(w[0]))  # eastcases.py
    if check_ is None:
        raise ValueError(f"unknown check {w[0]!r}")
    return check_(s, w)


def _is(have: Any, want: Any) -> str | None:
    return None if have == want else f"is {have}"


def _check_unit(s: State, w: list[str]) -> str | None:
    """unit ID at HEX | reduced | full | fort | no-fort | sm | FIELD=VALUE; eliminated ID; alive ID."""
    u = s["units"][w[1]]
    if w[0] == "eliminated":
        return None if u["box"] == "eliminated" else f"is not eliminated (hex {u['hex']}, box {u['box']})"
    if w[0] == "alive":
        return None if u["box"] is None else f"is in box {u['box']}"
    what = w[2]
    if what == "at":
        return None if u["hex"] == w[3] and u["box"] is None else f"is at {u['hex']} (box {u['box']})"
    if what in ("reduced", "full"):
        return None if u["reduced"] == (what == "reduced") else f"reduced={u['reduced']}"
    if what in ("fort", "no-fort"):
        return None if u["fort"] == (what == "fort") else f"fort={u['fort']}"
    flag = what.removeprefix("no-")
    if flag in ("sm", "shock", "elite"):  # a marker or attribute the unit has or lacks
        have = bool(u.get(flag))
        return None if have == (flag == what) else f"{flag} is {have}"
    k, _, v = what.partition("=")
    fields: Mapping[str, Any] = {**_UNIT_DEFAULTS, **u}  # the case names the field
    have = fields[k]
    return None if str(have).lower() == v.lower() else f"{k} is {have}"


# Unit attributes present only on some units (state.Unit's NotRequired keys), as a case reads them.
_UNIT_DEFAULTS: dict[str, Any] = {"shock": False, "setup": None, "arrive": None}


def _check_country(s: State, w: list[str]) -> str | None:
    """pp, will, country, extra, collapses, pro, fac-lost, lend-lease: a country's track and status."""
    head = w[0]
    if head in ("pp", "will", "collapses"):
        track: Mapping[str, Any] = s["countries"][w[1]]  # the case names the track
        return _is(track[head], int(w[2]))
    if head == "country":
        c = s["countries"][w[1]]
        st = c["status"]
        if len(w) > 3 and w[3] == "collapsed":  # USE 13.2: active and collapsed at least once
            st = "collapsed" if st == "active" and c["collapses"] else st
        ok = (c["faction"] or "neutral") == w[2] and (len(w) < 4 or st == w[3])
        return None if ok else f"is {c['faction']} {c['status']} (collapses {c['collapses']})"
    if head == "extra":
        return _is(s["countries"][w[1]].get("extra", 0), int(w[2]))
    if head == "pro":  # pro CODE FACTION|none: the Pro-[Faction] marker of a country (15.19)
        return _is(s["countries"][w[1]].get("pro") or "none", w[2])
    if head == "fac-lost":
        have = s.get("fac_lost", {}).get(w[1], "none")
        return None if str(have) == w[2] else f"is {have}"
    on = w[1] in s.get("lend_lease", [])
    return None if on == (w[2] == "on") else f"is {on}"


def _check_board(s: State, w: list[str]) -> str | None:
    """control, fort, marker, event-marker, activation-fort, assault, no-assault, hex-country."""
    head = w[0]
    if head == "control":
        return _is(s["control"].get(w[1]) or "none", w[2])
    if head == "fort":
        return _is(s["forts"].get(w[1]) or "none", w[2])
    if head == "marker":
        marker_maps: Mapping[str, Any] = s["markers"]
        kind = marker_maps[w[1].replace("-", "_")]
        if isinstance(kind, list):  # marker no-ezoc HEX on|off (the activation's, 15.17)
            act = s["activation"]
            placed = w[2] in kind or (act is not None and w[2] in act["no_ezoc"])
            return _is("on" if placed else "off", w[3])
        return _is(kind.get(w[2]) or "none", w[3])
    if head == "event-marker":
        have = s["event_markers"].get(w[1], {}).get(w[2])
        return None if str(have) == w[3] else f"is {have}"
    if head == "activation-fort":
        return _is(s["activation_forts"].get(w[1]) or "none", w[2])
    if head == "assault":
        a = s["assaults"].get(w[1])
        return None if a and a["units"] == w[2:] else f"is {a}"
    if head == "no-assault":
        return None if w[1] not in s["assaults"] else f"is {s['assaults'][w[1]]}"
    from .geo import board  # hex-country HEX CODE: the country a hex belongs to now (2.2, 16.0)

    return _is(board(s).country.get(w[1]) or "none", w[2])


def _check_clock(s: State, w: list[str]) -> str | None:
    """phase, turn, date, weather, pending, combats: where the game stands."""
    head = w[0]
    if head == "phase":
        ok = s["phase"] == w[1] and (len(w) < 3 or s["active"] == w[2])
        return None if ok else f"is {s['phase']} {s['active']}"
    if head == "turn":
        return _is(s["turn"], int(w[1]))
    if head == "date":
        return _is(s["date"], w[1])
    if head == "weather":
        return _is(s["weather"][w[1]], w[2])
    if head == "pending":
        from .sequence import pending

        p = pending(s)
        ok = p is not None and p[0] == w[1] and (len(w) < 3 or p[1] == w[2])
        return None if ok else f"pending is {p}"
    return None if len(s["combats"]) == int(w[1]) else f"{len(s['combats'])} pending"


def _check_play(s: State, w: list[str]) -> str | None:
    """policy, flag, mp, activation, over, not-over, standing, cup: the rest of the game's record."""
    head = w[0]
    if head == "policy":
        on = w[1] in s["policies"]
        return None if on == (w[2] == "on") else f"in effect: {on}"
    if head == "flag":
        return _is(bool(s["flags"].get(w[1])), w[2] == "true")
    if head == "mp":
        act = s["activation"]
        return None if act and act["mp"] == int(w[1]) else f"activation is {act}"
    if head == "activation":
        act = s["activation"]
        return _is(act["unit"] if act else "none", w[1])
    if head == "over":
        if not s["over"]:
            return "the game is not over"
        return None if len(w) < 2 or w[1] in s["over"] else f"result is {s['over']!r}"
    if head == "not-over":
        return None if not s["over"] else f"game over: {s['over']}"
    if head == "standing":
        have = s["standing"][w[1]].get(w[2].replace("-", "_"))
        if isinstance(have, list):  # lists are written comma-separated: UK-2I,UK-1I (or none)
            have = ",".join(have) or "none"
        return None if str(have).lower() == w[3].lower() else f"is {have}"
    have = s.get("diplomacy_cup", []).count(w[1])  # cup MARKER N: copies in the Diplomacy Cup (13.2.2)
    return None if have == int(w[2]) else f"has {have}"


def _check_track(s: State, w: list[str]) -> str | None:
    """track CODE NAME V | track turn N; turn-track N ITEM...|empty (the Turn Track's box N)."""
    if w[0] == "turn-track":
        n = int(w[1])
        held = sorted([uid for uid, u in s["units"].items() if u["box"] == "turn" and u.get("arrive") == n]
                      + [f"{f}:{m}" for f, pool in s["event_markers"].items() for m, v in pool.items()
                         if v == n])
        want = sorted(x for x in w[2:] if x != "empty")
        return None if held == want else f"holds {' '.join(held) or 'nothing'}"
    if w[1] == "turn":
        return _is(s["turn"], int(w[2]))
    name = w[2].replace("-", "_")
    if name == "fac_lost":
        have: Any = s.get("fac_lost", {}).get(w[1])
    else:
        track: Mapping[str, Any] = s["countries"][w[1]]  # the case names the track
        have = track[name] if name != "extra" else track.get("extra", 0)
    return None if str(have).lower() == w[3].lower() else f"is {have}"


_Check = Callable[[State, list[str]], str | None]
_CHECKS: dict[str, _Check] = {
    **dict.fromkeys(("unit", "eliminated", "alive"), _check_unit),
    **dict.fromkeys(("pp", "will", "collapses", "country", "extra", "pro", "fac-lost", "lend-lease"),
                    _check_country),
    **dict.fromkeys(("control", "fort", "marker", "event-marker", "activation-fort", "assault", "no-assault",
                     "hex-country"), _check_board),
    **dict.fromkeys(("phase", "turn", "date", "weather", "pending", "combats"), _check_clock),
    **dict.fromkeys(("policy", "flag", "mp", "activation", "over", "not-over", "standing", "cup"), _check_play),
    **dict.fromkeys(("track", "turn-track"), _check_track),
}
