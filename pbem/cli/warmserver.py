"""The warm worker itself: preload, then fork a child per command (pbem.cli.warm explains why).

Started by `pbem agent start` as ``python -m pbem.cli.warmserver --config DIR --idle S``
in a new session, without a terminal and without PBEM_PASSPHRASE.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import select
import signal
import socket
import struct
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from pbem.cli import warm
from pbem.protocol import agentpath

# POSIX only (fork, descriptor passing): pbem.cli.warm.supported() is checked before import.
assert sys.platform != "win32"

# The environment that decides what the preloaded code is: a client that differs runs cold.
SHAPING = ("PBEM_RULES_MODULES", "PBEM_SCENARIOS", "PBEM_TEMPLATES", "PYTHONPATH")


def preload() -> None:
    """Import what the warm commands use, and let each rules module load its scenarios."""
    from pbem.cli.commands import COMMANDS

    for module, _ in sorted(set(COMMANDS.values())):
        importlib.import_module(module)
    for module in ("pbem.play.game", "pbem.play.lookahead", "pbem.play.intake", "pbem.mail.dispatch",
                   "pbem.mail.receive", "pbem.present.render", "pbem.present.raster", "pbem.present.summary",
                   "pbem.play.archive", "pbem.protocol.keyagent", "PIL.PngImagePlugin"):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    from PIL import Image

    Image.preinit()
    from pbem import rulesapi

    for name in rulesapi.available():
        with contextlib.suppress(Exception):  # a broken module fails in the command, as it would cold
            rulesapi.get(name).warm()


def _roots() -> list[Path]:
    """The folders whose files the preloaded code came from."""
    import pbem
    from pbem import rulesapi
    from pbem.kit.share import find_shared
    from pbem.present.render import templates_dir

    roots = [Path(pbem.__file__).parent]
    for name in rulesapi.available():  # each game's package (its code and tables)
        with contextlib.suppress(Exception):
            module = sys.modules[type(rulesapi.get(name)).__module__]
            if module.__file__:
                roots.append(Path(module.__file__).parent)
    roots.append(templates_dir())
    roots.append(find_shared("scenarios"))
    return [r for r in roots if r.is_dir()]


def stamp(roots: list[Path]) -> int:
    """A hash of every file's name, size and modification time under ``roots``."""
    items = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                with contextlib.suppress(OSError):
                    st = os.stat(os.path.join(folder, f))
                    items.append((folder, f, st.st_size, st.st_mtime_ns))
    return hash(tuple(sorted(items)))


def _identity() -> dict[str, Any]:
    import pbem

    return {"code": os.path.realpath(os.path.dirname(pbem.__file__)),
            "python": os.path.realpath(sys.executable),
            "shaping": {k: os.environ.get(k, "") for k in SHAPING}}


class Server:
    def __init__(self, config: Path, idle: float) -> None:
        self.path = agentpath.socket_path(config, ".warm")
        self.agent = agentpath.socket_path(config)
        self.idle = idle
        self.children: dict[int, socket.socket] = {}
        self.spent: dict[int, float] = {}
        self.roots = _roots()
        self.stamp = stamp(self.roots)
        self.me = _identity()
        self.srv: socket.socket | None = None

    def serve(self, ready: Any = None) -> None:
        agentpath.private_dir(self.path.parent, create=True)
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        old = os.umask(0o177)
        try:
            srv.bind(str(self.path))
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        srv.listen(16)
        self.srv = srv
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        if ready is not None:
            ready()
        try:
            self._loop(wake_r, wake_w)
        finally:
            self._close()
            os.close(wake_r)
            os.close(wake_w)

    def _close(self) -> None:
        if self.srv is not None:
            self.srv.close()
            self.srv = None
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    def _loop(self, wake_r: int, wake_w: int) -> None:
        last = time.monotonic()
        while True:
            if self.srv is not None and (time.monotonic() - last > self.idle or not self.agent.exists()):
                self._close()  # the agent locked: no new command here, the running ones finish
            if self.srv is None and not self.children:
                return
            watch = [wake_r] + ([self.srv] if self.srv is not None else [])
            ready, _, _ = select.select(watch, [], [], 1.0)
            if wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 4096)
                self._reap()
            if self.srv is not None and self.srv in ready:
                conn, _ = self.srv.accept()
                last = time.monotonic()
                self._accept(conn, (wake_r, wake_w))

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            spent = self.spent.pop(pid, 0.0)
            if conn is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            with conn, contextlib.suppress(OSError):
                _send(conn, {"exit": code if code >= 0 else 128 - code, "cpu": usage.ru_utime + usage.ru_stime + spent,
                             "rss_kb": usage.ru_maxrss})

    def _accept(self, conn: socket.socket, wake: tuple[int, int]) -> None:
        # The worker's own CPU for this request (receiving it, the freshness check) is reported
        # with the child's: a command's cost is all of it (bench/bench_cli.py adds it up).
        started = time.process_time()
        fds: list[int] = []
        try:
            conn.settimeout(5.0)
            if not _peer_is_me(conn):
                conn.close()
                return
            req, fds = _receive(conn)
            if req.get("op") == "stop":
                for fd in fds:
                    os.close(fd)
                conn.close()
                self._close()
                return
            refusal = self._refusal(req, fds)
            if refusal:
                with contextlib.suppress(OSError):
                    _send(conn, {"refused": refusal})
                for fd in fds:
                    os.close(fd)
                conn.close()
                if refusal == "stale":
                    self._close()
                return
        except (OSError, ValueError, KeyError, TypeError):
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            conn.close()
            return
        pid = os.fork()
        if pid == 0:  # the child keeps no socket of the worker's: not its own, not others' commands'
            _child(req, fds, [conn, *self.children.values(), *([self.srv] if self.srv else [])], wake)
        for fd in fds:
            os.close(fd)
        try:
            _send(conn, {"pid": pid})
        except OSError:
            # The client is gone before it could learn the pid: it will run cold; stop this one.
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        self.children[pid] = conn
        self.spent[pid] = time.process_time() - started

    def _refusal(self, req: dict[str, Any], fds: list[int]) -> str:
        if len(fds) != 3:
            return "three descriptors expected"
        if stamp(self.roots) != self.stamp:
            return "stale"
        env = _env(req)
        if {k: env.get(k, "") for k in SHAPING} != self.me["shaping"]:
            return "environment"
        return ""


def _peer_is_me(conn: socket.socket) -> bool:
    if not sys.platform.startswith("linux"):
        return True  # the 0700 folder is the guard where SO_PEERCRED is missing
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return bool(uid == agentpath.uid())


def _send(conn: socket.socket, msg: dict[str, Any]) -> None:
    data = json.dumps(msg).encode()
    conn.sendall(struct.pack(">I", len(data)) + data)


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    try:
        if len(data) < 4:
            data += warm._exact(conn, 4 - len(data))
        (n,) = struct.unpack(">I", data[:4])
        if n > warm.MAX_REQUEST:
            raise ValueError("request too long")
        body = data[4:]
        if len(body) < n:
            body += warm._exact(conn, n - len(body))
        req = json.loads(body)
        if not isinstance(req, dict):
            raise ValueError("request is not a map")
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return req, list(fds)


def _raw(s: str) -> str:
    return os.fsdecode(bytes.fromhex(s))


def _env(req: dict[str, Any]) -> dict[str, str]:
    return {_raw(k): _raw(v) for k, v in req["env"].items()}


def _child(req: dict[str, Any], fds: list[int], close: list[socket.socket], wake: tuple[int, int]) -> None:
    """In the forked child: become the client's command, run it, exit with its status."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for s in close:
            s.close()
        for fd in wake:
            os.close(fd)
        for i, fd in enumerate(fds):
            os.dup2(fd, i)
            os.close(fd)
        os.chdir(_raw(req["cwd"]))
        os.umask(int(req["umask"]))
        env = _env(req)
        os.environ.clear()
        os.environ.update(env)
        streams = req.get("streams") or [["utf-8", "strict"]] * 3
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),
                                     encoding=streams[0][0], errors=streams[0][1])
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                                      encoding=streams[1][0], errors=streams[1][1], line_buffering=os.isatty(1))
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
                                      encoding=streams[2][0], errors=streams[2][1], line_buffering=True)
        argv = [_raw(a) for a in req["argv"]]
        sys.argv = [sys.argv[0], *argv]
        from pbem import cli

        profile = os.environ.get("PBEM_WARM_PROFILE")  # bench/bench_cli.py --profile: the child's own
        try:
            if profile:
                import cProfile

                cProfile.runctx("cli.run(argv, warm=False)", globals(), {"cli": cli, "argv": argv}, profile)
            else:
                cli.run(argv, warm=False)
            code = 0
        except SystemExit as e:
            if e.code is None or isinstance(e.code, int):
                code = e.code or 0
            else:
                sys.stderr.write(f"{e.code}\n")
                code = 1
        except KeyboardInterrupt:
            code = 130
        except BaseException:  # noqa: BLE001 - reported as the interpreter would, then exit 1
            traceback.print_exc()
            code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m pbem.cli.warmserver")
    p.add_argument("--config", required=True, type=Path)
    p.add_argument("--idle", type=float, default=3600.0)
    p.add_argument("--cache", type=Path, help="the home's cache folder: the map's static layers read ahead")
    args = p.parse_args(argv)
    preload()
    if args.cache is not None:
        from pbem.present import raster

        raster.preload_disk(args.cache)
    Server(args.config, args.idle).serve()


def spawn(config: Path, idle: float, cache: Path | None = None) -> None:
    """Start the home's warm worker in the background (a new interpreter: it holds no secret)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_PASSPHRASE", "PBEM_NEW_PASSPHRASE")}
    extra = ["--cache", str(cache)] if cache is not None else []
    subprocess.Popen([sys.executable, "-m", "pbem.cli.warmserver", "--config", str(config), "--idle", str(idle),
                      *extra],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True, env=env)


if __name__ == "__main__":
    main()
