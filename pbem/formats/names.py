"""One grammar for every name that comes from a file or a user.

Seat names, rules module names, scenario names and the like travel in signed
headers written by players we do not trust, and pbem builds file names from
some of them (``files/000003-turn-<seat>.pbem``, ``<seat>.pub``). So a name is
data that must never be able to act as a path: it is checked here, once, when
a file is parsed or a user types it, and everything later relies on that.

The grammar: a lowercase ASCII letter, then lowercase letters, digits and
``-``, at most 32 characters. Lowercase only, so that case-insensitive file
systems (macOS, Windows) cannot fold two seats into one file; no name that
Windows reserves for a device (``con``, ``nul``, ``com1``, ...), which no
file there may be called, whatever its extension.
"""

from __future__ import annotations

import re

from pbem.errors import InvalidInput

MAX_NAME = 32
_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
# Windows device names: a file called like this, with any extension, is the device.
RESERVED = frozenset({"con", "prn", "aux", "nul",
                      *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))})
# A bare file name that pbem built from validated values (outbox, evidence, exports).
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,254}")

GRAMMAR = ("a name is 1 to 32 characters: a lowercase ASCII letter, then lowercase letters, digits "
           "or '-' (e.g. 'axis', 'france-1940'), and not a Windows device name (con, nul, com1, ...)")


class InvalidName(InvalidInput):
    default_hint = f"{GRAMMAR}; a file naming anything else was not written by a genuine pbem"


def shown(value: object) -> str:
    """A hostile value, made safe and short enough to print: repr escapes control characters."""
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:40]) + "..."
    return repr(value) if isinstance(value, str) else f"a {type(value).__name__}"


def problem(name: object) -> str | None:
    """Why ``name`` is not a valid name, or None if it is."""
    if not isinstance(name, str):
        return f"it is {shown(name)}, not text"
    if not name:
        return "it is empty"
    if len(name) > MAX_NAME:
        return f"it is longer than {MAX_NAME} characters"
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name):
        return "it holds a control character (NUL, newline, ...)"
    if not name.isascii():
        return "it holds a character outside ASCII"
    if name != name.lower():
        return "it holds an uppercase letter (names are lowercase)"
    if not _NAME.fullmatch(name):
        return "it must start with a letter and hold only letters, digits and '-'"
    if name.split(".", 1)[0] in RESERVED:
        return "it is a device name that Windows reserves"
    return None


def is_valid(name: object) -> bool:
    return problem(name) is None


def check_name(kind: str, name: object, *, where: str = "", hint: str | None = None) -> str:
    """Return ``name`` if it follows the grammar, else raise InvalidName.

    ``kind`` says what the name is ("seat", "rules", "scenario"), ``where``
    where it came from ("turn header", "--seat"), for the message.
    """
    why = problem(name)
    if why is None:
        assert isinstance(name, str)
        return name
    at = f" in {where}" if where else ""
    raise InvalidName(f"{kind} name {shown(name)}{at} is not allowed: {why}", hint=hint)


def check_seat(name: object, *, where: str = "", hint: str | None = None) -> str:
    return check_name("seat", name, where=where, hint=hint)


USER_HINT = f"{GRAMMAR}; pick a name like that"

