"""The warm worker (issue 11): commands of an unlocked home run in a fork of a preloaded process,
with the output, files and exit codes they have when run on their own (pbem.cli.warm)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import deliver, demo_turns, start_france_1940

from pbem.cli import warm, warmserver
from pbem.protocol import agentpath, keyagent
from pbem.protocol.identity import save_identity
from pbem.store import gamestore
from pbem.store.fsutil import atomic_write

pytestmark = pytest.mark.skipif(not warm.supported(), reason="no fork or descriptor passing on this system")
ROOT = Path(__file__).resolve().parent.parent
PASS = "pw"


class Sitting:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.players, self.gid = start_france_1940(tmp)
        turns = demo_turns(self.players, self.gid)
        for _ in range(3):
            seat, text = next(turns)
            deliver(self.players, self.gid, seat, text)
        self.seat, self.text = next(turns)
        for p in self.players.values():
            save_identity(p.session.ident, p.home.identity_file, PASS, work_factor=10)
            atomic_write(p.home.card_file, p.card.to_text().encode())
            ready = threading.Event()
            threading.Thread(target=keyagent.serve, args=(p.session.ident, keyagent.socket_path(p.home.config)),
                             kwargs={"idle": 120, "ready": ready.set}, daemon=True).start()
            assert ready.wait(10)
        me = self.players[self.seat]
        self.home = me.home.config.parent
        self.config = me.home.config
        self.root = gamestore.game_dir(me.home, self.gid).root
        self.cpu_log = tmp / "cpu.log"

    def start_worker(self, env: dict[str, str] | None = None) -> None:
        saved = dict(os.environ)
        os.environ.update(env or {})
        try:
            warmserver.spawn(self.config, 60)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        for _ in range(400):
            if warm.listening(self.config):
                return
            time.sleep(0.05)
        raise AssertionError("the warm worker did not start")

    def run(self, *args: str, cold: bool = False, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> tuple[subprocess.CompletedProcess[str], bool]:
        """Run pbem; (its result, whether the warm worker ran it)."""
        self.cpu_log.unlink(missing_ok=True)
        full = {**os.environ, "PBEM_WARM_CPU_LOG": str(self.cpu_log), **(env or {})}
        full.pop("PBEM_PASSPHRASE", None)
        if cold:
            full["PBEM_NO_WARM"] = "1"
        r = subprocess.run([sys.executable, "-m", "pbem.cli", "--home", str(self.home), *args],
                           capture_output=True, text=True, env=full, cwd=cwd or self.tmp, timeout=120)
        return r, self.cpu_log.exists()


@pytest.fixture
def sitting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sitting]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    s = Sitting(tmp_path)
    try:
        yield s
    finally:
        for p in s.players.values():
            warm.stop(p.home.config)
            keyagent.lock(p.home.config)


def _same(a: subprocess.CompletedProcess[str], b: subprocess.CompletedProcess[str]) -> None:
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


def test_commands_answer_in_the_worker_as_they_do_alone(sitting: Sitting) -> None:
    sitting.start_worker()
    gid = sitting.gid.hex()[:12]
    for args in (["show", gid], ["show", gid, "--public"], ["status"],
                 ["orders", "template", gid], ["verify", gid],
                 ["show", "0000deadbeef"],  # an error: its message, hint and exit code
                 ["play", gid, "--orders", "no-such-file.txt"]):  # a usage error, from click
        warm_r, used = sitting.run(*args)
        cold_r, _ = sitting.run(*args, cold=True)
        _same(warm_r, cold_r)
        assert used or args[0] == "status", args  # `status` may be answered by the fast path first


def test_a_play_in_the_worker_writes_the_very_file_a_play_alone_writes(sitting: Sitting) -> None:
    sitting.start_worker()
    orders = sitting.tmp / "orders.txt"
    orders.write_text(sitting.text or "end-phase\n")
    saved = sitting.tmp / "saved"
    shutil.copytree(sitting.root, saved)
    # Pinned randomness and clock: two plays of the same orders give the same bytes.
    env = {"PBEM_INSECURE_SEED": "warm-test", "PBEM_INSECURE_CLOCK": "1700000500"}
    args = ["play", sitting.gid.hex()[:12], "--outbox", "--orders", "orders.txt"]  # relative to cwd

    def files() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(sitting.root.rglob("*.pbem"))}

    warm_r, used = sitting.run(*args, env=env)
    assert used and warm_r.returncode == 0, warm_r.stderr
    after_warm = files()
    shutil.rmtree(sitting.root)
    shutil.copytree(saved, sitting.root)
    cold_r, used = sitting.run(*args, env=env, cold=True)
    assert not used
    _same(warm_r, cold_r)
    assert files() == after_warm and len(after_warm) > len(list(saved.rglob("*.pbem")))


def test_changed_code_is_refused_and_the_worker_stops(sitting: Sitting, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    env = {"PBEM_TEMPLATES": str(templates)}
    sitting.start_worker(env)
    gid = sitting.gid.hex()[:12]
    _, used = sitting.run("show", gid, env=env)
    assert used
    _, used = sitting.run("show", gid)  # another templates folder than the worker's: run alone
    assert not used
    page = templates / "summary.txt.j2"
    page.write_text(page.read_text())
    os.utime(page, ns=(time.time_ns(), time.time_ns() + 10**9))
    r, used = sitting.run("show", gid, env=env)
    assert not used and r.returncode == 0
    for _ in range(100):
        if not warm.listening(sitting.config):
            break
        time.sleep(0.05)
    assert not warm.listening(sitting.config)


def test_lock_stops_the_worker_with_the_agent(sitting: Sitting) -> None:
    sitting.start_worker()
    r, _ = sitting.run("lock", cold=True)
    assert r.returncode == 0, r.stderr
    assert not warm.listening(sitting.config)
    _, used = sitting.run("show", sitting.gid.hex()[:12])
    assert not used


def test_the_worker_is_started_without_the_passphrase(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setenv("PBEM_PASSPHRASE", "secret")
    monkeypatch.setattr(subprocess, "Popen", lambda argv, **kw: seen.update(argv=argv, **kw))
    warmserver.spawn(tmp_path / "config", 60)
    assert "PBEM_PASSPHRASE" not in seen["env"] and seen["start_new_session"]
    assert seen["argv"][1:3] == ["-m", "pbem.cli.warmserver"]


def test_a_socket_in_a_folder_not_the_users_own_is_never_used(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    run.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    folder = agentpath.runtime_dir()
    folder.mkdir(mode=0o755)  # readable by others: someone else's, or a mistake
    os.chmod(folder, 0o755)
    (folder / agentpath.socket_path(tmp_path / "config", ".warm").name).write_text("")
    assert warm.run(["--home", str(tmp_path), "show", "x"]) is None
