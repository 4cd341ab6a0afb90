"""Combat (7.0): airstrikes, active battles and their reveals, Defensive then Offensive Fire, repulses.

The Combat Phase is three files:

1. the active player's (``combat``): ``airstrike HQ HEX`` (7.13, 13.2: before that battle's
   reveal) and ``battle HEX`` for each Active Battle (7.14) opening that player's hidden blocks
   there; new battles it attacked and airstrike battles must be fought (7.15);
2. the passive player's (``defence``): its tool opens its blocks in the Active Battles (7.14),
   resolves the airstrikes on them (13.24: the active player's dice, thrown in this file because
   strict dice reserve them a file ahead), then rolls Defensive Fire (7.22), with repulses in a
   River Assault's first round (7.61, 7.62);
3. the active player's (``fire``): Offensive Fire with Double/Triple Defence (7.34, 7.35, 7.4);
   then 0 CV Static units alone are eliminated (2.27), HQs deactivate (5.52), the Original
   Defender's units turn upright again (7.12) and battles with one side left end.

Hits and the owner's choice among equal units: hits.py.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import fortress, paradrop
from . import hits as hx
from . import state as st
from .data import load
from .verbs import Env, illegal, open_block

# 7.32 / UNIT CHART: (offensive, defensive) firepower; HQs do not fire (5.1). Static: README.
FIRE = {"Armor": ("DF", "DF"), "Mech": ("SF", "DF"), "Infantry": ("SF", "SF"), "Static": ("SF", "SF"),
        "Fort": ("SF", "TF"), "Para": ("SF", "DF")}  # 2.28, 14.4
HITS_ON = {"SF": 6, "DF": 5, "TF": 4, "QF": 3}
RANK = ("SF", "DF", "TF", "QF")


def parse_battle(ln: Any, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()


def parse_airstrike(ln: Any, o: dict[str, Any]) -> None:
    o["block"] = ln.block()
    o["hex"] = ln.hex()


def check_battle(env: Env, o: dict[str, Any]) -> None:
    pub = env.public
    if o["hex"] not in pub["battles"] or not st.is_battle(pub, o["hex"]):
        raise illegal(o, f"there is no battle at {o['hex']}", "7.11")
    if o["hex"] in pub["active_battles"]:
        raise illegal(o, f"the battle at {o['hex']} is already active", "7.14")


def apply_battle(env: Env, o: dict[str, Any]) -> None:
    """7.14: the active player reveals all its hidden units in the battle."""
    env.public["active_battles"].append(o["hex"])
    reveal(env, o["hex"], env.seat)
    env.ctx.event("active-battle", hex=o["hex"], side=env.seat)


def check_airstrike(env: Env, o: dict[str, Any]) -> None:
    """7.13, 13.2: an active HQ, one strike each, one per battle, within Air Range, before the reveal."""
    pub, tok, h = env.public, o["block"], o["hex"]
    hq = pub["hqs"].get(tok)
    if pub["blocks"][tok]["side"] != env.seat or hq is None:
        raise illegal(o, f"{tok} is not one of your active HQs: only they deliver Airstrikes", "7.13")
    if any(a["hq"] == tok for a in pub["airstrikes"].values()):
        raise illegal(o, f"{tok} has already made its Airstrike this Combat Phase", "13.22")
    if h not in pub["battles"] or not st.is_battle(pub, h):
        raise illegal(o, f"there is no battle at {h}", "13.21")
    if h in pub["airstrikes"]:
        raise illegal(o, f"the battle at {h} already has an Airstrike", "7.13")
    if h in pub["active_battles"]:
        raise illegal(o, f"Airstrikes are assigned before the battle at {h} is revealed", "7.13")
    if hq.get("drop") is not None:
        raise illegal(o, f"{tok} is a Paradrop HQ: it spent all its command, airpower included, on the Paradrop",
                      "14.21")
    if hq["range"] <= 0:
        raise illegal(o, f"{tok} commands at {hq['range']} CV: no airpower", "13.22")
    dist = GRID.distance(parse_hex(pub["blocks"][tok]["hex"]), parse_hex(h))
    if dist > hq["range"]:
        raise illegal(o, f"{h} is {dist} hexes from {tok}, beyond its Air Range of {hq['range']}", "13.11")


def apply_airstrike(env: Env, o: dict[str, Any]) -> None:
    pub = env.public
    cv = int(pub["hqs"][o["block"]]["range"])  # 13.12: a disrupted HQ strikes at its effective CV
    pub["airstrikes"][o["hex"]] = {"hq": o["block"], "cv": cv, "fp": air_firepower(pub["scenario"], env.seat,
                                                                                    pub["month"])}
    env.ctx.event("airstrike", block=o["block"], hex=o["hex"], cv=cv)


def air_firepower(scenario: str, side: str, month: str) -> str:
    """13.23 for the SCW: the authored season table of tables.toml (the seed's starts at S39)."""
    table = load(scenario).tables["air_firepower"]
    y, m = int(month[:4]), int(month[5:7])
    season = f"S{y % 100}" if 6 <= m <= 11 else f"W{(y if m == 12 else y - 1) % 100}"
    seasons = list(table["seasons"])
    i = seasons.index(season) if season in seasons else len(seasons) - 1
    return str(table[side][i])


def reveal(env: Env, h: str, side: str) -> None:
    for tok in st.blocks_at(env.public, h, side):
        if not env.public["blocks"][tok]["up"]:
            open_block(env, tok, "7.14")


def end_declarations(env: Env, o: dict[str, Any] | None) -> None:
    """7.15: new battles the active player attacked and airstrike battles must be fought; then the
    passive player's dice (airstrikes and Defensive Fire) are due in its next file."""
    pub = env.public
    for h, b in sorted(pub["battles"].items()):
        if b["new"] and b["attacker"] == env.seat and h not in pub["active_battles"]:
            raise illegal(o, f"the new battle at {h} must be fought: declare it active (battle {h})", "7.15")
    for h in fortress.mandatory(pub, env.seat, pub["phase"]):
        if h not in pub["active_battles"]:
            raise illegal(o, f"the battle for the fortress at {h} must be fought: declare it active (battle {h})",
                          "7.5")
    for h in sorted(pub["airstrikes"]):
        if h not in pub["active_battles"]:
            raise illegal(o, f"the Airstrike battle at {h} must be fought: declare it active (battle {h})", "7.15")
    pub["active_battles"].sort()
    foe = st.enemy(env.seat)
    count = sum(len(st.blocks_at(pub, h, foe)) for h in pub["active_battles"]) + len(pub["airstrikes"])
    if count:
        env.ctx.reserve_rolls(count, foe)


def defend(env: Env) -> None:
    """The passive player's file: reveal (7.14), airstrikes (13.24), Defensive Fire and repulses (7.22, 7.61)."""
    pub = env.public
    active = st.enemy(env.seat)
    for h in pub["active_battles"]:
        reveal(env, h, env.seat)
    for h in pub["active_battles"]:
        _airstrike(env, h, active)
        battle = pub["battles"][h]
        repulse_on = paradrop.repulse_number(env, h, battle) if battle.get("assault") else 0  # 7.62-7.65
        hits, repulses = _fire(env, h, env.seat, offensive=False, repulse_on=repulse_on)
        if repulse_on:
            _repulse(env, h, active, hits, repulses)
        else:
            hx.take_hits(env, h, active, hits, _full)
        battle["assault"] = False  # 7.61: a bridgehead; no repulse after the first Defensive Fire
    count = sum(len(st.blocks_at(pub, h, active)) for h in pub["active_battles"])
    if count:
        env.ctx.reserve_rolls(count, active)


def _full(tok: str) -> int:
    return 1  # 7.33: active units apply full losses


def _airstrike(env: Env, h: str, active: str) -> None:
    strike = env.public["airstrikes"].pop(h, None)
    if strike is None:
        return
    dice = env.ctx.roll(6, f"airstrike {strike['hq']} at {h}", int(strike["cv"]))
    hits = sum(1 for d in dice if d >= HITS_ON[strike["fp"]])
    env.ctx.event("air-fire", block=strike["hq"], hex=h, firepower=strike["fp"], dice=dice, hits=hits)
    hx.take_hits(env, h, env.seat, hits, hx.passive_level(env, h, active))


def _repulse(env: Env, h: str, active: str, hits: int, repulses: int) -> None:
    """7.61: each repulse sends the weakest assaulting unit (owner's choice of equals) back to the
    hex it attacked from; then hits go to unrepulsed attackers, to repulsed ones if none is left."""
    pub = env.public
    battle = pub["battles"][h]
    back: list[str] = []
    for _ in range(repulses):
        left = [t for t in st.blocks_at(pub, h, active) if t not in back]
        if not left:
            break
        back.append(hx.choose(pub, active, left, weakest=True))

    def pool() -> list[str]:
        alive = st.blocks_at(pub, h, active)
        return [t for t in alive if t not in back] or alive
    hx.take_hits(env, h, active, hits, _full, pool)
    for tok in back:
        paradrop.repulsed(env, h, tok, hx.lose_step)
        if tok in pub["blocks"]:
            pub["blocks"][tok]["hex"] = battle["from"][tok]
            env.ctx.event("repulsed", block=tok, hex=h, to=battle["from"][tok])


def fire(env: Env) -> None:
    """The active player's file: Offensive Fire (7.22) against Double/Triple Defence, then the round ends."""
    pub = env.public
    passive = st.enemy(env.seat)
    for h in pub["active_battles"]:
        hits, _ = _fire(env, h, env.seat, offensive=True)
        if hits and not hx.supported(env, h, env.seat) and fortress.unsupported_ineffective(pub, h, passive):
            env.ctx.event("no-effect", hex=h, hits=hits, why="unsupported against a fortress (7.4)")
            hits = 0
        hx.take_hits(env, h, passive, hits, hx.passive_level(env, h, env.seat))
        hx.end_round(env, h)
    for h in pub["active_battles"]:
        b = pub["battles"].get(h)
        if b is None:
            continue
        for tok in st.blocks_at(pub, h, st.enemy(b["attacker"])):
            pub["blocks"][tok]["up"] = False  # 7.12: the Original Defender stands upright again
        if not st.is_battle(pub, h):
            del pub["battles"][h]
            env.ctx.event("battle-over", hex=h)
            if st.v2(pub):  # 7.12: face up "for as long as that battle lasts"; active HQs stay face up (5.2)
                for tok in st.blocks_at(pub, h, b["attacker"]):
                    if tok not in pub["hqs"]:
                        pub["blocks"][tok]["up"] = False
    pub["active_battles"] = []


def _firepower(env: Env, h: str, kind: str, offensive: bool) -> str:
    fp = FIRE[kind][0 if offensive else 1]
    if offensive and (env.board.terrain[h] == "marsh" or env.public["weather"] == "mud"):
        fp = "SF"  # 1.33, 12.33
    place = env.board.at.get(h)
    if not offensive and place is not None and place.kind == "major" and RANK.index(fp) < 1:
        fp = "DF"  # 1.41, 7.32: Defensive Fire in a major city is at least DF
    return fp


def _fire(env: Env, h: str, side: str, offensive: bool, repulse_on: int = 0) -> tuple[int, int]:
    """7.31: one die per CV for each firing unit, in token order; the hits and repulses scored."""
    pub, hits, repulses = env.public, 0, 0
    firing = [t for t in st.blocks_at(pub, h, side) if hx.kind(pub, t) in FIRE and hx.cv(pub, t) > 0]
    largest = None if offensive or not firing else hx.choose(pub, side, firing)
    for tok in firing:
        kind, cv = hx.kind(pub, tok), hx.cv(pub, tok)
        fp = _firepower(env, h, kind, offensive)
        if not offensive:
            fp = fortress.firepower(pub, h, side, tok, fp, largest)  # 7.5, 7.51
        dice = env.ctx.roll(6, f"{'offensive' if offensive else 'defensive'} fire {tok} at {h}", cv)
        scored = sum(1 for d in dice if d >= HITS_ON[fp])
        back = sum(1 for d in dice if d <= repulse_on)
        hits, repulses = hits + scored, repulses + back
        env.ctx.event("fire", block=tok, hex=h, firepower=fp, dice=dice, hits=scored, repulses=back)
    return hits, repulses
