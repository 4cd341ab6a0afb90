"""Where an installed pbem keeps its data files (templates, scenarios).

setup.cfg installs them as data files under ``<scheme data>/share/pbem``:
``sys.prefix`` for a venv, pipx or a system install, ``site.USER_BASE`` for
``pip install --user`` (which pip also falls back to on its own when it
cannot write to an all-users Python, as on Windows).
"""

from __future__ import annotations

import site
import sys
from pathlib import Path


def share_dirs() -> list[Path]:
    """Candidate ``share/pbem`` folders, most specific first; the first that holds a file wins."""
    out = [Path(sys.prefix) / "share" / "pbem"]
    user_base = getattr(site, "USER_BASE", None)
    if user_base:
        out.append(Path(user_base) / "share" / "pbem")
    return out


def find_shared(*parts: str) -> Path:
    """``share/pbem/<parts>`` of the first candidate that has it (else of the first, for its error message)."""
    for base in share_dirs():
        p = base.joinpath(*parts)
        if p.exists():
            return p
    return share_dirs()[0].joinpath(*parts)
