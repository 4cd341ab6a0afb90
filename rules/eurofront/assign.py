"""Unit CVs assigned by the player in the semi-historical and free set-ups (EF 22.2), and the
O/B check of every opened identity.

EF 22.2, Semi-Historical Setups: "Players select their starting units from Available Forces,
assigning unit cv as desired, so long as number of units and a total CV for each unit-type agree
with the Starting Forces table"; Free Setups: "Determine Available Forces as above". The
historical set-up keeps the O/B card's CVs (3.21: "unit-type, cv, nationality ... must be
preserved").

``cv UNIT N`` lines travel in the seat's ``seal`` file, before ``seal``: they are private (the
module's ``public_orders`` drops them) and change only the author's private identities, which
the seal then commits with the rest. So the CVs are as secret as the identities. The author's
tool checks each CV (1 to the unit's full CV, 2.6) and, at the seal, the totals per unit type;
every tool checks each identity when it is opened (``check_identity``: the O/B's type, nation
and full CV, a CV within them, the O/B CV in the historical set-up); the end-of-game audit,
which sees every opening, checks the totals (``audit_totals``): the only check the opponent can
make of the sum.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalOrder

from .data import ScwData, load

RULE = "22.2"
STARTING = ("placed", "militia")


def group(kind: str) -> str:
    """The Starting Forces table's rows: a THQ counts among the HQs (its footnote [1])."""
    return "HQ" if kind in ("HQ", "THQ") else kind


def totals(data: ScwData, side: str) -> dict[str, int]:
    """The Starting Forces totals per row: the O/B's CVs summed (units.txt follows the seed's
    table: HQs 4 / 2, Infantry 10 / 6, Static 4 x 2 / 6 x 3; README Interpretations)."""
    out: dict[str, int] = {}
    for u in data.units:
        if u.side == side and u.setup in STARTING:
            out[group(u.type)] = out.get(group(u.type), 0) + u.cv
    return out


def illegal(o: dict[str, Any] | None, message: str, rule: str = RULE) -> IllegalOrder:
    return IllegalOrder(message, rule=f"EF {rule}", line=(o or {}).get("line"), column=(o or {}).get("col"))


def parse_cv(ln: Any, o: dict[str, Any]) -> None:
    o["unit"] = ln.take("a unit of yours (e.g. N-NAV)")[1].upper()
    col, word = ln.take("its CV (a number)")
    if not word.isdigit():
        raise ln.err("expected a CV (a number)", col)
    o["cv"] = int(word)


def _mine(env: Any) -> dict[str, dict[str, Any]]:
    """The author's starting units by unit id (on the map, militia to roll, or still to place)."""
    out = {str(i["unit"]): i for i in env.private.get("pool", {}).values()}
    out.update({str(i["unit"]): i for i in env.private["blocks"].values()})
    return out


def check_cv(env: Any, o: dict[str, Any]) -> None:
    pub = env.public
    if pub.get("setup") not in ("semi-historical", "free"):
        raise illegal(o, "the historical set-up keeps the O/B card's CVs", "3.21")
    if env.seat in pub["sealed"]:
        raise illegal(o, "your blocks are already sealed", "3.2")
    if env.private is None or "unit" not in o:
        return  # private: the audit checks the totals once every identity is opened
    ident = _mine(env).get(o["unit"])
    if ident is None:
        raise illegal(o, f"{o['unit']} is not one of your starting units")
    if not 1 <= o["cv"] <= int(ident["max"]):
        raise illegal(o, f"{o['unit']} starts with 1 to {ident['max']} CV (its full CV), not {o['cv']}", "2.6")


def apply_cv(env: Any, o: dict[str, Any]) -> None:
    if env.private is not None and "unit" in o:
        _mine(env)[o["unit"]]["cv"] = o["cv"]


def check_totals(env: Any) -> None:
    """At the seal, the author's tool: the CV of each unit type totals the Starting Forces'."""
    if env.private is None or not env.public.get("ob") or env.public.get("setup") == "historical":
        return  # a case's authored blocks are no O/B; the historical set-up keeps the O/B's CVs
    want = totals(load(env.public["scenario"]), env.seat)
    got: dict[str, int] = {}
    for ident in _mine(env).values():
        got[group(str(ident["type"]))] = got.get(group(str(ident["type"])), 0) + int(ident["cv"])
    for row, n in sorted(want.items()):
        if got.get(row, 0) != n:
            raise illegal(None, f"your {row} units total {got.get(row, 0)} CV; the Starting Forces give {n} "
                          "(assign with cv UNIT N before seal)")


def check_identity(public: dict[str, Any], side: str, ident: dict[str, Any]) -> str | None:
    """Every tool, at each opening: the identity agrees with the O/B. None if it does."""
    if not public.get("ob"):
        return None  # a case's authored blocks (cases.py) are no O/B
    spec = next((u for u in load(public["scenario"]).units if u.uid == ident.get("unit")), None)
    if spec is None:
        return f"{ident.get('unit')} is not a unit of the O/B"
    if spec.side != side or (spec.type, spec.nation, spec.max) != (ident["type"], ident["nation"], ident["max"]):
        return f"{spec.uid} is not a {ident['type']} ({ident['nation']}, full CV {ident['max']}) of the O/B"
    cv = int(ident["cv"])
    if spec.setup == "reinforcement":
        return None if cv in (spec.cv, spec.cv - 1) else f"{spec.uid} arrives with {spec.cv} CV (11.82: or 1 less)"
    if public.get("setup") == "historical":
        return None if cv == spec.cv else f"{spec.uid} starts with {spec.cv} CV in the historical set-up (3.21)"
    return None if 1 <= cv <= spec.max else f"{spec.uid} started with {cv} CV, not 1 to {spec.max} (2.6)"


def audit_totals(public: dict[str, Any], opened: dict[str, Any]) -> list[str]:
    """At the end, every opening known: each side's starting CVs total the Starting Forces'."""
    if public.get("setup") not in ("semi-historical", "free") or not public.get("ob"):
        return []
    data = load(public["scenario"])
    starting = {u.uid for u in data.units if u.setup in STARTING}
    refs = [b["ref"] for where in ("blocks", "removed", "dead") for b in public.get(where, {}).values()]
    seen: dict[str, dict[str, Any]] = {}
    for ref in refs:
        value = opened.get(ref)
        if isinstance(value, dict) and value.get("unit") in starting:
            seen[str(value["unit"])] = value
    out = []
    for side in sorted({u.side for u in data.units}):
        got: dict[str, int] = {}
        for u in data.units:
            if u.side == side and u.uid in seen:
                got[group(u.type)] = got.get(group(u.type), 0) + int(seen[u.uid]["cv"])
        for row, n in sorted(totals(data, side).items()):
            if got.get(row, 0) != n and len(seen) == len(starting):
                out.append(f"{side}: the {row} units were sealed with {got.get(row, 0)} CV in all; "
                           f"the Starting Forces give {n} [EF {RULE}]")
    return out
