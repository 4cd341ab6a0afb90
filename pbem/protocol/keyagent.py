"""The key agent: a player's identity unlocked once per sitting, its secrets in one process.

Unlocking an identity costs about a second and 256 MiB (scrypt, work factor 18,
on purpose: it is what makes a stolen identity file costly to guess). Paying it
at every command made a sitting of a dozen commands slow. ``pbem agent start``
unlocks once and keeps the identity in a background process, in the manner of
ssh-agent: the secrets never leave that process. Other pbem commands of the same
user ask it over a Unix socket for the two things a secret is needed for:

* ``sign``: an Ed25519 signature over a message;
* ``unwrap``: the 16-byte file key of an age file encrypted to the player (the
  X25519 stanzas go in, the file key comes out: the command then decrypts the
  file itself, as it would with the key in hand).

What the agent guards and what it does not: the socket lives in a directory only
the user may enter (0700, checked to be the user's own, never followed through a
symbolic link) and is itself 0600; on Linux every connection's peer user id is
checked too. Any process of the same user may then ask for signatures and file
keys while the agent runs, as with ssh-agent: lock it (``pbem lock``) before
leaving the computer; it locks itself after ``idle`` seconds without a request.
The identity file and its passphrase are unchanged; the agent is never needed.

Wire format (both ways): a 4-byte big-endian length, then one canonical map
(pbem.formats.canonical), at most ``MAX_MESSAGE`` bytes. Requests: ``{"op":
"card"}``, ``{"op": "sign", "message": bytes}``, ``{"op": "unwrap", "stanzas":
[[args...], body]...}``, ``{"op": "lock"}``. Replies: ``{"ok": ...}`` or
``{"error": text}``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pbem.crypto import age
from pbem.errors import AuthError, InvalidInput, PbemError, Unsupported
from pbem.formats import canonical
from pbem.protocol import agentpath
from pbem.protocol.identity import Card, Identity

MAX_MESSAGE = 256 * 1024  # a turn file's header is far smaller; a signature's message is a hash
DEFAULT_IDLE = 3600


class AgentError(PbemError):
    """The agent refused or could not answer (it may have locked itself meanwhile)."""

    default_hint = "unlock again with 'pbem agent start', or run the command without the agent"


def supported() -> bool:
    return sys.platform != "win32"


def _unix_socket() -> socket.socket:
    if sys.platform == "win32":
        raise Unsupported("the key agent needs Unix sockets, which this system lacks",
                          hint="each command asks for the passphrase instead")
    return socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)


# Kept apart (standard library only) for the command line's warm-worker client.
_uid = agentpath.uid
_runtime_dir = agentpath.runtime_dir
_private_dir = agentpath.private_dir


def socket_path(home_config: Path) -> Path:
    """The agent socket of the home whose config folder is ``home_config``."""
    return agentpath.socket_path(home_config)


# --- framing -----------------------------------------------------------------------------------

def _send(sock: socket.socket, msg: dict[str, Any]) -> None:
    data = canonical.encode(msg)
    sock.sendall(struct.pack(">I", len(data)) + data)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    try:
        return agentpath.recv_exact(sock, n)
    except ConnectionError:
        raise InvalidInput("the agent connection closed mid-message") from None


def _recv(sock: socket.socket) -> dict[str, Any]:
    (n,) = struct.unpack(">I", _recv_exact(sock, 4))
    if n > MAX_MESSAGE:
        raise InvalidInput(f"agent message of {n} bytes is over the {MAX_MESSAGE} limit")
    return canonical.expect_map(canonical.decode(_recv_exact(sock, n)), "agent message")


# --- the agent ---------------------------------------------------------------------------------

def _peer_is_me(conn: socket.socket) -> bool:
    if not sys.platform.startswith("linux"):
        return True  # the 0700 folder is the guard where SO_PEERCRED is missing
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return bool(uid == _uid())


def _stanzas(raw: Any) -> list[age.Stanza]:
    if not isinstance(raw, list) or len(raw) > 64:
        raise InvalidInput("unwrap: stanzas must be a list of at most 64")
    out = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list)
                and all(isinstance(a, str) for a in item[0]) and item[0] and isinstance(item[1], bytes)):
            raise InvalidInput("unwrap: a stanza is [[type, args...], body]")
        out.append(age.Stanza(tuple(item[0]), bytes(item[1])))
    return out


def answer(ident: Identity, req: dict[str, Any]) -> dict[str, Any]:
    """The agent's reply to one request (no socket: the tests call it directly too)."""
    op = req.get("op")
    if op == "card":
        return {"ok": ident.card().to_bytes()}
    if op == "sign":
        msg = req.get("message")
        if not isinstance(msg, bytes):
            raise InvalidInput("sign: message must be bytes")
        return {"ok": ident.sign(msg)}
    if op == "unwrap":
        try:
            key = ident.age_key().unwrap(_stanzas(req.get("stanzas")))
        except age.AgeError as e:
            raise InvalidInput(f"unwrap: {e}") from None
        return {"ok": key}
    raise InvalidInput(f"unknown agent request {op!r}")


def serve(ident: Identity, path: Path, *, idle: float = DEFAULT_IDLE,
          clock: Callable[[], float] = time.monotonic, ready: Callable[[], None] | None = None) -> None:
    """Answer requests on a new socket at ``path`` until ``lock`` or ``idle`` seconds without one."""
    srv = _unix_socket()
    try:
        _private_dir(path.parent, create=True)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # a stale socket of an agent that died; the folder is ours alone
        old = os.umask(0o177)
        try:
            srv.bind(str(path))
        finally:
            os.umask(old)
        os.chmod(path, 0o600)
        srv.listen(8)
        if ready is not None:
            ready()
        _loop(ident, srv, idle, clock)
    finally:
        srv.close()
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _loop(ident: Identity, srv: socket.socket, idle: float, clock: Callable[[], float]) -> None:
    last = clock()
    while True:
        left = idle - (clock() - last)
        if left <= 0:
            return
        srv.settimeout(min(left, 60.0))
        try:
            conn, _ = srv.accept()
        except TimeoutError:
            continue
        with conn:
            conn.settimeout(5.0)
            if not _peer_is_me(conn):
                continue
            last = clock()
            if _one(ident, conn):
                return


def _one(ident: Identity, conn: socket.socket) -> bool:
    """Answer one connection's request; True when it asked the agent to lock."""
    try:
        req = _recv(conn)
        if req.get("op") == "lock":
            _send(conn, {"ok": True})
            return True
        _send(conn, answer(ident, req))
    except (PbemError, OSError, ValueError) as e:
        with contextlib.suppress(OSError):
            _send(conn, {"error": str(e)})
    return False


# --- the client --------------------------------------------------------------------------------

def _ask(path: Path, req: dict[str, Any]) -> Any:
    if not supported():
        raise AgentError("no key agent on this system")
    sock = _unix_socket()
    try:
        sock.settimeout(10.0)
        sock.connect(str(path))
        _send(sock, req)
        rep = _recv(sock)
    except OSError as e:
        raise AgentError(f"the key agent did not answer: {e.strerror or e}") from None
    finally:
        sock.close()
    if "error" in rep:
        raise AgentError(f"the key agent refused: {rep['error']}")
    return rep.get("ok")


def running(home_config: Path) -> bool:
    path = socket_path(home_config)
    try:
        if not supported() or not _private_dir(path.parent, create=False) or not path.exists():
            return False
        _ask(path, {"op": "card"})
    except (AgentError, AuthError):
        return False
    return True


def lock(home_config: Path) -> bool:
    """Tell the agent to forget the identity and stop; False if none was running."""
    if not running(home_config):
        return False
    _ask(socket_path(home_config), {"op": "lock"})
    return True


class _AgentAgeKey:
    def __init__(self, path: Path) -> None:
        self.path = path

    def unwrap(self, stanzas: Sequence[age.Stanza]) -> bytes | None:
        wire = [[list(s.args), s.body] for s in stanzas]
        key = _ask(self.path, {"op": "unwrap", "stanzas": wire})
        if key is not None and not isinstance(key, bytes):
            raise AgentError("the key agent sent a malformed file key")
        return key


class AgentIdentity:
    """An unlocked identity whose secrets stay in the agent (pbem.protocol.identity.Keys)."""

    def __init__(self, path: Path, card: Card) -> None:
        self.path = path
        self._card = card

    @property
    def name(self) -> str:
        return self._card.name

    @property
    def email(self) -> str:
        return self._card.email

    @property
    def signing_key(self) -> bytes:
        return self._card.signing_key

    @property
    def age_recipient(self) -> str:
        return self._card.age_recipient

    def card(self) -> Card:
        return self._card

    def sign(self, message: bytes) -> bytes:
        sig = _ask(self.path, {"op": "sign", "message": message})
        if not isinstance(sig, bytes) or len(sig) != 64:
            raise AgentError("the key agent sent a malformed signature")
        return sig

    def age_key(self) -> age.Identity:
        return _AgentAgeKey(self.path)


def connect(home_config: Path, card_on_disk: Card | None) -> AgentIdentity | None:
    """The home's agent as an identity, or None when no agent runs for it.

    The agent's card must be the home's own card: an agent of another home (or a
    stale one after ``key new``) is not used.
    """
    if not supported():
        return None
    path = socket_path(home_config)
    try:
        if not _private_dir(path.parent, create=False) or not path.exists():
            return None
        card = Card.from_bytes(_ask(path, {"op": "card"}))
    except (AgentError, AuthError, InvalidInput):
        return None
    if card_on_disk is not None and card.fingerprint != card_on_disk.fingerprint:
        return None
    return AgentIdentity(path, card)
