"""Seats and factions (docs/protocol.md §6a): a USE seat plays one or more factions, or part of one.

By default every played faction is a seat of its own, named like it (``axis``, ``western``,
``soviet``), and nothing here changes what a game means.  A scenario directory may add a
``seatings.txt`` naming further scenarios that seat the players otherwise::

    format use-seatings 1
    seating east-med-1941-2p western=western,soviet
    seating east-med-1941-4p italy=axis:ITA

The variant is the same scenario (same files, same hash) with other seats, as War in Europe's
``battle-for-germany-1945-2p``.  ``SEAT=FACTION,FACTION`` gives a seat several whole factions:
the game state then keeps ``seats`` (seat -> the factions it plays, only for a seat holding more
than one) so that every tool maps a faction to the seat that must act (``seat_of``) and a seat's
file to the faction it acts for (``acting``).  ``SEAT=FACTION:CODE+CODE`` makes SEAT the
*partner* in that faction: it plays the units of the listed countries (codes of countries.txt),
the faction's own seat (its *lead*) every other country's; the state keeps ``partners`` (seat ->
faction and countries) and, while the partner plays its part of a step, ``part`` (partners.py).

DECISIONS (the seed, "2-4 players" for three factions, says nothing of how they share them):
* a seat holding several factions acts for one faction per file: the file acts for the
  faction that must act now, and stops where another faction (even one the same player holds)
  must act, so every file still belongs to exactly one faction's step of the Sequence of Play;
* the factions a seat holds keep their own Faction Cards, production and will, and stay
  distinct factions for every rule (a Soviet unit is no Western unit: 10.3.2 Cooperation
  Limits, 10.3.5 the Pact still apply between them);
* four players: one faction is split BY COUNTRY between a lead seat and a partner seat.  The
  faction stays one faction for every rule (one Faction Card, one Strategic Move a turn, its
  units cooperate as before); the split only says which seat orders what:
  - faction-wide decisions (declarations of war, diplomacy and the political choices, event
    markers, standing orders, the defender's Will Commit) belong to the lead;
  - the unit steps (Strategic Movement, Actions, Replacements, Upgrade, Mobilization: their
    production points are the countries' own, 9.1) are played in two parts, the lead's then
    the partner's, each in its own files; only the end of the partner's part ends the step, and
    a part in which its seat has nothing it may do is skipped (it costs no file);
  - a file orders only units (and spends only production points) of its seat's countries;
  - an attack's decisions (the attacker's air declaration, 5.1 step 2 as written, opening the
    sealed Will Commit, its resolution) stay with the seat that made the attack: the seat that
    sealed a secret is the one that can open it (each seat has its own private store);
  - a country that joins the faction during the game (13.1, 16.0) goes to the lead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.kit.records import Issues, Record, ScenarioErrors, read_records

from .partners import seat_of

__all__ = ["seat_of"]  # re-exported: where every tool finds it (partners.py says why it lives there)

SEATINGS_FILE = "seatings.txt"
Sides = dict[str, tuple[str, ...]]


def _countries(directory: Path, issues: Issues) -> dict[str, str | None]:
    """Country code -> its faction at start (lower case; None for a country of no faction)."""
    recs = read_records(directory / "countries.txt", "use-countries", issues)
    return {r.words[0].upper(): (r.attrs["faction"].lower() if "faction" in r.attrs else None)
            for r in recs if r.keyword == "country" and r.words}


def _check(rec: Record, sides: Sides, countries: dict[str, str | None], issues: Issues) -> None:
    """A seating's seats: known factions, each faction and country given once, a lead left."""
    factions = {f for f in countries.values() if f}
    where = (SEATINGS_FILE, rec.line)
    whole = [f for v in sides.values() for f in v if ":" not in f]
    split: dict[str, list[str]] = {}
    for seat, specs in sides.items():
        for spec in specs:
            faction, _, codes = spec.partition(":")
            if faction not in factions:
                issues.add(*where, f"seat {seat}: unknown faction {faction!r} "
                                   f"(factions: {', '.join(sorted(factions))})")
                continue
            if ":" not in spec:
                continue
            if len(specs) > 1 or seat in factions:
                issues.add(*where, f"seat {seat}: a partner seat holds part of one faction only and is named "
                                   "unlike any faction")
            if faction in split:
                issues.add(*where, f"seat {seat}: faction {faction} is split twice (one partner a faction)")
            mine = split.setdefault(faction, [])
            for code in codes.split("+"):
                if code not in countries:
                    issues.add(*where, f"seat {seat}: unknown country {code!r} (countries.txt)")
                elif countries[code] not in (None, faction):
                    issues.add(*where, f"seat {seat}: {code} is a {countries[code]} country, not {faction}")
                elif code in (c for cs in split.values() for c in cs):
                    issues.add(*where, f"seat {seat}: country {code} is given twice")
                mine.append(code)
    for faction, given in split.items():
        if not any(f == faction and c not in given for c, f in countries.items()):
            issues.add(*where, f"faction {faction}: the partner holds every country; the lead would have none")
    if len(set(whole)) != len(whole):
        issues.add(*where, "a faction is held by two seats")


def _read(directory: Path) -> dict[str, Sides]:
    """Variant name -> {seat: factions or one FACTION:CODES} of one scenario directory."""
    path = directory / SEATINGS_FILE
    if not path.is_file():
        return {}
    issues = Issues()
    records = read_records(path, "use-seatings", issues)
    countries = _countries(directory, issues) if records else {}
    out: dict[str, Sides] = {}
    for rec in records:
        if rec.keyword != "seating" or len(rec.words) != 1 or not rec.attrs:
            if rec.keyword != "format":
                issues.add(SEATINGS_FILE, rec.line, "expected 'seating NAME SEAT=FACTION,... | SEAT=FACTION:CODE+...'")
            continue
        sides = {seat: tuple(v.lower().split(",")) if ":" not in v else (_partner_spec(v),)
                 for seat, v in rec.attrs.items()}
        _check(rec, sides, countries, issues)
        out[rec.words[0]] = sides
    if issues:
        raise ScenarioErrors(issues)
    return out


def _partner_spec(value: str) -> str:
    faction, _, codes = value.partition(":")
    return f"{faction.lower()}:{codes.upper()}"


def variants() -> dict[str, tuple[str, Sides]]:
    """Every seating variant of the known scenarios: name -> (base scenario, seat -> factions)."""
    from .scenario import list_scenarios, scenario_dir

    out: dict[str, tuple[str, Sides]] = {}
    for base in list_scenarios():
        for name, sides in _read(scenario_dir(base)).items():
            out[name] = (base, sides)
    return out


def resolve(name: str) -> tuple[str, Sides]:
    """(base scenario, seat -> factions) for a scenario name; a base scenario seats no one twice."""
    from .scenario import list_scenarios

    if "/" in name or name in list_scenarios():  # a scenario directory: no seatings file is read
        return name, {}
    return variants().get(name, (name, {}))


def whole(sides: Sides) -> Sides:
    """The seats holding whole factions (``Scenario.sides``): a partner seat plays a side named
    like itself, as far as the protocol is concerned."""
    return {seat: fs for seat, fs in sides.items() if not any(":" in f for f in fs)}


def partners(sides: Sides) -> dict[str, dict[str, Any]]:
    """The ``partners`` state entry: partner seat -> {faction, countries} (empty: no split)."""
    out: dict[str, dict[str, Any]] = {}
    for seat, fs in sides.items():
        for f in fs:
            if ":" in f:
                faction, _, codes = f.partition(":")
                out[seat] = {"faction": faction, "countries": sorted(codes.split("+"))}
    return out


def seats_for(played: tuple[str, ...], sides: Sides) -> tuple[str, ...]:
    """The seats, in faction order (1.2): a seat comes where its first faction does, a partner
    right after its faction's lead."""
    lead = whole(sides)
    held = {f for fs in lead.values() for f in fs}
    seats = [*sides, *(f for f in played if f not in held and f not in sides)]

    def rank(s: str) -> tuple[int, int]:
        fs = sides.get(s, (s,))
        return min(played.index(f.partition(":")[0]) for f in fs), int(":" in fs[0])

    return tuple(sorted(seats, key=rank))


def acting(public: Any, seat: str) -> str:
    """The faction a file from ``seat`` acts for: the pending faction when the seat holds it."""
    split = public.get("partners") if isinstance(public, dict) else None
    if split and seat in split:
        return str(split[seat]["faction"])
    seats = public.get("seats") if isinstance(public, dict) else None
    if not seats or seat not in seats:
        return seat
    from .sequence import pending

    p = pending(public) if not public.get("over") else None
    if p is not None and p[0] in seats[seat]:
        return p[0]
    return str(seats[seat][0])
