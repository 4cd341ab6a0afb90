"""Fortresses (7.5) and Minor Fortresses (7.51): public ``fortresses`` {hex: "major"|"minor"}.

No SCW hex is a fortress (the SCW map has none): the rules are general code for a scenario or case
that names one. Only the Original Defender of a fortress hex has the benefits (7.5, 7.23 note):

- major: combat is mandatory for the Original Attacker in its Combat Phase (not Blitz Combat, 7.12);
  passive Original Defenders have Triple Defence (7.35); their largest unit (owner's choice among
  equals, 7.33's ``losses`` order) fires TF when passive; Unsupported Combat against it scores no
  offensive hits (7.4); Air Assaults are repulsed on 1-3 (7.5, 14.41: paradrop.repulse_number).
- minor: combat is mandatory only in the initial attack (7.15 already); Double Defence; the largest
  defender fires at least DF; Unsupported Combat raises the defence as anywhere (7.51).
"""

from __future__ import annotations

from typing import Any

from . import state as st

RANK = ("SF", "DF", "TF", "QF")


def kind(pub: dict[str, Any], h: str) -> str | None:
    found = pub.get("fortresses", {}).get(h)
    return None if found is None else str(found)


def defended(pub: dict[str, Any], h: str, passive: str) -> str | None:
    """The fortress kind if ``passive`` is the Original Defender of the battle at ``h`` (7.5, 7.23 note)."""
    battle = pub["battles"].get(h)
    if battle is None or battle["attacker"] == passive:
        return None
    return kind(pub, h)


def level(pub: dict[str, Any], h: str, passive: str, base: int) -> int:
    """7.5: Triple Defence in a fortress; 7.51: Double Defence in a minor fortress."""
    k = defended(pub, h, passive)
    return 3 if k == "major" else max(base, 2) if k == "minor" else base


def unsupported_ineffective(pub: dict[str, Any], h: str, passive: str) -> bool:
    """7.4: Unsupported Combat against a Fortress hex scores no offensive hits (not a minor one, 7.51)."""
    return defended(pub, h, passive) == "major"


def firepower(pub: dict[str, Any], h: str, side: str, tok: str, fp: str, largest: str | None) -> str:
    """7.5: the largest passive defender fires TF; 7.51: at least DF."""
    k = defended(pub, h, side)
    if k is None or tok != largest:
        return fp
    floor = "TF" if k == "major" else "DF"
    return floor if RANK.index(fp) < RANK.index(floor) else fp


def mandatory(pub: dict[str, Any], seat: str, phase: str) -> list[str]:
    """7.5: fortress battles the Original Attacker must fight in its (non-Blitz) Combat Phase."""
    if phase.startswith("blitz-"):
        return []
    return sorted(h for h, b in pub["battles"].items()
                  if b["attacker"] == seat and kind(pub, h) == "major" and st.is_battle(pub, h))
