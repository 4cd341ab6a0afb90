"""PRESTATE / POSTSTATE line language of the EuroFront rules cases (tests/cases/eurofront/*.case).

Every case plays on the SCW map and starts at the seal: its first ORDERS blocks are
``seal`` by each seat (so every opening later is checked against a real commitment).

PRESTATE::

    scenario scw-1936 [setup=MODE] [option=sealed-free]   the historical set-up, or semi-historical / free
                                           (placement.py; option: sealed_place.py);
                                           no shuffle unless ``shuffle on``
    block TOKEN SIDE TYPE UNIT HEX [cv=N] [max=N] [nation=X]   a block (default cv 2, max 4)
    battle HEX attacker=SIDE [new]         an ongoing battle (7.11, 7.12)
    reveal TOKEN                           TOKEN already face up (an Original Attacker, 7.12)
    month YYYY-MM | fortnight N | shuffle on|off     (a case starts after that month's Production)
    isolation on                           8.36 in force: an authored setting without SCW 1
    fortress HEX [minor]                   a Fortress (7.5) or Minor Fortress (7.51) hex: authored, none in the SCW
    production due                         the month's Production is still to come
    railhead HEX side=SIDE                 a RailHead marker: External Supply (SCW 4)
    garrison HEX side=SIDE [unsupplied]    a garrison (SCW 2)
    unsupplied TOKEN | lost TOKEN N        supply status (10.5) | public losses so far
    dead TOKEN SIDE TYPE UNIT [cv=N] [max=N] [nation=X]   an eliminated block, opened when it fell (11.72)
    saved SIDE N                           PPs saved from last month (11.4)
    aid french|soviet N                    this month's Foreign Aid (SCW 3)

POSTSTATE::

    block TOKEN at HEX | block TOKEN up|down | block TOKEN lost N | block TOKEN gone
    block TOKEN opened UNIT | block TOKEN trail N | block TOKEN cv N (committed CV less losses)
    block TOKEN supplied|unsupplied | block TOKEN lost N | block TOKEN dispersed
    battle HEX attacker=SIDE | no-battle HEX
    garrison HEX SIDE [unsupplied] | garrison HEX none     (SCW 2)
    over TEXT | not-over                   the game's result contains TEXT (SCW 9) | still on
    phase PHASE [SEAT] | weather W | month YYYY-MM | turn N | sealed SEAT
    hq TOKEN active [range=N] [moves=N] | hq TOKEN inactive
    pp SIDE N | saved SIDE N | aid french|soviet N   Production (11.4, SCW 3)
    command HEX yes|no | control HEX SIDE|disputed|none
    public-lacks TEXT                      TEXT appears nowhere in the public state (fog of war)
    private SEAT TOKEN UNIT                the seat's private state names TOKEN as UNIT
    private-cv SEAT UNIT N                 the seat's private identity of UNIT has CV N (22.2)
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from pbem.errors import InvalidInput

from . import state as st
from .data import SEATS, TYPES, load
from .setup import add_block, blank_public
from .setup import initial_state as historical


def _attrs(words: list[str]) -> tuple[list[str], dict[str, str]]:
    pos = [w for w in words if "=" not in w]
    return pos, dict(w.split("=", 1) for w in words if "=" in w)


def prestate(lines: list[tuple[int, str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    public = blank_public("scw-1936")
    private: dict[str, Any] = {s: {"blocks": {}} for s in SEATS}
    public["shuffle"] = False
    for no, line in lines:
        words = shlex.split(line)
        pos, attrs = _attrs(words[1:])
        try:
            _statement(public, private, words[0], pos, attrs)
        except (KeyError, ValueError, IndexError) as e:
            raise InvalidInput(f"PRESTATE line {no}: {line!r}: {e}") from None
    public["weather"] = st.weather_for(public["month"])
    return public, private


def _statement(public: dict[str, Any], private: dict[str, Any], kw: str, pos: list[str],
               attrs: dict[str, str]) -> None:
    board = load("scw-1936").board
    if kw == "scenario":
        mode = attrs.get("setup", "historical")
        pub, priv = historical(load(pos[0]), mode, attrs.get("option"))
        if mode == "historical":
            public["blocks"], public["ob"] = pub["blocks"], True
        else:  # the whole set-up state: placements and militia still to come (placement.py)
            public.update({k: v for k, v in pub.items() if k != "shuffle"})
        private.update(priv)
    elif kw == "block":
        tok, side, typ, unit, hx = pos
        if side not in SEATS or typ not in TYPES or hx not in board.terrain:
            raise ValueError("bad side, type or hex")
        ident = {"unit": unit, "type": typ, "nation": attrs.get("nation", "spain"),
                 "cv": int(attrs.get("cv", "2")), "max": int(attrs.get("max", "4"))}
        add_block(public, private, tok, side, hx, ident)
    elif kw == "battle":
        public["battles"][pos[0]] = {"attacker": attrs["attacker"], "new": "new" in pos}
    elif kw == "reveal":
        b = public["blocks"][pos[0]]
        b["up"], b["opened"] = True, dict(private[b["side"]]["blocks"][pos[0]])
    elif kw == "garrison":
        public["garrisons"][pos[0]] = {"side": attrs["side"], "unsupplied": "unsupplied" in pos}
    elif kw == "railhead":
        public["railheads"][attrs["side"]].append(pos[0])
    elif kw == "dead":
        tok, side, typ, unit = pos
        ident = {"unit": unit, "type": typ, "nation": attrs.get("nation", "spain"),
                 "cv": int(attrs.get("cv", "2")), "max": int(attrs.get("max", "4"))}
        public.setdefault("dead", {})[tok] = {"side": side, "ref": None, "opened": ident, "month": ""}
    elif kw == "aid":
        public["aid"][pos[0]] = int(pos[1])
    elif kw == "saved":
        public["saved"][pos[0]] = int(pos[1])
    elif kw == "unsupplied":
        public["blocks"][pos[0]]["unsupplied"] = True
    elif kw == "lost":
        public["blocks"][pos[0]]["lost"] = int(pos[1])
    elif kw == "month":
        public["month"] = public["produced"] = pos[0]
    elif kw == "production":
        public["produced"] = ""
    elif kw == "fortnight":
        public["fortnight"] = int(pos[0])
    elif kw == "shuffle":
        public["shuffle"] = pos[0] == "on"
    elif kw == "fortress":
        public.setdefault("fortresses", {})[pos[0]] = "minor" if "minor" in pos[1:] else "major"
    elif kw == "isolation":
        public["isolation"] = pos[0] == "on"
    else:
        raise ValueError(f"unknown statement {kw!r}")


def check(public: dict[str, Any], private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
    out = []
    for no, line in lines:
        words = shlex.split(line)
        pos, attrs = _attrs(words[1:])
        try:
            problem = _holds(public, private, words[0], pos, attrs)
        except (KeyError, ValueError, IndexError) as e:
            problem = f"cannot check: {e!r}"
        if problem:
            out.append(f"POSTSTATE line {no} ({line}): {problem}")
    return out


def _holds(public: dict[str, Any], private: dict[str, Any], kw: str, pos: list[str],
           attrs: dict[str, str]) -> str | None:
    if kw == "block":
        return _block(public, pos)
    if kw in ("battle", "no-battle"):
        b = public["battles"].get(pos[0])
        if kw == "no-battle":
            return None if b is None else f"a battle at {pos[0]}"
        return None if b and b["attacker"] == attrs["attacker"] else f"battle is {b}"
    if kw == "garrison":
        g = public["garrisons"].get(pos[0])
        got = g["side"] + (" unsupplied" if g["unsupplied"] else "") if g else "none"
        return None if got == " ".join(pos[1:]) else f"garrison at {pos[0]}: {got}"
    if kw in ("over", "not-over"):
        over = public["over"] or ""
        if kw == "not-over":
            return None if not over else f"the game is over: {over}"
        return None if " ".join(pos) in over else f"the game's result is {over!r}"
    if kw == "phase":
        got = [public["phase"], public["active"]][:len(pos)]
        return None if got == pos else f"phase is {public['phase']} {public['active']}"
    if kw in ("weather", "month", "turn"):
        return None if str(public[kw]) == pos[0] else f"{kw} is {public[kw]}"
    if kw == "sealed":
        return None if pos[0] in public["sealed"] else f"sealed: {public['sealed']}"
    if kw in ("pp", "saved"):
        got = public[kw].get(pos[0], 0)
        return None if str(got) == pos[1] else f"{kw} {pos[0]} is {got}"
    if kw == "aid":
        return None if str(public["aid"][pos[0]]) == pos[1] else f"aid {pos[0]} is {public['aid'][pos[0]]}"
    if kw == "railheads":
        return None if sorted(public["railheads"][pos[0]]) == sorted(pos[1:]) else f"railheads: {public['railheads']}"
    if kw == "hq":
        return _hq(public, pos, attrs)
    if kw == "command":
        inside = pos[0] in public["command"]
        return None if inside == (pos[1] == "yes") else f"command hexes: {public['command']}"
    if kw == "control":
        c = st.control(public, load("scw-1936").board, pos[0]) or "none"
        return None if c == pos[1] else f"control of {pos[0]} is {c}"
    if kw == "public-lacks":
        text = json.dumps(public, sort_keys=True, default=str)
        return None if pos[0] not in text else f"{pos[0]!r} is in the public state"
    if kw == "private":
        ident = (private.get(pos[0]) or {}).get("blocks", {}).get(pos[1])
        return None if ident and ident["unit"] == pos[2] else f"private {pos[0]} {pos[1]} is {ident}"
    if kw == "private-cv":
        cvs = [i["cv"] for i in (private.get(pos[0]) or {}).get("blocks", {}).values() if i["unit"] == pos[1]]
        return None if [str(c) for c in cvs] == [pos[2]] else f"private {pos[0]} {pos[1]} has CV {cvs}"
    return f"unknown check {kw!r}"


def _block(public: dict[str, Any], pos: list[str]) -> str | None:
    tok, what = pos[0], pos[1]
    b = public["blocks"].get(tok)
    if what == "gone":
        return None if b is None else f"{tok} is still at {b['hex']}"
    if b is None:
        return f"{tok} is gone"
    got: Any = {"at": b["hex"], "up": b["up"], "down": not b["up"], "supplied": not b.get("unsupplied"),
                "unsupplied": bool(b.get("unsupplied")), "lost": b["lost"], "dispersed": bool(b.get("dispersed")),
                "opened": (b["opened"] or {}).get("unit"), "trail": len(b["trail"]),
                "cv": int((b["opened"] or {}).get("cv", 0)) - int(b["lost"])}[what]
    want: Any = True if what in ("up", "down", "supplied", "unsupplied", "dispersed") else pos[2]
    return None if str(got) == str(want) else f"{tok} {what}: {got}"


def _hq(public: dict[str, Any], pos: list[str], attrs: dict[str, str]) -> str | None:
    hq = public["hqs"].get(pos[0])
    if pos[1] == "inactive":
        return None if hq is None else f"{pos[0]} is active: {hq}"
    if hq is None:
        return f"{pos[0]} is not active"
    for k, v in attrs.items():
        if str(hq[k]) != v:
            return f"{pos[0]} {k} is {hq[k]}"
    return None
