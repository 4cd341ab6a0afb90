"""Where pbem keeps things.

With ``--home DIR`` (or ``PBEM_HOME``) everything lives under DIR, which is
what tests, the demo and players with several identities use. Otherwise the
identity goes in the user's config folder and games in the user's data folder,
as the platform defines them (platformdirs: XDG on Linux, the usual places on
macOS and Windows).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Home:
    config: Path
    data: Path

    @property
    def identity_file(self) -> Path:
        return self.config / "identity.age"

    @property
    def card_file(self) -> Path:
        return self.config / "card.txt"

    @property
    def contacts(self) -> Path:
        return self.config / "contacts"

    @property
    def games(self) -> Path:
        return self.data / "games"

    @property
    def invitations(self) -> Path:
        return self.data / "invitations"

    @property
    def config_file(self) -> Path:
        return self.config / "config.toml"


def resolve(home: str | os.PathLike[str] | None = None) -> Home:
    root = home if home is not None else os.environ.get("PBEM_HOME") or None
    if root:
        base = Path(root).expanduser().resolve()
        return Home(config=base / "config", data=base / "data")
    import platformdirs

    return Home(
        config=Path(platformdirs.user_config_dir("pbem")),
        data=Path(platformdirs.user_data_dir("pbem")),
    )
