"""Atomic file writes.

A turn file, identity or cache is written to a temporary file in the same
folder, flushed to disk, then renamed over the target: a crash (or SIGKILL)
leaves either the old file or the new one, never a torn one. The folder is
fsynced too, so the rename itself survives a power cut.

Everything pbem writes is the player's alone: files are created 0600 and
folders 0700, set with chmod after creation so that the umask cannot widen
them. (On Windows chmod only toggles read-only; the modes mean nothing there
and are harmless.)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
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


def atomic_write(path: Path, data: bytes, *, mode: int = FILE_MODE, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` atomically; with ``exclusive`` refuse to replace an existing file."""
    make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if exclusive:
            # link() fails if the target exists, so two writers cannot both win.
            os.link(tmp, path)
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (tests compare these before and after)."""
    out: dict[str, bytes] = {}
    if not root.exists():
        return out
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out[str(p.relative_to(root))] = p.read_bytes()
    return out
