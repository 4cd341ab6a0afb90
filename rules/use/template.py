"""``order_template``: a commented order file listing what a seat may do now."""

from __future__ import annotations

from . import war
from .sequence import pending, phase_label
from .state import PHASES, State, faction_of, is_air, is_ground, mp_allowance
from .verbs import TABLE


def template(s: State, seat: str) -> str:
    out = [f"# USE orders for {seat}: {phase_label(s)}", "# one order a line; '#' starts a comment"]
    p = pending(s)
    if p is None:
        return "\n".join([*out, f"# the game is over: {s['over']}", ""])
    who, kind, wanted = p
    if who != seat:
        out.append(f"# nothing to do: {who} must act ({wanted})")
        out.append("# standing orders go in your next file, whatever its step (a Will Commit answer too): "
                   "standing will-commit yes|no|ask, standing retreat-toward HEX|none, standing skip PHASE..., "
                   "standing intercept UNIT...|all|none, standing home-defense UNIT...|none")
        return "\n".join(out) + "\n"
    out.append(f"# wanted: {wanted}")
    if kind == "will-commit":
        for c in s["combats"]:
            if c["defender"] == seat and c["status"] == "await-defender":
                out.append(f"# {c['kind']} attack on {c['target']} by {', '.join(c['attackers'])}")
                out.append(f"# will-commit {c['target']} yes|no [air AIRUNIT] [retreat HEX|stay]")
        return "\n".join(out) + "\n"
    phase = "declare-war" if s["phase"] == "weather" else s["phase"]
    out.append("#")
    out += ["# " + line for line in TABLE.listing(phase)]
    if phase == "declare-war":
        out.append("# may declare war on: " + (", ".join(war.targets(s, seat)) or "nothing"))
    if PHASES.index(s["phase"]) > PHASES.index("economy"):
        pps = [f"{code} {c['pp']}" for code, c in sorted(s["countries"].items()) if c["faction"] == seat]
        out.append("# production points: " + ", ".join(pps))
    else:  # a figure here would be last turn's leftovers, lost at its end (9.0)
        out.append("# production points: produced in this turn's Economy Phase, after this one (USE 9.1)")
    out.append("# your units:")
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if faction_of(s, u) != seat:
            continue
        where = str(u["hex"]) if u["box"] is None else f"box {u['box']}"
        bits = [u["kind"], where]
        if is_ground(u):
            bits.append("reduced" if u["reduced"] else "full")
        if is_ground(u) or is_air(u):
            bits.append(f"{mp_allowance(u)} MP")
        if u["supply"] != "full":
            bits.append(f"{u['supply']} supply")
        if u["sorties"]:
            bits.append(f"{u['sorties']} sorties")
        if u["sm"]:
            bits.append("strategic-moved")
        if u["fort"]:
            bits.append("in fort")
        out.append(f"#   {uid}: " + ", ".join(bits))
    out.append("")
    out.append("end-phase")
    return "\n".join(out) + "\n"
