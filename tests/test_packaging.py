"""The hand-written package list in setup.cfg must name every package directory."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = set(cfg["options"]["packages"].split())
    found = set()
    for top, name in (("pbem", "pbem"), ("rules", "pbem_rules")):
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top).parts
            found.add(".".join((name, *rel)))
    assert found <= listed, f"add to setup.cfg [options] packages: {sorted(found - listed)}"


def test_engine_never_imports_a_game() -> None:
    for py in (ROOT / "pbem").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        assert "pbem_rules" not in text and "from rules" not in text, py


def test_games_never_touch_mail_or_cli() -> None:
    for py in (ROOT / "rules").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        for bad in ("pbem.mail", "pbem.cli", "import click", "smtplib", "imaplib"):
            assert bad not in text, f"{py} uses {bad}"
