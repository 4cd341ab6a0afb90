"""Private stays private on disk: every file a home holds is 0600, every folder 0700.

Plays a short game through the CLI under a umask of 0 (the most permissive a
user could have), then walks both homes and checks every mode. Also checks
that the plaintext cache holds no secret: an unopened commitment's nonce and
a sealed Will Commit value live only in the cache sealed to the player's key.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import make_player

from pbem import rulesapi
from pbem.cli import cli, demo
from pbem.crypto import age
from pbem.formats import canonical, padding
from pbem.play import game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import load_identity
from pbem.store import gamestore as store
from pbem.store import paths

pytestmark = pytest.mark.skipif(os.name == "nt", reason="file modes mean nothing on Windows")


@pytest.fixture
def open_umask() -> Iterator[None]:
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _bad_modes(root: Path) -> list[str]:
    bad = []
    for p in [root, *sorted(root.rglob("*"))]:
        st = p.lstat()
        want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
        if stat.S_ISLNK(st.st_mode) or stat.S_IMODE(st.st_mode) != want:
            bad.append(f"{p.relative_to(root.parent)}: {oct(stat.S_IMODE(st.st_mode))}, want {oct(want)}")
    return bad


class Home:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / name
        self.name = name

    def __call__(self, *args: str, stdin: str | None = None) -> Result:
        r = CliRunner().invoke(cli, ["--home", str(self.dir), *args], input=stdin,
                               env={"PBEM_PASSPHRASE": f"pass-{self.name}"})
        assert r.exit_code == 0, f"{args}: {r.output}"
        return r

    def newest(self, pattern: str) -> Path:
        return sorted(self.dir.glob(pattern), key=lambda p: p.stat().st_mtime_ns)[-1]


def test_every_file_and_folder_of_a_home_is_private(tmp_path: Path, open_umask: None) -> None:
    red, blue = Home(tmp_path, "red"), Home(tmp_path, "blue")
    for h in (red, blue):
        h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org", "--work-factor", "10")
    blue("key", "card", "-o", str(tmp_path / "blue.card"))
    out = red("game", "new", "--rules", "duel", "--scenario", "endless", "--seat", "red=me",
              "--seat", f"blue={tmp_path / 'blue.card'}", "--option", "strict_dice=false").output
    gid = re.search(r"game ([0-9a-f]{32}) proposed", out)
    assert gid
    blue("receive", str(red.newest("data/games/*/outbox/*.pbem")))  # an invitation
    fpr = red("key", "fingerprint").output.strip()
    blue("game", "join", str(blue.newest("data/invitations/*.pbem")), "--expect", f"red={fpr}", "--accept-options")
    red("receive", str(blue.newest("data/games/*/outbox/*.pbem")))
    orders = tmp_path / "orders.txt"
    for h, other, text in [(red, blue, "roll\nseal 2\n"), (blue, red, "secret\n"), (red, blue, "roll\n")]:
        orders.write_text(text)
        h("play", gid.group(1), "--orders", str(orders))
        other("receive", str(h.newest("data/games/*/outbox/*.pbem")))
    red("status")
    view = tmp_path / "view.html"
    red("show", gid.group(1), "--html", "-o", str(view))
    typed = tmp_path / "typed.txt"
    blue("orders", "prompt", gid.group(1), "-o", str(typed), stdin="roll\n\n")

    assert _bad_modes(red.dir) + _bad_modes(blue.dir) == []
    for written in (view, typed):  # outside the homes, but they show what only one seat may know
        assert stat.S_IMODE(written.stat().st_mode) == 0o600, written
    # What was walked is a real home: mails queued, a lock, an invitation folder, both caches.
    gs = store.game_dir(paths.resolve(red.dir), bytes.fromhex(gid.group(1)))
    assert list(gs.outbox.glob("*.eml")) and (red.dir / "data" / ".lock").exists()
    assert (blue.dir / "data" / "invitations").is_dir()
    assert gs.cache_path.exists() and gs.private_cache_path.exists()

    # red's seal of file 1 is still unopened: its nonce is in cache-private.age only.
    ident = load_identity(red.dir / "config" / "identity.age", "pass-red")
    header = turnfile.parse(gs.find(1, "turn")[0].read()).header
    mine = canonical.decode(padding.unpad(age.decrypt(header["private"]["red"], [ident.age_identity]), "part"))
    (opening,) = mine["openings"].values()
    cache = gs.cache_path.read_bytes()
    assert opening["nonce"] not in cache and canonical.encode(opening) not in cache
    assert b"openings" not in cache and b"secret_rolls" not in cache
    assert opening["nonce"] not in gs.private_cache_path.read_bytes()


def test_cache_keeps_a_sealed_will_commit_out_of_the_clear(tmp_path: Path) -> None:
    """USE: after the Axis seals its Will Commit, cache.bin shows neither the value nor its nonce."""
    rules = rulesapi.get("use")
    script = rules.demo_script("france-1940")
    if script is None:
        pytest.skip("no demo script")
    players = {s: make_player(tmp_path, s) for s in ("axis", "western")}
    data = genesis.make_proposal(players["axis"].session.ident, rules_name="use", scenario="france-1940",
                                 my_seat="axis", cards={s: p.card for s, p in players.items()},
                                 options={"strict_dice": False}, rng=players["axis"].session.rng, now=1_700_000_000)
    gid = game.create(players["axis"].session, data).con.game_id
    jf, _ = game.join(players["western"].session, data)
    game.receive(players["axis"].session, jf.raw)
    steps = demo.parse_script(script)[:3]
    assert "attack 1610 from GER-XIX will-commit" in steps[2][1]
    for seat, text in steps:
        game.play(players[seat].session, store.game_dir(players[seat].home, gid), text)
        other = players["western" if seat == "axis" else "axis"]
        game.receive(other.session, store.game_dir(players[seat].home, gid).files()[-1].read())
    axis = players["axis"]
    gs = store.game_dir(axis.home, gid)
    full = game.derive(axis.session, gs)
    sealed = [o for o in full.secrets["openings"].values()
              if isinstance(o["value"], dict) and o["value"].get("commit") is True]
    assert sealed, "the Axis holds the opening of its sealed Will Commit"
    cache = gs.cache_path.read_bytes()
    for o in sealed:
        assert o["nonce"] not in cache
        assert canonical.encode(o["value"]) not in cache
    # The sealed cache gives back exactly what replaying the files gives.
    cached = game.load(axis.session, gs)
    assert (cached.secrets, cached.private, cached.seq) == (full.secrets, full.private, full.seq)
    # A cache sealed to someone else (or damaged) is not trusted: the game is replayed instead.
    gs.private_cache_path.write_bytes(age.encrypt(b"x" * 1024, [players["western"].card.age_recipient]))
    assert game.load(axis.session, gs).secrets == full.secrets
