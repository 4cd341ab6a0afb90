"""Diplomacy (USE 10.2): the Diplomacy Cup and the Holding Box; Political Success (14.12),
Political Failure (14.11), No Event (14.9), Pro-Faction markers (15.19), Strict Neutrality (15.25).

State (optional keys, absent in a scenario without a Diplomacy Cup):
``diplomacy_cup`` the markers in the cup, ``holding_box`` the markers in the Holding Box,
``diplomacy_owed`` {"faction", "marker", "drawer"}: the choice a drawn marker leaves to a faction.
Both containers are public (every player may count the cup); only the draw is random.

DECISIONS (the seed gives only the outline of 10.2):
* The phase is played only when the scenario has a Diplomacy Cup (``holding_box`` present):
  France 1940 prints none (rules-gaps 11), so its Diplomacy Phase stays skipped, as before.
* One diplomacy action per faction per Diplomacy Phase ("may spend 5 PP to either"), paid by
  one active country of the faction.
* The draw is a die of as many faces as the cup holds markers, rolled with the protocol's dice,
  over the markers in sorted order: every marker equally likely, and nobody can steer it. A drawn
  marker is resolved at once (10.2 "draw ... and resolve it"), so it is public when drawn: there
  is nothing to keep secret and nothing to commit.
* A resolved marker goes to the Holding Box (that is where 10.2's "take any marker from Holding
  Box" finds them); a Pro-Faction marker is placed in a country instead, or goes to the box when
  its faction declines.
* Political Failure is resolved by "the non-phasing faction": with three factions, the next
  faction after the drawer in faction order (cyclic).
"""

from __future__ import annotations

from typing import Any

from .economy import unlimited
from .geo import Board
from .refusals import illegal
from .strictdice import need

Events = list[dict[str, Any]]
Order = dict[str, Any]
State = Any  # the USE state dict (state.State); optional keys are read with .get

DIPLOMACY_COST = 5  # USE 10.2
DIPLOMACY_POLICIES = ("appeasement", "nazi-soviet-pact", "moscow-treaty")  # USE 1.2 / 10.2
PRO_MAX = 8  # USE 15.19: at most 8 Pro-Faction markers per faction
NO_EVENT = "no-event"
MARKERS = ("no-event", "political-success", "political-failure", "pro-axis", "pro-western", "pro-soviet")
CHOICES = ("pro", "activate", "remove", "none")


def played(state: State) -> bool:
    """Whether this game has a Diplomacy Cup at all (see the module's DECISIONS)."""
    return "holding_box" in state


def active(state: State) -> bool:
    """USE 10.2 / 1.2: the Diplomacy Phase is skipped unless Appeasement, the Pact or the
    Moscow Treaty is in effect."""
    return played(state) and any(p in state["policies"] for p in DIPLOMACY_POLICIES)


def _done(state: State) -> list[str]:
    done: list[str] = state["done_turn"].setdefault("diplomacy", [])
    return done


def _payers(state: State, faction: str) -> list[str]:
    return sorted(code for code, c in state["countries"].items()
                  if c["faction"] == faction and c["status"] == "active"
                  and (c["pp"] >= DIPLOMACY_COST or unlimited(code)))


def has_choice(state: State, faction: str) -> bool:
    if not active(state) or faction in state["done_turn"].get("diplomacy", []):
        return False
    return bool(_payers(state, faction)) and bool(state.get("diplomacy_cup") or state["holding_box"])


def check(state: State, order: Order, faction: str) -> None:
    """USE 10.2: draw from the cup, or move a Holding Box marker into it, for 5 PP."""
    if not played(state):
        illegal(order, "this scenario has no Diplomacy Cup", "10.2")
    if not active(state):
        illegal(order, "Diplomacy is active only while Appeasement, the Nazi-Soviet Pact or the Moscow "
                "Treaty is in effect", "10.2")
    if faction in state["done_turn"].get("diplomacy", []):
        illegal(order, f"{faction} has already spent its diplomacy action this phase", "10.2")
    payer = state["countries"].get(order["pay"])
    if payer is None or payer["faction"] != faction or payer["status"] != "active":
        illegal(order, f"{order['pay']} is not an active country of yours", "10.2")
    if payer["pp"] < DIPLOMACY_COST and not unlimited(order["pay"]):
        illegal(order, f"diplomacy costs {DIPLOMACY_COST} PP; {order['pay']} has {payer['pp']}", "10.2")
    if order["action"] == "draw":
        if not state.get("diplomacy_cup"):
            illegal(order, "the Diplomacy Cup is empty", "10.2")
        return
    if order.get("marker") not in state["holding_box"]:
        illegal(order, f"no {order.get('marker')} marker in the Holding Box", "10.2")


def run(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check``."""
    cup: list[str] = state.setdefault("diplomacy_cup", [])
    if order["action"] == "return":
        _pay(state, order, faction, events)
        box: list[str] = state["holding_box"]
        box.remove(order["marker"])
        cup.append(order["marker"])
        moved = [order["marker"]]
        if NO_EVENT in box:  # 10.2: "then must also return a No Event marker ... if available"
            box.remove(NO_EVENT)
            cup.append(NO_EVENT)
            moved.append(NO_EVENT)
        cup.sort()
        events.append({"kind": "diplomacy-return", "faction": faction, "markers": moved})
        return
    pool = sorted(cup)
    pick = 1
    if len(pool) > 1:
        need(ctx, 1)  # strict dice: the draw waits for the die in the faction's next file
        pick = ctx.roll(len(pool), "diplomacy cup draw")[0]
    _pay(state, order, faction, events)
    marker = pool[pick - 1]
    cup.remove(marker)
    events.append({"kind": "diplomacy-draw", "faction": faction, "marker": marker, "pick": pick,
                   "of": len(pool)})
    resolve_drawn(state, faction, marker, events)


def _pay(state: State, order: Order, faction: str, events: Events) -> None:
    if not unlimited(order["pay"]):
        state["countries"][order["pay"]]["pp"] -= DIPLOMACY_COST
    _done(state).append(faction)


def resolve_drawn(state: State, drawer: str, marker: str, events: Events) -> None:
    """USE 14.9 / 14.11 / 14.12 / 13.2.2: what a drawn marker does."""
    if marker == NO_EVENT:
        state["holding_box"].append(NO_EVENT)  # 14.9: nothing happens
        state["holding_box"].sort()
        return
    if marker == "area-seized":  # USE 14.2 (conquest.area_seized); then to the Holding Box
        from .conquest import area_seized

        area_seized(state, events)
        state["holding_box"] = sorted([*state["holding_box"], marker])
        return
    if marker == "political-failure":
        fs = state["factions"]
        chooser = fs[(fs.index(drawer) + 1) % len(fs)] if drawer in fs else drawer
    elif marker.startswith("pro-"):
        chooser = marker[4:]
    else:
        chooser = drawer
    state["diplomacy_owed"] = {"faction": chooser, "marker": marker, "drawer": drawer}
    events.append({"kind": "diplomacy-owed", "faction": chooser, "marker": marker})


def grant_success(state: State, faction: str, why: str, events: Events) -> None:
    """USE 13.2 Major Power Special Collapse: "Germany gets ... 1 Political Success".
    DECISIONS: the faction resolves it at once as if it had drawn the marker (14.12), before
    anything else (sequence.pending); it is a gain, not a marker of the cup, so it goes to
    neither the cup nor the Holding Box afterwards (``granted``); with a choice already waiting
    it waits in ``diplomacy_queue``. A game without a Diplomacy Cup (France 1940, rules-gaps 11)
    has no Political Success to resolve: nothing happens there."""
    if not played(state):
        return
    owed = {"faction": faction, "marker": "political-success", "drawer": faction, "granted": True}
    if state.get("diplomacy_owed"):
        state.setdefault("diplomacy_queue", []).append(owed)
    else:
        state["diplomacy_owed"] = owed
    events.append({"kind": "diplomacy-owed", "faction": faction, "marker": "political-success", "why": why})


def _next_owed(state: State) -> None:
    queue = state.get("diplomacy_queue")
    if queue:
        state["diplomacy_owed"] = queue.pop(0)
        if not queue:
            del state["diplomacy_queue"]


def pending(state: State) -> tuple[str, str, str] | None:
    owed = state.get("diplomacy_owed")
    if not owed:
        return None
    return (owed["faction"], "political",
            f"resolve the drawn {owed['marker']} marker ('political COUNTRY pro|activate|remove' or 'political none')")


def _pro_count(state: State, faction: str) -> int:
    return sum(1 for c in state["countries"].values() if c["status"] == "neutral" and c.get("pro") == faction)


def _borders(state: State, b: Board, code: str, faction: str) -> bool:
    """Whether neutral ``code`` borders an active country of ``faction`` (14.11)."""
    for h, owner in b.country.items():
        if owner != code:
            continue
        for n in b.neighbours(h):
            c = state["countries"].get(b.country.get(n) or "")
            if c is not None and c["status"] == "active" and c["faction"] == faction:
                return True
    return False


def check_political(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 14.11 / 14.12 / 15.19 / 15.25: the choice a drawn marker leaves to ``faction``."""
    owed = state.get("diplomacy_owed")
    if not owed or owed["faction"] != faction:
        illegal(order, "no drawn Diplomacy marker waits for your choice", "10.2")
    marker = owed["marker"]
    rule = {"political-failure": "14.11", "political-success": "14.12"}.get(marker, "15.19")
    choice = order["choice"]
    if choice == "none":
        return
    c = state["countries"].get(order["country"])
    if c is None or c["status"] != "neutral":
        illegal(order, f"{order['country']} is not a neutral country", rule)
    if c.get("strict"):
        illegal(order, f"{order['country']} pursues Strict Neutrality: no diplomacy reaches it", "15.25")
    if marker.startswith("pro-") and choice != "pro":
        illegal(order, f"a drawn {marker} marker can only be placed in a neutral country", "15.19")
    if marker == "political-failure" and not _borders(state, b, order["country"], owed["drawer"]):
        illegal(order, f"{order['country']} does not border an active country of the phasing faction "
                f"({owed['drawer']})", "14.11")
    pro = c.get("pro")
    if choice == "pro":
        if pro is not None:
            illegal(order, f"{order['country']} already has a Pro-{str(pro).title()} marker", rule)
        if _pro_count(state, faction) >= PRO_MAX:
            illegal(order, f"{faction} already has {PRO_MAX} Pro-Faction markers in neutral countries", "15.19")
    elif choice == "activate":
        # DECISION: 14.12 says "activates friendly-leaning country", 14.11 only "activates
        # country" (of the neutrals bordering the phasing faction): read as written.
        if marker == "political-success" and pro != faction:
            illegal(order, f"{order['country']} is not Pro-{faction.title()}: only a friendly-leaning "
                    "country can be activated", rule)
        if not c.get("can_dow", True):
            illegal(order, f"{order['country']} cannot be activated in this scenario", rule)
    elif pro is None or pro == faction:
        illegal(order, f"{order['country']} has no enemy Pro-Faction marker to remove", rule)


def political(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_political``."""
    from .war import activate_country, special_activation

    owed = state.pop("diplomacy_owed")
    _next_owed(state)
    marker, choice, code = owed["marker"], order["choice"], str(order.get("country"))
    placed = marker.startswith("pro-") and choice == "pro"
    if not placed and not owed.get("granted"):
        state["holding_box"].append(marker)
        state["holding_box"].sort()
    ev: dict[str, Any] = {"kind": "political", "faction": faction, "marker": marker, "choice": choice}
    if choice == "none":
        events.append(ev)
        return
    ev["country"] = code
    c = state["countries"][code]
    if choice == "pro":
        c["pro"] = faction
    elif choice == "remove":
        ev["removed"] = c["pro"]
        c["pro"] = None
    events.append(ev)
    if choice == "activate":
        c["pro"] = None
        activate_country(state, b, code, faction, events)
        special_activation(state, b, code, ctx, events)


# --- the orders' words (verbs.py ties them to the rules) -------------------------------------

def parse(ln: Any, o: Order) -> None:
    """diplomacy draw COUNTRY | diplomacy return MARKER COUNTRY (COUNTRY pays the 5 PP)."""
    col, action = ln.take("'draw' or 'return'")
    if action.lower() not in ("draw", "return"):
        raise ln.err(f"{action!r}: write 'diplomacy draw COUNTRY' or 'diplomacy return MARKER COUNTRY'", col)
    o["action"] = action.lower()
    if o["action"] == "return":
        col, m = ln.take("a marker of the Holding Box")
        if m.lower() not in MARKERS:
            raise ln.err(f"{m!r} is not a Diplomacy marker ({', '.join(MARKERS)})", col)
        o["marker"] = m.lower()
    o["pay"] = ln.take("the country paying 5 PP")[1].upper()


def parse_political(ln: Any, o: Order) -> None:
    """political none | political COUNTRY pro|activate|remove."""
    col, t = ln.take("a neutral country, or 'none'")
    if t.lower() == "none":
        o["choice"] = "none"
        return
    o["country"] = t.upper()
    col, choice = ln.take("pro, activate or remove")
    if choice.lower() not in CHOICES[:3]:
        raise ln.err(f"{choice!r}: write pro, activate or remove", col)
    o["choice"] = choice.lower()


def offer_political(state: State, seat: str) -> list[Any]:
    """The choices a drawn marker leaves to ``seat`` (legal actions; the rules check each)."""
    from pbem.rulesapi import Action, Arg

    owed = state.get("diplomacy_owed")
    if not owed or owed["faction"] != seat:
        return []
    neutrals = tuple(sorted(k for k, c in state["countries"].items() if c["status"] == "neutral"))
    rule = {"political-failure": "USE 14.11", "political-success": "USE 14.12"}.get(owed["marker"], "USE 15.19")
    return [Action("political", (Arg("country", "country", neutrals), Arg("choice", "word", CHOICES[:3])), rule,
                   f"resolve the drawn {owed['marker']} marker in a neutral country"),
            Action("political", (Arg("none", "word", ("none",)),), rule, "decline the drawn marker")]


def offer_diplomacy(state: State, seat: str) -> list[Any]:
    from pbem.rulesapi import Action, Arg

    if not has_choice(state, seat):
        return []
    payers = tuple(_payers(state, seat))
    out = []
    if state.get("diplomacy_cup"):
        out.append(Action("diplomacy", (Arg("draw", "word", ("draw",)), Arg("pay", "country", payers)),
                          "USE 10.2", "draw a marker from the Diplomacy Cup for 5 PP"))
    if state["holding_box"]:
        out.append(Action("diplomacy", (Arg("return", "word", ("return",)),
                                        Arg("marker", "word", tuple(sorted(set(state["holding_box"])))),
                                        Arg("pay", "country", payers)),
                          "USE 10.2", "put a Holding Box marker into the cup for 5 PP"))
    return out
