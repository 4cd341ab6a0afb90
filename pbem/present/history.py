"""The history of a whole game as one self-contained HTML page.

``build_history(session, store)`` replays the game's files one by one (the same
public functions ``game.derive`` uses, so every file is checked again) and
renders, game turn by game turn:

* the map at the end of the turn (the rules' ``summary_view`` map picture);
* every file with its events (``rules.describe_event``) and the dice in them;
* every combat with its dice, modifiers and result;

and, for the whole game, **dice statistics per seat** against the fair
distribution: counts per face, a chi-square statistic with its p-value and a
bar chart. If the game has reveals, the full audit's verdict is included.

Turns are the rules' ``Pending.turn`` of the decision each file answered
(a dice release counts in the turn it interrupts); a game that names no turn
gets one section per file.

Dice come from events. A rules module may say exactly which dice an event
holds with ``RulesModule.dice_in_event``; where it answers None (the
default), ``generic_dice`` reads the usual field names (see there).

The page is self-contained: inline CSS and SVG, no script, nothing fetched.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import BrokenChain, NotFound
from pbem.play.game import Derived, Session, add_join, apply_turn, begin
from pbem.present import render
from pbem.protocol import turnfile
from pbem.rulesapi import RulesModule
from pbem.store.fsutil import atomic_write
from pbem.store.gamestore import GameStore

PALETTE = ("#b3261e", "#2f6db5", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#455a64")
NAMED = {"red": "#b3261e", "blue": "#2f6db5", "green": "#2e7d32", "purple": "#6a1b9a", "orange": "#ef6c00",
         "brown": "#5d4037", "grey": "#5b5f63", "gray": "#5b5f63", "black": "#222222", "yellow": "#c9a400"}
SEAT_FIELDS = ("seat", "side", "faction", "by", "player", "roller")
ROLL_KINDS = re.compile(r"roll|reveal|dice|die", re.IGNORECASE)
DieRoll = tuple[str, int, int]  # (seat, sides, value)


# --- dice in events ------------------------------------------------------------------------------


def _unit_seat(public: Any, uid: Any, seats: Sequence[str]) -> str | None:
    """The seat owning unit ``uid`` in a public state shaped like most hex wargames' (duck-typed)."""
    if not isinstance(public, dict) or not isinstance(uid, str):
        return None
    units = public.get("units")
    u = units.get(uid) if isinstance(units, dict) else None
    if not isinstance(u, dict):
        return None
    for k in (*SEAT_FIELDS, "owner"):
        if u.get(k) in seats:
            return str(u[k])
    countries = public.get("countries")
    c = countries.get(u.get("country")) if isinstance(countries, dict) else None
    if isinstance(c, dict) and c.get("faction") in seats:
        return str(c["faction"])
    return None


def _first_unit(v: Any) -> Any:
    return v[0] if isinstance(v, list) and v else v


def generic_dice(event: dict[str, Any], author: str, seats: Sequence[str], public: Any = None) -> list[DieRoll]:
    """The dice in an event, read from its field names (for rules without ``dice_in_event``).

    * ``die``, ``dice``, ``*_die``, ``*_dice``: always dice; ``value``/``values``: dice only
      when the event's kind names a roll ("roll", "revealed", ...), so a bid or a setting
      named "value" is not counted;
    * the number of sides is the event's ``sides`` field, else 6; values outside 1..sides are
      not dice and are ignored;
    * whose die: ``att*``/``attacker*`` fields belong to the attacker, ``def*``/``defender*``
      ones to the defender, found from the units named in ``attackers``/``attacker`` and
      ``defender`` when the public state says who owns them; in a two-seat game the
      defender is otherwise the seat that is not the attacker. Any other die belongs to the
      seat named in a ``seat``/``side``/``faction``/``by``/``player``/``roller`` field, else to
      the author of the file.
    """
    kind = str(event.get("kind", ""))
    sides = event.get("sides")
    sides = sides if isinstance(sides, int) and not isinstance(sides, bool) and sides >= 2 else 6
    general = next((str(event[k]) for k in SEAT_FIELDS if event.get(k) in seats), author)

    def attacker() -> str:
        unit = _first_unit(event.get("attackers", event.get("attacker")))
        return _unit_seat(public, unit, seats) or general

    def defender() -> str:
        found = _unit_seat(public, _first_unit(event.get("defender")), seats)
        if found:
            return found
        att = attacker()
        others = [s for s in seats if s != att]
        return others[0] if len(others) == 1 else general

    out: list[DieRoll] = []
    for key, val in event.items():
        low = key.lower()
        if low in ("die", "dice") or low.endswith(("_die", "_dice")):
            pass
        elif low in ("value", "values") and ROLL_KINDS.search(kind):
            pass
        else:
            continue
        prefix = low.split("_", 1)[0] if "_" in low else ""
        if prefix in ("att", "attacker"):
            seat = attacker()
        elif prefix in ("def", "defender"):
            seat = defender()
        else:
            seat = general
        for v in val if isinstance(val, list) else [val]:
            if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= sides:
                out.append((seat, sides, v))
    return out


def dice_in_event(rules: RulesModule, event: dict[str, Any], author: str, seats: Sequence[str],
                  public: Any = None) -> list[DieRoll]:
    """The dice of one event: the rules' ``dice_in_event`` answer, else ``generic_dice``."""
    got = rules.dice_in_event(event, author, public)
    if got is None:
        return generic_dice(event, author, seats, public)
    return [(str(s), int(n), int(v)) for s, n, v in got]


# --- statistics ----------------------------------------------------------------------------------


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` (a positive integer) degrees of freedom.

    Closed forms: for even df, exp(-x/2) * sum_{i<df/2} (x/2)^i / i!; for odd df,
    erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) * sum_{i=1}^{(df-1)/2} x^(i-1) / (1*3*...*(2i-1)).
    """
    if df < 1:
        raise ValueError("degrees of freedom must be a positive integer")
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= (x / 2) / i
            total += term
        return min(1.0, math.exp(-x / 2) * total)
    total, term = 0.0, 1.0
    for i in range(1, (df - 1) // 2 + 1):
        term = 1.0 if i == 1 else term * x / (2 * i - 1)
        total += term
    return min(1.0, math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * total)


@dataclass
class DiceStats:
    seat: str
    sides: int
    counts: list[int]  # counts[face - 1]

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        return self.n / self.sides

    @property
    def mean(self) -> float:
        return sum((i + 1) * c for i, c in enumerate(self.counts)) / self.n if self.n else 0.0

    @property
    def chi2(self) -> float:
        e = self.expected
        return sum((c - e) ** 2 / e for c in self.counts) if e else 0.0

    @property
    def df(self) -> int:
        return self.sides - 1

    @property
    def p_value(self) -> float:
        return chi_square_sf(self.chi2, self.df) if self.n else 1.0

    @property
    def enough(self) -> bool:
        """The chi-square approximation wants an expected count of at least 5 per face."""
        return self.expected >= 5

    def verdict(self) -> str:
        if not self.n:
            return "no dice"
        if not self.enough:
            return f"too few dice for a meaningful test (fewer than {5 * self.sides})"
        p = self.p_value
        if p < 0.001:
            return "very unlikely for fair dice (p < 0.001)"
        if p < 0.01:
            return "unusual for fair dice (p < 0.01)"
        if p < 0.05:
            return "somewhat unusual (p < 0.05): expect this about once in 20 games"
        return "consistent with fair dice"


def dice_stats(rolls: Sequence[DieRoll], seats: Sequence[str]) -> list[DiceStats]:
    """Counts per face, per seat and die size; every seat appears, with d6 if it rolled nothing."""
    table: dict[tuple[str, int], list[int]] = {}
    for seat, sides, value in rolls:
        table.setdefault((seat, sides), [0] * sides)[value - 1] += 1
    for s in seats:
        if not any(k[0] == s for k in table):
            table[(s, 6)] = [0] * 6
    order = {s: i for i, s in enumerate(seats)}
    return [DiceStats(seat, sides, counts)
            for (seat, sides), counts in sorted(table.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0]))]


def chart(st: DiceStats, fill: str) -> dict[str, Any]:
    """Geometry of a bar chart, observed (filled) vs expected (outlined) per face."""
    w, h, left, right, top, bottom = 440.0, 210.0, 38.0, 10.0, 26.0, 34.0
    pw, ph = w - left - right, h - top - bottom
    top_value = max([*st.counts, st.expected, 1])
    step = _nice_step(top_value / 4)
    ymax = step * math.ceil(top_value * 1.12 / step)

    def y(v: float) -> float:
        return top + ph - ph * v / ymax

    gw = pw / st.sides
    bw = gw * 0.34
    bars, faces = [], []
    for i, c in enumerate(st.counts):
        x0 = left + gw * i + gw / 2
        bars.append({"x": x0 - bw - 1, "y": y(c), "w": bw, "h": top + ph - y(c), "kind": "obs",
                     "label": str(c), "lx": x0 - bw / 2 - 1, "ly": y(c) - 3,
                     "title": f"face {i + 1}: {c} rolled"})
        bars.append({"x": x0 + 1, "y": y(st.expected), "w": bw, "h": top + ph - y(st.expected), "kind": "exp",
                     "label": "", "lx": 0.0, "ly": 0.0,
                     "title": f"face {i + 1}: {st.expected:.1f} expected"})
        faces.append({"x": x0, "y": top + ph + 14, "text": str(i + 1)})
    ticks = []
    v = 0.0
    while v <= ymax + 1e-9:
        ticks.append({"y": y(v), "text": f"{v:g}"})
        v += step
    return {"w": w, "h": h, "left": left, "right": w - right, "top": top, "base": top + ph,
            "bars": bars, "faces": faces, "ticks": ticks, "fill": fill,
            "xlabel": {"x": left + pw / 2, "y": h - 4}, "expected": st.expected}


def _nice_step(raw: float) -> float:
    """A round tick step (1, 2, 5, 10, 20, ...) at least ``raw``; counts are whole, so never below 1."""
    if raw <= 1:
        return 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1.0, 2.0, 5.0, 10.0) if raw <= m * mag)


# --- replay --------------------------------------------------------------------------------------


@dataclass
class FileRecord:
    seq: int
    author: str
    phase: str
    time: int
    events: list[dict[str, Any]]
    public: Any  # the public state after the file
    rolls: list[dict[str, Any]] = field(default_factory=list)  # the file's roll records
    turn: int | None = None  # the game turn the file was played in (``Pending.turn``), None if untold


@dataclass
class Replay:
    d: Derived
    initial: Any = None
    files: list[FileRecord] = field(default_factory=list)


def replay(session: Session, store: GameStore) -> Replay:
    """Replay every file of the game as ``game.derive`` does, keeping the state after each turn file."""
    from pbem.play import handover, reveal

    files = store.files()
    if not files or files[0].kind != "proposal":
        raise NotFound(f"game folder {store.root} holds no proposal")
    d = begin(session, turnfile.parse(files[0].read()))
    rp = Replay(d, initial=d.public)
    parsed = [(sf, turnfile.parse(sf.read())) for sf in files[1:]]
    handovers = [f for _, f in parsed if f.kind == handover.KIND]
    reveal.preload_keys(d, [f for _, f in parsed if f.kind == "reveal"],
                        handover.follow(d.con, handovers).cards if handovers else None)
    handover.preload(session, d, handovers)
    last: turnfile.SignedFile | None = None
    for sf, f in parsed:
        if f.kind == "join":
            add_join(session, d, f)
            if d.started and rp.initial is None:
                rp.initial = d.public
        elif f.kind == "turn":
            if f.seq != d.seq + 1 or f.prev != d.last_hash:
                raise BrokenChain(f"stored file {sf.path.name} does not follow file {d.seq}")
            # The rules' own decision before the file (a dice release inside a turn belongs to it).
            before = d.rules_pending()
            apply_turn(session, d, f)
            last = f
            pub = d.keyring.open(f"{f.seq}/public", f.header["public"], f"the public part of file {f.seq}")
            log = d.log[-1]
            rp.files.append(FileRecord(f.seq, f.author, str(log["phase"]), int(log["time"]), list(log["events"]),
                                       d.public, list(pub.get("rolls", [])),
                                       before.turn if before is not None else None))
        elif f.kind == handover.KIND:  # a seat changes hands: listed as a file with no events
            handover.apply(session, store, d, f, last)
            last = f
            log = d.log[-1]
            rp.files.append(FileRecord(f.seq, f.author, str(log["phase"]), int(log["time"]), [], d.public, [],
                                       None))
        elif f.kind == "reveal":
            reveal.add_reveal(d, store, f)
    return rp


# --- turns ---------------------------------------------------------------------------------------

def turn_of(fr: FileRecord) -> str | None:
    """The heading of the game turn a file was played in, from the rules' ``Pending.turn``; None if untold."""
    return None if fr.turn is None else f"Turn {fr.turn}"


def group_turns(files: Sequence[FileRecord]) -> list[tuple[str, list[FileRecord]]]:
    """Consecutive files of the same turn, in order; one group per file where no turn is named."""
    groups: list[tuple[str, list[FileRecord]]] = []
    for fr in files:
        key = turn_of(fr)
        if key is not None and groups and groups[-1][0] == key:
            groups[-1][1].append(fr)
        else:
            groups.append((key if key is not None else f"File {fr.seq}", [fr]))
    return groups


def _slug(text: str) -> str:
    return "t-" + (re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x")


def _when(t: int) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


COMBAT_FIELDS = ("att_die", "att_drm", "att_final", "def_die", "def_drm", "def_final")


def _combat_row(fr: FileRecord, e: dict[str, Any], dice: list[DieRoll], colours: dict[str, str]) -> dict[str, Any]:
    def names(v: Any) -> str:
        return ", ".join(str(x) for x in v) if isinstance(v, list) else ("" if v is None else str(v))

    row: dict[str, Any] = {"seq": fr.seq, "kind": str(e.get("kind", "")),
                           "where": names(e.get("target", e.get("hex", ""))),
                           "attackers": names(e.get("attackers", e.get("attacker"))),
                           "defender": names(e.get("defender")),
                           "result": names(e.get("result", e.get("winner", "")))}
    for k in COMBAT_FIELDS:
        v = e.get(k)
        if v is None and k.endswith("_drm"):
            # an event with die and final but no DRM (an air combat): the DRM is their difference
            die, final = e.get(k[:-3] + "die"), e.get(k[:-3] + "final")
            v = final - die if isinstance(die, int) and isinstance(final, int) else None
        row[k] = "" if v is None else (f"{v:+d}" if k.endswith("_drm") and isinstance(v, int) else str(v))
    if row["result"] in ("att", "def"):  # a duel's winner, named rather than coded
        row["result"] = (row["attackers"] if row["result"] == "att" else row["defender"]) + " wins"
    # whose die is whose, for the colours: take the event's dice in order, matching values
    left = list(dice)
    for k in ("att_die", "def_die"):
        seat = next((d for d in left if d[2] == e.get(k)), None)
        if seat is not None:
            left.remove(seat)
        row[k.replace("_die", "_fill")] = colours.get(seat[0], "#666") if seat else "#666"
    return row


def _mark_combats(pic: dict[str, Any] | None, group: Sequence[FileRecord]) -> dict[str, Any] | None:
    """The turn's map with every hex fought over during the turn highlighted."""
    if not pic:
        return pic
    ids = {h.get("id") for h in pic.get("hexes", [])}
    have = {(h.get("hex"), h.get("kind")) for h in pic.get("highlights", [])}
    extra = []
    for fr in group:
        for e in fr.events:
            where = e.get("target", e.get("hex"))
            if "combat" in str(e.get("kind", "")) and where in ids and (where, "combat") not in have:
                have.add((where, "combat"))
                extra.append({"hex": where, "kind": "combat"})
    return {**pic, "highlights": [*pic.get("highlights", []), *extra]} if extra else pic


# --- the page ------------------------------------------------------------------------------------


def seat_colours(seats: Sequence[str], sides: dict[str, Any]) -> dict[str, str]:
    """A colour per seat: the map's side colour, else the colour the seat is named after, else the palette."""
    out: dict[str, str] = {}
    for s in seats:
        fill = sides.get(s, {}).get("fill") if isinstance(sides.get(s), dict) else None
        if fill or s.lower() in NAMED:
            out[s] = str(fill or NAMED[s.lower()])
    free = [c for c in PALETTE if c not in out.values()] or list(PALETTE)
    for i, s in enumerate([s for s in seats if s not in out]):
        out[s] = free[i % len(free)]
    return out


def _picture(rules: RulesModule, public: Any) -> dict[str, Any] | None:
    """The rules' map picture of a public state (None before the game starts)."""
    if public is None:
        return None
    pic: dict[str, Any] | None = rules.summary_view(public, None, None).get("map")
    return pic


def _turn_sections(rules: RulesModule, files: Sequence[FileRecord], seats: Sequence[str],
                   colours: dict[str, str]) -> tuple[list[dict[str, Any]], list[DieRoll]]:
    """One section per game turn (its files, events, dice, combats and closing map), and every die rolled."""
    rolls: list[DieRoll] = []
    turns = []
    for key, group in group_turns(files):
        files_ctx, combats, turn_rolls = [], [], 0
        for fr in group:
            evs = []
            for e in fr.events:
                ds = dice_in_event(rules, e, fr.author, seats, fr.public)
                rolls.extend(ds)
                turn_rolls += len(ds)
                evs.append({"text": rules.describe_event(e), "kind": str(e.get("kind", "")),
                            "dice": [{"seat": s, "sides": n, "value": v, "fill": colours.get(s, "#666")}
                                     for s, n, v in ds]})
                if "combat" in str(e.get("kind", "")):
                    combats.append(_combat_row(fr, e, ds, colours))
            files_ctx.append({"seq": fr.seq, "author": fr.author, "phase": fr.phase, "when": _when(fr.time),
                              "events": evs, "fill": colours.get(fr.author, "#666")})
        last = group[-1]
        turns.append({"key": key, "id": _slug(key), "first": group[0].seq, "last": last.seq,
                      "files": files_ctx, "combats": combats, "dice": turn_rolls,
                      "map_svg": render.map_svg(_mark_combats(_picture(rules, last.public), group))})
    return turns, rolls


def _stat_rows(d: Derived, rolls: Sequence[DieRoll], seats: Sequence[str],
               colours: dict[str, str]) -> list[dict[str, Any]]:
    """Dice statistics per seat and die size, with the chi-square verdict and the chart."""
    cards = d.con.cards
    return [{"seat": st.seat, "name": cards[st.seat].name if st.seat in cards else st.seat,
             "sides": st.sides, "n": st.n, "expected": st.expected, "mean": st.mean,
             "fair_mean": (st.sides + 1) / 2,
             "rows": [{"face": i + 1, "count": c, "diff": c - st.expected,
                       "pct": 100 * c / st.n if st.n else 0.0} for i, c in enumerate(st.counts)],
             "chi2": st.chi2, "df": st.df, "p": st.p_value, "enough": st.enough,
             "verdict": st.verdict(), "chart": chart(st, colours.get(st.seat, "#666")),
             "fill": colours.get(st.seat, "#666")} for st in dice_stats(rolls, seats)]


def _recorded_rolls(files: Sequence[FileRecord]) -> tuple[dict[str, int], int]:
    """Public rolls the files record, per author, and the number of secret ones."""
    recorded: dict[str, int] = {}
    secret = 0
    for fr in files:
        for r in fr.rolls:
            if r.get("secret"):
                secret += int(r.get("count", 1))
            else:
                recorded[fr.author] = recorded.get(fr.author, 0) + int(r.get("count", 1))
    return recorded, secret


def _audit_section(session: Session, store: GameStore, d: Derived) -> dict[str, Any] | None:
    """The full audit's verdict, once the game has reveals."""
    if not d.reveals:
        return None
    from pbem.play import audit

    rep = audit.audit(session, store)
    return {"summary": audit.summary(d, rep), "clean": rep.clean, "complete": rep.complete,
            "violations": list(rep.violations), "missing": list(rep.missing_reveals)}


def build_context(session: Session, store: GameStore) -> dict[str, Any]:
    rp = replay(session, store)
    d = rp.d
    rules, con = d.rules, d.con
    seats = list(con.seats)
    gid = con.game_id.hex()
    first = _picture(rules, rp.initial)
    colours = seat_colours(seats, (first or {}).get("sides", {}))
    turns, rolls = _turn_sections(rules, rp.files, seats, colours)
    stats = _stat_rows(d, rolls, seats, colours)
    recorded, secret = _recorded_rolls(rp.files)
    audit_ctx = _audit_section(session, store, d)
    pend = d.pending() if d.started and not d.closed else None
    final = rules.summary_view(d.public, None, None) if d.started else {"facts": [], "tables": []}
    return {
        "title": f"{rules.title or con.h['rules']}: {con.h['scenario']}",
        "game_id": gid, "game_short": gid[:12], "seq": d.seq, "rules": con.h["rules"],
        "scenario": con.h["scenario"],
        "players": [{"seat": s, "name": c.name, "email": c.email, "fingerprint": c.fingerprint,
                     "fill": colours.get(s, "#666")} for s, c in sorted(con.cards.items())],
        "result": rules.result(d.public) if d.started else None,
        "pending": {"seat": pend.seat, "phase": pend.phase} if pend else None,
        "closed": d.closed, "started": d.started, "waiting_joins": d.waiting_for_joins,
        "facts": final.get("facts", []), "tables": final.get("tables", []),
        "initial_map": render.map_svg(first), "turns": turns, "stats": stats,
        "total_dice": len(rolls), "recorded": sorted(recorded.items()), "secret_rolls": secret,
        "audit": audit_ctx,
        "generated": _when(session.clock()),
    }


def build_history(session: Session, store: GameStore) -> str:
    """The whole game as one self-contained HTML5 page."""
    ctx = build_context(session, store)
    return render.environment().get_template("history.html.j2").render(**ctx)


def main_export(session: Session, store: GameStore, out_path: str | Path) -> Path:
    """``pbem archive history GAME -o FILE.html``: write the history page; returns its path."""
    html = build_history(session, store)
    out = Path(out_path)
    atomic_write(out, html.encode("utf-8"))
    return out
