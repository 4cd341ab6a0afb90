"""What `pbem status` shows of a game, kept beside its cache so that status reads no game state.

``<game>/glance.json`` holds the line's facts (rules, scenario, seats and sides, the file
number, the pending seat and phase, the result of a game over, since when a move is awaited)
under the same key as cache.bin: the names of the game's files and the hash of the last one
(pbem.play.game writes both). Reading it needs only the standard library: the command's
fast path (pbem.cli.quick) imports no game layer, rules, click or jinja2 (issue 11). A glance
whose key does not match the files is stale, and status takes the full path.

Everything here works on names and bytes, so the store and the game layer call the same
definitions (the file name grammar, the cache key, what repair and the mail check look for).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
from typing import Any

# The seat part follows pbem.formats.names: a file named otherwise is not one of ours and is ignored.
NAME_RE = re.compile(r"^(\d{6})-(proposal|join|turn|reveal|handover)-([a-z][a-z0-9-]{0,31})\.pbem$")
KIND_ORDER = {"proposal": 0, "join": 1, "turn": 2, "handover": 2, "reveal": 3}
GLANCE = "glance.json"
VERSION = 1
# pbem.protocol.turnfile.FILE_HASH (tests/test_speed_structure.py checks that they agree).
FILE_HASH_LABEL = "pbem/v1/file-hash"
CACHE_KEY_LABEL = "pbem/v1/cache-key"


def _lhash(label: str, *parts: bytes) -> bytes:
    """pbem.formats.hashing.lhash for byte parts, without importing the formats package."""
    h = hashlib.sha256(struct.pack(">I", len(label)) + label.encode("ascii"))
    for p in parts:
        h.update(struct.pack(">I", len(p)) + p)
    return h.digest()


def file_names(files_dir: str) -> list[tuple[int, str, str, str]]:
    """(seq, kind, author, name) of the game's files, in the game's order."""
    out = []
    try:
        entries = os.listdir(files_dir)
    except OSError:
        return []
    for name in entries:
        m = NAME_RE.match(name)
        if m:
            out.append((int(m.group(1)), m.group(2), m.group(3), name))
    out.sort(key=lambda f: (f[0], KIND_ORDER[f[1]], f[2]))
    return out


def cache_key(names: list[str], last: bytes | None) -> bytes:
    """The key of cache.bin and of the glance: every file's name, and the hash of the last file."""
    tail = [] if last is None else [_lhash(FILE_HASH_LABEL, last)]
    return _lhash(CACHE_KEY_LABEL, *[n.encode("utf-8") for n in names], *tail)


def own_name(game_hex: str, seq: int, kind: str, author: str) -> str:
    """The outbox name of a game file (pbem.play.game.outbox_name), from its stored name's parts."""
    return f"{game_hex[:12]}-{seq:06d}-{kind}-{author}.pbem"


def queued_or_sent(name: str, sent: set[str], queued: set[str]) -> bool:
    return name in sent or name in queued or any(n.startswith(name) for n in sent)


def answered(seq: int, kind: str, held: list[str] | tuple[str, ...],
             files: list[tuple[int, str, str, str]]) -> bool:
    """Whether the player holding ``held`` has plainly had file ``seq``: it wrote a later file (or
    joined, for the proposal). A mail of ours that never left is then not worth sending: an
    import or a game begun outside the mail must not flood the others with files they have."""
    return any(a in held and (s > seq or (kind == "proposal" and k == "join")) for s, k, a, _ in files)


def missing_mails(game_hex: str, files: list[tuple[int, str, str, str]], my_seats: list[str] | tuple[str, ...],
                  players: dict[str, list[str]], mails: set[str]) -> list[tuple[str, list[str]]]:
    """Files of ours (stored name) with the players (by first seat) whose mail (.eml in outbox/ or
    sent/) is neither queued nor sent, skipping players that plainly had the file (``answered``)."""
    out = []
    for seq, kind, author, name in files:
        if author in my_seats:
            base = own_name(game_hex, seq, kind, author)
            missing = [s for s, held in players.items() if author not in held
                       and not answered(seq, kind, held, files)
                       and not any(n.startswith(f"{base}.{s}.") for n in mails)]
            if missing:
                out.append((name, missing))
    return out


def missing_mail(game_hex: str, files: list[tuple[int, str, str, str]], my_seats: list[str] | tuple[str, ...],
                 players: dict[str, list[str]], mails: set[str]) -> bool:
    """Whether a file of ours lacks its mail to some player (``missing_mails``)."""
    return bool(missing_mails(game_hex, files, my_seats, players, mails))


def _names(folder: str) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()


def read(root: str) -> dict[str, Any] | None:
    """The game's glance when it is current and status has nothing to repair or mail; else None.

    Read-only: whatever would make status write (an interrupted write to remove, a file of ours
    to re-queue, a mail to queue) or replay (a stale cache, a reveal) answers None, and the
    caller takes the full path, which does it.
    """
    files = file_names(os.path.join(root, "files"))
    if (not files or files[0][1] != "proposal" or any(f[1] == "reveal" for f in files)
            or not os.path.isfile(os.path.join(root, "cache.bin"))):  # deleted to force a rebuild
        return None
    try:
        with open(os.path.join(root, GLANCE), "rb") as fh:
            g = json.loads(fh.read())
        with open(os.path.join(root, "files", files[-1][3]), "rb") as fh:
            last = fh.read()
    except (OSError, ValueError):
        return None
    if (not isinstance(g, dict) or g.get("v") != VERSION
            or g.get("key") != cache_key([f[3] for f in files], last).hex()):
        return None
    outbox, sent = _names(os.path.join(root, "outbox")), _names(os.path.join(root, "sent"))
    for folder in (root, os.path.join(root, "files"), os.path.join(root, "outbox")):
        if any(n.startswith(".tmp-") for n in _names(folder)):
            return None
    game_hex = os.path.basename(root)
    mine = [f for f in files if f[2] in g["my_seats"]]
    if any(not queued_or_sent(own_name(game_hex, *f[:3]), sent, outbox) for f in mine):
        return None
    mails = {n for n in outbox | sent if n.endswith(".eml")}
    if missing_mail(game_hex, files, g["my_seats"], g["players"], mails):
        return None
    return g


def encode(key: bytes, facts: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, "key": key.hex(), **facts}, sort_keys=True,
                      ensure_ascii=False).encode("utf-8")
