"""pbem off Linux: Windows and macOS (issue 10), as far as a Linux machine can check it.

- test_core_path_without_posix_modules: every command of a game (key new, card, game new,
  join, receive, play, verify) runs in a fresh interpreter in which ``fcntl``, ``pwd``,
  ``grp``, ``termios`` and ``resource`` cannot be imported, as on Windows, and in which
  pbem's home lock (pbem.store.oslock) took its Windows branch, bound to a stand-in
  ``msvcrt`` that locks as LockFile does (first byte, no blocking mode, EACCES when held).
  The console is cp1252, as a Windows console redirected to a file, and the homes' paths
  hold letters cp1252 lacks.
  What it does NOT cover: os.name stays "posix" and the os module stays the POSIX one
  (``posix``, not ``nt``), so os.replace/os.rename keep POSIX semantics, pbem.store.fsutil
  takes its POSIX branches, and paths use "/"; msvcrt itself is a stand-in. Those are
  covered by ``mypy --platform win32`` (make lint) and by the documented semantics only.
- a home under "Zoë Müller/pbem home" through the same commands, in-process;
- orders, cards, passphrase and config files as Windows tools write them (CRLF, UTF-8
  BOM, PowerShell's UTF-16) read as the Linux ones; other encodings refused with a hint;
- the home lock: a second pbem waits with a message; a killed holder frees it.
"""

from __future__ import annotations

import codecs
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.errors import ExitCode, InvalidInput
from pbem.formats.text import decode_text
from pbem.store import gamestore as store
from pbem.store import oslock, paths

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# Runs one pbem command as it would run on Windows, as far as Linux allows (module docstring).
WINDOWS_LIKE = r"""
import errno, os, sys, types
import fcntl as _fcntl  # the stand-in msvcrt below locks with it, out of pbem's reach
for name in ("fcntl", "pwd", "grp", "termios", "resource"):
    sys.modules[name] = None  # 'import fcntl' now raises ImportError, as on Windows
calls = []
msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK, msvcrt.LK_RLCK, msvcrt.LK_NBRLCK = 0, 1, 2, 3, 4
def locking(fd, mode, nbytes):
    calls.append(mode)
    assert nbytes == 1 and os.lseek(fd, 0, os.SEEK_CUR) == 0, "LockFile locks from the file position"
    if mode == msvcrt.LK_UNLCK:
        _fcntl.flock(fd, _fcntl.LOCK_UN)
        return
    assert mode == msvcrt.LK_NBLCK, mode
    try:
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except BlockingIOError:
        raise OSError(errno.EACCES, "Permission denied") from None
msvcrt.locking = locking
sys.modules["msvcrt"] = msvcrt
real, sys.platform = sys.platform, "win32"
try:
    import pbem.store.oslock  # its Windows branch, bound to the stand-in
finally:
    sys.platform = real
    del sys.modules["msvcrt"]  # the stdlib (subprocess) takes its presence for Windows
import atexit
atexit.register(lambda: sys.stderr.write(f"\nmsvcrt.locking calls: {calls}\n"))
from pbem.cli import main
main(sys.argv[1:])
"""


class WinHome:
    """A player whose every command runs in a WINDOWS_LIKE interpreter."""

    def __init__(self, root: Path, name: str) -> None:
        self.dir, self.name = root, name

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PBEM_PASSPHRASE": f"pass-{self.name}", "PBEM_RULES_MODULES": "toygame:DUEL",
               "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)]), "PYTHONIOENCODING": "cp1252"}
        env.pop("PBEM_HOME", None)
        p = subprocess.run([sys.executable, "-c", WINDOWS_LIKE, "--home", str(self.dir), *args],
                           env=env, capture_output=True, text=True, encoding="cp1252", timeout=120)
        assert p.returncode == 0, f"{args}: {p.stdout}{p.stderr}"
        assert "internal error" not in p.stderr
        return p


class InHome:
    """A player whose commands run in-process (tests/test_cli.py's style)."""

    def __init__(self, root: Path, name: str) -> None:
        self.dir, self.name = root, name

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        r = CliRunner().invoke(cli, ["--home", str(self.dir), *args], env={"PBEM_PASSPHRASE": f"pass-{self.name}"})
        assert r.exit_code == 0, f"{args}: {r.output}"
        return subprocess.CompletedProcess(args, r.exit_code, r.stdout, "")


def _last_outbox(home: Path) -> Path:
    files = sorted((home / "data" / "games").glob("*/outbox/*.pbem"), key=lambda p: p.stat().st_mtime_ns)
    return files[-1]


def _duel(red: WinHome | InHome, blue: WinHome | InHome, tmp: Path, orders_eol: str = "\n") -> str:
    """Two players from key generation to a verified game of two turns; returns the game id."""
    for h in (red, blue):
        out = h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org",
                "--work-factor", "10").stdout
        assert "fingerprint: SHA256:" in out
    card = blue.dir.parent / "Blue’s card.txt"
    blue("key", "card", "-o", str(card))
    out = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
              "--seat", f"blue={card}", "--option", "strict_dice=false").stdout
    m = re.search(r"game ([0-9a-f]{32}) proposed", out)
    assert m, out
    gid = m.group(1)
    fpr = red("key", "fingerprint").stdout.strip()
    assert "(checked)" in blue("game", "join", str(_last_outbox(red.dir)), "--expect", f"red={fpr}",
                               "--accept-options").stdout
    red("receive", str(_last_outbox(blue.dir)))
    orders = tmp / "my orders.txt"
    for player, other in [(red, blue), (blue, red)]:
        orders.write_bytes(f"# my turn{orders_eol}roll{orders_eol}".encode())
        player("orders", "check", gid[:8], "--orders", str(orders))
        assert "turn file" in player("play", gid[:8], "--orders", str(orders)).stdout
        assert "added" in other("receive", str(_last_outbox(player.dir))).stdout
    for h in (red, blue):
        assert "ok" in h("verify", gid).stdout
    return gid


def test_core_path_without_posix_modules(tmp_path: Path) -> None:
    red = WinHome(tmp_path / "Łukasz Wąs" / "pbem home", "red")  # letters cp1252 cannot print
    blue = WinHome(tmp_path / "Zoë Müller" / "pbem home", "blue")
    gid = _duel(red, blue, tmp_path, orders_eol="\r\n")
    orders = tmp_path / "my orders.txt"
    p = red("play", gid[:8], "--orders", str(orders))
    assert "\\u0141ukasz W\\u0105s" in p.stdout  # the path printed escaped, not a crash
    assert re.search(r"msvcrt\.locking calls: \[2, 0\]", p.stderr), p.stderr  # took the lock, released it


def test_home_path_with_spaces_and_non_ascii_letters(tmp_path: Path) -> None:
    red = InHome(tmp_path / "Zoë Müller" / "pbem home", "red")
    blue = InHome(tmp_path / "Jürgen Ørsted-Ñúñez" / "pbem 家", "blue")
    gid = _duel(red, blue, tmp_path)
    assert (red.dir / "data" / "games" / gid / "files").is_dir()


# -- text as Windows tools write it ---------------------------------------------------------

WINDOWS_FORMS: dict[str, Callable[[str], bytes]] = {
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "bom": lambda t: codecs.BOM_UTF8 + t.encode(),
    "bom+crlf": lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode(),
    "utf-16 (PowerShell 5 '>')": lambda t: t.replace("\n", "\r\n").encode("utf-16"),
    "old Mac CR": lambda t: t.replace("\n", "\r").encode(),
}


@pytest.mark.parametrize("form", list(WINDOWS_FORMS))
def test_decode_text_reads_windows_forms_as_linux_text(form: str) -> None:
    text = "# Zoë's orders\nroll\nseal 2\n"
    assert decode_text(WINDOWS_FORMS[form](text), "orders") == text


def test_decode_text_refuses_other_encodings_with_a_hint() -> None:
    with pytest.raises(InvalidInput) as e:
        decode_text("# Zoë\nroll\n".encode("cp1252"), "orders file x.txt")
    assert "orders file x.txt is not UTF-8" in str(e.value) and "UTF-8" in e.value.hint


@pytest.fixture
def duel_started(tmp_path: Path) -> tuple[InHome, InHome, str]:
    red, blue = InHome(tmp_path / "red", "red"), InHome(tmp_path / "blue", "blue")
    for h in (red, blue):
        h("key", "new", "--name", h.name, "--email", f"{h.name}@example.org", "--work-factor", "10")
    card = (blue.dir / "config" / "card.txt").read_text()
    f = tmp_path / "blue card (notepad).txt"
    f.write_bytes(WINDOWS_FORMS["bom+crlf"](card))
    out = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
              "--seat", f"blue={f}", "--option", "strict_dice=false").stdout
    gid = re.search(r"game ([0-9a-f]{32}) proposed", out)
    assert gid
    fpr = red("key", "fingerprint").stdout.strip()
    blue("game", "join", str(_last_outbox(red.dir)), "--expect", f"red={fpr}", "--accept-options")
    red("receive", str(_last_outbox(blue.dir)))
    return red, blue, gid.group(1)


@pytest.mark.parametrize("form", list(WINDOWS_FORMS))
def test_player_cards_in_windows_forms(tmp_path: Path, form: str) -> None:
    from pbem.protocol.identity import Card

    red = InHome(tmp_path / "red", "red")
    red("key", "new", "--name", "Zoë", "--email", "zoe@example.org", "--work-factor", "10")
    text = (red.dir / "config" / "card.txt").read_text(encoding="utf-8")
    card = Card.from_text(WINDOWS_FORMS[form](text))
    assert card == Card.from_text(text) and card.name == "Zoë"


@pytest.mark.parametrize("form", list(WINDOWS_FORMS))
def test_orders_in_windows_forms(duel_started: tuple[InHome, InHome, str], tmp_path: Path, form: str) -> None:
    red, blue, gid = duel_started
    orders = tmp_path / "orders.txt"
    orders.write_bytes(WINDOWS_FORMS[form]("# Zoë's first turn\nroll\nseal 2\n"))
    red("orders", "check", gid[:8], "--orders", str(orders))
    red("play", gid[:8], "--orders", str(orders))
    assert "added" in blue("receive", str(_last_outbox(red.dir))).stdout


def test_orders_in_another_encoding_are_refused_with_a_hint(duel_started: tuple[InHome, InHome, str],
                                                             tmp_path: Path) -> None:
    red, _, gid = duel_started
    orders = tmp_path / "orders.txt"
    orders.write_bytes("# Zoë\nroll\n".encode("cp1252"))
    r = CliRunner().invoke(cli, ["--home", str(red.dir), "play", gid[:8], "--orders", str(orders)],
                           env={"PBEM_PASSPHRASE": "pass-red"})
    assert r.exit_code == ExitCode.INVALID, r.output
    assert "is not UTF-8 text" in r.output and "pbem: hint: save it as UTF-8" in r.output


@pytest.mark.parametrize("form", ["crlf", "bom+crlf", "utf-16 (PowerShell 5 '>')"])
def test_passphrase_file_in_windows_forms(tmp_path: Path, form: str) -> None:
    home = tmp_path / "h"
    pw = tmp_path / "pw.txt"
    pw.write_bytes(WINDOWS_FORMS[form]("correct horse battery\n"))
    runner = CliRunner()
    r = runner.invoke(cli, ["--home", str(home), "--passphrase-file", str(pw), "key", "new", "--name", "Zoë",
                            "--email", "z@example.org", "--work-factor", "10"])
    assert r.exit_code == 0, r.output
    # the passphrase is the line without BOM or line end: the environment variable opens it too
    r = runner.invoke(cli, ["--home", str(home), "key", "fingerprint"],
                      env={"PBEM_PASSPHRASE": "correct horse battery"})
    assert r.exit_code == 0, r.output


def test_config_toml_with_a_bom(tmp_path: Path) -> None:
    from pbem.mail import load_config

    home = paths.resolve(tmp_path / "h")
    home.config.mkdir(parents=True)
    toml = '[mail]\r\nfrom = "zoe@example.org"\r\noutbox_only = true\r\n'
    home.config_file.write_bytes(codecs.BOM_UTF8 + toml.encode())
    cfg = load_config(home)
    assert cfg is not None and cfg.outbox_only


# -- the home lock ----------------------------------------------------------------------------

def test_a_second_pbem_waits_for_the_first_and_says_so(tmp_path: Path) -> None:
    home = paths.resolve(tmp_path / "h")
    told: list[Path] = []
    asked = threading.Event()
    got: list[bool] = []

    def on_wait(lock: Path) -> None:
        told.append(lock)
        asked.set()

    def second() -> None:
        with store.HomeLock(home, on_wait=on_wait):
            got.append(True)

    with store.HomeLock(home, on_wait=on_wait):
        t = threading.Thread(target=second)
        t.start()
        assert asked.wait(60)  # the second one found the lock held, said so, and now waits
        assert got == []
    t.join(60)
    assert got == [True] and told == [home.data / ".lock"]
    with store.HomeLock(home, on_wait=on_wait):  # free again: taken at once, nothing said
        pass
    assert len(told) == 1


def test_a_killed_holder_frees_the_lock(tmp_path: Path) -> None:
    home = paths.resolve(tmp_path / "h")
    code = ("import sys; from pbem.store import gamestore, paths\n"
            "lock = gamestore.HomeLock(paths.resolve(sys.argv[1])).__enter__()\n"
            "print('locked', flush=True); sys.stdin.read()\n")
    p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "h")], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "locked"
        fd = os.open(home.data / ".lock", os.O_RDWR)
        try:
            assert not oslock.try_lock(fd)  # held by the other process
        finally:
            os.close(fd)
    finally:
        p.kill()
        p.wait(60)
    told: list[Path] = []
    with store.HomeLock(home, on_wait=told.append):
        pass
    assert told == []


def test_cli_reports_the_wait(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from pbem.cli import base

    base._waiting(Path("/x/.lock"))
    err = capfd.readouterr().err
    assert "another pbem is using this home" in err and "pbem: hint:" in err
