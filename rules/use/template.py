"""``order_template``: a commented order file listing what a seat may do now."""

from __future__ import annotations

from . import partners, war
from .sequence import pending, phase_label
from .state import PHASES, State, faction_of, is_air, is_ground, mp_allowance
from .verbs import TABLE


def template(s: State, seat: str, by: str | None = None) -> str:
    """``seat``: the faction the file acts for (seating.acting); ``by``: the seat writing it, when
    a faction is split between two seats (partners.py): then only its own part and units."""
    split = partners.partner_of(s, seat) is not None and by is not None
    out = [f"# USE orders for {by if split else seat}: {phase_label(s)}", "# one order a line; '#' starts a comment"]
    p = pending(s)
    if p is None:
        return "\n".join([*out, f"# the game is over: {s['over']}", ""])
    who, kind, wanted = p
    if who != seat or (split and partners.seat_for(s, p) != by):
        out.append(f"# nothing to do: {partners.seat_for(s, p) if split else who} must act ({wanted})")
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
    mine = partners.countries(s, str(by), seat) if split else None  # a split faction: this seat's countries
    out.append("#")
    out += ["# " + line for line in TABLE.listing(phase)]
    if phase == "declare-war":
        out.append("# may declare war on: " + (", ".join(war.targets(s, seat)) or "nothing"))
    if PHASES.index(s["phase"]) > PHASES.index("economy"):
        pps = [f"{code} {c['pp']}" for code, c in sorted(s["countries"].items()) if c["faction"] == seat
               and (mine is None or code in mine)]
        out.append("# production points: " + ", ".join(pps))
    else:  # a figure here would be last turn's leftovers, lost at its end (9.0)
        out.append("# production points: produced in this turn's Economy Phase, after this one (USE 9.1)")
    out.append("# your units:")
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if faction_of(s, u) != seat or (mine is not None and u["country"] not in mine):
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
