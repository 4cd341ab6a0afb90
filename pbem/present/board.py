"""`pbem board`: one phase's orders given by clicking, on a page served to this machine only.

The page is built from the rules interface alone (``legal_actions``, ``pending``,
``summary_view``'s map picture), so it works for every game. Two parts:

* ``BoardGame``: the game side. ``state`` lists the seat's legal actions *after*
  the order lines written so far (a scratch author-mode apply, thrown away, as
  ``orders check`` does: a phase whose first line ends a step offers the next
  step's orders); ``check`` is ``pbem.play.game.check_orders``; ``play`` is the
  caller's (the command line's own play-and-mail path).
* ``BoardServer``: a stdlib HTTP server on 127.0.0.1 and a random port. The
  browser is sent to a one-time URL whose token is swapped for an HttpOnly,
  SameSite=Strict cookie; every request must carry that cookie and a Host of
  127.0.0.1:PORT or localhost:PORT (no DNS rebinding), every POST a matching
  Origin and a JSON body; every response a strict Content-Security-Policy
  (the script is a file: no inline code runs). docs/protocol.md §14b.

The server never sees a passphrase: the session it is given was unlocked by the
terminal that started it (or the key agent).
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pbem import rulesapi
from pbem.errors import OrderError, OrderErrors, PbemError
from pbem.play import game
from pbem.present import render, summary
from pbem.protocol.context import EngineContext, clone
from pbem.store.gamestore import GameStore

COOKIE = "pbem_board"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MAX_BODY = 1 << 20  # an order text is a few KB; anything larger is not the page's
STATIC = {"/board.js": ("board.js", "text/javascript; charset=utf-8"),
          "/board.css": ("board.css", "text/css; charset=utf-8")}

PlayFn = Callable[[str], list[str]]


def error_json(e: PbemError) -> dict[str, Any]:
    """One refusal as the page shows it: the message with its place and rule, and the hint."""
    out: dict[str, Any] = {"message": str(e), "hint": e.hint}
    if isinstance(e, OrderError):
        out.update(line=e.line, column=e.column, rule=e.rule)
    return out


class BoardGame:
    """One game as the board sees it, for the player of ``session``.

    ``scratch``: the session checks and scratch applies run with (their
    randomness and clock are spent on files thrown away, so the played file
    draws on ``session`` exactly as ``pbem play`` would).
    """

    def __init__(self, session: game.Session, gs: GameStore, play: PlayFn,
                 scratch: game.Session | None = None) -> None:
        self.session = session
        self.gs = gs
        self._play = play
        self.scratch = scratch or game.Session(session.home, session.ident)
        self.lock = threading.Lock()  # one game operation at a time, whatever the threads
        self.played: list[str] = []

    def _load(self) -> game.Derived:
        return game.load(self.scratch, self.gs)

    def page(self) -> dict[str, Any]:
        """What the HTML page draws once: title, map and what happened since the player's last turn."""
        with self.lock:
            d = self._load()
            ctx = summary.build(d, d.my_seat, private=d.my_seat is not None)
        picture = ctx["map_picture"]
        return {"title": ctx["title"], "game_short": ctx["game_short"], "seat": d.my_seat or "observer",
                "map_svg": ctx["map_svg"], "geometry": geometry(picture), "facts": ctx["facts"],
                "happened": ctx["happened"], "legend": render.legend(picture)}

    def state(self, text: str = "") -> dict[str, Any]:
        """The pending decision and the legal actions once ``text``'s lines are applied."""
        with self.lock:
            d = self._load()
            pend = d.pending()
            out: dict[str, Any] = {"seat": d.my_seat, "played": self.played,
                                   "pending": None if pend is None else {
                                       "seat": pend.seat, "phase": pend.phase, "wanted": pend.wanted,
                                       "kind": pend.kind},
                                   "mine": pend is not None and pend.seat in d.my_seats and not d.closed,
                                   "actions": [], "answered": True, "done": False, "template": ""}
            if not out["mine"] or pend is None or not _rules_kind(d, pend):
                return out
            game.my_move(d)
            seat = d.my_seat or ""
            acts, done = self._actions_after(d, seat, text)
            out.update(actions=[a.to_json() for a in acts], done=done)
            if not acts and not done and not text.strip():
                # The rules interface's "not answered": the player types from the template.
                out.update(answered=False, template=d.rules.order_template(d.public, d.private, seat))
            return out

    def _actions_after(self, d: game.Derived, seat: str, text: str) -> tuple[list[rulesapi.Action], bool]:
        """(legal actions, whether the lines so far end this seat's decision)."""
        rules = d.rules
        if not text.strip():
            return rules.legal_actions(d.public, d.private, seat), False
        try:
            orders = rules.parse_orders(text, seat, d.public, d.private)
            ctx = EngineContext(d.params, clone(d.est), seat, d.seq + 1, author_mode=True, tree=d.tree(),
                                secrets=clone(d.secrets), rng=self.scratch.rng)
            out = rules.apply(clone(d.public), {seat: clone(d.private)}, seat, orders, ctx)
        except PbemError:
            return [], False  # the check shows why; nothing to offer after a refused line
        after = rules.pending(out.public)
        if after is None or after.seat != seat:
            return [], True
        return rules.legal_actions(out.public, out.private.get(seat, d.private), seat), False

    def check(self, text: str) -> dict[str, Any]:
        with self.lock:
            try:
                errs = game.check_orders(self.scratch, self.gs, text)
            except PbemError as e:
                errs = [e]
        return {"ok": not errs, "errors": [error_json(e) for e in errs]}

    def play(self, text: str) -> dict[str, Any]:
        with self.lock:
            try:
                lines = self._play(text)
            except OrderErrors as e:
                return {"ok": False, "errors": [error_json(x) for x in e.errors]}
            except PbemError as e:
                return {"ok": False, "errors": [error_json(e)]}
            self.played = [*self.played, *lines]
        return {"ok": True, "lines": lines}


def _rules_kind(d: game.Derived, pend: rulesapi.Pending) -> bool:
    """A decision the rules ask (Will Commit, ...), as opposed to the engine's own files
    (dice release, end proposals), which take no orders."""
    rp = d.rules_pending()
    return rp is not None and rp.kind == pend.kind and rp.seat == pend.seat


def geometry(picture: dict[str, Any] | None) -> dict[str, Any] | None:
    """Where the map's hexes and counters are, in the SVG's units: the page lays its click targets
    and highlights over the drawing from this, so the mailed SVG stays as it is."""
    if not picture:
        return None
    m = render.layout(picture)
    return {"size": render.HEX, "width": m.width, "height": m.height,
            "hexes": {h["id"]: [round(h["cx"], 1), round(h["cy"], 1)] for h in m.hexes},
            "units": [{"id": u.get("id", ""), "hex": u["hex"], "x": round(u["x"], 1), "y": round(u["y"], 1),
                       "text": u.get("text", ""), "side": u.get("side", "")}
                      for u in m.units if u.get("id") and not u.get("face_down")]}


class BoardServer:
    """The board's HTTP server on 127.0.0.1 (a random port unless ``port``)."""

    def __init__(self, board: BoardGame, port: int = 0, token: str | None = None) -> None:
        self.board = board
        self.token = token or secrets.token_urlsafe(32)
        self.cookie = secrets.token_urlsafe(32)  # never in a URL: the token only buys it, once
        self.token_used = False
        self.quit = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """The one-time URL: valid for one visit, which sets the cookie."""
        return f"http://127.0.0.1:{self.port}/open?token={self.token}"

    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}

    def origins(self) -> set[str]:
        return {f"http://{h}" for h in self.hosts()}

    def redeem(self, token: str) -> bool:
        """Whether ``token`` is the one-time token, still unused (it is used up either way)."""
        with self.board.lock:
            ok = not self.token_used and hmac.compare_digest(token.encode(), self.token.encode())
            if ok:
                self.token_used = True
            return ok

    def cookie_ok(self, header: str | None) -> bool:
        for part in (header or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE and hmac.compare_digest(value.encode(), self.cookie.encode()):
                return True
        return False

    def serve(self) -> None:
        """Serve until the page's Close (or ``shutdown``)."""
        t = threading.Thread(target=self.httpd.serve_forever, name="pbem-board", daemon=True)
        t.start()
        try:
            while not self.quit.wait(0.2):
                pass
        finally:
            self.shutdown()
            t.join(5)

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests); ``shutdown`` stops it."""
        t = threading.Thread(target=self.httpd.serve_forever, name="pbem-board", daemon=True)
        t.start()
        return t

    def shutdown(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def html(self) -> str:
        page = self.board.page()
        tpl = render.environment().get_template("board.html.j2")
        return tpl.render(**page, geometry_json=json.dumps(page["geometry"], separators=(",", ":")))


def _handler(server: BoardServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "pbem-board"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the terminal shows the game's messages, not an access log

        def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            headers = {"Content-Type": ctype, "Content-Length": str(len(body)), "Content-Security-Policy": CSP,
                       "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                       "Cache-Control": "no-store", "X-Frame-Options": "DENY",
                       "Cross-Origin-Resource-Policy": "same-origin", **(extra or {})}
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _refuse(self, status: HTTPStatus, why: str) -> None:
            # A refused request's body may be left unread: the connection cannot be reused.
            self.close_connection = True
            self._send(status, f"{status.value} {status.phrase}: {why}\n".encode(), "text/plain; charset=utf-8",
                       {"Connection": "close"})

        def _json(self, data: Any, status: int = 200) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), "application/json")

        def _host_ok(self) -> bool:
            if self.headers.get("Host") in server.hosts():
                return True
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only at 127.0.0.1 or localhost")
            return False

        def _cookie_ok(self) -> bool:
            if server.cookie_ok(self.headers.get("Cookie")):
                return True
            self._refuse(HTTPStatus.FORBIDDEN, "no board cookie: open the link 'pbem board' printed "
                                               "(each link works once: run 'pbem board' again for a new one)")
            return False

        def do_GET(self) -> None:
            if not self._host_ok():
                return
            url = urlsplit(self.path)
            if url.path == "/open":
                token = parse_qs(url.query).get("token", [""])[0]
                if not server.redeem(token):
                    self._refuse(HTTPStatus.FORBIDDEN, "this link is wrong or was already used: run "
                                                       "'pbem board' again for a new one")
                    return
                self._send(HTTPStatus.SEE_OTHER, b"", "text/plain", {
                    "Location": "/", "Set-Cookie": f"{COOKIE}={server.cookie}; HttpOnly; SameSite=Strict; Path=/"})
                return
            if not self._cookie_ok():
                return
            if url.path == "/":
                self._send(200, server.html().encode("utf-8"), "text/html; charset=utf-8")
            elif url.path in STATIC:
                name, ctype = STATIC[url.path]
                self._send(200, (render.templates_dir() / name).read_bytes(), ctype)
            else:
                self._refuse(HTTPStatus.NOT_FOUND, "no such page")

        def do_POST(self) -> None:
            if not self._host_ok():
                return
            if self.headers.get("Origin") not in server.origins():
                self._refuse(HTTPStatus.FORBIDDEN, "the request does not come from the board's own page")
                return
            if not self._cookie_ok():
                return
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
                return
            length = self.headers.get("Content-Length") or "0"
            n = int(length) if length.isdigit() else -1
            if not 0 <= n <= MAX_BODY:
                self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too large")
                return
            try:
                body = json.loads(self.rfile.read(n) or b"{}")
                text = body.get("text", "")
                if not isinstance(text, str):
                    raise ValueError("text")
            except (ValueError, AttributeError):
                self._refuse(HTTPStatus.BAD_REQUEST, 'send {"text": "..."}')
                return
            routes: dict[str, Callable[[str], dict[str, Any]]] = {
                "/state": server.board.state, "/check": server.board.check, "/play": server.board.play}
            if self.path == "/quit":
                self._json({"ok": True})
                server.quit.set()
            elif self.path in routes:
                try:
                    self._json(routes[self.path](text))
                except PbemError as e:  # the game cannot answer now (e.g. its files changed): say why
                    self._json({"ok": False, "errors": [error_json(e)]})
            else:
                self._refuse(HTTPStatus.NOT_FOUND, "no such endpoint")

    return Handler


def open_browser(url: str) -> bool:
    """Open ``url`` in the player's browser. The URL reaches the browser's command line, where
    other local users may read it: it is good for one visit only (docs/protocol.md §14b)."""
    import webbrowser

    return webbrowser.open(url)

