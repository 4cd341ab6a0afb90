"""Values and factions in words, for the event sentences (events.py, seawords.py, diplowords.py)."""

from __future__ import annotations

from typing import Any

from pbem.kit.words import in_words

SIDE_NAMES = {"axis": "Axis", "western": "Western", "soviet": "Soviet", "neutral": "neutral"}


def _t(v: Any) -> str:
    """A value in words (None as 'none')."""
    return in_words(v, "none")


def _side(v: Any) -> str:
    """A faction's name ('axis' -> 'Axis'); no faction reads 'nobody'."""
    if v is None or v == "":
        return "nobody"
    if not isinstance(v, str):
        return _t(v)
    return SIDE_NAMES.get(v, v.title())
