"""Sequence of Play (USE 1.2), turn counting (1.6), Victory Check (12.1) and End of Turn (12.2).

The turn is a list of steps ``(phase, faction)``, walked by the kit's stepper
(pbem.kit.sequence); this module holds USE's steps and what each one does. Steps with
no choice to make are run automatically inside ``apply`` (Economy, the Supply Check, No
Supply, Victory, End of Turn), and a faction's step is skipped when it has nothing it may
do (e.g. the Western Declare War step while the Nazi-Soviet Pact forbids it, 10.1), so a
game turn costs as few emails as the rules allow. The Weather Phase needs the Axis's dice,
so it is rolled when the Axis sends its first file of the turn.

DECISION: Replacements, Upgrade and Mobilization (8.1-8.3) never interact between factions,
so each faction does all three in one go (Axis 8-9-10, then Western 8-9-10) instead of
alternating phase by phase: the outcome is the same and it saves two emails a turn.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.sequence import Sequence

from . import diplomacy, economy, homedef, markers, policies, strictdice, supply, tracking
from .geo import Board, weather_table
from .state import State, Unit, date_add, faction_of, hex_of, on_map

Events = list[dict[str, Any]]

INTERACTIVE = ("declare-war", "strategic-move", "actions", "replacements", "upgrade", "mobilization",
               "diplomacy")


def steps(state: State) -> list[tuple[str, str | None]]:
    fs = state["factions"]
    out: list[tuple[str, str | None]] = [("weather", "axis")]
    out += [("declare-war", f) for f in fs]
    out += [("economy", None), ("strategic-warfare", "axis")]
    out += [("strategic-move", f) for f in fs]
    for f in fs:
        out += [("actions", f), ("supply-check", f)]
    out.append(("no-supply", None))
    for f in fs:
        out += [("replacements", f), ("upgrade", f), ("mobilization", f)]
    out += [("diplomacy", f) for f in fs]
    out += [("victory", None), ("end-of-turn", None)]
    return out


SEQUENCE = Sequence(steps)


def phase_label(state: State) -> str:
    """E.g. "1939-09 Axis Declare War Phase"; a nobody's step (Economy, Victory) names no faction."""
    return f"{state['date']} {SEQUENCE.label(state)}"


def pending(state: State) -> tuple[str, str, str] | None:
    """(faction, kind, wanted): who must act and what is wanted of them."""
    if state["over"]:
        return None
    for d in state.get("due", []):
        return (d["roller"], "resolve",
                f"send a file to finish your '{d['order']['verb']}' order with its dice (strict dice)")
    owed = diplomacy.pending(state)  # USE 10.2: a drawn marker's choice comes before anything else
    if owed is not None:
        return owed
    for c in state["combats"]:
        if c["status"] == "await-defender":
            return (c["defender"], "will-commit",
                    f"Will Commit or not for the {c['kind']} attack on {c['target']} "
                    f"(answer 'will-commit {c['target']} yes|no')")
    for c in state["combats"]:
        if c["status"] == "declare":  # USE 5.1 step 2 as written (actions.declare)
            return (c.get("turn", c["attacker"]), "will-commit",
                    f"declare one air unit or none for the {c['kind']} attack on {c['target']} "
                    f"(answer 'will-commit {c['target']} air AIRUNIT' or 'will-commit {c['target']} no-air')")
    for c in state["combats"]:
        if c["status"] == "await-resolve":
            return (c["attacker"], "resolve",
                    f"send a file to open your Will Commit and resolve the attack on {c['target']}")
    if state["phase"] == "weather":
        return ("axis", "orders", "your orders for the new turn (the weather is rolled when you send them)")
    return (state["active"], "orders", f"orders for the {phase_label(state)}")


def has_choice(state: State, b: Board, phase: str, faction: str) -> bool:
    """Whether ``faction`` has anything it may do in its ``phase`` step (else it is skipped)."""
    from . import war

    standing = state["standing"].get(faction)
    if standing is not None and phase in standing.get("skip", []):
        return False
    if phase == "declare-war":
        return war.may_declare_any(state, faction)
    if phase == "strategic-move":
        if faction in state["done_turn"]["sm"]:
            return False
        return any(faction_of(state, u) == faction and on_map(u) and u["supply"] != "no"
                   and u["kind"] in ("infantry", "paratroop", "garrison", "motorized", "tank", "fighter", "bomber")
                   and b.has_transport(hex_of(u)) for u in state["units"].values())
    if phase in ("replacements", "upgrade", "mobilization"):
        return economy.has_choice(state, b, phase, faction)
    if phase == "diplomacy":
        return diplomacy.has_choice(state, faction)  # 10.2 (France 1940 has no cup: rules-gaps 11)
    return True


def run_auto(state: State, b: Board, phase: str, faction: str | None, events: Events, ctx: Any) -> None:
    """Work of a step that needs no player (done on entering it)."""
    if phase == "economy":
        tracking.urals(state, events)  # USE 15.28
        economy.production(state, b, events)
    elif phase == "supply-check" and faction:
        # USE 1.2.1: "When all Actions are done, remove any Airdrop, Assault, Partisans, or
        # Surprise Attack markers", before the Supply Check Sub-Phase (its interceptions must
        # not read them).
        from .endactions import end_of_actions, markers_off

        end_of_actions(state, faction, ctx, events)  # 1.2.1, 3.1: every faction's (endactions.py)
        supply.supply_check(state, b, faction, events, ctx)
        # An event marker used in one of the Supply Check's interceptions goes on the Turn Track
        # now, as it did when this step ran after the check (3.1), not a turn late.
        markers_off(state, faction, ctx, events)
    elif phase == "no-supply":
        supply.no_supply_phase(state, events, b)
    elif phase == "victory":
        from .war import victory_check

        victory_check(state, b, events)
    elif phase == "end-of-turn":
        end_of_turn(state, events, b)


def start_step(state: State, b: Board, phase: str, faction: str, events: Events) -> None:
    """What the start of a faction's step does even when the faction has no choice in it."""
    if phase in ("strategic-move", "actions"):
        # USE 10.3.1 / 4.1.1 step 1: the Home Defense check, at the start of the Strategic
        # Movement and Operations Phases.
        homedef.check(state, b, faction, events)
    if phase == "strategic-move":
        # USE 4.1.1 step 2: the faction's Strategic Move marker from last turn comes off (also
        # when the step is skipped: the marker must not outlive its turn).
        for u in state["units"].values():
            if faction_of(state, u) == faction:
                u["sm"] = False


def enter_step(state: State, b: Board, phase: str, faction: str | None, events: Events) -> None:
    """Bookkeeping at the start of an interactive step."""
    if phase == "actions" and faction:
        for u in state["units"].values():
            if faction_of(state, u) == faction:
                u["attack_mode"] = None


def advance(state: State, b: Board, events: Events, ctx: Any = None) -> None:
    """Move past the current step, then through every step that needs nobody."""
    from .partners import hand_over

    if hand_over(state, b, events, has_choice):  # a split faction's step goes on with its partner (seating.py)
        return
    SEQUENCE.advance(state, lambda phase, faction: _enter(state, b, phase, faction, events, ctx))


def _enter(state: State, b: Board, phase: str, faction: str | None, events: Events, ctx: Any) -> bool:
    """Entering a step: do what it does without a player; True when it waits for a file."""
    if phase == "weather":
        if strictdice.strict(ctx):
            # The Axis rolls them in its next file, after the others released the seeds.
            strictdice.reserve(ctx, turn_start_dice(state), "axis")
            return True
        if ctx is not None and ctx.seat == "axis":
            roll_weather(state, b, ctx, events)
            return False
        return True
    if phase in INTERACTIVE:
        assert faction is not None
        start_step(state, b, phase, faction, events)
        if has_choice(state, b, phase, faction):
            enter_step(state, b, phase, faction, events)
            events.append({"kind": "phase", "phase": phase, "faction": faction})
            from .partners import enter

            enter(state, b, phase, faction, events, has_choice)  # a split faction's lead with nothing to do
            return True
        events.append({"kind": "phase-skipped", "phase": phase, "faction": faction})
        return False
    if phase == "strategic-warfare":
        # USE 9.2 steps 1-3: no choice for anyone, played in the file that reaches it.
        from .strategic_warfare import strategic_warfare

        strategic_warfare(state, ctx, events)
        return False
    run_auto(state, b, phase, faction, events, ctx)
    return False


def settle(state: State, b: Board, seat: str, events: Events, ctx: Any) -> None:
    """After an order: a Declare War or Strategic Movement step with nothing left to do for
    its faction (no target left; its one Strategic Move made, 4.1) ends by itself. Conquest
    (13.2) is checked after every order: it may follow a collapse by any later change."""
    from .will import check_conquests

    check_conquests(state, b, events)
    from .conditional import after_order

    after_order(state, b, events)  # USE 13.5, 13.6, 13.7
    p = pending(state)
    if (p is not None and p[:2] == (seat, "orders") and state["phase"] in ("declare-war", "strategic-move")
            and state["active"] == seat and not has_choice(state, b, state["phase"], seat)):
        advance(state, b, events, ctx)


def turn_start_dice(state: State) -> int:
    """Dice the Axis rolls first thing in its first file of a turn: the rolls left over from
    the last turn (strict dice) and the three Weather dice (11.0)."""
    return 3 + sum(2 if t["kind"] == "strategic" else 1 for t in state.get("turn_dice", []))


def roll_turn_start(state: State, b: Board, ctx: Any, events: Events) -> None:
    """The Axis's first file of a turn: last turn's deferred rolls, then the Weather Phase.
    DECISION (strict dice): Strategic Warfare (9.2) and the marker-return dice (6.1) decide
    nothing before the next turn (Fac Lost counts at the next Economy Phase, a marker comes
    back on a later turn), so they are rolled here, with the Weather dice, instead of costing
    two emails when they arise; their DRMs and steps were fixed when they arose."""
    from .strategic_warfare import strategic_combat

    for t in state.pop("turn_dice", []):
        if t["kind"] == "strategic":
            strategic_combat(state, t["code"], t["defender"], ctx, events, drm=int(t["drm"]))
        elif t["kind"] in policies.TURN_DICE:
            policies.roll(state, t, ctx, events)  # 15.14 / 15.21
        else:
            markers.return_marker(state, t["faction"], t["marker"], int(t["turn"]), ctx, events)
    roll_weather(state, b, ctx, events)


def roll_weather(state: State, b: Board, ctx: Any, events: Events) -> None:
    """USE 11.0: the Axis rolls one die each for the Cold, Mild and Warm zones; Desert is Fair."""
    month = int(state["date"].split("-")[1])
    table = weather_table()
    for zone in ("cold", "mild", "warm"):
        die = ctx.roll(6, f"weather {zone}")[0]
        state["weather"][zone] = table.result(zone, month, die)
        events.append({"kind": "weather", "zone": zone, "die": die, "weather": state["weather"][zone]})
    state["weather"]["desert"] = "fair"
    tracking.russian_winter(state, events)  # USE 15.23


def end_of_turn(state: State, events: Events, b: Board | None = None) -> None:
    """USE 12.2 (and 9.0: unused production points are lost at turn end)."""
    for c in state["countries"].values():
        c["pp"] = 0
    for u in state["units"].values():
        u["repatriated"] = False  # 10.4: barred from activation for the turn only
        if u["box"] == "eliminated":
            u["box"] = "mobilization"  # 12.2: Eliminated box -> Mobilization box
    state["done_turn"] = {"improved": [], "supply_reduced": [], "transfers": [], "sm": []}
    if state["turn"] >= state["last_turn"]:
        state["over"] = state["over"] or "The scenario ended with no victory condition met: a draw"
        events.append({"kind": "game-over", "result": state["over"]})
        return
    state["turn"] += 1
    state["date"] = date_add(state["date"], 1)
    events.append({"kind": "turn", "turn": state["turn"], "date": state["date"]})
    markers.turn_track(state, events)
    policies.turn_track(state, events)
    tracking.turn_track(state, b, events)  # USE 15.2, 15.23, 15.29
    if b is not None:
        arrivals(state, b, events)


def arrivals(state: State, b: Board, events: Events) -> None:
    """USE 12.2: counters in the new turn's box of the Turn Track come into play: units placed
    ``turn:N:HEX`` in units.txt arrive on turn N at that hex.
    DECISIONS (the seed says only "move counters in entered box to map"): the unit arrives as
    units.txt describes it, in Full Supply; if its hex holds an enemy unit, an enemy city or
    fort, or a unit of its stacking class (3.3), it goes to the Mobilization box instead (8.3
    can place it later); a unit of a country not yet active waits for the activation (13.1) in
    that hex; a unit of a conquered country is removed (13.2.2)."""
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["box"] != "turn" or int(u.get("arrive", 0)) > state["turn"]:
            continue
        c = state["countries"].get(u["country"])
        status = None if c is None else c.get("status")
        h = u.get("setup")
        if status == "conquered":
            u["box"] = "removed"
            events.append({"kind": "arrival", "unit": uid, "to": "removed"})
            continue
        if status != "active":
            u["box"] = "inactive"
            events.append({"kind": "arrival", "unit": uid, "to": "inactive"})
            continue
        if h is None or not b.on_map(h) or _arrival_blocked(state, b, u, h):
            u["box"], u["hex"] = "mobilization", None
            events.append({"kind": "arrival", "unit": uid, "to": "mobilization", "blocked": h})
            continue
        u["box"], u["hex"], u["supply"], u["fort"], u["sm"] = None, h, "full", False, False
        events.append({"kind": "arrival", "unit": uid, "to": h})


def _arrival_blocked(state: State, b: Board, u: Unit, h: str) -> bool:
    from .state import enemies, stack_class, units_at

    f = faction_of(state, u)
    if b.city(h) is not None and enemies(state["control"].get(h), f):
        return True
    if enemies(state["forts"].get(h), f):
        return True
    return any(enemies(faction_of(state, o), f) or stack_class(o["kind"]) == stack_class(u["kind"])
               for o in units_at(state, h))
