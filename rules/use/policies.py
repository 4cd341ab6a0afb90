"""Policies on the Turn Track: Policy Evaluation (USE 15.21, 10.3.4, 10.3.5), the Moscow Treaty
marker (15.14, 10.3.6) and German Economic Reforms (15.8).

State (optional keys, absent until such a marker is placed):
``policy_evaluation`` [{"turn": N, "policy": P}]: Policy Evaluation markers in turn N's box;
``moscow_treaty_turn`` N: the Moscow Treaty marker's box; ``economic_reforms`` True while
Germany's Economic Reforms marker advances its Extra Factories.

A marker comes off the Turn Track when its turn begins (12.2) and its die is rolled by the Axis
first thing in its first file of that turn, with the Weather dice (sequence.roll_turn_start),
so nobody can know it before the turn it decides.

DECISIONS:
* A Policy Evaluation marker names the policy it evaluates: West Invaded (13.8) places one for
  Appeasement, East Invaded (13.3) one for the Nazi-Soviet Pact, in the next turn's box; a
  policy that has ended, or that the scenario fixes, is not evaluated (no die).
* Moscow Treaty: on 1-3 the treaty stays and its marker goes to the next turn's box (the seed
  gives no other turn); on 4-6 it ends and the USSR's Will resets to 45 (10.3.6).
* Economic Reforms: +1 on Germany's Extra Factories Track each Economy Phase, up to 9 (the seed
  gives no rate; Lend Lease's authored rate is used, 15.13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Events = list[dict[str, Any]]
State = Any  # the USE state dict (state.State)

ENDING = frozenset({4, 5, 6})  # 15.14 / 15.21: "roll die 4-6"
MOSCOW_WILL = 45  # 10.3.6: USSR Will resets to 45
EVALUATED = ("appeasement", "nazi-soviet-pact")
TURN_DICE = ("policy-evaluation", "moscow-treaty")


def place_evaluation(state: State, policy: str, events: Events) -> None:
    """15.21: a Policy Evaluation marker for ``policy`` in the next turn's box, if it can end."""
    if policy not in state["policies"] or policy in state["fixed_policies"]:
        return
    marks: list[dict[str, Any]] = state.setdefault("policy_evaluation", [])
    turn = int(state["turn"]) + 1
    if any(m["policy"] == policy for m in marks):
        return  # DECISION: one marker per policy on the track at a time
    marks.append({"turn": turn, "policy": policy})
    events.append({"kind": "marker-placed", "marker": "policy-evaluation", "policy": policy, "turn": turn})


def turn_track(state: State, events: Events) -> None:
    """12.2: markers of the new turn's box come off; their dice wait for the Axis (module doc)."""
    due = [m for m in state.get("policy_evaluation", []) if int(m["turn"]) <= int(state["turn"])]
    for m in due:
        state["policy_evaluation"].remove(m)
        if m["policy"] in state["policies"] and m["policy"] not in state["fixed_policies"]:
            state.setdefault("turn_dice", []).append({"kind": "policy-evaluation", "policy": m["policy"]})
        events.append({"kind": "marker-removed", "marker": "policy-evaluation", "policy": m["policy"]})
    if "policy_evaluation" in state and not state["policy_evaluation"]:
        del state["policy_evaluation"]
    mt = state.get("moscow_treaty_turn")
    if mt is not None and int(mt) <= int(state["turn"]):
        del state["moscow_treaty_turn"]
        events.append({"kind": "marker-removed", "marker": "moscow-treaty"})
        if "moscow-treaty" in state["policies"]:
            state.setdefault("turn_dice", []).append({"kind": "moscow-treaty"})


def roll(state: State, t: Mapping[str, Any], ctx: Any, events: Events) -> None:
    """The die of a marker taken off the Turn Track (``turn_track``)."""
    if t["kind"] == "policy-evaluation":
        pol = str(t["policy"])
        die: int = ctx.roll(6, f"policy evaluation {pol}")[0]
        ends = die in ENDING and pol in state["policies"]
        events.append({"kind": "policy-evaluation", "policy": pol, "die": die, "faction": "axis",
                       "ends": ends})
        if ends:
            end_policy(state, pol, events, "Policy Evaluation (15.21)")
        return
    die = ctx.roll(6, "moscow treaty")[0]
    ends = die in ENDING and "moscow-treaty" in state["policies"]
    events.append({"kind": "moscow-treaty-roll", "die": die, "faction": "axis", "ends": ends})
    if not ends:
        state["moscow_treaty_turn"] = int(state["turn"]) + 1
        return
    end_policy(state, "moscow-treaty", events, "Moscow Treaty marker (15.14)")
    ussr = state["countries"].get("USSR")
    if ussr is not None:
        ussr["will"] = MOSCOW_WILL
        events.append({"kind": "will", "country": "USSR", "to": MOSCOW_WILL, "why": "Moscow Treaty ends (10.3.6)"})


def end_policy(state: State, policy: str, events: Events, why: str) -> None:
    if policy in state["policies"]:
        state["policies"].remove(policy)
        events.append({"kind": "policy-ends", "policy": policy, "why": why})


def economic_reforms(state: State, step: int, cap: int, events: Events) -> None:
    """15.8: Germany's Economic Reforms advance its Extra Factories Track (see DECISIONS)."""
    ger = state["countries"].get("GER")
    if not state.get("economic_reforms") or ger is None or ger["status"] != "active":
        return
    new = min(cap, ger.get("extra", 0) + step)
    if new != ger.get("extra", 0):
        events.append({"kind": "extra-factories", "country": "GER", "from": ger.get("extra", 0), "to": new,
                       "why": "Economic Reforms (15.8)"})
        ger["extra"] = new
