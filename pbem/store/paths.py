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

from pbem.formats.names import FILE_NAME, RESERVED, InvalidName, shown


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
    def quarantine(self) -> Path:
        """Signed files that failed their checks, kept aside under their hash (pbem.mail.receive)."""
        return self.data / "quarantine"

    @property
    def config_file(self) -> Path:
        return self.config / "config.toml"

    @property
    def cache(self) -> Path:
        """What pbem can always make again, kept to save time (the map's static layer)."""
        return self.data / "cache"


# The cache folder of the home this process works in (set by the command line): the map
# drawing, which knows no home, keeps what it may reuse there (pbem.present.raster).
_cache_dir: Path | None = None


def use_cache_dir(folder: Path | None) -> None:
    global _cache_dir
    _cache_dir = folder


def cache_dir() -> Path | None:
    return _cache_dir


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


def safe_join(folder: Path, file_name: str) -> Path:
    """``folder / file_name``, refusing anything that could land outside ``folder``.

    Names are validated where they enter (pbem.formats.names); this is the second lock,
    at the point of writing: a bare file name only (no separator, no '..', no
    device name), and the resolved result, symbolic links followed, must sit
    directly in the resolved folder, so a planted link cannot redirect a write.
    """
    if (not FILE_NAME.fullmatch(file_name) or ".." in file_name
            or file_name.split(".", 1)[0].lower() in RESERVED):
        raise InvalidName(f"refusing to write a file named {shown(file_name)}",
                          hint="pbem writes only file names built from checked names; report this as a bug")
    path = folder / file_name
    if path.resolve().parent != folder.resolve():
        raise InvalidName(f"{path} leads outside {folder} (a symbolic link?)",
                          hint=f"remove {path}, or choose another folder")
    return path
