"""Values and factions in words, for the event sentences (events.py, seawords.py, diplowords.py)."""

from __future__ import annotations

from typing import Any

SIDE_NAMES = {"axis": "Axis", "western": "Western", "soviet": "Soviet", "neutral": "neutral"}


def _t(v: Any) -> str:
    """A value in words: lists joined, None as 'none', booleans as yes/no."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_t(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_t(x)}" for k, x in v.items()) or "none"
    return str(v)


def _side(v: Any) -> str:
    """A faction's name ('axis' -> 'Axis'); no faction reads 'nobody'."""
    if v is None or v == "":
        return "nobody"
    if not isinstance(v, str):
        return _t(v)
    return SIDE_NAMES.get(v, v.title())
