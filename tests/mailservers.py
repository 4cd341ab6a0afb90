"""Real mail servers on loopback for the mail tests.

- ``make_tls``: a throwaway CA and a server certificate for 127.0.0.1/localhost.
- ``SmtpServer``: aiosmtpd in-process (a thread), recording every raw message.
- ``fake_server``: accepts, greets, then hangs up, or says nothing (a crashed or hung server).
- ``Dovecot``: a private dovecot instance (own config, base_dir and state_dir in a
  temporary folder, passwd-file users), stopped by the pid in base_dir/master.pid.

Nothing here listens on anything but 127.0.0.1, and every port is a free one.
"""

from __future__ import annotations

import datetime as dt
import imaplib
import ipaddress
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.imap import encode_mailbox

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


# --- TLS ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Tls:
    ca: Path  # PEM of the CA clients must trust
    cert: Path  # server certificate chain (PEM)
    key: Path  # server key (PEM)

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(str(self.cert), str(self.key))
        return ctx


def make_tls(folder: Path) -> Tls:
    """A CA and a leaf for 127.0.0.1 and localhost, signed by it (what a real server has)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    folder.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    later = now + dt.timedelta(days=2)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now).not_valid_after(later)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(later)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address(HOST))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    tls = Tls(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    tls.ca.write_bytes(ca.public_bytes(pem))
    tls.cert.write_bytes(leaf.public_bytes(pem) + ca.public_bytes(pem))
    tls.key.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    tls.key.chmod(0o600)
    return tls


# --- SMTP --------------------------------------------------------------------------


@dataclass
class Delivery:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes


@dataclass
class SmtpServer:
    port: int
    deliveries: list[Delivery] = field(default_factory=list)
    logins: list[tuple[str, str]] = field(default_factory=list)  # (mechanism, user) that succeeded


class _Recorder:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.original_content or envelope.content
        assert isinstance(data, bytes)
        self.server.deliveries.append(Delivery(envelope.mail_from, list(envelope.rcpt_tos), data))
        return "250 OK queued"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if address.endswith("@refused.example"):
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@contextmanager
def smtp_server(*, tls: Tls | None = None, implicit_tls: bool = False,
                users: dict[str, str] | None = None, auth_require_tls: bool = True,
                exclude_mechanisms: tuple[str, ...] = ()) -> Iterator[SmtpServer]:
    """aiosmtpd on a free loopback port; STARTTLS when ``tls`` is given (or implicit TLS)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    srv = SmtpServer(free_port())
    kwargs: dict[str, Any] = {}
    if tls is not None and implicit_tls:
        kwargs["ssl_context"] = tls.server_context()
    elif tls is not None:
        kwargs["tls_context"] = tls.server_context()
    if users is not None:
        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
            ok = (isinstance(auth_data, LoginPassword)
                  and users.get(auth_data.login.decode()) == auth_data.password.decode())
            if ok:
                srv.logins.append((mechanism, auth_data.login.decode()))
            return AuthResult(success=ok, handled=False)

        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=auth_require_tls,
                      auth_exclude_mechanism=list(exclude_mechanisms))
    if not auth_require_tls:
        # aiosmtpd warns about AUTH without TLS; the tests ask for it on purpose (loopback only).
        warnings.filterwarnings("ignore", "Requiring AUTH while not requiring TLS", UserWarning)
    ctl = Controller(_Recorder(srv), hostname=HOST, port=srv.port, ready_timeout=10, **kwargs)
    ctl.start()
    try:
        yield srv
    finally:
        ctl.stop()


@contextmanager
def fake_server(greeting: bytes | None = b"220 flaky.example ESMTP\r\n", *, silent: bool = False,
                reply: Callable[[bytes], bytes] | None = None) -> Iterator[int]:
    """A broken server: sends ``greeting`` (if any), reads one line, hangs up.

    With ``reply``, each line read gets ``reply(line)`` back until that is empty.

    With ``silent`` it accepts and says nothing at all, holding the line open
    (a server that hangs), so the client's timeout is what ends the wait.
    """
    lsock = socket.socket()
    lsock.bind((HOST, 0))
    lsock.listen(5)
    lsock.settimeout(0.2)
    port = int(lsock.getsockname()[1])
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            try:
                conn, _ = lsock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                if silent:
                    stop.wait(10)
                    continue
                conn.settimeout(2)
                if greeting:
                    conn.sendall(greeting)
                try:
                    while (line := conn.recv(1024)) and reply is not None and (answer := reply(line)):
                        conn.sendall(answer)
                except OSError:
                    pass

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        yield port
    finally:
        stop.set()
        t.join(5)
        lsock.close()


# --- Dovecot -----------------------------------------------------------------------

IMAP_USER = "player"
IMAP_PASSWORD = "pässword-1"  # non-ASCII on purpose: must survive the login


def dovecot_binary() -> str:
    found = shutil.which("dovecot") or next(
        (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.access(p, os.X_OK)), None)
    if found is None:
        msg = "the dovecot binary is missing: install the Debian package dovecot-imapd (apt-get install dovecot-imapd)"
        if os.environ.get("PBEM_ALLOW_MISSING_TOOLS") == "1":
            pytest.skip(msg)
        pytest.fail(msg + "; or set PBEM_ALLOW_MISSING_TOOLS=1 to skip these tests")
    return found


@dataclass
class Dovecot:
    root: Path
    port: int  # plain IMAP, STARTTLS offered
    ssl_port: int  # implicit TLS
    tls: Tls
    pid: int = 0

    @property
    def log(self) -> str:
        p = self.root / "dovecot.log"
        return p.read_text(errors="replace") if p.exists() else "(no log)"

    def connect(self) -> imaplib.IMAP4:
        c = imaplib.IMAP4(HOST, self.port, timeout=10)
        blob = f"\0{IMAP_USER}\0{IMAP_PASSWORD}".encode()
        c.authenticate("PLAIN", lambda _: blob)
        return c

    def append(self, data: bytes, folder: str = "INBOX") -> None:
        c = self.connect()
        try:
            if folder != "INBOX":
                c.create(encode_mailbox(folder))
            typ, resp = c.append(encode_mailbox(folder), "", imaplib.Time2Internaldate(time.time()), data)
            assert typ == "OK", resp
        finally:
            c.logout()

    def clear(self, folder: str = "INBOX") -> None:
        c = self.connect()
        try:
            typ, data = c.select(encode_mailbox(folder))
            if typ == "OK" and data[0] != b"0":
                c.store("1:*", "+FLAGS.SILENT", "(\\Deleted)")
                c.expunge()
        finally:
            c.logout()


def _config(d: Dovecot, uid: int, gid: int, login_user: str, internal_user: str) -> str:
    r = d.root
    return f"""# private dovecot for the pbem tests; nothing from /etc/dovecot is read
protocols = imap
listen = {HOST}
base_dir = {r}/run
state_dir = {r}/state
instance_name = pbem-test-{d.port}
log_path = {r}/dovecot.log
default_login_user = {login_user}
default_internal_user = {internal_user}
first_valid_uid = 1
first_valid_gid = 1
ssl = yes
ssl_cert = <{d.tls.cert}
ssl_key = <{d.tls.key}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = no
auth_mechanisms = plain login
# The tests log in with a wrong password on purpose: no 2-second tarpit for that.
auth_failure_delay = 0
mail_location = maildir:{r}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {r}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={r}/home/%u
}}
# ...nor the growing penalty for repeated failures from one address: an
# unreachable penalty socket turns the penalty off.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = {HOST}
    port = {d.port}
  }}
  inet_listener imaps {{
    address = {HOST}
    port = {d.ssl_port}
    ssl = yes
  }}
}}
"""


def _wait_port(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), 0.5) as s:
                s.settimeout(2)
                if s.recv(64).startswith(b"* OK"):
                    return True
        except OSError:
            time.sleep(0.1)
    return False


@contextmanager
def dovecot() -> Iterator[Dovecot]:
    binary = dovecot_binary()
    # Not pytest's tmp_path: its parents are 0700 root, and dovecot's unprivileged
    # processes (dovecot, dovenull) must be able to reach the mail and run folders.
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)
    d = Dovecot(root, free_port(), free_port(), make_tls(root / "tls"))
    if os.geteuid() == 0:
        # As root, dovecot refuses to run its login processes as root.
        pw = pwd.getpwnam("dovecot")
        uid, gid, login_user, internal_user = pw.pw_uid, pw.pw_gid, "dovenull", "dovecot"
    else:
        me = pwd.getpwuid(os.getuid())
        uid, gid, login_user, internal_user = me.pw_uid, me.pw_gid, me.pw_name, me.pw_name
    for sub in ("mail", "home"):
        (root / sub).mkdir()
        os.chown(root / sub, uid, gid)
    (root / "passwd").write_text(f"{IMAP_USER}:{{PLAIN}}{IMAP_PASSWORD}::::::\n", encoding="utf-8")
    conf = root / "dovecot.conf"
    conf.write_text(_config(d, uid, gid, login_user, internal_user), encoding="utf-8")
    try:
        # Output to a file, not a pipe: the daemon keeps inherited pipes open forever.
        with open(root / "start.out", "wb") as out:
            run = subprocess.run([binary, "-c", str(conf)], stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=subprocess.STDOUT, timeout=30)
        if run.returncode != 0:
            started = (root / "start.out").read_text(errors="replace").strip()
            pytest.fail(f"dovecot did not start ({run.returncode}): {started}\n{d.log}")
        pidfile = root / "run" / "master.pid"
        if not _wait_port(d.port, 15) or not pidfile.exists():
            pytest.fail(f"dovecot started but does not answer on {HOST}:{d.port}\n{d.log}")
        d.pid = int(pidfile.read_text().strip())
        yield d
    finally:
        _stop(root / "run" / "master.pid")
        shutil.rmtree(root, ignore_errors=True)


def _stop(pidfile: Path) -> None:
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
