"""One self-contained archive file per game, for export, hand-over and recovery.

Layout: ``"pbem-archive/v1\\n"`` then the canonical map
``{"game": id, "rules": name, "scenario": name, "files": [file bytes, ...]}``
holding every file of the game in order: the proposal (with every card and
the rules and scenario hashes), the joins, every turn file and the reveals.
Nothing in it needs trusting: importing replays and checks every file.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pbem import canonical, turnfile
from pbem.errors import InvalidInput, LimitExceeded, StateError, Unsupported, WrongGame
from pbem.game import Derived, Session, derive, save_cache
from pbem.store import GameStore, game_dir

MAGIC = b"pbem-archive/v1\n"
MAX_ARCHIVE = 512 * 1024 * 1024


def export(store: GameStore) -> bytes:
    files = store.files()
    if not files:
        raise InvalidInput(f"game folder {store.root} holds no files")
    p = turnfile.parse(files[0].read())
    return MAGIC + canonical.encode({
        "game": store.game_id, "rules": p.header.get("rules", ""), "scenario": p.header.get("scenario", ""),
        "files": [sf.read() for sf in files],
    })


def read(data: bytes) -> tuple[bytes, list[turnfile.SignedFile]]:
    if len(data) > MAX_ARCHIVE:
        raise LimitExceeded("archive is larger than pbem accepts")
    if not data.startswith(MAGIC):
        if data.startswith(b"pbem-archive/"):
            raise Unsupported("this archive was made by a newer pbem")
        raise InvalidInput("not a pbem archive (the first line is not 'pbem-archive/v1')")
    m = canonical.expect_map(canonical.decode(data[len(MAGIC):], max_size=MAX_ARCHIVE), "archive")
    game = canonical.get(m, "game", bytes, "archive")
    raw = canonical.get(m, "files", list, "archive")
    files = []
    for i, b in enumerate(raw):
        if not isinstance(b, bytes):
            raise InvalidInput(f"archive entry {i} is not a file")
        f = turnfile.parse(b)
        if f.game != game:
            raise WrongGame(f"archive entry {i} belongs to another game")
        files.append(f)
    if not files or files[0].kind != "proposal":
        raise InvalidInput("archive does not start with the game's proposal")
    return game, files


def import_archive(session: Session, data: bytes) -> tuple[GameStore, Derived]:
    """Check every file of an archive, then add the game to this home in one rename."""
    game, files = read(data)
    final = game_dir(session.home, game)
    if final.root.exists():
        raise StateError(f"game {game.hex()[:12]} is already in this home",
                         hint="run 'pbem verify' on it, or import into another --home")
    session.home.games.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".import-", dir=session.home.games))
    try:
        staged = GameStore(tmp / game.hex())
        for f in files:
            staged.add(f.seq, f.kind, f.author, f.raw)
        d = derive(session, staged)
        save_cache(staged, d)
        staged.root.rename(final.root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final, d


def from_files(blobs: list[bytes]) -> dict[bytes, bytes]:
    """Group loose pbem files (from a mailbox, say) into one archive per game.

    Files are ordered as the store orders them: the proposal, the joins, turns
    by sequence number, reveals. Duplicates are dropped; which file is genuine
    is for ``import_archive`` to check.
    """
    by_game: dict[bytes, dict[bytes, turnfile.SignedFile]] = {}
    for b in blobs:
        f = turnfile.parse(b)
        by_game.setdefault(f.game, {})[f.raw] = f
    order = {"proposal": 0, "join": 1, "turn": 2, "reveal": 3}
    out = {}
    for game, files in by_game.items():
        ordered = sorted(files.values(), key=lambda f: (f.seq, order[f.kind], f.author))
        p = next((f for f in ordered if f.kind == "proposal"), None)
        out[game] = MAGIC + canonical.encode({
            "game": game, "rules": p.header.get("rules", "") if p else "",
            "scenario": p.header.get("scenario", "") if p else "", "files": [f.raw for f in ordered]})
    return out
