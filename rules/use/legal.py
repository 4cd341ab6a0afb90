"""What a seat may do now, as typed actions (pbem.rulesapi.Action): each verb's ``offer``.

The verb table (verbs.py) asks the verbs of the current phase, then those of every phase;
``verbs.legal_actions`` handles a pending Will Commit. Choices are given where they cost a
scan of the units (own unit names, enemy hexes next to own units, the Will Commit targets);
where only a rules check could tell (a move's path, a mobilization city) the argument is
typed without choices. Every action listed parses once filled in
(tests/test_legal_actions.py); ``apply`` may still refuse it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from pbem.errors import OrderError
from pbem.rulesapi import Action, Arg

from . import actions, geo, reach, war
from .activation import check_activate
from .state import PHASES, State, Unit, faction_of, hex_of, in_play, is_air, is_ground, is_naval, on_map, unit_enemy

COMMIT = Arg("commit", "word", ("will-commit", "no-commit"), optional=True)
END_PHASE = Action("end-phase", (), "USE 1.2", "end this step of the Sequence of Play")


def _units(s: State, seat: str, keep: Callable[[Unit], bool]) -> tuple[str, ...]:
    return tuple(sorted(uid for uid, u in s["units"].items() if faction_of(s, u) == seat and keep(u)))


def _near(s: State, seat: str, enemy: bool) -> tuple[str, ...]:
    """Hexes next to the seat's on-map ground units (with an enemy unit in them if ``enemy``)."""
    b = geo.board(s)
    own = [hex_of(u) for u in s["units"].values() if faction_of(s, u) == seat and on_map(u) and is_ground(u)]
    enemy_at = {u["hex"] for u in s["units"].values() if on_map(u) and unit_enemy(s, u, seat)}
    out = {n for h in own for n in b.neighbours(h)}
    return tuple(sorted(out & enemy_at if enemy else out))


def will_commit(s: State, seat: str) -> list[Action]:
    targets = tuple(c["target"] for c in s["combats"]
                    if c["defender"] == seat and c["status"] == "await-defender")
    air = _units(s, seat, lambda u: on_map(u) and is_air(u))
    if not targets:
        return _declare(s, seat, air)
    return [Action("will-commit", (Arg("target", "hex", targets), Arg("answer", "word", ("yes", "no")),
                                   Arg("air", "unit", air, keyword="air", optional=True),
                                   Arg("retreat", "hex", None, keyword="retreat", optional=True)),
                   "USE 5.1", "answer the attacker's Will Commit (retreat: a hex or 'stay')")]


def _declare(s: State, seat: str, air: tuple[str, ...]) -> list[Action]:
    """USE 5.1 step 2 as written: after the reveal, a committed side's air unit or none."""
    mine = [c["target"] for c in s["combats"] if c["status"] == "declare" and c.get("turn") == seat]
    # The attacker's next file opens its sealed Will Commit first (module.run_file): committed, its
    # air declaration is that file's first order, so it is offered before the opening too.
    mine += [c["target"] for c in s["combats"]
             if c["status"] == "await-resolve" and c.get("declare") and c["attacker"] == seat]
    if not mine:
        return []
    targets = tuple(mine)
    air = tuple(actions.supporting_air(s, geo.board(s), seat, mine[0]))
    return [Action("will-commit", (Arg("target", "hex", targets), Arg("air", "unit", air, keyword="air")),
                   "USE 5.1", "declare your one air unit after the Will Commit reveal"),
            Action("will-commit", (Arg("target", "hex", targets), Arg("none", "word", ("no-air",))),
                   "USE 5.1", "declare no air unit after the Will Commit reveal")]


def declare_war(s: State, seat: str) -> list[Action]:
    targets = tuple(war.targets(s, seat))
    if not targets:
        return []
    return [Action("declare-war", (Arg("target", "country", targets),), "USE 10.1",
                   "declare war on a neutral country (or break a policy)")]


def strategic_move(s: State, seat: str) -> list[Action]:
    if seat in s["done_turn"]["sm"]:
        return []
    movers = _units(s, seat, lambda u: on_map(u) and (is_ground(u) or is_air(u)) and u["supply"] != "no")
    if not movers:
        return []
    return [Action("strategic-move", (Arg("unit", "unit", movers), Arg("path", "loc", None, repeat=True)),
                   "USE 4.1", "move one unit along a Transport Line")]


def end_phase(s: State, seat: str) -> list[Action]:
    return [END_PHASE]


def _ground(s: State, seat: str) -> tuple[str, ...]:
    return _units(s, seat, lambda u: on_map(u) and is_ground(u))


def _air(s: State, seat: str) -> tuple[str, ...]:
    return _units(s, seat, lambda u: on_map(u) and is_air(u))


def _probe(verb: str, **fields: Any) -> dict[str, Any]:
    """An order as the parser makes it, to ask the verb's own check (which changes nothing)."""
    return {"verb": verb, "line": 0, "col": 0, **fields}


def _may_activate(s: State, u: Unit) -> bool:
    try:
        check_activate(s, _probe("move", unit=u["id"]), u)
    except OrderError:
        return False
    return True


def move(s: State, seat: str) -> list[Action]:
    """One action per ground unit that may be activated, with the paths it may take (reach.py);
    one for the naval units, whose Rebase and Transport the sea rules check."""
    b = geo.board(s)
    out = []
    for uid in _units(s, seat, lambda u: on_map(u) and is_ground(u) and _may_activate(s, u)):
        paths = tuple(reach.ground_paths(s, b, s["units"][uid]))
        if paths:
            ends = " ".join(p[-1] for p in paths)
            out.append(Action("move", (Arg("unit", "unit", (uid,)), Arg("path", "loc", None, repeat=True)),
                              "USE 4.2.3", "activate a unit and move it (1 PP Leg, 2 PP Mobile)",
                              note=f"may end in {ends}", paths=paths))
    naval = _units(s, seat, lambda u: on_map(u) and is_naval(u) and _may_activate(s, u))
    if naval:
        out.append(Action("move", (Arg("unit", "unit", naval), Arg("path", "loc", None, repeat=True)),
                          "USE 4.2.4", "Naval Rebase or Transport through sea zones to a friendly port"))
    return out


_STUB_CTX = SimpleNamespace(author_mode=False)  # the attack checks read no context without an air unit


def _attacks(s: State, seat: str, verb: str) -> list[tuple[str, str, str]]:
    """(target, unit, DRM note) of every attack ``verb`` the rules' own check accepts now."""
    b = geo.board(s)
    out = []
    targets = set(_near(s, seat, enemy=True))
    for uid in _ground(s, seat):
        u = s["units"][uid]
        for target in sorted(targets & set(b.neighbours(hex_of(u)))):
            o = _probe(verb, target=target, unit=uid, mode="mobile", commit=None, air=None)
            try:
                if verb == "attack":
                    actions.check_mobile(s, b, o, seat, _STUB_CTX)
                else:
                    actions.check_assault(s, b, o, seat)
            except OrderError:
                continue
            out.append((target, uid, reach.drm_note(s, b, [u], target, "mobile" if verb == "attack" else verb)))
    return out


def attack(s: State, seat: str) -> list[Action]:
    air = _air(s, seat)
    return [Action("attack", (Arg("target", "hex", (target,)), Arg("from", "unit", (uid,), keyword="from"),
                              COMMIT, Arg("air", "unit", air, keyword="air", optional=True),
                              Arg("advance", "word", ("no-advance",), optional=True)),
                   "USE 5.3.2", "a Mobile Attack from an adjacent hex", note=note)
            for target, uid, note in _attacks(s, seat, "attack")]


def assault(s: State, seat: str) -> list[Action]:
    return [Action("assault", (Arg("target", "hex", (target,)),
                               Arg("from", "unit", (uid,), keyword="from")),
                   "USE 5.3.3", "join an Assault (ends the unit's movement)",
                   note=note + "; more assaulting units add to it")
            for target, uid, note in _attacks(s, seat, "assault")]


def resolve(s: State, seat: str) -> list[Action]:
    assaults = tuple(sorted(h for h, a in s["assaults"].items() if a["faction"] == seat))
    if not assaults:
        return []
    return [Action("resolve", (Arg("target", "hex", assaults),
                               Arg("primary", "unit", _ground(s, seat), keyword="primary", optional=True),
                               COMMIT, Arg("air", "unit", _air(s, seat), keyword="air", optional=True)),
                   "USE 5.3.3", "resolve an Assault declared this phase")]


def rebase(s: State, seat: str) -> list[Action]:
    air = _air(s, seat)
    if not air:
        return []
    return [Action("rebase", (Arg("unit", "unit", air), Arg("to", "loc", None)), "USE 6.2.1",
                   "move an air unit to a friendly base")]


def air_strike(s: State, seat: str) -> list[Action]:
    """USE 6.2.2: an air unit strikes an enemy air or naval unit within 7 hexes: one action per
    air unit with the hexes it can reach that hold one."""
    b = geo.board(s)
    prey = sorted({hex_of(u) for u in s["units"].values()
                   if on_map(u) and not is_ground(u) and unit_enemy(s, u, seat)})
    out = []
    for uid in _air(s, seat):
        here = hex_of(s["units"][uid])
        targets = tuple(h for h in prey if b.distance(here, h) <= actions.AIR_STRIKE_RANGE)
        if targets:
            out.append(Action("air-strike", (Arg("unit", "unit", (uid,)), Arg("target", "hex", targets), COMMIT),
                              "USE 6.2.2", f"strike an enemy air or naval unit with {uid}"))
    return out


def fort(s: State, seat: str) -> list[Action]:
    forts = _units(s, seat, lambda u: on_map(u) and is_ground(u) and not u["fort"])
    if not forts:
        return []
    return [Action("fort", (Arg("unit", "unit", forts),), "USE 15.12", "occupy a friendly fort")]


def end(s: State, seat: str) -> list[Action]:
    if s["activation"] is None:
        return []
    return [Action("end", (), "USE 6.0", "end the current activation")]


def replace(s: State, seat: str) -> list[Action]:
    units = _units(s, seat, lambda u: in_play(u) and u["supply"] == "full" and not u["sm"] and (
        (is_ground(u) and u["reduced"] and u["kind"] != "garrison") or u["sorties"] > 0))
    return [Action("replace", (Arg("unit", "unit", units),), "USE 8.1", "improve a unit for PP")] if units else []


def upgrade(s: State, seat: str) -> list[Action]:
    new = _units(s, seat, lambda u: u["box"] == "upgrade")
    old = _units(s, seat, on_map)
    if not new or not old:
        return []
    return [Action("upgrade", (Arg("unit", "unit", old), Arg("new", "unit", new)), "USE 8.2",
                   "swap an on-map unit for one of the Upgrade box")]


def mobilize(s: State, seat: str) -> list[Action]:
    units = _units(s, seat, lambda u: u["box"] == "mobilization")
    if not units:
        return []
    return [Action("mobilize", (Arg("unit", "unit", units), Arg("to", "loc", None)), "USE 8.3",
                   "place a unit of the Mobilization box in a friendly city (or a Map Box 8.3 names)")]


def standing(s: State, seat: str) -> list[Action]:
    return [Action("standing", (Arg("what", "word", ("will-commit",)), Arg("value", "word", ("yes", "no", "ask"))),
                   "USE 5.1", "answer every later Will Commit without being asked"),
            Action("standing", (Arg("what", "word", ("skip",)), Arg("phases", "word", (*PHASES, "none"),
                                                                      repeat=True)),
                   "USE 1.2", "skip these steps of yours when nothing forces a choice")]
