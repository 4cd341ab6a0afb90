"""The USE order language (docs/orders.md): one order per line, '#' comments.

Parsing checks syntax and names (units, hexes, countries) and reports the line and column
of the offending word; whether an order is *legal* is decided later by ``apply``.
An order is a dict of canonical values: {"verb", "line", "col", ...fields}.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.errors import AmbiguousOrder, InvalidOrder, OrderError, OrderErrors

from .state import FACTIONS, PHASES

Order = dict[str, Any]
HEX_RE = re.compile(r"^\d{4}$")
BOX_RE = re.compile(r"^[A-Za-z]{2,12}$")  # a Map Box id (1.3.5), e.g. REICH

VERBS = ("pass", "end-phase", "declare-war", "strategic-move", "move", "attack", "assault", "resolve",
         "will-commit", "rebase", "air-strike", "fort", "end", "replace", "upgrade", "mobilize",
         "transfer", "standing", "airdrop", "partisans", "disband", "bomb")

# The phase each verb belongs to ("" = any step where the seat is asked to act).
VERB_PHASE = {
    "declare-war": "declare-war", "strategic-move": "strategic-move", "move": "actions",
    "attack": "actions", "assault": "actions", "resolve": "actions", "rebase": "actions",
    "air-strike": "actions", "fort": "actions", "end": "actions", "replace": "replacements",
    "upgrade": "upgrade", "mobilize": "mobilization", "will-commit": "", "standing": "",
    "pass": "", "end-phase": "", "transfer": "", "airdrop": "actions", "partisans": "actions",
    "disband": "actions", "bomb": "actions",
}
SECRET_FIELDS = ("commit", "air")  # sealed by ctx.commit in attack/resolve/air-strike orders


class _Line:
    def __init__(self, no: int, text: str, public: dict[str, Any]) -> None:
        self.no = no
        self.public = public
        self.toks: list[tuple[int, str]] = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]
        self.i = 1

    def err(self, msg: str, col: int | None = None, hint: str | None = None) -> InvalidOrder:
        return InvalidOrder(msg, line=self.no, column=col or (self.toks[min(self.i, len(self.toks) - 1)][0]),
                            hint=hint)

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek(self) -> str | None:
        return self.toks[self.i][1].lower() if self.more() else None

    def take(self, what: str) -> tuple[int, str]:
        if not self.more():
            end = self.toks[-1][0] + len(self.toks[-1][1])
            raise InvalidOrder(f"missing {what}", line=self.no, column=end + 1)
        t = self.toks[self.i]
        self.i += 1
        return t

    def hex(self) -> str:
        col, t = self.take("a hex (4 digits, e.g. 1204)")
        if not HEX_RE.match(t):
            raise self.err(f"{t!r} is not a hex number (4 digits XXYY)", col)
        return t

    def loc(self) -> str:
        """A hex, or a Map Box id (letters, e.g. REICH: USE 1.3.5)."""
        col, t = self.take("a hex (4 digits) or a Map Box id")
        if HEX_RE.match(t):
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

    def word(self, choices: tuple[str, ...], what: str) -> str:
        col, t = self.take(what)
        if t.lower() not in choices:
            raise self.err(f"expected {what} ({' | '.join(choices)}), got {t!r}", col)
        return t.lower()

    def done(self) -> None:
        if self.more():
            col, t = self.toks[self.i]
            raise self.err(f"unexpected {t!r}", col)


def resolve_unit(public: dict[str, Any], token: str, line: int, col: int) -> str:
    """Exact id (case-insensitive), else a unique prefix; several matches are ambiguous."""
    ids: list[str] = sorted(public.get("units", {}))
    low = token.lower()
    exact = [u for u in ids if u.lower() == low]
    if exact:
        return exact[0]
    pref = [u for u in ids if u.lower().startswith(low)]
    if len(pref) == 1:
        return pref[0]
    if pref:
        raise AmbiguousOrder(f"{token!r} matches {', '.join(pref[:5])}", line=line, column=col)
    raise InvalidOrder(f"no unit named {token!r}", line=line, column=col,
                       hint="run 'pbem orders template GAME' for the unit ids")


def _commit_word(ln: _Line, o: Order) -> bool:
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


def _combat_opts(ln: _Line, o: Order, allow_primary: bool) -> None:
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


def parse_line(no: int, text: str, public: dict[str, Any]) -> Order | None:
    body = text.split("#", 1)[0]
    if not body.strip():
        return None
    ln = _Line(no, body, public)
    col, verb = ln.toks[0]
    verb = verb.lower()
    if verb not in VERBS:
        raise InvalidOrder(f"unknown order {verb!r}", line=no, column=col,
                           hint="orders: " + ", ".join(VERBS))
    o: Order = {"verb": verb, "line": no, "col": col}
    if verb in ("pass", "end-phase"):
        pass
    elif verb == "declare-war":
        _, t = ln.take("a country code or a faction")
        if t.lower() in FACTIONS:
            o["target"] = t.lower()
        else:
            o["target"] = t.upper()
        if ln.peek() == "on":  # allow "declare-war axis on BEL"? keep the simple form only
            raise ln.err("write 'declare-war COUNTRY'")
    elif verb in ("strategic-move", "move"):
        o["unit"] = ln.unit()
        o["path"] = []
        while ln.more() and (ln.peek() or "").lower() not in ("carry", "escort"):
            o["path"].append(ln.loc())
        if not o["path"]:
            raise ln.err("a move needs at least one hex", None)
        if verb == "move":
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
    elif verb == "attack":
        o["target"] = ln.hex()
        o["mode"] = "mobile"
        o["unit"] = None
        _combat_opts(ln, o, allow_primary=False)
        if o["mode"] == "assault":
            o["verb"] = "assault"
    elif verb == "assault":
        o["target"] = ln.hex()
        o["unit"] = None
        if ln.peek() == "from":
            ln.take("")
            o["unit"] = ln.unit_or_hex()
    elif verb == "resolve":
        o["target"] = ln.hex()
        o["unit"] = None
        _combat_opts(ln, o, allow_primary=True)
    elif verb == "will-commit":
        o["target"] = ln.hex() if HEX_RE.match(ln.peek() or "") else None
        o["commit"] = ln.word(("yes", "no"), "yes or no") == "yes"
        o["air"] = None
        o["retreat"] = None
        while ln.more():
            col, w = ln.take("an option")
            if w.lower() == "air":
                o["air"] = ln.unit()
            elif w.lower() == "retreat":
                o["retreat"] = "stay" if ln.peek() == "stay" else None
                if o["retreat"]:
                    ln.take("")
                else:
                    o["retreat"] = ln.hex()
            else:
                raise ln.err(f"unknown option {w!r}", col, "options: air UNIT, retreat HEX|stay")
    elif verb in ("airdrop", "partisans"):
        o["target"] = ln.hex()
    elif verb == "bomb":
        o["unit"] = ln.unit()
        o["target"] = ln.hex()
    elif verb == "rebase":
        o["unit"] = ln.unit()
        o["to"] = ln.loc()
    elif verb == "air-strike":
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
    elif verb in ("fort", "replace", "disband"):
        o["unit"] = ln.unit()
    elif verb == "end":
        o["unit"] = ln.unit() if ln.more() else None
    elif verb == "upgrade":
        o["unit"] = ln.unit()
        o["new"] = ln.unit()
    elif verb == "mobilize":
        o["unit"] = ln.unit()
        o["to"] = ln.hex()
    elif verb == "transfer":
        o["from"] = ln.take("a country")[1].upper()
        o["to"] = ln.take("a country")[1].upper()
        col, n = ln.take("a number of PP")
        if not n.isdigit() or int(n) < 1:
            raise ln.err(f"{n!r} is not a positive number", col)
        o["pp"] = int(n)
    elif verb == "standing":
        what = ln.word(("will-commit", "retreat-toward", "skip", "home-defense", "intercept", "pro-marker"),
                       "a standing order")
        o["what"] = what
        if what == "pro-marker":
            # pro-marker CODE...|none: where a conquest places a Pro-Faction marker (13.2.2)
            codes: list[str] = []
            while ln.more():
                codes.append(ln.take("a country code")[1].upper())
            if not codes:
                raise ln.err("name country codes, or 'none'", None)
            o["value"] = [] if "NONE" in codes else codes
            ln.done()
            return o
        if what == "will-commit":
            o["value"] = ln.word(("yes", "no", "ask"), "yes, no or ask")
        elif what == "retreat-toward":
            o["value"] = None if ln.peek() == "none" else ln.hex()
            if o["value"] is None:
                ln.take("")
        elif what in ("home-defense", "intercept"):
            # home-defense UNIT...|none (10.3.1 repatriation preference);
            # intercept UNIT...|all|none (6.2.5 / 6.4.3 interceptions made without being asked)
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
                units = []
            elif "all" in units:
                if what != "intercept":
                    raise ln.err("'all' is only for 'standing intercept'", None)
                units = ["all"]
            o["value"] = units
        else:
            vals: list[str] = []
            while ln.more():
                vals.append(ln.word((*PHASES, "none"), "a phase name"))
            o["value"] = [] if "none" in vals else vals
    ln.done()
    return o


def parse(text: str, public: dict[str, Any]) -> list[Order]:
    """Every line parsed; all syntax errors are reported together."""
    out: list[Order] = []
    errors: list[OrderError] = []
    for no, line in enumerate(text.splitlines(), start=1):
        try:
            o = parse_line(no, line, public)
        except OrderError as e:
            errors.append(e)
            continue
        if o is not None:
            out.append(o)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise OrderErrors(errors)
    return out


def public_projection(orders: list[Order]) -> list[Order]:
    """What every seat may see: the Will Commit choice and its air unit stay sealed."""
    out = []
    for o in orders:
        p = dict(o)
        if p["verb"] in ("attack", "resolve", "air-strike"):
            for k in SECRET_FIELDS:
                p[k] = None
            p["sealed"] = True
        out.append(p)
    return out
