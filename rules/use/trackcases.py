"""Case-language statements for the tracking markers and conditional events (USE 13.x, 15.x),
read by cases.py after its own (tests/cases/use/*.case)::

    PRESTATE  track-marker usa-entry|russian-winter|urals N    a marker's Turn Track box (urals:
                                                                the turn it was placed)
              track-marker policy-ends POLICY N               an Appsmt/Pact Ends marker (15.2)
    POSTSTATE track-marker usa-entry|russian-winter|urals|moscow-treaty N|none
              track-marker policy-ends POLICY N|none
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = Any  # the USE state dict: these keys are optional (tracking.py, conditional.py, policies.py)

KEYS = {"usa-entry": "usa_entry_turn", "russian-winter": "russian_winter", "urals": "urals",
        "moscow-treaty": "moscow_treaty_turn"}


def _marker(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    if pos[0] == "policy-ends":
        s.setdefault("policy_ends", {})[pos[1]] = int(pos[2])
    else:
        s[KEYS[pos[0]]] = int(pos[1])


def _check_marker(s: State, w: list[str]) -> str | None:
    if w[1] == "policy-ends":
        have = s.get("policy_ends", {}).get(w[2], "none")
        want = w[3]
    else:
        have = s.get(KEYS[w[1]], "none")
        want = w[2]
    return None if str(have) == want else f"is {have}"


STATEMENTS: dict[str, Callable[[State, str, list[str], dict[str, str]], None]] = {"track-marker": _marker}
CHECKS: dict[str, Callable[[State, list[str]], str | None]] = {"track-marker": _check_marker}
