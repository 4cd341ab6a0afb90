"""Reading a game's map and scenario text files, reporting every problem at once.

The files are line-oriented: ``keyword word word key=value  # comment``, words
split like a shell (``"Two words"`` is one word), the first record
``format <kind> 1``.  A reader never stops at the first problem: it adds each
to an :class:`Issues` list with its file and line and reads on, and the loader
raises :class:`ScenarioErrors` once at the end, so an author fixes every line
in one pass.  Users see ``file:line: message``; line 0 means the whole file.

A game subclasses :class:`ScenarioErrors` to point its hint at its own docs.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pbem.errors import InvalidInput


@dataclass(frozen=True)
class ScenarioIssue:
    file: str  # relative to the scenario directory (or the rules data file name)
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class ScenarioErrors(InvalidInput):
    """Every problem found in a scenario (or rules table), each with its file and line."""

    default_hint = "fix every listed line"

    def __init__(self, errors: list[ScenarioIssue]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.file, e.line))
        shown = "\n".join(str(e) for e in self.errors[:50])
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        super().__init__(f"{len(self.errors)} problem(s) in the scenario data:\n{shown}{more}")


class Issues(list[ScenarioIssue]):
    def add(self, file: str, line: int, message: str) -> None:
        self.append(ScenarioIssue(file, line, message))


@dataclass(frozen=True)
class Record:
    file: str
    line: int
    keyword: str
    words: tuple[str, ...]  # positional tokens after the keyword
    attrs: Mapping[str, str]  # key=value tokens


def read_records(path: Path, kind: str, issues: Issues) -> list[Record]:
    """Parse a line-oriented scenario file; the first record must be ``format <kind> 1``."""
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        issues.add(name, 0, f"missing file (expected 'format {kind} 1')")
        return []
    except (OSError, UnicodeDecodeError) as exc:
        issues.add(name, 0, f"cannot read: {exc}")
        return []
    records: list[Record] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            tokens = split_line(raw)
        except ValueError as exc:
            issues.add(name, number, f"cannot split line: {exc}")
            continue
        if not tokens:
            continue
        words: list[str] = []
        attrs: dict[str, str] = {}
        for tok in tokens[1:]:
            key, eq, value = tok.partition("=")
            if not eq:
                words.append(tok)
            elif key in attrs:
                issues.add(name, number, f"attribute {key!r} given twice")
            else:
                attrs[key] = value
        records.append(Record(name, number, tokens[0], tuple(words), MappingProxyType(attrs)))
    if not records or records[0].keyword != "format" or records[0].words != (kind, "1"):
        issues.add(name, records[0].line if records else 1, f"first record must be 'format {kind} 1'")
        # Read on anyway: the rest of the file then reports its own problems, not a cascade of
        # "unknown country" everywhere else.
    return [r for r in records if r.keyword != "format" or r is not records[0]]


# One line's pieces: shlex's whitespace (the only characters it splits on), a comment,
# a word made of plain runs and double-quoted runs, or a character only shlex can judge
# (a single quote, a backslash, a double quote left open).
_SPACES = re.compile(r"[ \t\r\n]+")
_SCAN = re.compile(r"""[ \t\r\n]+|(#)|((?:[^ \t\r\n"'\\#]+|"[^"\\]*")+)|(.)""", re.S)


def split_line(raw: str) -> list[str]:
    """The words of one line, split like a POSIX shell with ``#`` comments.

    shlex reads one character at a time: it was most of a scenario load. Lines with
    plain words, double-quoted names and comments (nearly every line) are split here
    by one regular expression; the rest (single quotes, backslashes, an unclosed
    quote) go to shlex. tests/test_kit_records.py checks both agree on every line of
    every scenario and on random lines.
    """
    if '"' not in raw and "'" not in raw and "\\" not in raw:
        return [t for t in _SPACES.split(raw.partition("#")[0]) if t]
    tokens: list[str] = []
    for m in _SCAN.finditer(raw):
        comment, word, other = m.groups()
        if comment is not None:
            break
        if other is not None:
            lexer = shlex.shlex(raw, posix=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            return list(lexer)
        if word is not None:
            tokens.append(word.replace('"', ""))
    return tokens


def split_list(value: str) -> list[str]:
    """``a,b,,c`` -> ``["a", "b", "c"]`` (the value of a list attribute)."""
    return [v for v in value.split(",") if v]


def parse_int(rec: Record, key: str, issues: Issues, default: int, lo: int = 0, hi: int = 99) -> int:
    """The integer attribute ``key`` of ``rec`` in [lo, hi]; ``default`` when absent or wrong (reported)."""
    if key not in rec.attrs:
        return default
    text = rec.attrs[key]
    if not text.lstrip("-").isdigit() or not lo <= int(text) <= hi:
        issues.add(rec.file, rec.line, f"{key}={text!r} must be an integer from {lo} to {hi}")
        return default
    return int(text)


# --- TOML rules tables (terrain charts, weather tables) -------------------------------------
def read_toml(path: Path, kind: str, issues: Issues) -> tuple[dict[str, Any], str] | None:
    """A TOML table file whose ``format`` key is ``"<kind> 1"``: (data, text), or None (reported)."""
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        issues.add(path.name, 0, f"cannot read: {exc}")
        return None
    if data.get("format") != f"{kind} 1":
        issues.add(path.name, 1, f"format must be '{kind} 1'")
        return None
    return data, text


def line_of(text: str, needle: str) -> int:
    """The line where a TOML table or key is written (for messages); 0 if not found."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(needle):
            return number
    return 0
