"""Headless Chromium for tests and the docs' screenshots, driven over the DevTools protocol.

Debian's ``chromium`` runs headless with the flags in /work/shared/brief/real-services.md.
``Chromium`` starts it with ``--remote-debugging-port=0`` in a fresh profile, reads the
port from the DevToolsActivePort file the browser writes there, and talks to it through
a minimal RFC 6455 websocket client (text frames only, no extensions): the standard
library has no websocket client, and this is all the protocol needs.

``Chromium.load(url)`` opens a page in a new tab, waits for its load event and returns
every console error, uncaught exception and error log entry (a resource that failed to
load, a CSP refusal, ...) along with a PNG screenshot.

Also here: ``play_use``, a short France 1940 game with combats played through the
library, for pages that need a real USE state.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--no-default-browser-check")
INSTALL_HINT = ("Chromium is not installed: install the Debian package `chromium` "
                "(apt-get install chromium), or set PBEM_ALLOW_MISSING_TOOLS=1 to skip the browser tests")


def find_chromium() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        path = shutil.which(name) if not name.startswith("/") else (name if os.access(name, os.X_OK) else None)
        if path:
            return path
    return None


# --- a minimal websocket client (RFC 6455) -------------------------------------------------------

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocketError(Exception):
    pass


class WebSocket:
    """Client side of RFC 6455 over a plain TCP socket: masked text frames out; text frames in."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        u = urlsplit(url)
        if u.scheme != "ws" or not u.hostname or not u.port:
            raise WebSocketError(f"only ws://host:port/... URLs are supported, not {url!r}")
        self.sock = socket.create_connection((u.hostname, u.port), timeout=timeout)
        self.buf = b""
        self.parts: list[bytes] = []
        key = base64.b64encode(os.urandom(16))
        path = (u.path or "/") + (f"?{u.query}" if u.query else "")
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            .encode("ascii"))
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise WebSocketError(f"websocket upgrade refused: {lines[0]}")
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
        want = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != want:
            raise WebSocketError("bad Sec-WebSocket-Accept in the upgrade response")

    def _fill(self) -> None:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise WebSocketError("connection closed by the browser")
        self.buf += chunk

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode("utf-8"))

    def _frame(self) -> tuple[bool, int, bytes]:
        """The next whole frame (fin, opcode, payload); the buffer is only consumed once it is all
        there, so a read timeout never leaves half a frame behind."""
        while True:
            b = self.buf
            if len(b) >= 2:
                n, at = b[1] & 0x7F, 2
                if n == 126 and len(b) >= 4:
                    (n,), at = struct.unpack("!H", b[2:4]), 4
                elif n == 127 and len(b) >= 10:
                    (n,), at = struct.unpack("!Q", b[2:10]), 10
                masked = bool(b[1] & 0x80)
                end = at + (4 if masked else 0) + n
                if (b[1] & 0x7F) < 126 or at > 2:
                    if len(b) >= end:
                        data = b[end - n:end]
                        if masked:
                            mask = b[at:at + 4]
                            data = bytes(x ^ mask[i % 4] for i, x in enumerate(data))
                        self.buf = b[end:]
                        return bool(b[0] & 0x80), b[0] & 0x0F, data
            self._fill()

    def recv(self) -> str:
        """The next whole text message (continuation frames joined; pings answered)."""
        while True:
            fin, opcode, data = self._frame()
            if opcode == 0x8:
                raise WebSocketError("the browser closed the websocket")
            if opcode == 0x9:
                self._send_frame(0xA, data)
                continue
            if opcode == 0xA:
                continue
            if opcode not in (0x0, 0x1, 0x2):
                raise WebSocketError(f"unexpected websocket opcode {opcode}")
            self.parts.append(data)
            if fin:
                msg, self.parts = b"".join(self.parts), []
                return msg.decode("utf-8")

    def close(self) -> None:
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


# --- Chromium over the DevTools protocol ---------------------------------------------------------


@dataclass
class PageLoad:
    url: str
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    png: bytes = b""


class Chromium:
    """A headless Chromium with a fresh profile in ``workdir``; use as a context manager."""

    def __init__(self, workdir: Path, exe: str | None = None, width: int = 1400, height: int = 1800) -> None:
        exe = exe or find_chromium()
        if exe is None:
            raise FileNotFoundError(INSTALL_HINT)
        self.exe = exe
        self.width, self.height = width, height
        self.profile = workdir / "chromium-profile"
        self.profile.mkdir(parents=True, exist_ok=False)
        self.stderr_path = workdir / "chromium-stderr.txt"
        self.proc: subprocess.Popen[bytes] | None = None
        self.ws: WebSocket | None = None
        self._id = 0
        self.pending: list[dict[str, Any]] = []

    def __enter__(self) -> Chromium:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, timeout: float = 30.0) -> None:
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                [self.exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
                 f"--window-size={self.width},{self.height}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while True:
            if port_file.exists():
                lines = port_file.read_text().split()
                if len(lines) >= 2:
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Chromium did not start its DevTools server:\n{self.stderr()}")
            time.sleep(0.05)
        self.ws = WebSocket(f"ws://127.0.0.1:{int(lines[0])}{lines[1]}", timeout=timeout)

    def stderr(self) -> str:
        try:
            return self.stderr_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Close the browser, then make sure its whole process group is gone."""
        if self.ws is not None:
            try:
                self.send("Browser.close", timeout=5)
            except (OSError, WebSocketError, RuntimeError, TimeoutError):
                pass
            self.ws.close()
            self.ws = None
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(timeout=10)
            kill_group(self.proc.pid)
            self.proc = None

    # -- protocol --

    def _next(self, deadline: float) -> dict[str, Any]:
        assert self.ws is not None
        self.ws.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            msg: dict[str, Any] = json.loads(self.ws.recv())
        except TimeoutError:
            raise TimeoutError("no message from Chromium in time") from None
        return msg

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict[str, Any]:
        """Send a command and wait for its answer; events that arrive meanwhile are kept."""
        assert self.ws is not None
        self._id += 1
        mid = self._id
        msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        deadline = time.monotonic() + timeout
        while True:
            m = self._next(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                result: dict[str, Any] = m.get("result", {})
                return result
            if "method" in m:
                self.pending.append(m)

    def wait_event(self, method: str, session: str, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.pending):
            if m["method"] == method and m.get("sessionId") == session:
                return self.pending.pop(i)
        while True:
            m = self._next(deadline)
            if m.get("method") == method and m.get("sessionId") == session:
                return m
            if "method" in m:
                self.pending.append(m)

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                m = self._next(deadline)
            except TimeoutError:
                return
            if "method" in m:
                self.pending.append(m)

    def load(self, url: str, *, settle: float = 0.5, full_page: bool = False) -> PageLoad:
        """Open ``url`` in a new tab; return its console errors and a PNG screenshot."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for dom in ("Page", "Runtime", "Log"):
            self.send(f"{dom}.enable", session=sid)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
                  session=sid)
        nav = self.send("Page.navigate", {"url": url}, session=sid)
        out = PageLoad(url)
        if nav.get("errorText"):
            out.errors.append(f"navigation failed: {nav['errorText']}")
        self.wait_event("Page.loadEventFired", sid)
        self.drain(settle)
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            m = self.send("Page.getLayoutMetrics", session=sid)
            size = m.get("cssContentSize") or m["contentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": self.width, "height": size["height"], "scale": 1})
        out.png = base64.b64decode(self.send("Page.captureScreenshot", params, session=sid)["data"])
        self.drain(0.1)
        for m in [m for m in self.pending if m.get("sessionId") == sid]:
            self.pending.remove(m)
            p = m.get("params", {})
            if m["method"] == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                out.console.append(f"{p.get('type')}: {text}")
                if p.get("type") in ("error", "assert"):
                    out.errors.append(f"console.{p.get('type')}: {text}")
            elif m["method"] == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                desc = d.get("exception", {}).get("description") or d.get("text", "")
                out.errors.append(f"uncaught exception: {desc}")
            elif m["method"] == "Log.entryAdded":
                e = p.get("entry", {})
                out.console.append(f"log {e.get('level')}: {e.get('text')}")
                if e.get("level") == "error":
                    out.errors.append(f"{e.get('source')} error: {e.get('text')} {e.get('url', '')}".rstrip())
        self.send("Target.closeTarget", {"targetId": target})
        return out


def kill_group(pgid: int, timeout: float = 10.0) -> None:
    """SIGKILL the process group ``pgid`` (a browser started in its own session: only its own
    helper processes are in it) and wait until none of them is left."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            return
        except PermissionError:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"Chromium processes of group {pgid} survive SIGKILL")
        time.sleep(0.05)


def screenshot_cli(exe: str, url: str, png: Path, workdir: Path, width: int = 1400, height: int = 1800,
                   timeout: float = 60.0) -> subprocess.CompletedProcess[bytes]:
    """The plain `chromium --screenshot` way, in its own fresh profile; the browser is gone on return."""
    profile = workdir / f"profile-{png.stem}"
    profile.mkdir(parents=True)
    proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={png}",
                             f"--window-size={width},{height}", url],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_group(proc.pid)
    return subprocess.CompletedProcess(proc.args, proc.returncode or 0, out, err)


def png_problems(png: bytes, width: int | None = None, height: int | None = None) -> list[str]:
    """Why a screenshot looks wrong (empty list: it shows something): size, one flat colour."""
    from PIL import Image

    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        return ["not a PNG file"]
    im = Image.open(io.BytesIO(png)).convert("RGB")
    out = []
    if (width and im.width != width) or (height and im.height != height):
        out.append(f"size {im.width}x{im.height}, wanted {width}x{height}")
    small = im.resize((im.width // 4 or 1, im.height // 4 or 1))
    colours = small.getcolors(maxcolors=1 << 20) or []
    total = small.width * small.height
    top = max((c for c, _ in colours), default=total)
    if len(colours) < 16:
        out.append(f"only {len(colours)} colours: the page is blank")
    elif top / total > 0.97:
        out.append(f"{100 * top / total:.0f}% of the picture is one colour: the page is nearly blank")
    return out


# --- a USE game with combats ---------------------------------------------------------------------

# France 1940, two turns. May 1940: war on Belgium and the Netherlands, a mobile attack across
# the Meuse, an assault with a Western Will Commit, an air strike; June 1940: one more attack.
# One (seat, orders) per file.
USE_FILES: list[tuple[str, str]] = [
    ("axis", "declare-war BEL\ndeclare-war NET\nstrategic-move GER-LF3F 2208\n"),
    ("western", "standing retreat-toward 1211\npass\n"),
    ("axis", "move GER-XIX 1710\nattack 1610 from GER-XIX will-commit air GER-VIII\n"),
    ("western", "will-commit 1610 no retreat 1510\n"),
    ("axis", "move GER-1A 1810\nassault 1711 from GER-1A\nresolve 1711 no-commit\n"),
    ("western", "will-commit 1711 yes\n"),
    ("axis", "end-phase\n"),
    ("western", "air-strike FRA-AF1 1908 will-commit\n"),
    ("axis", "will-commit no\n"),
    ("western", "end-phase\n"),
    ("axis", "end-phase\n"),
    ("western", "end-phase\n"),
    ("western", "mobilize FRA-PAR 1211\nstanding skip strategic-move\nend-phase\n"),
    # June 1940: the weather, then a mobile attack from Sedan that eliminates the defender
    ("axis", "end-phase\n"),
    ("axis", "attack 1611 from GER-XIX will-commit air GER-VIII\n"),
    ("western", "will-commit 1611 no\n"),
    ("axis", "pass\n"),
    ("western", "end-phase\n"),
    ("axis", "end-phase\n"),
    ("western", "end-phase\n"),
    ("western", "end-phase\n"),
]


def start_use(root: Path, seed: str = "") -> tuple[Any, Any, bytes]:
    """Axis hosts a France 1940 game, Western joins; (axis, western, game id). With the sealed
    Will Commit option (USE 5.1: the air unit sealed with the choice), which USE_FILES are
    written for; the default as-written exchange is played by the demo and its tests."""
    from helpers import make_player

    from pbem.play import game
    from pbem.protocol import genesis

    axis, western = make_player(root, "axis", seed), make_player(root, "western", seed)
    data = genesis.make_proposal(axis.session.ident, rules_name="use", scenario="france-1940", my_seat="axis",
                                 cards={"axis": axis.card, "western": western.card},
                                 options={"will_commit_air": "sealed"},
                                 rng=axis.session.rng, now=1_700_000_000)
    d = game.create(axis.session, data)
    gid: bytes = d.con.game_id
    game.receive(western.session, data)
    jf, _ = game.join(western.session, data)
    game.receive(axis.session, jf.raw)
    return axis, western, gid


def play_use_files(axis: Any, western: Any, gid: bytes, first: int, last: int) -> None:
    """Play USE_FILES[first:last], each file carried to the other player."""
    from pbem.play import game
    from pbem.store import gamestore as store

    players = {"axis": axis, "western": western}
    for seat, orders in USE_FILES[first:last]:
        me = players[seat]
        f, _ = game.play(me.session, store.game_dir(me.home, gid), orders)
        for other in players.values():
            if other is not me:
                game.receive(other.session, f.raw)


def play_use(root: Path, files: int = len(USE_FILES), seed: str = "") -> tuple[Any, Any, bytes]:
    """A France 1940 game after the first ``files`` files of USE_FILES; (axis, western, game id)."""
    axis, western, gid = start_use(root, seed)
    play_use_files(axis, western, gid, 0, files)
    return axis, western, gid
