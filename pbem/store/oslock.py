"""An exclusive lock on an open file, with the primitive each platform has.

POSIX (Linux, macOS): ``flock`` on the whole file. Windows: ``msvcrt.locking``
on its first byte (LockFile underneath). Either lock belongs to the open file,
so the operating system drops it when the process ends, however it ends: a
killed pbem never leaves a home locked. No library is needed for this (the
``filelock`` package does the same with far more machinery, and falls back to
a lock file that a crash leaves behind where the primitive is missing).

The branch is chosen by ``sys.platform`` at import, which is also how mypy
(``--platform win32``/``darwin``) checks each side against its own stubs.
"""

from __future__ import annotations

import errno
import os
import sys
import time

if sys.platform == "win32":
    import msvcrt

    def try_lock(fd: int) -> bool:
        """Take the lock if it is free; False if another process holds it."""
        os.lseek(fd, 0, os.SEEK_SET)  # msvcrt locks from the current position
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as e:
            if e.errno in (errno.EACCES, errno.EDEADLOCK):
                return False
            raise
        return True

    def wait_lock(fd: int) -> None:
        """Block until the lock is ours (Windows has no blocking lock that waits for ever)."""
        while not try_lock(fd):
            time.sleep(0.1)

    def unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(fd: int) -> bool:
        """Take the lock if it is free; False if another process holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            # some file systems report contention as EACCES
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    def wait_lock(fd: int) -> None:
        """Block until the lock is ours."""
        fcntl.flock(fd, fcntl.LOCK_EX)

    def unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
