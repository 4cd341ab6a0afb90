"""Which release's rules a game plays (docs/protocol.md §15, module.started_by).

Games started by these rules' releases 0.9 and 0.10 (pbem 0.1.0 and 0.2.0) replay as they were
played; ``module.started_by`` marks every game of 0.11 and later with ``air_commit_drm`` (the
first rule 0.11 changed), and the later fixes of 0.11 read the same mark rather than adding a
key of their own, so that the state of a game of 0.11 stays as it was.
"""

from __future__ import annotations

from typing import Any


def since_0_11(state: Any) -> bool:
    """True in a game of these rules' 0.11 or later (a case: unless `option air_commit_drm=no`)."""
    return bool(state.get("air_commit_drm"))
