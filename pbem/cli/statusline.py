"""One game's line in `pbem status`, from its glance (pbem.store.glance): no game layer, no click.

The full path (pbem.cli.games.status, from a loaded game) and the fast path (pbem.cli.quick,
from glance.json) print through the same function, so the two cannot say different things.
"""

from __future__ import annotations

from typing import Any


def seats_text(sides: dict[str, list[str]], seats: list[str]) -> str:
    """pbem.present.summary.seats_text from the seat -> sides map alone."""
    out = []
    for s in seats:
        own = list(sides.get(s, [s]))
        out.append(s if own == [s] else f"{s} ({', '.join(own)})")
    return ", ".join(out)


def ago(then: int, now: int) -> str:
    import datetime

    dt = max(0, now - then)
    when = datetime.datetime.fromtimestamp(then, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if dt < 3600:
        rel = f"{dt // 60} min"
    elif dt < 2 * 86400:
        rel = f"{dt // 3600} h"
    else:
        rel = f"{dt // 86400} days"
    return f"{when} ({rel} ago)"


def line(g: dict[str, Any], short_id: str, now: int) -> str:
    """The status line of a game not closed (a closed game's line needs its reveals)."""
    mine: list[str] = g["my_seats"]
    sides: dict[str, list[str]] = g["sides"]
    you = f"you: {seats_text(sides, mine)}" if mine else "you: observer"
    head = f"{short_id}  {g['rules']}/{g['scenario']}  {you}"
    if not g["started"]:
        return f"{head}  waiting for joins: {', '.join(g['waiting_for_joins'])}"
    pend = g["pending"]
    if pend is None:  # over, nobody revealed yet (a reveal closes the game)
        todo = f"run 'pbem game end {short_id}' to reveal" if mine else "each player now reveals"
        return f"{head}  over: {g['over']}; {todo}"
    if pend["seat"] in mine:
        as_seat = f" (as {seats_text(sides, [pend['seat']])})" if len(mine) > 1 else ""
        todo = (f" (run 'pbem game end {short_id} --agree' to accept, or --decline)"
                if pend.get("kind") == "end-answer" else "")
        return f"{head}  file {g['seq']}  YOUR MOVE{as_seat}: {pend['phase']}{todo}"
    return (f"{head}  file {g['seq']}  waiting for file {g['seq'] + 1} from {seats_text(sides, [pend['seat']])} "
            f"({pend['phase']}), their move since {ago(g['since'], now)}")
