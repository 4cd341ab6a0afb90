"""The authored tables of rules/use/data (CRT, Will schedule, DRMs), loaded once."""

from __future__ import annotations

import functools
import hashlib
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


def tables_digest() -> bytes:
    """Hash over every table file of the rules module (ours and the loader's charts)."""
    h = hashlib.sha256(b"pbem/v1/use-tables\n")
    for p in sorted(DATA.glob("*.toml")):
        content = p.read_bytes().replace(b"\r\n", b"\n")
        h.update(p.name.encode() + b"\0" + len(content).to_bytes(8, "big") + content)
    return h.digest()
