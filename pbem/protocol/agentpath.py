"""Where a home's background processes listen: the key agent and the warm worker.

Standard library only (and pbem.errors): the command line's fast paths find the
warm worker's socket before importing anything else (pbem.cli.warm).
"""

from __future__ import annotations

import _socket
import contextlib
import os
import stat
import sys
from pathlib import Path

from pbem.errors import AuthError

# Not typing.TYPE_CHECKING: this module is on the warm worker's client path, where importing
# typing would cost more than the rest (mypy reads any constant of this name so).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _sha256(data: bytes) -> Any:
    """SHA-256 from the interpreter's built-in module where it has one: hashlib loads OpenSSL,
    a tenth of a warm command's start (pbem.cli.warm); the digest is the same."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def uid() -> int:
    if sys.platform == "win32":
        return 0
    return os.getuid()


def runtime_dir() -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR")
    if not base:
        import tempfile

        base = tempfile.gettempdir()
    return Path(base) / f"pbem-agent-{uid()}"


def socket_path(home_config: Path | str, suffix: str = ".sock") -> Path:
    """The socket of the home whose config folder is ``home_config`` (``.sock``: the key agent,
    ``.warm``: the warm worker).

    Named by a hash of the folder's absolute path: short enough for the 104-108
    bytes a Unix socket path may have, and one of each per home.
    """
    key = _sha256(os.path.realpath(home_config).encode()).hexdigest()[:20]
    return runtime_dir() / f"{key}{suffix}"


def private_dir(path: Path, create: bool) -> bool:
    """``path`` exists as a directory of this user's, mode 0700 (created so when ``create``)."""
    if create:
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid() or st.st_mode & 0o077:
        # Another user's folder (or a link) in a shared /tmp: never trust a socket in it.
        raise AuthError(f"the agent folder {path} is not a private folder of yours",
                        hint="remove it, or set XDG_RUNTIME_DIR to a folder only you can enter")
    return True


def recv_exact(sock: _socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes from a stream socket (the agent's and the warm worker's framing)."""
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("the connection closed mid-message")
        out += chunk
    return out
