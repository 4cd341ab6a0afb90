"""The shape of USE orders as they travel in a file, checked before the rules read them.

The orders in another seat's file were made by that seat's tool, which may be
a modified pbem: every order must have exactly the fields the order parser
(orders.py) gives its verb, each of the type and form the parser would give
it (a hex is four digits, a unit id is a short word, ...). Whether an order
is legal is still the rules' business; this only guarantees that the rules
never meet a value of a shape they were not written for.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidInput

from .orders import BOX_RE, HEX_RE
from .state import PHASES
from .verbs import VERBS

MAX_ORDERS = 2000
MAX_LIST = 200
MAX_WORD = 40

_COMBAT = {"target", "unit", "mode", "commit", "air", "advance", "advancer", "sealed"}
# verb: (required fields, optional fields), as the parse_VERB functions (orders.py) and public_projection write them.
FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "pass": (set(), set()),
    "end-phase": (set(), set()),
    "declare-war": ({"target"}, set()),
    "strategic-move": ({"unit", "path"}, set()),
    "move": ({"unit", "path"}, {"carry", "escort"}),
    "attack": ({"target", "unit", "mode", "commit", "air", "advance", "advancer"}, {"sealed"}),
    "assault": ({"target", "unit"}, _COMBAT),
    "resolve": ({"target", "unit", "commit", "air", "advance", "advancer"}, {"mode", "sealed"}),
    "will-commit": ({"target", "commit", "air", "retreat"}, set()),
    "airdrop": ({"target"}, set()),
    "partisans": ({"target"}, set()),
    "bomb": ({"unit", "target"}, set()),
    "rebase": ({"unit", "to"}, set()),
    "air-strike": ({"unit", "target", "commit", "air"}, {"at", "sealed"}),
    "fort": ({"unit"}, set()),
    "replace": ({"unit"}, set()),
    "disband": ({"unit"}, set()),
    "end": ({"unit"}, set()),
    "upgrade": ({"unit", "new"}, set()),
    "mobilize": ({"unit", "to"}, set()),
    "transfer": ({"from", "to", "pp"}, set()),
    "standing": ({"what", "value"}, set()),
    "diplomacy": ({"action", "pay"}, {"marker"}),  # USE 10.2 (diplomacy.py)
    "political": ({"choice"}, {"country"}),
    "play": ({"marker"}, set()),  # USE 14.0 (eventplay.py)
    "surprise": ({"target"}, set()),  # USE 14.17 (amphib.py)
    "invade": ({"unit", "target", "carry"}, {"escort", "then", "mulberry", "commit"}),  # USE 6.3.2
    "carrier-strike": ({"unit", "target", "commit", "air"}, {"at", "sealed"}),  # USE 6.4.5
    "evacuate": ({"unit", "target"}, set()),  # USE 14.8 (navalevents.py)
    "convoy-action": ({"target"}, set()),  # USE 14.3 (seaactions.py)
    "surface-action": ({"target"}, set()),  # USE 14.16
    "evacuate-on-retreat": (set(), set()),  # USE 14.8
    "buy-back": ({"marker"}, {"country"}),  # USE 8.3
}
STANDING = ("will-commit", "retreat-toward", "skip", "home-defense", "intercept", "pro-marker")


class _Bad(InvalidInput):
    default_hint = "the orders in this file are not what a conforming pbem writes; keep it as evidence"


def _word(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= MAX_WORD and v.isprintable() and " " not in v


def _hex(v: Any) -> bool:
    return isinstance(v, str) and bool(HEX_RE.match(v)) and len(v) == 4


def _loc(v: Any) -> bool:
    return _hex(v) or (isinstance(v, str) and bool(BOX_RE.fullmatch(v)))


def _words(v: Any, check: Any = _word, *, empty: bool = True) -> bool:
    return (isinstance(v, list) and len(v) <= MAX_LIST and (empty or bool(v))
            and all(check(x) for x in v))


def _opt(check: Any) -> Any:
    return lambda v: v is None or check(v)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


_HEX_TARGET = {"attack", "assault", "resolve", "airdrop", "partisans", "bomb", "air-strike", "invade",
               "carrier-strike", "evacuate", "convoy-action", "surface-action"}
_TYPES: dict[str, Any] = {
    "unit": _opt(_word), "path": lambda v: _words(v, _loc, empty=False), "carry": _word,
    "escort": lambda v: _words(v, empty=False), "mode": lambda v: v in ("mobile", "assault"),
    "commit": _opt(_bool), "air": _opt(_word), "advance": _bool, "advancer": _opt(_word),
    "sealed": _bool, "retreat": _opt(lambda v: v == "stay" or _hex(v)), "at": _word, "new": _word,
    "from": _word, "pp": lambda v: type(v) is int and 1 <= v <= 10_000, "what": lambda v: v in STANDING,
    "value": lambda v: True,  # checked with its "what" (_value_ok)
    "action": lambda v: v in ("draw", "return"), "pay": _word, "country": _word,
    "choice": lambda v: v in ("pro", "activate", "remove", "none"),
    "marker": _word,
    "then": _hex, "mulberry": _bool,  # invade (6.3.2, 15.16)
}


def _value_ok(what: str, v: Any) -> bool:
    if what == "will-commit":
        return v in ("yes", "no", "ask")
    if what == "retreat-toward":
        return v is None or _hex(v)
    if what == "skip":
        return _words(v, lambda x: x in PHASES)
    return _words(v)  # home-defense, intercept, pro-marker: unit ids, "all", country codes


def _field_ok(verb: str, k: str, v: Any) -> bool:
    if k == "target":
        if verb in _HEX_TARGET:
            return _hex(v)
        return _opt(_hex)(v) if verb == "will-commit" else _word(v)
    if k == "to":
        return _loc(v) if verb in ("mobilize", "rebase") else _word(v)
    if k == "unit" and verb not in ("end", "assault", "attack", "resolve"):
        return _word(v)
    return bool(_TYPES[k](v))


def check(wire: Any) -> dict[str, Any]:
    """The wire orders {"orders": [...]}, refused with a typed error unless every order is well formed."""
    if not isinstance(wire, dict) or set(wire) != {"orders"} or not isinstance(wire["orders"], list):
        raise _Bad("USE orders on the wire must be a map holding one list, 'orders'")
    if len(wire["orders"]) > MAX_ORDERS:
        raise _Bad(f"{len(wire['orders'])} orders in one file, more than {MAX_ORDERS}")
    for i, o in enumerate(wire["orders"], start=1):
        if not isinstance(o, dict) or o.get("verb") not in VERBS:
            raise _Bad(f"order {i}: not an order of a known verb")
        verb = o["verb"]
        for k in ("line", "col"):
            if type(o.get(k)) is not int or not 0 <= o[k] <= 1_000_000:
                raise _Bad(f"order {i} ({verb}): '{k}' must be a small number")
        need, may = FIELDS[verb]
        have = set(o) - {"verb", "line", "col"}
        if not need <= have or not have <= need | may:
            raise _Bad(f"order {i} ({verb}): its fields are not those of a {verb} order")
        for k in have:
            if not _field_ok(verb, k, o[k]):
                raise _Bad(f"order {i} ({verb}): field '{k}' is malformed")
        if verb == "standing" and not _value_ok(o["what"], o["value"]):
            raise _Bad(f"order {i} (standing {o['what']}): its value is malformed")
    return wire
