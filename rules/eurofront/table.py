"""The EuroFront verb table: every order verb, its phase and its functions (pbem.kit.orders)."""

from __future__ import annotations

from pbem.kit.orders import Verb, VerbTable

from . import (
    aid_end,
    assign,
    combat,
    garrisons,
    hits,
    paradrop,
    placement,
    production,
    rail,
    railheads,
    rebuild,
    retreat,
    sealed_place,
    supply,
    victory,
)
from . import verbs as v
from .verbs import EfLine, Env

MOVE = ("movement", "blitz-movement")  # 4.34: Blitz Movement repeats Movement
COMBAT = ("combat", "blitz-combat")  # 4.35
LOSSES = ("combat", "defence", "blitz-combat", "blitz-defence")

TABLE: VerbTable[Env, EfLine] = VerbTable(v.RULEBOOK, [
    Verb("place", placement.parse_place, sealed_place.apply, sealed_place.check, phases=("place",),
         help="place UNIT HEX    # EF SCW Setup (Free Setup): one infantry or HQ unit in a loyal city or town"),
    Verb("cv", assign.parse_cv, assign.apply_cv, assign.check_cv, phases=("seal",),
         help="cv UNIT N    # EF 22.2: semi-historical and free set-ups: a starting unit's CV (sealed; "
              "each type's total as the Starting Forces)"),
    Verb("seal", v.parse_seal, v.apply_seal, v.check_seal, phases=("seal",),
         help="seal    # commit to your blocks' identities (3.2; the fog of war)"),
    Verb("activate", v.parse_activate, v.apply_activate, v.check_activate, phases=("command",),
         help="activate BLOCK [deploy HEX] [blitz|paradrop]    # EF 5.2, 5.21: reveals the HQ; blitz: a Blitz "
              "HQ (5.6); paradrop: a Paradrop HQ (14.21)"),
    Verb("move", v.parse_move, v.apply_move, v.check_move, phases=MOVE,
         help="move BLOCK HEX [HEX..] [supreme]    # EF 6.1 (supreme: a THQ's Supreme Move, 5.8)"),
    Verb("mobilize", v.parse_move, v.apply_move, v.check_mobilize, phases=MOVE,
         help="mobilize HQ [HEX..]    # EF 5.51: deactivate now, then a normal move"),
    Verb("drop", paradrop.parse_drop, paradrop.apply_drop, paradrop.check_drop, phases=("movement",),
         help="drop BLOCK HEX    # EF 14.22: a Para stacked with your Paradrop HQ airdrops within its Air Range"),
    Verb("rail", rail.parse_rail, v.apply_move, supply.check_rail_move, phases=MOVE,
         help="rail BLOCK HEX [HEX..]    # EF 9.21: a Rail Move, one THQ Supreme Move, up to 10 hexes"),
    Verb("battle", combat.parse_battle, combat.apply_battle, combat.check_battle, phases=COMBAT,
         help="battle HEX    # EF 7.14: an Active Battle; reveals your blocks there"),
    Verb("retreat", v.parse_move, retreat.apply_retreat, retreat.check_retreat, phases=MOVE,
         help="retreat BLOCK HEX [HEX..] [supreme]    # EF 6.51: the Rearguard of a Retreat, Pursuit Fire first"),
    Verb("airstrike", combat.parse_airstrike, combat.apply_airstrike, combat.check_airstrike, phases=COMBAT,
         help="airstrike HQ HEX    # EF 7.13: before that battle's reveal; HQ CV dice (13.22)"),
    Verb("losses", hits.parse_losses, hits.apply_losses, hits.check_losses, phases=LOSSES,
         help="losses BLOCK [BLOCK..]    # EF 7.33: your choice among equal units, first listed first"),
    Verb("attrition", supply.parse_attrition, supply.apply_attrition, supply.check_attrition,
         help="attrition BLOCK    # EF 10.6: remove your block that supply attrition took below its last step"),
    Verb("build", production.parse_build, production.apply_sealed, production.check_sealed, phases=("production",),
         help="build BLOCK    # EF 11.71: one step (sealed until both sides have chosen)"),
    Verb("arrive", production.parse_arrive, production.apply_sealed, production.check_sealed, phases=("production",),
         help="arrive UNIT HEX [advance|reduced]    # EF 11.8, 11.82: a reinforcement due now (or next month, "
              "advanced: its cadre cost or 1 CV less; sealed until both sides have chosen)"),
    Verb("cadre", rebuild.parse_cadre, production.apply_sealed, production.check_sealed, phases=("production",),
         help="cadre BLOCK HEX    # EF 11.72, SCW 7A: rebuild an eliminated unit (sealed until both sides "
              "have chosen)"),
    Verb("disband", rebuild.parse_disband, production.apply_sealed, production.check_sealed,
         phases=("production",), help="disband BLOCK    # EF 11.84: eliminate your unit (sealed)"),
    Verb("railhead", railheads.parse_railhead, railheads.apply_railhead, railheads.check_railhead,
         phases=("production-open",),
         help="railhead HEX    # EF SCW 3, 5: a RailHead for this month's Foreign Aid (a port you control; "
              "Republicans: or Bayonne/Perpignan)"),
    Verb("recognition", v.parse_nothing, victory.apply_recognition, victory.check_recognition,
         phases=("production",),
         help="recognition    # EF SCW 9B: try for Foreign Recognition (from W'36, once a season, the leader)"),
    Verb("withdraw", supply.parse_attrition, aid_end.apply_withdraw, aid_end.check_withdraw,
         help="withdraw BLOCK    # EF SCW 6: foreign aid has ended: remove your foreign unit (opened)"),
    Verb("garrison", garrisons.parse_garrison, production.apply_sealed, production.check_sealed,
         phases=("production",),
         help="garrison HEX    # EF SCW 2, 7B: a garrison for 1 PP (sealed until both sides have chosen)"),
    Verb("end-phase", v.parse_nothing, v.apply_end, help="end-phase    # EF 4.3"),
])
