"""The end-of-game audit of hidden blocks: every trail re-checked against the opened commitments.

During the game a hidden block's moves and builds are checked in full only by its owner's tool;
the other tools keep them in the block's public ``trail`` and re-check it when the block is
opened (verbs.recheck). A block never opened before the end is re-checked here, once the
players' reveal files have opened every commitment (pbem/play/reveal.py). Blocks removed hidden
(supply attrition, 10.6) stay in ``removed`` with their trails for this audit.

The engine calls it through the RulesModule hook ``audit_final(public, opened)`` (module.py) at
the end of ``pbem/play/audit.audit``, with the replayed final public state and every opened
commitment value by ref (the reveal files' openings included). The engine's replay of each file
with its author's private state already re-runs every check of the author's tool from the state
the author kept; what this adds is the link from the private identities a lying tool kept to
the identities it committed at the seal, with the file, the seat and the rule. It also reports
a foreign unit left on the map after foreign aid ended (SCW 6; aid_end.py).
"""

from __future__ import annotations

import copy
from typing import Any, cast

from pbem.errors import IllegalOrder
from pbem.rulesapi import Context

from .aid_end import FOREIGN
from .data import load
from .supply import below_floor
from .verbs import Env, recheck

KEYS = ("unit", "type", "nation", "cv", "max")


def audit_final(public: dict[str, Any], opened: dict[str, Any]) -> list[str]:
    """Violations found in the trails of blocks left hidden, given every opened commitment value."""
    board = load(public["scenario"]).board
    out: list[str] = []
    for where in ("blocks", "removed"):
        for tok, b in sorted(public.get(where, {}).items()):
            if b["opened"] is not None and not b["trail"]:
                continue
            value = opened.get(b["ref"])
            if not isinstance(value, dict) or value.get("token") != tok or not set(KEYS) <= set(value):
                out.append(f"{tok}: its commitment {b['ref']} was never opened to an identity of {tok} (3.2)")
                continue
            ident = {k: value[k] for k in KEYS}
            pub = copy.deepcopy(public)
            blk = dict(b)
            if where == "removed":
                if not b.get("disbanded") and not b.get("unlinked") and not below_floor(ident, int(b["lost"])):
                    out.append(f"{tok} ({ident['unit']}) was removed by attrition with a step left [EF 10.6]")
                floor = 0 if ident["type"] in ("HQ", "THQ", "Static") else 1
                blk["lost"] = min(int(b["lost"]), int(ident["cv"]) - floor)
            pub["blocks"][tok] = blk
            try:
                recheck(Env(pub, None, b["side"], cast(Context, None), board), tok, ident)
            except IllegalOrder as e:
                out.append(str(e))
    if public.get("aid_ended"):  # SCW 6: no foreign unit stays once the aid has ended
        for tok, b in sorted(public["blocks"].items()):
            value = opened.get(b["ref"])
            if isinstance(value, dict) and value.get("unit") in FOREIGN:
                out.append(f"{tok} ({value['unit']}) stayed on the map after foreign aid ended [EF SCW 6]")
    return out
