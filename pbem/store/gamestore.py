"""The game store: one folder per game, every file kept in order.

Layout of ``<data>/games/<game id hex>/``::

    files/000000-proposal-<seat>.pbem   the host's proposal
    files/000000-join-<seat>.pbem       each player's countersignature
    files/000001-turn-<seat>.pbem       turn files, one per sequence number
    files/NNNNNN-reveal-<seat>.pbem     end-of-game reveals
    evidence/                           conflicting files kept as proof (equivocation)
    outbox/                             files this player produced, to be sent
    cache.bin                           public derived state; deleted or stale -> rebuilt from files/
    log.bin                             the event log (one entry per turn file), appended to as the
                                        game goes; cache.bin says how much of it is current
    glance.json                         what `pbem status` shows, under the cache's key (pbem.store.glance)
    cache-private.age                   this player's secrets (private state, openings, secret
                                        rolls), age-encrypted to its own key, never in cache.bin

Files are the truth; the cache only saves replaying the game on every command.
Every write is atomic (pbem.store.fsutil), so a crash leaves the store consistent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import AmbiguousOrder, EncodingError, InvalidInput, NotFound
from pbem.formats import canonical
from pbem.formats.names import check_seat
from pbem.store import glance, oslock
from pbem.store.fsutil import atomic_write, make_dirs
from pbem.store.glance import GLANCE, NAME_RE
from pbem.store.paths import Home, safe_join

KINDS = ("proposal", "join", "turn", "reveal", "handover")
# 2: the secrets moved out of cache.bin into cache-private.age; a version-1
# cache (secrets in clear) is ignored and replaced by the next write.
# 3: the event log moved out of cache.bin into log.bin (cache.bin names its length).
CACHE_VERSION = 3
_FRAME = 4  # log.bin: each entry's canonical bytes after their length, 4 bytes big-endian


@dataclass(frozen=True)
class StoredFile:
    seq: int
    kind: str
    author: str
    path: Path

    def read(self) -> bytes:
        return self.path.read_bytes()


def file_name(seq: int, kind: str, author: str) -> str:
    """The name of a game file, built only from checked values."""
    if kind not in KINDS or not 0 <= seq <= 999_999:
        raise InvalidInput(f"no file name for a {kind!r} file with sequence number {seq}",
                           hint="a game holds at most 999,999 files; the file was not written by a genuine pbem")
    return f"{seq:06d}-{kind}-{check_seat(author)}.pbem"


class GameStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def game_id(self) -> bytes:
        return bytes.fromhex(self.root.name)

    @property
    def files_dir(self) -> Path:
        return self.root / "files"

    @property
    def evidence_dir(self) -> Path:
        return self.root / "evidence"

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    @property
    def cache_path(self) -> Path:
        return self.root / "cache.bin"

    @property
    def glance_path(self) -> Path:
        return self.root / GLANCE

    @property
    def private_cache_path(self) -> Path:
        return self.root / "cache-private.age"

    def exists(self) -> bool:
        return self.files_dir.is_dir()

    def files(self) -> list[StoredFile]:
        out: list[StoredFile] = []
        if not self.files_dir.is_dir():
            return out
        for p in self.files_dir.iterdir():
            m = NAME_RE.match(p.name)
            if m:
                out.append(StoredFile(int(m.group(1)), m.group(2), m.group(3), p))
        out.sort(key=lambda f: (f.seq, glance.KIND_ORDER[f.kind], f.author))
        return out

    def find(self, seq: int, kind: str, author: str | None = None) -> list[StoredFile]:
        return [f for f in self.files() if f.seq == seq and f.kind == kind
                and (author is None or f.author == author)]

    def add(self, seq: int, kind: str, author: str, data: bytes) -> Path:
        path = safe_join(self.files_dir, file_name(seq, kind, author))
        atomic_write(path, data, exclusive=True)
        return path

    def add_evidence(self, name: str, data: bytes) -> Path:
        path = safe_join(self.evidence_dir, name)
        if not path.exists():
            atomic_write(path, data)
        return path

    def put_outbox(self, name: str, data: bytes) -> Path:
        path = safe_join(self.outbox, name)
        atomic_write(path, data)
        return path

    @property
    def sent_dir(self) -> Path:
        return self.root / "sent"

    def mail_names(self) -> set[str]:
        """The names of the .eml files queued (outbox/) or sent (sent/) for this game."""
        have: set[str] = set()
        for folder in (self.outbox, self.sent_dir):
            if folder.is_dir():
                have |= {p.name for p in folder.glob("*.eml")}
        return have

    def repair(self, my_seat: str | None, outbox_name: Any) -> list[str]:
        """Finish what a killed pbem left half-done; returns what was repaired.

        A file is committed once it is in files/; copying it to outbox/ comes
        second. A crash in between would leave a produced file that never gets
        sent, so every file of ours in files/ that is neither in outbox/ nor in
        sent/ is put back in the outbox. Temp files of interrupted atomic
        writes are removed (a per-home lock keeps two pbem runs apart).
        """
        done: list[str] = []
        for folder in (self.files_dir, self.outbox, self.root):
            if folder.is_dir():
                for p in folder.glob(".tmp-*"):
                    p.unlink(missing_ok=True)
                    done.append(f"removed interrupted write {p.name}")
        if my_seat is None:
            return done
        sent = {p.name for p in self.sent_dir.iterdir()} if self.sent_dir.is_dir() else set()
        queued = {p.name for p in self.outbox.iterdir()} if self.outbox.is_dir() else set()
        for sf in self.files():
            if sf.author != my_seat or self._queued_or_sent(sf, sent, queued):
                continue
            data = sf.read()
            name = outbox_name(data)
            if name not in sent and name not in queued and not any(n.startswith(name) for n in sent):
                self.put_outbox(name, data)
                done.append(f"re-queued {name} for sending")
        return done

    def _queued_or_sent(self, sf: StoredFile, sent: set[str], queued: set[str]) -> bool:
        """The common case told from names alone: every `play` repairs, and reading each of
        our files to name it cost a read per file of the game (the name's form is
        pbem.play.game.outbox_name; a file not found so is read and named by it)."""
        return glance.queued_or_sent(glance.own_name(self.root.name, sf.seq, sf.kind, sf.author), sent, queued)

    @property
    def seen_path(self) -> Path:
        return self.root / "seen.txt"

    def seen(self) -> set[str]:
        """The hashes (hex SHA-256) of files this game holds, as the intake recorded them."""
        try:
            return set(self.seen_path.read_text(encoding="ascii").split())
        except (OSError, UnicodeDecodeError):
            return set()

    def add_seen(self, hashes: set[str]) -> None:
        """Remember more held files (rewritten whole, atomically: a crash loses only the memory)."""
        have = self.seen()
        if not hashes <= have:
            atomic_write(self.seen_path, "".join(f"{h}\n" for h in sorted(have | hashes)).encode("ascii"))

    def load_cache(self) -> dict[str, Any] | None:
        try:
            data = self.cache_path.read_bytes()
            m = canonical.expect_map(canonical.decode(data), "cache")
        except (OSError, EncodingError):
            return None
        if m.get("cache_version") != CACHE_VERSION:
            return None
        return m

    @property
    def log_path(self) -> Path:
        return self.root / "log.bin"

    def write_log(self, entries: list[dict[str, Any]]) -> int:
        """Rewrite the event log whole (atomically); returns its length in bytes."""
        data = b"".join(_frame(e) for e in entries)
        atomic_write(self.log_path, data)
        return len(data)

    def append_log(self, entries: list[dict[str, Any]], at: int) -> int:
        """Add entries after the first ``at`` bytes of the log; returns its new length.

        Whatever lies past ``at`` (entries of a command killed before it wrote cache.bin,
        which names the current length) is cut first. The bytes before ``at`` are never
        touched: a crash leaves the log that cache.bin names intact.
        """
        if self.log_size() < at:
            raise EncodingError(f"{self.log_path} is shorter than its cache says")
        data = b"".join(_frame(e) for e in entries)
        fd = os.open(self.log_path, os.O_RDWR | getattr(os, "O_BINARY", 0))
        try:
            os.ftruncate(fd, at)
            os.lseek(fd, at, os.SEEK_SET)
            view = memoryview(data)
            while view:  # no fsync: a log lost to a power cut fails its check and is replayed
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        return at + len(data)

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return -1

    def read_log(self, n: int, end: int) -> list[dict[str, Any]] | None:
        """The first ``n`` entries of the log, which end at byte ``end``; None if it does not hold them."""
        try:
            with open(self.log_path, "rb") as fh:
                data = fh.read(end)
        except OSError:
            return None
        out: list[dict[str, Any]] = []
        at = 0
        try:
            while at < len(data):
                size = int.from_bytes(data[at:at + _FRAME], "big")
                out.append(canonical.expect_map(canonical.decode(data[at + _FRAME:at + _FRAME + size]), "log"))
                at += _FRAME + size
        except (EncodingError, ValueError):
            return None
        return out if at == end and len(out) == n else None

    def load_private_cache(self) -> bytes | None:
        """The sealed secrets cache (opened by pbem.play.game, which holds the key), or None."""
        try:
            return self.private_cache_path.read_bytes()
        except OSError:
            return None

    def save_cache(self, state: dict[str, Any], sealed_private: bytes | None = None,
                   glance_data: bytes | None = None) -> None:
        """Write the public cache and, for a seated player, its sealed secrets; and status's glance.

        All carry the same key (pbem.play.game), so a crash between the writes
        leaves a set that does not match and is rebuilt from the files.
        """
        if glance_data is None:
            self.glance_path.unlink(missing_ok=True)
        else:
            atomic_write(self.glance_path, glance_data, durable=False)
        if sealed_private is None:
            self.private_cache_path.unlink(missing_ok=True)
        else:
            atomic_write(self.private_cache_path, sealed_private)
        atomic_write(self.cache_path, canonical.encode({**state, "cache_version": CACHE_VERSION}))


def _frame(entry: dict[str, Any]) -> bytes:
    data = canonical.encode(entry)
    return len(data).to_bytes(_FRAME, "big") + data


class HomeLock:
    """One pbem at a time per home: an exclusive lock on <data>/.lock.

    Two runs interleaving their writes could each pass their checks against
    the same old state; the lock serializes them. It is the platform's own
    file lock (pbem.store.oslock: flock, or LockFile on Windows), which the
    operating system releases when the process dies, so a killed pbem never
    leaves it held. A second pbem waits for the first; ``on_wait`` is told
    once, before the wait, so a player is never left before a silent prompt.
    """

    def __init__(self, home: Home, on_wait: Callable[[Path], None] | None = None) -> None:
        self.path = home.data / ".lock"
        self.on_wait = on_wait
        self.fd: int | None = None

    def __enter__(self) -> HomeLock:
        make_dirs(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not oslock.try_lock(fd):
                if self.on_wait is not None:
                    self.on_wait(self.path)
                oslock.wait_lock(fd)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            try:
                # Windows frees a lock still held at close only when it gets round to it.
                oslock.unlock(self.fd)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None


def game_dir(home: Home, game_id: bytes) -> GameStore:
    return GameStore(home.games / game_id.hex())


def all_games(home: Home) -> list[GameStore]:
    if not home.games.is_dir():
        return []
    return [GameStore(p) for p in sorted(home.games.iterdir())
            if p.is_dir() and re.fullmatch(r"[0-9a-f]{32}", p.name)]


def find_game(home: Home, ref: str) -> GameStore:
    """A game by its id or any unique prefix of it (as git names commits)."""
    ref = ref.lower().strip()
    matches = [g for g in all_games(home) if g.root.name.startswith(ref)] if ref else []
    if not matches:
        raise NotFound(f"no game {ref!r} in {home.games}")
    if len(matches) > 1:
        raise AmbiguousOrder(f"{ref!r} matches {len(matches)} games",
                             hint="give more characters of the game id")
    return matches[0]
