"""The key agent (issue 11): unlock once per sitting, the secrets kept in the agent's process."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import DetRng, make_player

from pbem.crypto import age, ed25519
from pbem.errors import AuthError, InvalidInput
from pbem.play import game
from pbem.protocol import genesis, keyagent
from pbem.protocol.identity import Identity, new_identity
from pbem.store import gamestore

pytestmark = pytest.mark.skipif(not keyagent.supported(), reason="the key agent needs Unix sockets")


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "run"
    d.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(d))
    return d


def _ident(label: str = "agent") -> Identity:
    return new_identity("Ann", "ann@example.org", rng=DetRng(label), now=lambda: 1_700_000_000)


class _Agent:
    def __init__(self, ident: Identity, config: Path, idle: float = 30.0) -> None:
        self.path = keyagent.socket_path(config)
        ready = threading.Event()
        self.thread = threading.Thread(target=keyagent.serve, args=(ident, self.path),
                                       kwargs={"idle": idle, "ready": ready.set}, daemon=True)
        self.thread.start()
        assert ready.wait(5)


@pytest.fixture
def served(runtime: Path, tmp_path: Path) -> Iterator[tuple[Identity, Path, _Agent]]:
    ident = _ident()
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    ag = _Agent(ident, config)
    yield ident, config, ag
    keyagent.lock(config)
    ag.thread.join(5)


def test_answers_are_what_the_key_itself_gives() -> None:
    ident = _ident()
    msg = b"pbem test message"
    assert keyagent.answer(ident, {"op": "sign", "message": msg})["ok"] == ident.sign(msg)
    with pytest.raises(InvalidInput):
        keyagent.answer(ident, {"op": "export"})  # there is no way to ask for the secret
    with pytest.raises(InvalidInput):
        keyagent.answer(ident, {"op": "unwrap", "stanzas": [["X25519"]]})


def test_signs_and_opens_through_the_socket(served: tuple[Identity, Path, _Agent]) -> None:
    ident, config, ag = served
    st = os.stat(ag.path)
    assert stat.S_ISSOCK(st.st_mode) and st.st_mode & 0o777 == 0o600
    assert os.stat(ag.path.parent).st_mode & 0o777 == 0o700
    remote = keyagent.connect(config, ident.card())
    assert remote is not None and remote.card().fingerprint == ident.card().fingerprint
    assert not hasattr(remote, "signing_seed") and not hasattr(remote, "age_identity")
    sig = remote.sign(b"hello")
    assert ed25519.verify(ident.signing_key, b"hello", sig)
    blob = age.encrypt(b"secret orders", [ident.age_recipient], rng=DetRng("enc"))
    assert age.decrypt(blob, [remote.age_key()]) == b"secret orders"
    other = age.encrypt(b"x", [_ident("other").age_recipient], rng=DetRng("enc2"))
    with pytest.raises(age.NoMatchError):
        age.decrypt(other, [remote.age_key()])


def test_an_agent_of_another_identity_is_not_used(served: tuple[Identity, Path, _Agent]) -> None:
    _, config, _ = served
    assert keyagent.connect(config, _ident("someone else").card()) is None


def test_lock_stops_it_and_removes_the_socket(served: tuple[Identity, Path, _Agent]) -> None:
    _, config, ag = served
    assert keyagent.running(config)
    assert keyagent.lock(config)
    ag.thread.join(5)
    assert not ag.thread.is_alive() and not ag.path.exists()
    assert keyagent.connect(config, None) is None
    assert not keyagent.lock(config)


def test_it_locks_itself_when_idle(runtime: Path, tmp_path: Path) -> None:
    ag = _Agent(_ident(), tmp_path, idle=0.3)
    ag.thread.join(10)
    assert not ag.thread.is_alive() and not ag.path.exists()


def test_a_folder_others_may_enter_is_refused(runtime: Path, tmp_path: Path) -> None:
    folder = keyagent.socket_path(tmp_path).parent
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    with pytest.raises(AuthError):
        keyagent.serve(_ident(), keyagent.socket_path(tmp_path), idle=1)
    assert keyagent.connect(tmp_path, None) is None


def test_a_game_played_with_agent_held_keys(runtime: Path, tmp_path: Path) -> None:
    """Two players whose sessions hold only agent identities play and verify a game."""
    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    agents = []
    for p in (red, blue):
        ident = p.session.ident
        assert isinstance(ident, Identity)
        agents.append(_Agent(ident, p.home.config))
        remote = keyagent.connect(p.home.config, ident.card())
        assert remote is not None
        p.session.ident = remote
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="short", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={"strict_dice": False},
                                 rng=red.session.rng, now=1_700_000_000)
    gid = game.create(red.session, data).con.game_id
    game.receive(blue.session, data)
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    for seat, p, q in ((0, red, blue), (1, blue, red), (2, red, blue)):
        f, _ = game.play(p.session, gamestore.game_dir(p.home, gid), "seal 2\n" if seat == 0 else "roll\n")
        game.receive(q.session, f.raw)
    d = game.load(blue.session, gamestore.game_dir(blue.home, gid))
    assert d.seq == 3
    for p in (red, blue):
        keyagent.lock(p.home.config)
    for ag in agents:
        ag.thread.join(5)


def test_the_cli_starts_and_locks_a_background_agent(runtime: Path, tmp_path: Path) -> None:
    home = tmp_path / "cli-home"
    tests = str(Path(__file__).parent)
    env = {**os.environ, "PBEM_PASSPHRASE": "a long passphrase for the agent test",
           "XDG_RUNTIME_DIR": str(runtime), "PBEM_RULES_MODULES": "toygame:DUEL",
           "PYTHONPATH": tests + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def pbem(*args: str, at: Path = home) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pbem.cli", "--home", str(at), *args],
                              capture_output=True, text=True, env=env, timeout=60)

    assert pbem("key", "new", "--name", "Cli", "--email", "cli@example.org").returncode == 0
    other = tmp_path / "other-home"
    assert pbem("key", "new", "--name", "Bo", "--email", "bo@example.org", at=other).returncode == 0
    try:
        r = pbem("agent", "start", "--idle", "5")
        assert r.returncode == 0, r.stderr
        assert "unlocked" in r.stdout
        assert "unlocked" in pbem("agent", "status").stdout
        from pbem.cli import warm

        if warm.supported():  # and the warm worker beside it (pbem.cli.warm), without the key
            for _ in range(400):
                if warm.listening(home / "config"):
                    break
                time.sleep(0.05)
            assert warm.listening(home / "config")
        del env["PBEM_PASSPHRASE"]  # from now on only the agent holds the key
        r = pbem("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
                 "--seat", f"blue={other / 'config' / 'card.txt'}", "--option", "strict_dice=false")
        assert r.returncode == 0, r.stderr  # signed the proposal through the agent
        assert "game" in r.stdout and "proposed" in r.stdout
    finally:
        r = pbem("lock")
    assert r.stdout.strip() == "locked"
    from pbem.cli import warm

    assert not warm.listening(home / "config")
    assert "locked: no agent" in pbem("agent", "status").stdout
    r = pbem("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
             "--seat", f"blue={other / 'config' / 'card.txt'}")
    assert r.returncode != 0 and "passphrase is needed" in r.stderr  # locked: back to asking
