"""A faction split by country between a lead seat and a partner seat (four players; seating.py).

The state keeps ``partners`` (partner seat -> {faction, countries}) and, while the partner plays
its part of a unit step, ``part`` (the partner seat).  Both are absent without a split, so the
state of every other game reads as before and nothing here runs for it.  The rules go on
speaking of factions; this module says which *seat* a faction's pending decision goes to, refuses
an order from the wrong seat, and splits the unit steps in two parts (DECISIONS in seating.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from pbem.rulesapi import Action, seat_of_side

from .refusals import illegal
from .state import State, Unit, faction_of, on_map

Events = list[dict[str, Any]]
Order = dict[str, Any]
RULE = "1.1 seating"
SPLIT_PHASES = ("strategic-move", "actions", "replacements", "upgrade", "mobilization")
# Faction-wide decisions: the lead's alone (whatever step they come in).
LEAD_ONLY = frozenset({"standing", "play", "airdrop", "partisans", "diplomacy", "declare-war", "political"})


def _d(state: State | Any) -> dict[str, Any]:
    return cast(dict[str, Any], state)


def split(state: State | Any) -> dict[str, dict[str, Any]]:
    """Partner seat -> {faction, countries}; empty without a split."""
    out = _d(state).get("partners") if isinstance(state, dict) else None
    return cast(dict[str, dict[str, Any]], out or {})


def install(public: State, parts: dict[str, dict[str, Any]]) -> None:
    """At genesis: the ``partners`` entry, absent without a split (so other states read the same)."""
    if parts:
        _d(public)["partners"] = parts


def partner_of(state: State, faction: str | None) -> str | None:
    return next((seat for seat, p in split(state).items() if p["faction"] == faction), None)


def seat_of(public: Any, faction: str) -> str:
    """The seat that plays ``faction`` (itself unless a seating gave it to another seat); for a
    split faction, its lead (``seat_for`` says when the partner acts). Here rather than in
    seating.py, which reads the sequence, so that this module never imports what calls it."""
    seats = public.get("seats") if isinstance(public, dict) else None
    if not seats or not any(faction in fs for fs in seats.values()):
        return faction  # the state keeps only the seats holding several factions
    return seat_of_side(seats, faction)


def lead_of(state: State, faction: str) -> str:
    return seat_of(state, faction)


def countries(state: State, seat: str, faction: str) -> set[str]:
    """The countries whose units ``seat`` orders in ``faction``: the partner's listed ones, the
    lead every other country of the faction (also one that joined it during the game)."""
    if seat in split(state):
        return set(split(state)[seat]["countries"])
    theirs = {c for p in split(state).values() if p["faction"] == faction for c in p["countries"]}
    return {code for code, c in state["countries"].items() if c["faction"] == faction and code not in theirs}


def owner(state: State, u: Unit) -> str | None:
    """The seat that orders ``u``, for a unit of a split faction (None otherwise)."""
    f = faction_of(state, u)
    partner = partner_of(state, f)
    if f is None or partner is None:
        return None
    return partner if u["country"] in split(state)[partner]["countries"] else lead_of(state, f)


def seat_for(state: State, p: tuple[str, str, str]) -> str:
    """The seat that must act for the pending ``p`` = (faction, kind, wanted) (sequence.pending):
    the partner during its part for its orders, its dice and its own attacks' decisions; the
    lead for everything else (the defender's Will Commit, a political choice)."""
    faction, kind, _ = p
    part = _d(state).get("part")
    if part is None or split(state)[part]["faction"] != faction:
        return lead_of(state, faction)
    if kind in ("orders", "resolve"):
        return str(part)
    if kind == "will-commit" and not any(c["status"] == "await-defender" for c in state["combats"]):
        c = next(c for c in state["combats"] if c["status"] == "declare")  # as sequence.pending
        if c["attacker"] == faction:
            return str(part)  # 5.1 step 2 as written: the air declaration of the partner's attack
    return lead_of(state, faction)


def dice_seat(state: State, faction: str, author: str) -> str:
    """The seat that rolled a die of ``faction`` in ``author``'s file: the author when it is the
    faction's partner (its own attack), else the faction's seat (the lead)."""
    if author in split(state) and split(state)[author]["faction"] == faction:
        return author
    return lead_of(state, faction)


def _view(state: State, seat: str, faction: str) -> State:
    """The state as far as ``seat``'s part goes: its countries' units and production only."""
    mine = countries(state, seat, faction)
    units = {k: u for k, u in state["units"].items() if faction_of(state, u) != faction or u["country"] in mine}
    cs = {k: c for k, c in state["countries"].items() if c["faction"] != faction or k in mine}
    return cast(State, dict(state, units=units, countries=cs))


HasChoice = Callable[[State, Any, str, str], bool]
PendingOf = Callable[[State], tuple[str, str, str] | None]


def has_part(state: State, b: Any, phase: str, faction: str, seat: str, has_choice: HasChoice) -> bool:
    """Whether ``seat`` has anything it may do in its part of ``faction``'s ``phase`` step
    (``has_choice``: sequence.has_choice, passed in so that this module never imports the
    sequence that calls it). The lead always has its Actions part (its faction-wide actions)."""
    if phase == "actions":
        return seat not in split(state) or any(
            faction_of(state, u) == faction and u["country"] in countries(state, seat, faction) and on_map(u)
            for u in state["units"].values())
    return has_choice(_view(state, seat, faction), b, phase, faction)


def enter(state: State, b: Any, phase: str, faction: str, events: Events, has_choice: HasChoice) -> None:
    """Entering a split step: the lead's part is skipped when it has nothing to do there."""
    partner = partner_of(state, faction)
    if partner is None or phase not in SPLIT_PHASES or has_part(state, b, phase, faction, lead_of(state, faction),
                                                                                  has_choice):
        return
    if has_part(state, b, phase, faction, partner, has_choice):
        _d(state)["part"] = partner
        events.append({"kind": "phase", "phase": phase, "faction": faction, "seat": partner})


def hand_over(state: State, b: Any, events: Events, has_choice: HasChoice) -> bool:
    """Ending a part of a split step (sequence.advance): the lead's part hands the step to the
    partner (True: the step goes on); the partner's part, or a partner with nothing to do in its
    part, ends the step."""
    s = _d(state)
    if "part" in s:
        del s["part"]
        return False
    faction = state["active"]
    partner = partner_of(state, faction)
    if partner is None or state["phase"] not in SPLIT_PHASES or faction is None:
        return False
    if not has_part(state, b, state["phase"], faction, partner, has_choice):
        return False
    s["part"] = partner
    events.append({"kind": "phase", "phase": state["phase"], "faction": faction, "seat": partner})
    return True


def check_seat(state: State, by: str | None, pending: PendingOf) -> None:
    """A file from a seat whose turn it is not (the other part of the step, say); ``pending``:
    sequence.pending, passed in (this module never imports the sequence that calls it)."""
    p = pending(state)
    if not split(state) or by is None or p is None:
        return
    want = seat_for(state, p)
    if want != by:
        illegal(None, f"it is the {want} seat's turn to act ({p[2]}), not the {by} seat's", RULE,
                "run 'pbem status' to see whose move it is")


def check_order(state: State, faction: str, by: str | None, o: Order, pending: PendingOf) -> None:
    """Refuse an order the seat ``by`` (acting for ``faction``) may not give: one for the other
    seat's part, a faction-wide decision from the partner, another seat's unit or production."""
    if not split(state) or by is None:
        return
    partner = partner_of(state, faction)
    if partner is None:
        return
    lead = lead_of(state, faction)
    if by == partner and o["verb"] in LEAD_ONLY:
        illegal(o, f"'{o['verb']}' is a faction-wide decision: it belongs to the {lead} seat", RULE,
                f"the {lead} seat gives it; the {by} seat orders only the units of its countries")
    p = pending(state)
    if o["verb"] != "standing" and p is not None and p[0] == faction and seat_for(state, p) != by:
        illegal(o, f"the file must stop here: the {seat_for(state, p)} seat plays next ({p[2]})", RULE,
                "send this file; the other seat's file continues the step")
    mine = countries(state, by, faction)
    for uid in _units_named(state, o):
        u = state["units"][uid]
        if faction_of(state, u) == faction and u["country"] not in mine:
            other = owner(state, u)
            illegal(o, f"{uid} is a unit of {u['country']}: it belongs to the {other} seat", RULE,
                    f"the {by} seat orders only units of {', '.join(sorted(mine))}; the {other} seat orders {uid}")
    giver = state["countries"].get(o["from"]) if o["verb"] == "transfer" else None
    if giver is not None and giver["faction"] == faction and o["from"] not in mine:
        illegal(o, f"{o['from']}'s production points belong to the {lead if by == partner else partner} seat", RULE,
                f"the {by} seat spends only the production points of {', '.join(sorted(mine))}")


def _units_named(state: State, o: Order) -> list[str]:
    """Every unit an order names (a unit id, a list of them, or an attacker named by its hex)."""
    from .orders import HEX_RE

    units = state["units"]
    out: list[str] = []
    for key, v in o.items():
        for w in v if isinstance(v, list) else [v]:
            if not isinstance(w, str):
                continue
            if w in units:
                out.append(w)
            elif key == "unit" and HEX_RE.match(w):  # 'attack 0718 from 0818' (verbs._unit_at)
                out += [k for k, u in units.items() if u["hex"] == w and u["box"] is None][:1]
    return out


def offers(state: State, seat: str, faction: str, actions: list[Action]) -> list[Action]:
    """The legal actions of ``seat`` acting for ``faction`` (seating.acting): only its own units,
    no faction-wide decision for a partner."""
    if partner_of(state, faction) is None:
        return actions
    lead = seat not in split(state)
    mine = countries(state, seat, faction)
    units = state["units"]

    def ok(uid: str) -> bool:
        u = units.get(uid)
        return u is None or faction_of(state, u) != faction or u["country"] in mine

    out = []
    for a in actions:
        if not lead and a.verb in LEAD_ONLY:
            continue
        args = tuple(replace(g, choices=tuple(c for c in g.choices if ok(c)))
                     if g.kind == "unit" and g.choices is not None else g for g in a.args)
        if any(g.choices == () and not g.optional for g in args if g.kind == "unit"):
            continue
        out.append(replace(a, args=args))
    return out
