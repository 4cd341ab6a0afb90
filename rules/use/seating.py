"""Seats and factions (docs/protocol.md §6a): a USE seat plays one or more factions.

By default every played faction is a seat of its own, named like it (``axis``, ``western``,
``soviet``), and nothing here changes what a game means.  A scenario directory may add a
``seatings.txt`` naming further scenarios that seat one player with several factions::

    format use-seatings 1
    seating east-med-1941-2p western=western,soviet

The variant is the same scenario (same files, same hash) with fewer seats, as War in Europe's
``battle-for-germany-1945-2p``.  The game state then keeps ``seats`` (seat -> the factions it
plays, only for a seat holding more than one) so that every tool maps a faction to the seat
that must act (``seat_of``) and a seat's file to the faction it acts for (``acting``).

DECISIONS (the seed is silent on fewer players than factions):
* a seat holding several factions acts for one faction per file: the file acts for the
  faction that must act now, and stops where another faction (even one the same player holds)
  must act, so every file still belongs to exactly one faction's step of the Sequence of Play;
* the factions a seat holds keep their own Faction Cards, production and will, and stay
  distinct factions for every rule (a Soviet unit is no Western unit: 10.3.2 Cooperation
  Limits, 10.3.5 the Pact still apply between them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.kit.records import Issues, ScenarioErrors, read_records
from pbem.rulesapi import seat_of_side

SEATINGS_FILE = "seatings.txt"


def _read(directory: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    """Variant name -> {seat: factions} of one scenario directory (lower-case faction names)."""
    path = directory / SEATINGS_FILE
    if not path.is_file():
        return {}
    issues = Issues()
    records = read_records(path, "use-seatings", issues)
    if issues:
        raise ScenarioErrors(issues)
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for rec in records:
        if rec.keyword != "seating" or len(rec.words) != 1:
            continue
        out[rec.words[0]] = {seat: tuple(v.split(",")) for seat, v in rec.attrs.items()}
    return out


def variants() -> dict[str, tuple[str, dict[str, tuple[str, ...]]]]:
    """Every seating variant of the known scenarios: name -> (base scenario, seat -> factions)."""
    from .scenario import list_scenarios, scenario_dir

    out: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {}
    for base in list_scenarios():
        for name, sides in _read(scenario_dir(base)).items():
            out[name] = (base, sides)
    return out


def resolve(name: str) -> tuple[str, dict[str, tuple[str, ...]]]:
    """(base scenario, seat -> factions) for a scenario name; a base scenario seats no one twice."""
    from .scenario import list_scenarios

    if "/" in name or name in list_scenarios():  # a scenario directory: no seatings file is read
        return name, {}
    return variants().get(name, (name, {}))


def seats_for(played: tuple[str, ...], sides: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The seats, in faction order (1.2): a seat comes where its first faction does."""
    held = {f for fs in sides.values() for f in fs}
    seats = [*sides, *(f for f in played if f not in held and f not in sides)]
    return tuple(sorted(seats, key=lambda s: min(played.index(f) for f in sides.get(s, (s,)))))


def seat_of(public: Any, faction: str) -> str:
    """The seat that plays ``faction`` (itself unless a seating gave it to another seat)."""
    seats = public.get("seats") if isinstance(public, dict) else None
    if not seats or not any(faction in fs for fs in seats.values()):
        return faction  # the state keeps only the seats holding several factions
    return seat_of_side(seats, faction)


def acting(public: Any, seat: str) -> str:
    """The faction a file from ``seat`` acts for: the pending faction when the seat holds it."""
    seats = public.get("seats") if isinstance(public, dict) else None
    if not seats or seat not in seats:
        return seat
    from .sequence import pending

    p = pending(public) if not public.get("over") else None
    if p is not None and p[0] in seats[seat]:
        return p[0]
    return str(seats[seat][0])
