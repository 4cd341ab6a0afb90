"""The starting public state of a scenario (the loader's ``scenario.Scenario`` -> canonical dicts)."""

from __future__ import annotations

from typing import Any

from .state import HomeDefense, State, new_country, new_state, new_unit


def state_from_scenario(sc: Any) -> State:
    played = [name.lower() for name, f in sorted(sc.factions.items(), key=lambda kv: kv[1].order) if f.played]
    y, m = sc.turns[0]
    s = new_state(sc.name, {"scenario": sc.name}, played, f"{y:04d}-{m:02d}", len(sc.turns))
    for code, c in sorted(sc.countries.items()):
        status = c.status  # active | neutral | prohibited | dormant (created later, e.g. Vichy) | conquered
        cd = new_country(c.faction.lower() if c.faction else None, status, c.will,
                         printed_will=c.printed_will, offmap=c.offmap_factories, mult=c.multiplier,
                         major=c.major)
        cd["can_dow"] = bool(c.declare_war)
        cd["pro"] = c.pro.lower() if c.pro else None
        if status == "dormant":  # USE 16.0: where and with which capital it is created
            cd["capital"] = c.capital
            cd["area"] = c.area
        if status == "conquered" and c.conquered_by:  # 13.2.2, conquered before the start
            cd["conquered_by"] = c.conquered_by.lower()
        s["countries"][code] = cd
    s["policies"] = sorted(name for name, p in sc.policies.items() if p.in_effect)
    s["fixed_policies"] = sorted(name for name, p in sc.policies.items() if p.in_effect and not p.can_end)
    for ev in sc.conditional_events.values():
        s["flags"][ev.name.replace("-", "_")] = not ev.armed and s["flags"].get(ev.name.replace("-", "_"), False)
    for city in sc.map.cities.values():
        if city.hex is None:
            continue
        owner = s["countries"].get(city.country)
        if owner is not None and owner["status"] == "active" and owner["faction"]:
            s["control"][str(city.hex)] = owner["faction"]
        elif owner is not None and owner["status"] == "conquered" and owner["conquered_by"]:
            s["control"][str(city.hex)] = owner["conquered_by"]  # 13.2.2: held by its conqueror
    for fort in sc.forts:
        fort_owner = s["countries"].get(fort.country)
        if fort.activation and (fort_owner is None or fort_owner["status"] != "active"):
            # 13.1: placed with the country's units when it activates (war.activate_country).
            s["activation_forts"][str(fort.hex)] = fort.country
            continue
        s["forts"][str(fort.hex)] = (fort_owner["faction"] if fort_owner is not None else None) or "neutral"
    for code, c in sorted(sc.countries.items()):
        reqs: list[HomeDefense] = []
        for hd in c.home_defense:
            city = sc.map.cities.get(hd.of) if hd.of else None
            reqs.append({"units": hd.units, "within": hd.within,
                         "of": str(city.hex) if city is not None and city.hex is not None else None})
        if reqs:
            s["home_defense"][code] = reqs
    for spec in sc.units:
        pl = spec.placement
        reduced = spec.strength == "reduced"
        u = new_unit(spec.id, spec.country, spec.kind, None, reduced=reduced, elite=spec.elite,
                     sorties=spec.sorties, fort=spec.in_fort)
        if spec.shock:
            u["shock"] = True
        if pl.kind == "hex":
            u["hex"] = str(pl.hex)
        elif pl.kind == "box":
            u["box"] = pl.box
        elif pl.kind == "activation":
            u["box"] = "inactive"
            u["setup"] = str(pl.hex) if pl.hex else None
        elif pl.kind == "turn" and pl.turn == 1 and pl.hex:
            u["hex"] = str(pl.hex)  # 12.2: a unit due on the first turn starts on the map
        elif pl.kind == "turn":
            u["box"] = "turn"  # 12.2: placed when its turn comes (sequence.arrivals)
            u["arrive"] = pl.turn
            u["setup"] = str(pl.hex) if pl.hex else None
        else:
            u["box"] = pl.kind  # "mobilization" or "conditional"
        s["units"][spec.id] = u
    s["victory"] = [{"faction": v.faction.lower(), "timing": v.timing, "test": v.test, "arg": v.arg,
                     "text": v.text} for v in sc.victory]
    return s
