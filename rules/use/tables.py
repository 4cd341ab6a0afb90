"""The authored tables of rules/use/data (CRT, Will schedule, DRMs), loaded once."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
OWN_TABLES = ("crt.toml", "authored.toml")


@functools.cache
def crt() -> dict[str, Any]:
    with open(DATA / "crt.toml", "rb") as f:
        return tomllib.load(f)


@functools.cache
def authored() -> dict[str, Any]:
    with open(DATA / "authored.toml", "rb") as f:
        return tomllib.load(f)

