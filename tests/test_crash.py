"""Crash safety: SIGKILL pbem at random points while it receives and plays.

After every kill the store must replay cleanly from its files, hold no torn
file, and lose nothing: running the command again finishes the job, and every
file a player produced ends up in its outbox. CI runs a small count; `make
soak` sets PBEM_CRASH_COUNT=200 (or more).
"""

from __future__ import annotations

import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import Player, make_player

from pbem.play import game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import save_identity
from pbem.store import gamestore as store
from pbem.store import paths
from pbem.store.fsutil import atomic_write

COUNT = int(os.environ.get("PBEM_CRASH_COUNT", "24"))


def _player_on_disk(root: Path, name: str) -> Player:
    p = make_player(root, name)
    save_identity(p.session.ident, p.home.identity_file, f"pw-{name}", work_factor=10)
    atomic_write(p.home.card_file, p.card.to_text().encode())
    return p


def _cli(p: Player, *args: str, kill_after: float | None = None) -> int | None:
    tests = str(Path(__file__).parent)
    env = {**os.environ, "PBEM_PASSPHRASE": f"pw-{p.name}", "PBEM_RULES_MODULES": "toygame:DUEL",
           "PYTHONPATH": tests + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "--home", str(p.home.config.parent), *args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return None
    proc.wait(timeout=120)
    return proc.returncode


def _check_consistent(p: Player, gid: bytes) -> int:
    gs = store.game_dir(p.home, gid)
    for sf in gs.files():
        turnfile.parse(sf.read())  # no torn file is ever visible under its final name
    d = game.derive(p.session, gs)  # the files replay cleanly
    return d.seq


@pytest.mark.slow
def test_sigkill_during_receive_and_play(tmp_path: Path) -> None:
    red, blue = _player_on_disk(tmp_path, "red"), _player_on_disk(tmp_path, "blue")
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="endless", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={"strict_dice": False},
                                 rng=red.session.rng, now=1_700_000_000)
    gid = game.create(red.session, data).con.game_id
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    rnd = random.Random(2024)
    # Learn how long a command takes here, so kills land across its whole run.
    orders = tmp_path / "orders.txt"
    orders.write_text("roll\n")
    t0 = time.perf_counter()
    assert _cli(red, "status") == 0
    span = (time.perf_counter() - t0) * 1.5
    kills = 0
    players = {"red": red, "blue": blue}
    seat = "red"
    started = time.perf_counter()
    while kills < COUNT:
        actor = players[seat]
        other = players["blue" if seat == "red" else "red"]
        before = _check_consistent(actor, gid)
        # Mostly "pass" so the game outlasts the kills; some rolls so dice are in the mix.
        orders.write_text("roll\n" if before % 4 == 0 else "pass\n")
        if _cli(actor, "play", gid.hex(), "--orders", str(orders), kill_after=rnd.uniform(0, span)) is None:
            kills += 1
        after = _check_consistent(actor, gid)
        assert after in (before, before + 1)
        if after == before:
            assert _cli(actor, "play", gid.hex(), "--orders", str(orders)) == 0
        else:
            assert _cli(actor, "status") == 0  # repairs the outbox if the kill hit between the two writes
        seq = before + 1
        out = store.game_dir(actor.home, gid).outbox
        produced = [p for p in out.iterdir() if p.name.endswith(f"-{seq:06d}-turn-{seat}.pbem")]
        assert len(produced) == 1, "the produced file must be in the outbox exactly once"
        mails = [p for p in out.iterdir() if p.name.startswith(produced[0].name + ".") and p.suffix == ".eml"]
        assert len(mails) == 1, "and its mail queued exactly once"
        data = produced[0].read_bytes()
        got = before_other = _check_consistent(other, gid)
        path = tmp_path / "incoming.pbem"
        path.write_bytes(data)
        if _cli(other, "receive", str(path), kill_after=rnd.uniform(0, span)) is None:
            kills += 1
        got = _check_consistent(other, gid)
        assert got in (before_other, before_other + 1)
        assert _cli(other, "receive", str(path)) == 0  # again: added, or already had it
        assert _check_consistent(other, gid) == seq
        seat = other.name
        if game.derive(red.session, store.game_dir(red.home, gid)).pending() is None:
            break
    elapsed = time.perf_counter() - started
    print(f"\ncrash safety: {kills} SIGKILLs in {elapsed:.0f}s, store consistent after each, no file lost")
    assert kills >= min(COUNT, 1)


# The CLI with its mail step replaced by a SIGKILL: the kill lands after the turn file is
# written and before any mail is queued, the window a random kill rarely hits.
KILL_AT_MAIL = ("import os, signal, pbem.mail.dispatch as m; "
                "m.dispatch = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL); "
                "from pbem.cli import main; main()")


def _env(p: Player) -> dict[str, str]:
    tests = str(Path(__file__).parent)
    return {**os.environ, "PBEM_PASSPHRASE": f"pw-{p.name}", "PBEM_RULES_MODULES": "toygame:DUEL",
            "PYTHONPATH": tests + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _mails_of(p: Player, gid: bytes, seq: int) -> list[Path]:
    out = store.game_dir(p.home, gid).outbox
    return [x for x in out.glob(f"*-{seq:06d}-turn-{p.name}.pbem.*.eml")] if out.is_dir() else []


def _duel_on_disk(tmp_path: Path) -> tuple[Player, Player, bytes]:
    red, blue = _player_on_disk(tmp_path, "red"), _player_on_disk(tmp_path, "blue")
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="endless", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={"strict_dice": False},
                                 rng=red.session.rng, now=1_700_000_000)
    gid = game.create(red.session, data).con.game_id
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    return red, blue, gid


def test_a_kill_between_the_file_and_its_mail_is_repaired_by_the_next_command(tmp_path: Path) -> None:
    red, _, gid = _duel_on_disk(tmp_path)
    orders = tmp_path / "orders.txt"
    orders.write_text("pass\n")
    home = ["--home", str(red.home.config.parent)]
    proc = subprocess.run([sys.executable, "-c", KILL_AT_MAIL, *home, "play", gid.hex(), "--orders", str(orders),
                           "--outbox"], env=_env(red), capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert _check_consistent(red, gid) == 1 and _mails_of(red, gid, 1) == []
    # Not only `status`: any command that reads the game for play queues what the kill left.
    r = subprocess.run([sys.executable, "-m", "pbem.cli", *home, "orders", "template", gid.hex()],
                       env=_env(red), capture_output=True, timeout=120, text=True)
    assert r.returncode == 0, r.stderr
    assert "queued the missing mail" in r.stdout
    assert len(_mails_of(red, gid, 1)) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipe")
def test_play_into_a_closed_pipe_still_queues_the_mail(tmp_path: Path) -> None:
    red, blue, gid = _duel_on_disk(tmp_path)
    orders = tmp_path / "orders.txt"
    orders.write_text("pass\n")
    cmd = [sys.executable, "-m", "pbem.cli", "--home", str(red.home.config.parent), "play", gid.hex(),
           "--orders", str(orders), "--outbox"]
    for p in (red, blue):  # queue the setup's own mails (made in-process), so play prints nothing first
        assert _cli(p, "status") == 0
    # The reader is gone before the first word is written: every echo meets a broken pipe.
    proc = subprocess.Popen(cmd, env=_env(red), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert _check_consistent(red, gid) == 1, err
    assert len(_mails_of(red, gid, 1)) == 1, "the mail is queued before anything is printed"
    # And through a real shell pipe, as a player types it.
    assert _cli(blue, "receive", str(next(store.game_dir(red.home, gid).outbox.glob("*-000001-turn-red.pbem")))) == 0
    line = " ".join(shlex.quote(w) for w in [*cmd[:4], str(blue.home.config.parent), "play", gid.hex(),
                                             "--orders", str(orders), "--outbox"])
    r = subprocess.run(f"{line} | head -1", shell=True, env=_env(blue), capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 1
    assert _check_consistent(blue, gid) == 2 and len(_mails_of(blue, gid, 2)) == 1


def test_home_paths_used_by_crash_test(tmp_path: Path) -> None:
    assert paths.resolve(tmp_path).data == tmp_path.resolve() / "data"
