"""docs/orders-eurofront.md and docs/orders-wie.md list every order of their game's verb table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_order_references_are_up_to_date() -> None:
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "orders_reference.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + "\nrun: .venv/bin/python tools/orders_reference.py"
