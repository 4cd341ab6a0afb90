"""Blitz HQs (5.6) and the Blitz Movement and Blitz Combat phases (4.34, 4.35).

``activate HQ [deploy HEX] blitz`` designates a Blitz HQ (the BLITZ marker is public, as the HQ
is opened on activation). The Player-Turn then gains a second Movement (``blitz-movement``,
with its Pursuit Fire) and a second Combat (``blitz-combat``, ``blitz-defence``, ``blitz-fire``)
after the first Combat; they are skipped when no Blitz HQ was designated that turn.

- First Movement: a Blitz HQ cannot mobilize (5.6).
- End of the first Combat: other HQs deactivate (5.52); a Blitz HQ loses a step and stays
  active with its reduced CV and Command Range (4.331, 5.6).
- Blitz Movement: command from the Blitz HQs' reduced range (4.34); units may move again, except
  HQs deactivated this Player-Turn (5.5) and units that moved by rail (6.62). Blitz HQs may
  mobilize (the second step) or stay active for Blitz Combat.
- Blitz Combat: as a Combat Phase (new battles must be fought, 7.15); then the Blitz HQs
  deactivate, losing their second step (5.6).

The public ``blitz`` record lives for the Player-Turn only: ``{"side", "strategic": [tokens
moved by rail], "spent": [HQs deactivated]}``. Everything in it is public (rail moves and
deactivations are public orders and events), so every tool checks the same.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalOrder

from . import state as st

# verbs.py calls this module: it cannot import verbs.Env/illegal back (no import cycles).
Env = Any


def illegal(o: dict[str, Any] | None, message: str, rule: str) -> IllegalOrder:
    return IllegalOrder(message, rule=f"EF {rule}", line=(o or {}).get("line"), column=(o or {}).get("col"))

PHASES = ("blitz-movement", "blitz-pursuit", "blitz-combat", "blitz-defence", "blitz-fire")


def base(phase: str) -> str:
    """The ordinary phase a Blitz phase repeats (4.34, 4.35): ``blitz-movement`` -> ``movement``."""
    return phase.removeprefix("blitz-")


def designate(env: Env, o: dict[str, Any], tok: str, ident: dict[str, Any], cv: int) -> None:
    """5.6, 5.8: checked once the HQ is opened (its type and CV are then public)."""
    if ident["type"] != "HQ":
        raise illegal(o, f"{tok} is a {ident['type']}: only field HQs Blitz (THQs cannot Blitz)", "5.8")
    if cv < 1:
        raise illegal(o, f"{tok} has {cv} CV: a Blitz HQ must expend a second step", "5.6")
    env.public["hqs"][tok]["blitz"] = True
    env.public.setdefault("blitz", {"side": env.seat, "strategic": [], "spent": []})


def on(public: dict[str, Any]) -> bool:
    """Whether the active side designated Blitz HQs this Player-Turn (the record ends with it)."""
    return "blitz" in public


def note_rail(public: dict[str, Any], tok: str) -> None:
    if "blitz" in public:
        public["blitz"]["strategic"].append(tok)  # 6.62: no Blitz Movement after a Rail Move


def note_deactivated(public: dict[str, Any], tok: str) -> None:
    if "blitz" in public:
        public["blitz"]["spent"].append(tok)  # 5.5: deactivated HQs cannot move in the Blitz phase


def check_mobilize(env: Env, o: dict[str, Any], hq: dict[str, Any]) -> None:
    if hq.get("blitz") and env.public["phase"] == "movement":
        raise illegal(o, f"{o['block']} is a Blitz HQ: it cannot mobilize at the end of the first Movement "
                      "Phase", "5.6")


def check_move(env: Env, o: dict[str, Any]) -> None:
    """4.34: who may not move in Blitz Movement (command is the Blitz HQs' reduced range)."""
    pub, tok = env.public, o["block"]
    if pub["phase"] != "blitz-movement" or "blitz" not in pub:
        return
    if tok in pub["blitz"]["spent"]:
        raise illegal(o, f"{tok} is an HQ deactivated this Player-Turn: it cannot move in the Blitz phase", "5.5")
    if tok in pub["blitz"]["strategic"]:
        raise illegal(o, f"{tok} moved by rail this Player-Turn: no Blitz Movement after Strategic Movement",
                      "6.62")


def end_first_combat(env: Env, tok: str) -> None:
    """4.331, 5.6: the Blitz HQ expends its first step and stays active, its range reduced."""
    pub = env.public
    hq, b = pub["hqs"][tok], pub["blocks"][tok]
    disrupted = hq["cv"] - hq["range"]
    if int(b["opened"]["cv"]) - int(b["lost"]) <= 0:
        # Hit down to its 0 CV step in the Combat: expending a step takes it below its last (2.6).
        del pub["hqs"][tok]
        b["up"] = False
        st.bury(pub, tok, pub["blocks"].pop(tok))
        env.ctx.event("hq-eliminated", block=tok, unit=b["opened"]["unit"])
        return
    b["lost"] += 1
    hq["cv"] = int(b["opened"]["cv"]) - int(b["lost"])  # after any hits taken in the Combat
    hq["range"] = hq["cv"] - disrupted
    env.ctx.event("blitz-step", block=tok, unit=pub["blocks"][tok]["opened"]["unit"], cv=hq["cv"],
                  range=hq["range"])


def end_turn(public: dict[str, Any]) -> None:
    public.pop("blitz", None)
