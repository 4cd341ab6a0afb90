"""The warm worker: while a home's key agent runs, its commands start in a process that has
already imported pbem.

Issue 11 asks `play` to take ten times a bare interpreter's start and `receive` four; the
imports alone (click, jinja2, Pillow, cryptography, the game layer, a rules module and its
scenario) take more than that. `pbem agent start` therefore also starts a *warm worker*
for the home: a fresh interpreter (never a fork of the agent: it must not hold the
identity) that imports what the commands need, asks each rules module to load its
scenarios (``RulesModule.warm``), and waits on a Unix socket beside the agent's. A later
`pbem play`, `receive`, `show`, `status`, `orders`, `verify`, `resend` or `inspect` of that
home is sent there by the client below (standard library only, run before click is
imported): it passes its argument list, working folder, environment, umask and its
standard input, output and error (the descriptors themselves, SCM_RIGHTS); the worker
forks, the child takes them over and runs the command exactly as the command line would,
and the client waits for its exit status, forwarding Ctrl-C and termination signals to
it. Output, files and exit codes are the same (tests/test_warm.py compares them).

What keeps it safe and correct:

- The socket is 0600 in the agent's private folder (0700, the user's own, checked by both
  ends), and on Linux every connection's peer user id is checked: only the user's own
  processes reach it, and they could run pbem themselves anyway. The worker holds no
  secret: signing and decryption still go through the agent.
- Each command runs in a new fork, so nothing it does outlives it; the worker itself only
  imports and loads scenarios.
- Code changed since the worker started (any file of pbem, the rules modules, their
  scenarios and templates: sizes and modification times) makes it refuse and stop, and
  the client runs the command itself; so does any failure before the command starts.
- It stops with the agent (`pbem lock`, or the agent's idle timeout: the worker checks
  that the agent's socket is still there), and after the same idle time.
- A prompt (a passphrase, a mail password, `orders prompt`) reads the client's terminal
  through the passed standard input, with echo off as usual: the worker has no
  controlling terminal, so getpass falls back to standard input's terminal settings.

``PBEM_NO_WARM=1`` makes a command run in its own process. Windows (no fork, no
descriptor passing) never uses it.
"""

from __future__ import annotations

import _socket
import json
import os
import struct
import sys
from pathlib import Path

# The client runs before anything else of pbem: _socket and _signal, not socket and signal,
# whose enum classes cost a fifth of the client's start (the server side uses socket).

COMMANDS = frozenset({"play", "receive", "show", "status", "orders", "verify", "resend", "inspect"})
MAX_REQUEST = 1 << 20  # argv and environment; a real one is a few KB
CPU_LOG = "PBEM_WARM_CPU_LOG"  # bench/bench_cli.py: where the client writes the child's CPU seconds


def supported() -> bool:
    return sys.platform != "win32" and hasattr(_socket, "AF_UNIX") and hasattr(_socket, "SCM_RIGHTS") \
        and hasattr(os, "fork")


# --- the client (standard library only) --------------------------------------------------------

def run(argv: list[str]) -> int | None:
    """Run ``argv`` in the home's warm worker; its exit status, or None: run it here instead."""
    if sys.platform == "win32" or not supported() or os.environ.get("PBEM_NO_WARM"):
        return None
    config = _home_config(argv)
    if config is None:
        return None
    try:
        from pbem.protocol import agentpath

        path = agentpath.socket_path(config, ".warm")
        if (not agentpath.private_dir(path.parent, create=False) or not path.exists()
                or not agentpath.socket_path(config).exists()):
            return None  # no worker, or the agent locked (the worker stops within a second)
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except Exception:  # noqa: BLE001 - any doubt: the command runs in this process, as without a worker
        return None
    try:
        pid = _start(sock, path, argv)
        if pid is None:
            return None
        if pid < 0:
            # Never run a second time here: the worker may be running it already.
            sys.stderr.write("pbem: error: the warm worker took the command but did not answer\n"
                             "pbem: hint: check with 'pbem status' before running it again; "
                             "'pbem lock' stops the worker, PBEM_NO_WARM=1 avoids it\n")
            return 1
        return _wait(sock, pid)
    finally:
        sock.close()


def _home_config(argv: list[str]) -> str | None:
    from pbem.cli import quick
    from pbem.cli.commands import hoist_global_options

    args = hoist_global_options(argv)
    i = 0
    while i < len(args) and args[i].startswith("--") and args[i] != "--":
        i += 1 if "=" in args[i] else 2
    if i >= len(args) or args[i] not in COMMANDS:
        return None
    opts = quick.global_options(args[:i])
    if opts is None:
        return None  # --passphrase-file, or anything unusual: the full path reads it
    found = quick.home_folders(opts)
    return None if found is None else found[0]


def _start(sock: _socket.socket, path: Path, argv: list[str]) -> int | None:
    """Send the request and the three standard descriptors: the child's pid, None when nothing ran
    (no worker, or it refused), -1 when the request went out but no answer came back."""
    if sys.platform == "win32":
        return None
    try:
        sock.settimeout(5.0)
        sock.connect(str(path))
        mask = os.umask(0o077)
        os.umask(mask)
        req = _request(argv, mask)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        import array

        sock.sendmsg([struct.pack(">I", len(req)) + req],
                     [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
    except Exception:  # noqa: BLE001 - nothing was sent: the command runs here instead
        return None
    try:
        sock.settimeout(60.0)  # the worker answers at once; this is for a machine under load
        rep = _reply(sock)
    except Exception:  # noqa: BLE001 - the request is out: the command may have started
        return -1
    if "refused" in rep:
        return None  # refused before anything ran: the command runs here instead
    pid = rep.get("pid")
    return pid if isinstance(pid, int) and pid > 0 else -1


def _request(argv: list[str], mask: int) -> bytes:
    # Arguments and environment may hold bytes that are not UTF-8 (surrogate-escaped, as
    # Python decodes them): sent as the bytes the system gave.
    def raw(s: str) -> str:
        return os.fsencode(s).hex()

    return json.dumps({
        "argv": [raw(a) for a in argv],
        "cwd": raw(os.getcwd()),
        "env": {raw(k): raw(v) for k, v in os.environ.items()},
        "umask": mask,
        # How this interpreter decoded and encoded its standard streams, for the child's.
        "streams": [[getattr(s, "encoding", None) or "utf-8", getattr(s, "errors", None) or "strict"]
                    for s in (sys.stdin, sys.stdout, sys.stderr)],
    }).encode("ascii")


def _reply(sock: _socket.socket) -> dict[str, object]:
    head = _exact(sock, 4)
    (n,) = struct.unpack(">I", head)
    if n > 4096:
        raise ValueError("warm worker reply too long")
    rep = json.loads(_exact(sock, n))
    if not isinstance(rep, dict):
        raise ValueError("warm worker reply is not a map")
    return rep


def _exact(sock: _socket.socket, n: int) -> bytes:
    from pbem.protocol import agentpath

    return agentpath.recv_exact(sock, n)


def _wait(sock: _socket.socket, pid: int) -> int:
    """The child runs: forward signals to it until the worker reports its exit status."""
    if sys.platform == "win32":
        return 1
    import _signal  # type: ignore[import-not-found]  # signal's enum classes, without them

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for sig in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP):
        _signal.signal(sig, forward)
    sock.settimeout(None)
    try:
        rep = _reply(sock)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"pbem: error: the warm worker stopped before the command ended ({e})\n"
                         "pbem: hint: check with 'pbem status' before running it again; "
                         "'pbem lock' stops the worker, PBEM_NO_WARM=1 avoids it\n")
        return 1
    code = rep.get("exit")
    log = os.environ.get(CPU_LOG)
    if log:
        with open(log, "a", encoding="ascii") as fh:
            fh.write(f"{rep.get('cpu', 0.0)} {rep.get('rss_kb', 0)}\n")
    return code if isinstance(code, int) else 1


def listening(config: str | Path) -> bool:
    """A warm worker takes connections for this home."""
    sock = _connect(config, 2.0)
    if sock is None:
        return False
    sock.close()
    return True


def stop(config: str | Path) -> bool:
    """Ask the home's warm worker to stop taking commands (`pbem lock`); False if none answered."""
    sock = _connect(config, 5.0)
    if sock is None:
        return False
    try:
        req = json.dumps({"op": "stop"}).encode()
        sock.sendall(struct.pack(">I", len(req)) + req)
        sock.recv(1)  # the worker closes the connection once it stopped listening
    except OSError:
        return False  # it stops by itself with the agent anyway
    finally:
        sock.close()
    return True


def _connect(config: str | Path, timeout: float) -> _socket.socket | None:
    """A connection to the home's warm worker, or None (none, or a socket left by one that died)."""
    if sys.platform == "win32" or not supported():
        return None
    from pbem.protocol import agentpath

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        path = agentpath.socket_path(config, ".warm")
        if not agentpath.private_dir(path.parent, create=False):
            raise OSError("no private agent folder")
        sock.settimeout(timeout)
        sock.connect(str(path))
    except Exception:  # noqa: BLE001 - no worker to talk to
        sock.close()
        return None
    return sock
