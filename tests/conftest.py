from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from toygame import DUEL
from toygame3 import TRIO

from pbem import rulesapi

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True, scope="session")
def _duel_registered() -> Iterator[None]:
    rulesapi.register(DUEL)
    rulesapi.register(TRIO)
    yield
    rulesapi.unregister(DUEL.name)
    rulesapi.unregister(TRIO.name)
