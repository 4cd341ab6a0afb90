"""What a summary says: built from what one recipient may see.

``build(d, recipient, private=False)`` gives the template context. The mailed
summary is always built with ``private=False``: mail travels in clear, so it
holds only what every player of the game may see. ``pbem show`` builds the
private variant locally.
"""

from __future__ import annotations

import datetime
from typing import Any

from pbem.play.game import Derived


def _when(t: int) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _value_text(v: Any) -> str:
    """An opened value for people: {'commit': True, 'air': 'GER-VIII'} -> 'commit: yes, air: GER-VIII'."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_value_text(x)}" for k, x in v.items() if x is not None) or "-"
    if isinstance(v, list):
        return ", ".join(_value_text(x) for x in v)
    return "-" if v is None else str(v)


def _event_view(d: Derived, e: dict[str, Any]) -> dict[str, Any]:
    out = {"text": d.rules.describe_event(e), "kind": e.get("kind", "")}
    for k in ("dice", "drm", "result", "rule"):
        if k in e:
            out[k] = e[k]
    return out


def _sides(d: Derived, seat: str) -> list[str]:
    return list(d.sides.get(seat, [seat]))


def seating(d: Derived) -> list[dict[str, Any]]:
    """One entry per player: its seats and the sides each plays (the summary's "Seats and sides")."""
    con = d.con
    return [{"name": con.cards[first].name, "seats": [{"seat": s, "sides": _sides(d, s)} for s in held],
             "text": "; ".join(f"{s}: {', '.join(_sides(d, s))}" for s in held)}
            for first, held in con.players().items()]


def build(d: Derived, recipient: str | None, *, private: bool = False, svg: bool = True) -> dict[str, Any]:
    """The summary for the player holding seat ``recipient`` (None: an observer).

    ``svg=False``: no inline SVG map (``map_svg`` empty), for a mail, which shows the map
    as a PNG drawn from ``map_picture``; rendering the SVG was a tenth of a `play`.

    A player holding several seats gets one summary: "since your last turn"
    counts every file of its seats, the pending decision is theirs if any of
    its seats must act, and the private view is that of ``recipient``.
    """
    con = d.con
    gid = con.game_id.hex()
    scen = con.h["scenario"]
    pend = d.pending() if d.started and not d.closed else None
    mine = con.fellow_seats(recipient) if recipient in con.cards else ()
    last_own = max((e["seq"] for e in d.log if e["author"] in mine), default=0)
    since = [e for e in d.log if e["seq"] > last_own] or d.log[-1:]
    happened = [{"seq": e["seq"], "author": e["author"], "phase": e["phase"], "when": _when(e["time"]),
                 "events": [_event_view(d, ev) for ev in e["events"]]} for e in since]
    opened = [{"ref": ref, "seq": o.get("seq"), "value": o.get("value"), "value_text": _value_text(o.get("value")),
               "label": d.est["commits"][ref]["label"] if ref in d.est["commits"] else "?",
               "seat": d.est["commits"][ref]["seat"] if ref in d.est["commits"] else "?"}
              for ref, o in d.est.get("opened", {}).items() if o.get("seq", 0) > last_own]
    view = d.rules.summary_view(d.public, d.privates.get(recipient) if private and recipient else None,
                                recipient) if d.started else {
        "map": None, "tables": [], "facts": []}
    from pbem.present import render

    # the units that moved or fought in the files shown, outlined on the map
    picture = render.highlight_events(view.get("map"), [ev for e in since for ev in e["events"]])

    players = [{"seat": s, "name": c.name, "email": c.email, "fingerprint": c.fingerprint,
                "sides": _sides(d, s)} for s, c in sorted(con.cards.items())]
    # Shown only where a seat plays other sides than its own name, or a player holds several seats.
    plain = all(_sides(d, s) == [s] for s in con.seats) and len(con.players()) == len(con.seats)
    ctx: dict[str, Any] = {
        "title": f"{d.rules.title or con.h['rules']}: {scen}",
        "game_id": gid, "game_short": gid[:12], "seq": d.seq, "rules": con.h["rules"], "scenario": scen,
        "recipient": recipient, "private": private, "players": players,
        "your_seats": list(mine), "seating": [] if plain else seating(d),
        "pending": None, "happened": happened, "opened": opened,
        "facts": view.get("facts", []), "tables": view.get("tables", []),
        "map_svg": render.map_svg(picture) if svg else "", "has_map": bool(picture),
        "map_picture": picture,  # what mail draws its PNG from (render.map_png)
        "result": d.rules.result(d.public) if d.started else None,
        "closed": d.closed, "waiting_joins": d.waiting_for_joins,
    }
    if pend is not None:
        ctx["pending"] = {"seat": pend.seat, "phase": pend.phase, "wanted": pend.wanted, "kind": pend.kind,
                          "is_you": pend.seat in mine,
                          "sides": "" if plain else ", ".join(_sides(d, pend.seat)),
                          "name": con.cards[pend.seat].name,
                          "commands": [f"pbem orders template {gid[:12]} > orders.txt",
                                       f"pbem orders check {gid[:12]} --orders orders.txt",
                                       f"pbem play {gid[:12]} --orders orders.txt"]}
    return ctx


def subject(d: Derived) -> str:
    """Mail subject: game, turn/phase and who must act."""
    gid = d.con.game_id.hex()[:12]
    pend = d.pending() if d.started and not d.closed else None
    if pend is None:
        state = "game over" if d.started else "waiting for joins"
        return f"[pbem] {d.con.h['scenario']} {gid}: file {d.seq}: {state}"
    return f"[pbem] {d.con.h['scenario']} {gid}: file {d.seq}: {pend.phase}: {pend.seat} to act"


def seats_text(d: Derived, seats: tuple[str, ...] | list[str]) -> str:
    """'a' or 'a, c' for one player's seats, with the sides where they differ: 'axis (germany, italy)'."""
    out = []
    for s in seats:
        sides = _sides(d, s)
        out.append(s if sides == [s] else f"{s} ({', '.join(sides)})")
    return ", ".join(out)
