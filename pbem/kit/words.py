"""Values in words, for the sentences a game's ``describe_event`` writes (every game's event
table: rules/use/words.py, rules/eurofront/view.py, rules/wie/view.py)."""

from __future__ import annotations

from typing import Any


def in_words(v: Any, missing: str = "unknown") -> str:
    """A value as it reads in a sentence: lists joined with commas, a mapping as "key value"
    pairs, booleans as yes/no; ``missing`` stands for None (a field the event lacks)."""
    if v is None:
        return missing
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(in_words(x, missing) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{in_words(k, missing)} {in_words(x, missing)}" for k, x in v.items()) or "none"
    return str(v)
