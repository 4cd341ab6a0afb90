"""The record reader's line splitter: its fast path must give shlex's answer exactly."""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest

from pbem.kit.records import split_line

ROOT = Path(__file__).resolve().parent.parent


def _shlex(raw: str) -> list[str]:
    lexer = shlex.shlex(raw, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _outcome(split: object, raw: str) -> object:
    try:
        return split(raw)  # type: ignore[operator]
    except ValueError as exc:
        return ("ValueError", str(exc))


def test_every_line_of_every_scenario_splits_as_shlex_splits_it() -> None:
    lines = [line for path in sorted((ROOT / "scenarios").rglob("*.txt"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 1000
    for raw in lines:
        assert split_line(raw) == _shlex(raw), raw


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_split_as_shlex_splits_them(seed: int) -> None:
    rnd = random.Random(seed)
    alphabet = list("ab=,#x1 \t\r\"'\\\x0b\x0c\u00a0\u2028é")
    for _ in range(5000):
        raw = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 24)))
        assert _outcome(split_line, raw) == _outcome(_shlex, raw), repr(raw)
