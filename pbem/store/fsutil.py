"""Atomic file writes.

A turn file, identity or cache is written to a temporary file in the same
folder, flushed to disk, then renamed over the target: a crash (or SIGKILL)
leaves either the old file or the new one, never a torn one. The folder is
fsynced too, where the platform can (POSIX), so the rename itself survives a
power cut; NTFS journals its renames and Windows cannot open a folder for
fsync at all.

Everything pbem writes is the player's alone: files are created 0600 and
folders 0700, set with chmod after creation so that the umask cannot widen
them. On Windows chmod only toggles the read-only flag, and 0600/0700 leave
it off: what keeps the files private there is the ACL they inherit from the
user's profile folder (docs/protocol.md section 12).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable where the platform has a way; never fails."""
    if sys.platform == "win32":
        return  # a folder cannot be opened as a file there; NTFS journals the rename
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems (network, FUSE) refuse fsync on a folder
    finally:
        os.close(fd)


FILE_MODE = 0o600
DIR_MODE = 0o700


def make_dirs(path: Path) -> None:
    """``mkdir -p`` whose new folders are 0700 whatever the umask; existing folders are left as they are."""
    missing: list[Path] = []
    p = path
    while not p.is_dir():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, DIR_MODE)
        except FileExistsError:
            if not d.is_dir():
                raise
            continue  # made by someone else meanwhile: not ours to chmod
        os.chmod(d, DIR_MODE)


def atomic_write(path: Path, data: bytes, *, mode: int = FILE_MODE, exclusive: bool = False,
                 durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically; with ``exclusive`` refuse to replace an existing file.

    ``durable=False``: no fsync, for what is checked on every read and made again when it does
    not check out (the status glance, the map's static layer): a crash or power cut may lose
    it, never tear it into something taken for valid.
    """
    make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if exclusive:
            _install_new(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        fsync_dir(path.parent)


def _install_new(tmp: str, path: Path) -> None:
    """Rename ``tmp`` to ``path`` unless ``path`` exists (FileExistsError): two writers cannot both win."""
    if sys.platform == "win32":
        os.rename(tmp, path)  # refuses an existing target there, atomically, with no hard link needed
        return
    os.link(tmp, path)  # POSIX rename() would replace; link() fails if the target exists
    os.unlink(tmp)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (tests compare these before and after)."""
    out: dict[str, bytes] = {}
    if not root.exists():
        return out
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out[str(p.relative_to(root))] = p.read_bytes()
    return out
