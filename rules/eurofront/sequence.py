"""The SCW sequence of play (4.0) as kit Sequence steps.

A month is Production and Diplomacy, then two Fortnights (4.1); July 1936 has one Fortnight
and the first month has no Production or Diplomacy (4.1 note; scenario "The Situation").
A Fortnight is Weather (4.21), then the Nationalist Player-Turn, then the Republican one (the
SCW: "The Nationalists always have the first turn"). A Player-Turn here is Command (4.31),
Movement (4.32), Pursuit Fire (6.52, the other player's file, only after a Retreat), Combat
(4.33; combat.py: the passive player's reveal and Defensive Fire is a step of its own, then the
active player's Offensive Fire) and Supply (4.36, no file: public facts only). Each month but the
first opens with Production (11.0; production.py: two sealing files, then two opening files).
Blitz Movement and Combat (4.34, 4.35; blitz.py) repeat Movement, Pursuit and Combat as
``blitz-*`` steps, visited only when a Blitz HQ was designated that Player-Turn.
Not yet steps: Politics (4.37); the SCW has no Diplomacy.
Before the first Fortnight each seat seals its blocks (setup.seal).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.sequence import Sequence, Step

from . import aid_end, blitz, combat, production, railheads, retreat, sealed_place, supply
from . import state as st
from .data import SEATS
from .verbs import Env, deactivate, illegal


def _steps(state: Any) -> list[Step]:
    turn: list[Step] = [x for s in SEATS for x in _player_turn(s)]
    weather: list[Step] = [("weather", s) for s in SEATS]
    produce: list[Step] = [(p, s) for p in ("production", "production-open") for s in SEATS]
    place: list[Step] = [("place", s) for s in SEATS]
    return [*place, ("seal", SEATS[0]), ("seal", SEATS[1]), *produce, *weather, *turn, ("end-fortnight", None)]


def _player_turn(seat: str) -> list[Step]:
    """Command, Movement, Combat (4.31-4.33); a Combat round is the active player's declarations,
    the passive player's reveal and Defensive Fire, then the active player's Offensive Fire."""
    steps: list[Step] = [("movement", seat), ("pursuit", st.enemy(seat)), ("combat", seat),
                         ("defence", st.enemy(seat)), ("fire", seat)]
    return [("command", seat), *steps, *((f"blitz-{p}", s) for p, s in steps), ("supply", seat)]


SEQUENCE = Sequence(_steps)


def finish(env: Env, o: dict[str, Any] | None) -> None:
    """Leave the current step: its end-of-phase checks and work (stacking 6.21, HQs 5.52)."""
    pub = env.public
    phase = blitz.base(pub["phase"])
    if pub["phase"] == "seal" and env.seat not in pub["sealed"]:
        # Ending the step unsealed would leave the blocks with no commitment to open (3.2).
        raise illegal(o, "seal your blocks first (seal): the seal file must seal", "3.2")
    if phase == "movement":
        retreat.end_movement(env, o)
        at = {t: pub["retreats"][t]["path"][-1] if t in pub["retreats"] else b["hex"]
              for t, b in pub["blocks"].items() if b["side"] == env.seat}
        for h in sorted(set(at.values())):
            n = sum(1 for x in at.values() if x == h)
            limit = st.STACK.get(env.board.terrain[h], 4)
            if n > limit:
                raise illegal(o, f"{n} of your units end the Movement Phase in {h} ({env.board.terrain[h]}), "
                              f"the limit is {limit}", "6.21")
    elif phase == "combat":
        combat.end_declarations(env, o)
        if not pub["active_battles"]:
            _end_combat(env)
    elif phase == "pursuit":
        retreat.pursue(env)
    elif phase == "defence":
        combat.defend(env)
    elif phase == "fire":
        combat.fire(env)
        _end_combat(env)
    elif pub["phase"] == "production":
        production.seal(env)
    elif pub["phase"] == "production-open":
        production.open_choices(env)
        railheads.end(env)
        if env.seat == SEATS[-1]:
            pub["produced"] = pub["month"]
    elif pub["phase"] == "weather":
        _roll_weather(env)


def _roll_weather(env: Env) -> None:
    """12.1: each player rolls one die; their sum decides the WF weather: odd Mud, even Dry."""
    pub = env.public
    (die,) = env.ctx.roll(6, f"weather {pub['month']} fortnight {pub['fortnight']}")
    pub["weather_dice"].append(die)
    env.ctx.event("weather-die", side=env.seat, die=die)
    if len(pub["weather_dice"]) == len(SEATS):
        total = sum(pub["weather_dice"])
        pub["weather"] = "mud" if total % 2 else "dry"
        env.ctx.event("weather", month=pub["month"], fortnight=pub["fortnight"], weather=pub["weather"],
                      total=total)


def _end_combat(env: Env) -> None:
    """5.52: Combat Support HQs deactivate after Combat; battles are no longer new (7.15).
    After the first Combat a Blitz HQ loses a step and stays active (5.6, 4.331)."""
    first = not env.public["phase"].startswith("blitz-")
    for tok in sorted(env.public["hqs"], key=st.token_key):
        if tok not in env.public["blocks"]:
            del env.public["hqs"][tok]  # eliminated in the Combat
        elif env.public["blocks"][tok]["side"] == env.seat:
            if first and env.public["hqs"][tok].get("blitz"):
                blitz.end_first_combat(env, tok)
            else:
                deactivate(env, tok)
    for b in env.public["battles"].values():
        b["new"], b["assault"] = False, False
        for key in ("from", "kinds", "dropped"):
            b.pop(key, None)
    env.public["airstrikes"] = {}


def advance(env: Env) -> None:
    if env.public["phase"] == "place" and sealed_place.end(env, None):
        return  # the Free Setup alternates files within its one step
    SEQUENCE.advance(env.public, lambda phase, seat: _visit(env, phase, seat))


def _visit(env: Env, step: str, seat: str | None) -> bool:
    pub = env.public
    if step.startswith("blitz-") and not blitz.on(pub):
        return False  # 4.34, 4.35: only if Blitz HQs were designated this Player-Turn
    phase = blitz.base(step)
    if phase not in ("defence", "fire"):
        st.freeze(pub)  # 8.1: a new phase (the defence and fire steps are the Combat Phase's)
    if phase == "place":
        return False  # the Free Setup starts in this step and leaves it for good (advance)
    if phase == "seal":
        return seat not in pub["sealed"]
    if phase == "weather":
        if st.variable_weather(pub["month"]):
            if seat == SEATS[0]:
                pub["weather_dice"] = []
                for s in SEATS:  # strict dice: each weather die is reserved a file ahead (docs/protocol.md 11)
                    env.ctx.reserve_rolls(1, s)
            return True
        if seat == SEATS[0]:
            pub["weather"] = st.weather_for(pub["month"])  # 4.21, 12.11
            env.ctx.event("weather", month=pub["month"], fortnight=pub["fortnight"], weather=pub["weather"])
        return False
    if phase in ("production", "production-open"):
        assert seat is not None
        due = bool(pub["fortnight"] == 1 and pub["produced"] != pub["month"])  # 4.1, 11.1 note
        if due and phase == "production" and seat == SEATS[0]:
            production.begin(env)
            aid_end.reserve(env)  # SCW 6: each side's die, rolled in its production file
        if due and phase == "production-open" and seat == SEATS[-1]:
            env.ctx.reserve_rolls(production.aid_rolls(pub), seat)  # SCW 3, 5
        if due:
            env.seat = seat
        if due and phase == "production-open":
            railheads.begin(env, seat)  # SCW 3: the month's markers are placed anew
        return due
    if phase == "supply":
        assert seat is not None
        blitz.end_turn(pub)
        supply.supply_phase(env, seat)  # 4.36: public facts only, so every tool agrees
        return False
    if phase == "end-fortnight":
        _end_fortnight(pub)
        return False
    assert seat is not None
    env.seat = seat
    pub["moved"], pub["crossed"] = [], {}
    if phase == "movement":
        pub["command"] = st.command_hexes(pub, env.board, seat)  # 5.31: fixed for the phase
        return True
    if phase == "combat" and st.v2(pub):
        # 5.31: Command Range is fixed at the beginning of the Combat Phase too; combat support (7.4)
        # is judged from it through the defence and fire steps, whatever the fire does meanwhile.
        pub["command"] = st.command_hexes(pub, env.board, seat)
    elif phase not in ("defence", "fire") or not st.v2(pub):
        pub["command"] = []
    if phase == "pursuit":
        return bool(pub["retreats"])
    if phase in ("defence", "fire"):
        return bool(pub["active_battles"])
    if phase == "combat" and not pub["battles"] and not any(
            pub["blocks"][t]["side"] == seat for t in pub["hqs"]):
        return False
    if phase == "combat" and not pub["battles"]:
        _end_combat(env)
        return False
    return True


def _end_fortnight(pub: dict[str, Any]) -> None:
    pub["turn"] += 1
    if pub["fortnight"] == 1 and pub["month"] != "1936-07":
        pub["fortnight"] = 2
        return
    pub["fortnight"] = 1
    pub["month"] = st.next_month(pub["month"])
    if pub["month"] > pub["last"]:
        pub["over"] = "The Republicans win a Marginal Victory: no decision by May 1939 (SCW rule 9C)"
