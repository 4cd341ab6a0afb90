"""Case-language statements for Diplomacy and the policies' markers (cases.py calls these).

PRESTATE::

    diplomacy-cup [MARKER ...]           the Diplomacy Cup's markers (the game has a cup: 10.2)
    holding-box [MARKER ...]             the Holding Box's markers (the game has a cup: 10.2)
    owed FACTION MARKER DRAWER           a drawn MARKER waits for FACTION's choice (14.11, 14.12)
    diplomacy-done FACTION               FACTION has spent its diplomacy action this turn
    strict-neutrality CODE               CODE has a Strict Neutrality marker (15.25)
    policy-evaluation POLICY N           a Policy Evaluation marker for POLICY in turn N's box (15.21)
    moscow-treaty-marker N               the Moscow Treaty marker in turn N's box (15.14)
    economic-reforms                     Germany's Economic Reforms marker (15.8)

POSTSTATE::

    holding MARKER N                     copies of MARKER in the Holding Box
    owed FACTION MARKER | owed none      the drawn marker waiting for a choice
    policy-evaluation POLICY N|none      the turn box of POLICY's Policy Evaluation marker
    moscow-treaty-marker N|none          the turn box of the Moscow Treaty marker
    turn-dice N                          rolls waiting for the Axis's first file of the next turn
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = Any


def _prestate(s: State, head: str, pos: list[str], kv: dict[str, str]) -> None:
    if head in ("diplomacy-cup", "holding-box"):
        s.setdefault("holding_box", [])
        s.setdefault("diplomacy_cup", [])
        s["diplomacy_cup" if head == "diplomacy-cup" else "holding_box"] = sorted(pos)
    elif head == "owed":
        s["diplomacy_owed"] = {"faction": pos[0], "marker": pos[1], "drawer": pos[2]}
    elif head == "diplomacy-done":
        s["done_turn"].setdefault("diplomacy", []).append(pos[0])
    elif head == "strict-neutrality":
        s["countries"][pos[0]]["strict"] = True
    elif head == "policy-evaluation":
        s.setdefault("policy_evaluation", []).append({"turn": int(pos[1]), "policy": pos[0]})
    elif head == "moscow-treaty-marker":
        s["moscow_treaty_turn"] = int(pos[0])
    else:
        s["economic_reforms"] = True


def _check(s: State, w: list[str]) -> str | None:
    head = w[0]
    if head == "holding":
        have = s.get("holding_box", []).count(w[1])
        return None if have == int(w[2]) else f"has {have}"
    if head == "owed":
        owed = s.get("diplomacy_owed")
        now = f"{owed['faction']} {owed['marker']}" if owed else "none"
        return None if now == " ".join(w[1:]) else f"is {now}"
    if head == "policy-evaluation":
        turns = [str(m["turn"]) for m in s.get("policy_evaluation", []) if m["policy"] == w[1]]
        now = ",".join(turns) or "none"
        return None if now == w[2] else f"is {now}"
    if head == "moscow-treaty-marker":
        now = str(s.get("moscow_treaty_turn", "none"))
        return None if now == w[1] else f"is {now}"
    n = len(s.get("turn_dice", []))
    return None if n == int(w[1]) else f"is {n}"


STATEMENTS: dict[str, Callable[[State, str, list[str], dict[str, str]], None]] = dict.fromkeys(
    ("diplomacy-cup", "holding-box", "owed", "diplomacy-done", "strict-neutrality", "policy-evaluation",
     "moscow-treaty-marker", "economic-reforms"), _prestate)
CHECKS: dict[str, Callable[[State, list[str]], str | None]] = dict.fromkeys(
    ("holding", "owed", "policy-evaluation", "moscow-treaty-marker", "turn-dice"), _check)
