"""The USE order language (docs/orders.md): one order per line, '#' comments.

Parsing checks syntax and names (units, hexes, countries) and reports the line and column
of the offending word; whether an order is *legal* is decided later (verbs.py).
An order is a dict of canonical values: {"verb", "line", "col", ...fields}. This module
reads each verb's words (``parse_VERB``); the verb table in verbs.py ties them to the rules.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.kit.orders import Line, resolve_name

from . import geo
from .state import FACTIONS, PHASES

Order = dict[str, Any]
HEX_RE = re.compile(r"^\d{4}$")
BOX_RE = re.compile(r"^[A-Za-z]{2,12}$")  # a Map Box id (1.3.5), e.g. REICH
SECRET_FIELDS = ("commit", "air")  # sealed by ctx.commit in attack/resolve/air-strike orders


class UseLine(Line):
    """A line of USE orders: words are also read as hexes, Map Boxes and unit ids."""

    def __init__(self, no: int, text: str, public: dict[str, Any]) -> None:
        super().__init__(no, text)
        self.public = public

    def hex(self) -> str:
        col, t = self.take("a hex (4 digits, e.g. 1204)")
        if not HEX_RE.match(t):
            raise self.err(f"{t!r} is not a hex number (4 digits XXYY)", col)
        self._on_map(t, col)
        return t

    def _on_map(self, t: str, col: int) -> None:
        """A hex that is not on the map is a typing error, said so here rather than as a rules
        refusal of whatever the order tried (a Transport Line 'not contiguous', ...)."""
        b = geo.board(self.public) if "map" in self.public else None
        if b is not None and not b.on_map(t):
            raise self.err(f"hex {t} is not on the map", col,
                           "hexes are numbered XXYY, column then row, as printed at the top of each hex")

    def loc(self) -> str:
        """A hex, or a Map Box id (letters, e.g. REICH: USE 1.3.5)."""
        col, t = self.take("a hex (4 digits) or a Map Box id")
        if HEX_RE.match(t):
            self._on_map(t, col)
            return t
        if BOX_RE.match(t):
            return t.upper()
        raise self.err(f"{t!r} is neither a hex number (4 digits XXYY) nor a Map Box id", col)

    def unit(self) -> str:
        col, t = self.take("a unit id")
        return resolve_unit(self.public, t, self.no, col)

    def unit_or_hex(self) -> str:
        t = self.peek() or ""
        return self.hex() if HEX_RE.match(t) else self.unit()


def resolve_unit(public: dict[str, Any], token: str, line: int, col: int) -> str:
    """Exact id (case-insensitive), else a unique prefix; several matches are ambiguous."""
    return resolve_name(public.get("units", {}), token, line, col, what="unit",
                        hint="run 'pbem orders template GAME' for the unit ids")


def _commit_word(ln: UseLine, o: Order) -> bool:
    w = ln.peek()
    if w in ("will-commit", "commit"):
        ln.take("")
        o["commit"] = True
        return True
    if w in ("no-commit", "will-not-commit"):
        ln.take("")
        o["commit"] = False
        return True
    return False


def _combat_opts(ln: UseLine, o: Order, allow_primary: bool) -> None:
    o.setdefault("commit", False)
    o.setdefault("air", None)
    o.setdefault("advance", True)
    o.setdefault("advancer", None)
    while ln.more():
        if _commit_word(ln, o):
            continue
        col, w = ln.take("an option")
        w = w.lower()
        if w == "air":
            o["air"] = ln.unit()
        elif w == "no-advance":
            o["advance"] = False
        elif w == "advance":
            o["advancer"] = ln.unit()
        elif w in ("from", "primary") and (allow_primary or w == "from"):
            o["unit"] = ln.unit_or_hex()
        elif w == "mode":
            o["mode"] = ln.word(("mobile", "assault"), "a combat mode")
        else:
            raise ln.err(f"unknown option {w!r}", col,
                         "options: from UNIT|HEX, mode mobile|assault, will-commit, no-commit, air UNIT, no-advance")


def parse_nothing(ln: UseLine, o: Order) -> None:
    """pass, end-phase: no words after the verb."""


def parse_declare_war(ln: UseLine, o: Order) -> None:
    _, t = ln.take("a country code or a faction")
    o["target"] = t.lower() if t.lower() in FACTIONS else t.upper()
    if ln.peek() == "on":  # allow "declare-war axis on BEL"? keep the simple form only
        raise ln.err("write 'declare-war COUNTRY'")


def _path(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["path"] = []
    while ln.more() and (ln.peek() or "").lower() not in ("carry", "escort"):
        o["path"].append(ln.loc())
    if not o["path"]:
        raise ln.err("a move needs at least one hex", None)


def parse_strategic_move(ln: UseLine, o: Order) -> None:
    _path(ln, o)


def parse_move(ln: UseLine, o: Order) -> None:
    _path(ln, o)
    # USE 6.4.4 / 6.4.2: move CONVOY ... PORT [carry UNIT] [escort WARSHIP...]
    while ln.more():
        col, w = ln.take("carry or escort")
        if w.lower() == "carry" and "carry" not in o:
            o["carry"] = ln.unit()
        elif w.lower() == "escort" and "escort" not in o:
            o["escort"] = [ln.unit()]
            while ln.more() and (ln.peek() or "").lower() != "carry":
                o["escort"].append(ln.unit())
        else:
            raise ln.err(f"unexpected {w!r}", col, "write: move CONVOY [ZONE...] PORT [carry UNIT] "
                         "[escort WARSHIP...]")


def parse_attack(ln: UseLine, o: Order) -> None:
    o["target"] = ln.hex()
    o["mode"] = "mobile"
    o["unit"] = None
    _combat_opts(ln, o, allow_primary=False)
    if o["mode"] == "assault":
        o["verb"] = "assault"


def parse_assault(ln: UseLine, o: Order) -> None:
    o["target"] = ln.hex()
    o["unit"] = None
    if ln.peek() == "from":
        ln.take("")
        o["unit"] = ln.unit_or_hex()


def parse_resolve(ln: UseLine, o: Order) -> None:
    o["target"] = ln.hex()
    o["unit"] = None
    _combat_opts(ln, o, allow_primary=True)


def parse_will_commit(ln: UseLine, o: Order) -> None:
    """will-commit [HEX] yes|no [air UNIT] [retreat HEX|stay]; after the reveal (USE 5.1 step 2
    as written) will-commit [HEX] air UNIT|no-air: no choice of Will (``commit`` None)."""
    o["target"] = ln.hex() if HEX_RE.match(ln.peek() or "") else None
    o["air"] = None
    o["retreat"] = None
    if (ln.peek() or "").lower() in ("air", "no-air"):
        o["commit"] = None
        if ln.take("")[1].lower() == "air":
            o["air"] = ln.unit()
    else:
        o["commit"] = ln.word(("yes", "no"), "yes or no (or, after the reveal, air UNIT or no-air)") == "yes"
    while ln.more():
        col, w = ln.take("an option")
        if w.lower() == "air" and o["commit"] is not None:
            o["air"] = ln.unit()
        elif w.lower() == "retreat":
            o["retreat"] = "stay" if ln.peek() == "stay" else None
            if o["retreat"]:
                ln.take("")
            else:
                o["retreat"] = ln.hex()
        else:
            raise ln.err(f"unknown option {w!r}", col, "options: air UNIT, retreat HEX|stay")


def parse_target(ln: UseLine, o: Order) -> None:
    """airdrop, partisans: a hex."""
    o["target"] = ln.hex()


def parse_unit_target(ln: UseLine, o: Order) -> None:
    """bomb: a unit and a hex."""
    o["unit"] = ln.unit()
    o["target"] = ln.hex()


def parse_rebase(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["to"] = ln.loc()


def parse_air_strike(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["target"] = ln.hex()
    o["commit"] = False
    o["air"] = None
    while ln.more():
        if ln.peek() == "at" and "at" not in o:
            ln.take("")
            o["at"] = ln.unit()  # USE 6.2.4 / 5.2: the naval unit aimed at, past its escorts
        elif not _commit_word(ln, o):
            col, w = ln.take("")
            raise ln.err(f"unknown option {w!r}", col, "options: at UNIT, will-commit, no-commit")


def parse_unit(ln: UseLine, o: Order) -> None:
    """fort, replace, disband: a unit."""
    o["unit"] = ln.unit()


def parse_end(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit() if ln.more() else None


def parse_upgrade(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["new"] = ln.unit()


def parse_mobilize(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["to"] = ln.loc()  # a city hex, or a Map Box 8.3 names (CR, ENA, WIO)


def parse_transfer(ln: UseLine, o: Order) -> None:
    o["from"] = ln.take("a country")[1].upper()
    o["to"] = ln.take("a country")[1].upper()
    col, n = ln.take("a number of PP")
    if not n.isdigit() or int(n) < 1:
        raise ln.err(f"{n!r} is not a positive number", col)
    o["pp"] = int(n)


STANDING = ("will-commit", "retreat-toward", "skip", "home-defense", "intercept", "pro-marker")


def parse_standing(ln: UseLine, o: Order) -> None:
    what = ln.word(STANDING, "a standing order")
    o["what"] = what
    if what == "pro-marker":
        # pro-marker CODE...|none: where a conquest places a Pro-Faction marker (13.2.2)
        codes: list[str] = []
        while ln.more():
            codes.append(ln.take("a country code")[1].upper())
        if not codes:
            raise ln.err("name country codes, or 'none'", None)
        o["value"] = [] if "NONE" in codes else codes
    elif what == "will-commit":
        o["value"] = ln.word(("yes", "no", "ask"), "yes, no or ask")
    elif what == "retreat-toward":
        o["value"] = None if ln.peek() == "none" else ln.hex()
        if o["value"] is None:
            ln.take("")
    elif what in ("home-defense", "intercept"):
        o["value"] = _standing_units(ln, what)
    else:
        vals: list[str] = []
        while ln.more():
            vals.append(ln.word((*PHASES, "none"), "a phase name"))
        o["value"] = [] if "none" in vals else vals


def _standing_units(ln: UseLine, what: str) -> list[str]:
    """home-defense UNIT...|none (10.3.1 repatriation preference);
    intercept UNIT...|all|none (6.2.5 / 6.4.3 interceptions made without being asked)."""
    units: list[str] = []
    while ln.more():
        w = ln.peek() or ""
        if w in ("none", "all"):
            ln.take("")
            units.append(w)
        else:
            units.append(ln.unit())
    if not units:
        raise ln.err("name units, or 'none'" + (" or 'all'" if what == "intercept" else ""), None)
    if "none" in units:
        return []
    if "all" in units:
        if what != "intercept":
            raise ln.err("'all' is only for 'standing intercept'", None)
        return ["all"]
    return units


def public_projection(orders: list[Order]) -> list[Order]:
    """What every seat may see: the Will Commit choice and its air unit stay sealed."""
    out = []
    for o in orders:
        p = dict(o)
        if p["verb"] in ("attack", "resolve", "air-strike", "carrier-strike"):
            for k in SECRET_FIELDS:
                p[k] = None
            p["sealed"] = True
        out.append(p)
    return out
