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
from collections.abc import Callable
from pathlib import Path

from pbem.errors import (
    Equivocation,
    InvalidInput,
    LimitExceeded,
    PbemError,
    StateError,
    Unsupported,
    WrongGame,
)
from pbem.formats import canonical
from pbem.play import handover
from pbem.play.game import Derived, Session, derive, save_cache
from pbem.protocol import turnfile
from pbem.protocol.genesis import read_proposal
from pbem.store.fsutil import atomic_write, make_dirs
from pbem.store.gamestore import GameStore, game_dir

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


def precheck(files: list[turnfile.SignedFile]) -> None:
    """What can be checked in memory, before anything is written to the home.

    Every name was checked when the files were parsed; here every file must
    be signed by a seat of the one proposal, and no two files may claim the
    same place (the store names a file by its place, so they could not both be
    kept). A stranger's file therefore costs no write at all; the full replay
    then runs in a staging folder inside the home.
    """
    con = read_proposal(files[0])
    places: dict[tuple[int, str, str], bytes] = {}
    for i, f in enumerate(files):
        if i and f.kind == "proposal":
            raise InvalidInput(f"archive entry {i} is a second proposal for game {f.game.hex()[:12]}",
                               hint="keep only the files of the game you played (its proposal names your card)")
        if f.author not in con.cards:
            raise InvalidInput(f"archive entry {i} names seat {f.author!r}, which is not in this game",
                               hint="the file was not written by a player of this game; leave it out")
        f.verify_signature(con.cards[f.author].signing_key)
        if f.kind == handover.KIND:  # from here on, the seat signs with its substitute's card
            con = handover.follow(con, [f])
        place = (f.seq, f.kind, f.author)
        if places.setdefault(place, f.raw) != f.raw:
            raise Equivocation(f"seat {f.author} signed two different {f.kind} files with sequence number {f.seq}",
                               hint="this is proof of cheating: keep the archive, and run 'pbem verify' on each copy")


def import_archive(session: Session, data: bytes) -> tuple[GameStore, Derived]:
    """Check every file of an archive, then add the game to this home in one rename."""
    game, files = read(data)
    precheck(files)
    _check_observer(session, files)
    final = game_dir(session.home, game)
    if final.root.exists():
        raise StateError(f"game {game.hex()[:12]} is already in this home",
                         hint="run 'pbem verify' on it, or import into another --home")
    make_dirs(session.home.games)
    tmp = Path(tempfile.mkdtemp(prefix=".import-", dir=session.home.games))
    try:
        staged = GameStore(tmp / game.hex())
        for f in files:
            staged.add(f.seq, f.kind, f.author, f.raw)
        d = derive(session, staged)
        save_cache(staged, d)
        _record_sent(staged, d)
        staged.root.rename(final.root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final, d


def _check_observer(session: Session, files: list[turnfile.SignedFile]) -> None:
    """A player who holds no seat reads a game only through its reveals (they publish the file
    keys): refuse, saying when to come back, rather than failing on the first sealed file."""
    con = read_proposal(files[0])
    # A substitute (pbem.play.handover) takes its seat by importing the game's archive.
    if con.seats_of(session.ident.card()) or handover.follow(con, files).seats_of(session.ident.card()):
        return
    missing = sorted(set(con.seats) - {f.author for f in files if f.kind == "reveal"})
    if missing:
        raise StateError(f"you hold no seat in game {con.game_id.hex()[:12]}: an observer reads it through "
                         f"the players' reveals, and this archive lacks those of {', '.join(missing)}",
                         hint="observers import a game after every reveal is in: ask for the archive again "
                              "once every player has run 'pbem game end'")


def _record_sent(store: GameStore, d: Derived) -> None:
    """Record every file of ours as mailed: an import recovers a game whose files already went
    out (they are in the archive because someone held them), so the first command after it must
    not queue them again. A marker per mail, named as the mail would be (pbem.mail.dispatch),
    in sent/; 'pbem resend' still sends one again on request."""
    gid = store.game_id.hex()[:12]
    stamp = b"X-Pbem-Note: recorded as sent by 'pbem archive import'; no mail was sent from this home\n\n"
    for sf in store.files():
        if sf.author not in d.my_seats:
            continue
        base = f"{gid}-{sf.seq:06d}-{sf.kind}-{sf.author}.pbem"  # pbem.play.game.outbox_name
        for seat, held in d.con.players().items():
            if sf.author not in held:
                atomic_write(store.sent_dir / f"{base}.{seat}.imported.eml", stamp, mode=0o600)


def from_files(blobs: list[bytes], on_error: Callable[[int, PbemError], None] | None = None
               ) -> dict[bytes, bytes]:
    """Group loose pbem files (from a mailbox, say) into one archive per game.

    Files are ordered as the store orders them: the proposal, the joins, turns
    by sequence number, reveals. Duplicates are dropped; which file is genuine
    is for ``import_archive`` to check. With ``on_error``, a file that is not a
    well-formed pbem file is reported (its index, the error) and left out, so
    that one stranger's mail cannot stop the recovery of the other games.
    """
    by_game: dict[bytes, dict[bytes, turnfile.SignedFile]] = {}
    for i, b in enumerate(blobs):
        try:
            f = turnfile.parse(b)
        except PbemError as e:
            if on_error is None:
                raise
            on_error(i, e)
            continue
        by_game.setdefault(f.game, {})[f.raw] = f
    order = {"proposal": 0, "join": 1, "turn": 2, "handover": 2, "reveal": 3}
    out = {}
    for game, files in by_game.items():
        ordered = sorted(files.values(), key=lambda f: (f.seq, order[f.kind], f.author))
        if on_error is not None:
            ordered = _one_proposal(ordered, lambda f: on_error(blobs.index(f.raw), _foreign(f)))
        p = next((f for f in ordered if f.kind == "proposal"), None)
        out[game] = MAGIC + canonical.encode({
            "game": game, "rules": p.header.get("rules", "") if p else "",
            "scenario": p.header.get("scenario", "") if p else "", "files": [f.raw for f in ordered]})
    return out


def _foreign(f: turnfile.SignedFile) -> PbemError:
    return InvalidInput(f"a second proposal for game {f.game.hex()[:12]}, by seat {f.author}, "
                        "which the game's other files do not follow",
                        hint="anyone who saw the game id can write such a file; it was left out")


def _one_proposal(files: list[turnfile.SignedFile], drop: Callable[[turnfile.SignedFile], None]
                  ) -> list[turnfile.SignedFile]:
    """Keep the proposal that the most other files are signed under; drop the other proposals.

    The game id travels in the clear, so a stranger can sign a proposal of
    their own for it; without this, that one file would stop the recovery.
    """
    proposals = [f for f in files if f.kind == "proposal"]
    if len(proposals) < 2:
        return files

    def support(p: turnfile.SignedFile) -> int:
        try:
            cards = read_proposal(p).cards
        except PbemError:
            return -1
        n = 0
        for f in files:
            if f.kind != "proposal" and f.author in cards and (f.kind != "join" or f.prev == p.hash):
                try:
                    f.verify_signature(cards[f.author].signing_key)
                    n += 1
                except PbemError:
                    pass
        return n

    best = max(proposals, key=support)
    for p in proposals:
        if p is not best:
            drop(p)
    return [f for f in files if f.kind != "proposal" or f is best]
