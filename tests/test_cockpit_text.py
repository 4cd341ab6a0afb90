"""The player's cockpit in text (issue 12, points 2, 4 and 6).

* `orders template` lists each unit's legal destinations and attacks with their DRMs, built
  from the legal-actions query (pbem.present.cockpit), and the lines it offers parse and pass;
* no blind orders: what the start of the player's file resolves (a combat answered by the
  opponent) is shown by `orders template`, `show` and `play` before the rest of the phase;
* the edges of a game: standing orders, the ending protocol as `status`, `show`, `play` and
  `game end` tell it, recovery imports that re-send nothing, observers told when to import.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import Player, deliver, demo_turns, start_france_1940

from pbem.cli import cli
from pbem.errors import ExitCode
from pbem.play import game, lookahead
from pbem.protocol.identity import save_identity
from pbem.store import gamestore as store
from pbem.store.fsutil import atomic_write


def _on_disk(p: Player) -> None:
    save_identity(p.session.ident, p.home.identity_file, f"pw-{p.name}", work_factor=10)
    atomic_write(p.home.card_file, p.card.to_text().encode())


def _run(p: Player, *args: str, ok: bool = True) -> Result:
    r = CliRunner().invoke(cli, ["--home", str(p.home.config.parent), *args],
                           env={"PBEM_PASSPHRASE": f"pw-{p.name}"})
    if ok:
        assert r.exit_code == 0, f"{args}: {r.output}"
    return r


@pytest.fixture(scope="module")
def sedan(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Player], bytes, str]:
    """France 1940 just before the Axis file that first resolves the combat at Sedan (the Will
    Commits revealed and the air units declared, USE 5.1). Returns the demo's orders for it."""
    players, gid = start_france_1940(tmp_path_factory.mktemp("cockpit"))
    for p in players.values():
        _on_disk(p)
    for n, (seat, text) in enumerate(demo_turns(players, gid), start=1):
        if seat == "axis" and n > 3:
            d = game.load(players["axis"].session, store.game_dir(players["axis"].home, gid))
            if any("Combat at 1610" in s for s in lookahead.file_start(d).sentences):
                return players, gid, text
        deliver(players, gid, seat, text)
    raise AssertionError("the demo never resolves the combat at Sedan")


def test_template_lists_destinations_attacks_and_what_the_file_resolves_first(
        sedan: tuple[dict[str, Player], bytes, str]) -> None:
    players, gid, _ = sedan
    out = _run(players["axis"], "orders", "template", gid.hex()[:12]).output
    head = out.splitlines()[:8]
    before = [line for line in head if line.startswith("# Before your orders: ")]
    assert any("Combat at 1610" in line and "die " in line and "final " in line for line in before), head
    assert re.search(r"#   attack \d{4} from GER-XIX \[will-commit\|no-commit\] \[air AIR\] \[no-advance\]", out)
    assert re.search(r"vs FRA-\S+: DRM attacker \+1 elite, \+2 tank; defender ", out)
    assert re.search(r"#   move GER-XV PATH\.\.\..*\n#       may end in ", out)
    assert "key=" not in out and "{'" not in out
    # Every order the template spells out is one `orders check` accepts.
    gs = store.game_dir(players["axis"].home, gid)
    offered = [m.group(1) for m in re.finditer(r"^#       e\.g\. (move .*)$", out, re.M)][:4]
    offered += [m.group(1).split(" [")[0] for m in re.finditer(r"^#   (attack \d{4} from \S+)", out, re.M)][:3]
    assert len(offered) == 7
    for line in offered:
        assert game.check_orders(players["axis"].session, gs, line + "\n") == [], line


def test_standing_orders_wait_for_the_players_next_file(sedan: tuple[dict[str, Player], bytes, str],
                                                        tmp_path: Path) -> None:
    players, gid, _ = sedan
    western = players["western"]
    gs = store.game_dir(western.home, gid)
    d = game.load(western.session, gs)
    if d.pending() is not None and d.pending().seat == "western":  # type: ignore[union-attr]
        pytest.skip("the module fixture has moved on to Western's move")
    tpl = _run(western, "orders", "template", gid.hex()[:12]).output
    assert "standing orders go in your next file" in tpl
    orders = tmp_path / "standing.txt"
    orders.write_text("standing will-commit no\n")
    r = _run(western, "play", gid.hex()[:12], "--orders", str(orders), "--outbox", ok=False)
    assert r.exit_code == ExitCode.STATE and "standing orders too" in r.output


def test_show_and_play_tell_the_resolution_first(sedan: tuple[dict[str, Player], bytes, str],
                                                 tmp_path: Path) -> None:
    players, gid, text = sedan
    axis = players["axis"]
    shown = _run(axis, "show", gid.hex()[:12]).output
    assert shown.startswith("Before your orders: ")
    assert "Before your orders" not in _run(axis, "show", gid.hex()[:12], "--public").output
    orders = tmp_path / "orders.txt"
    orders.write_text(text)
    out = _run(axis, "play", gid.hex()[:12], "--orders", str(orders), "--outbox").output.splitlines()
    assert out[0].startswith("your file first resolved: ")
    assert any("Combat at 1610" in line for line in out if line.startswith("your file first resolved: "))
    assert any(re.match(r"turn file \d+ written", line) for line in out)
    assert out[-1].startswith("  queued: ")


# -- the ending protocol and recovery, on the duel through the command line ---------------------

class Home:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / name
        self.name = name

    def __call__(self, *args: str, ok: bool = True) -> Result:
        r = CliRunner().invoke(cli, ["--home", str(self.dir), *args],
                               env={"PBEM_PASSPHRASE": f"a long passphrase of {self.name}"})
        if ok:
            assert r.exit_code == 0, f"{args}: {r.output}"
        return r

    def last_outbox(self) -> Path:
        files = sorted((self.dir / "data" / "games").glob("*/outbox/*.pbem"), key=lambda p: p.stat().st_mtime_ns)
        return files[-1]


def _duel(tmp_path: Path, *names: str) -> tuple[list[Home], str]:
    homes = [Home(tmp_path, n) for n in names]
    for h in homes:
        h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org", "--work-factor", "10")
        h("key", "card", "-o", str(tmp_path / f"{h.name}.card"))
    red, blue = homes[0], homes[1]
    r = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
            "--seat", f"blue={tmp_path / 'blue.card'}", "--option", "strict_dice=false", "--outbox")
    m = re.search(r"game ([0-9a-f]{32}) proposed", r.output)
    assert m
    blue("game", "join", str(red.last_outbox()), "--yes", "--outbox")
    red("receive", str(blue.last_outbox()))
    return homes, m.group(1)[:12]


def _status(h: Home) -> str:
    return str(h("status").output)


def test_every_player_is_told_what_to_run_at_the_end(tmp_path: Path) -> None:
    (red, blue), gid = _duel(tmp_path, "red", "blue")
    r = red("game", "end", gid, ok=False)
    assert r.exit_code == ExitCode.STATE and "--propose" in r.output
    red("game", "end", gid, "--agree", "--outbox")
    r = red("game", "end", gid, ok=False)
    assert r.exit_code == ExitCode.STATE and "waits for the other seats' answers" in r.output
    blue("receive", str(red.last_outbox()))
    assert f"run 'pbem game end {gid} --agree' to accept" in _status(blue)
    r = blue("game", "end", gid, ok=False)
    assert r.exit_code == ExitCode.STATE and "your answer is wanted" in r.output and "--agree" in r.output
    blue("game", "end", gid, "--agree", "--outbox")
    red("receive", str(blue.last_outbox()))
    for h in (red, blue):
        assert f"run 'pbem game end {gid}' to reveal" in _status(h)
    red("game", "end", gid, "--outbox")
    blue("receive", str(red.last_outbox()))
    st = _status(blue)
    assert "ended (ended by agreement of every seat); waiting for reveals from blue: yours is wanted" in st
    assert f"run 'pbem game end {gid}'" in st
    assert "waiting for reveals from blue; you have revealed" in _status(red)
    assert _status(blue) and "This game is ended" in blue("show", gid).output
    orders = tmp_path / "o.txt"
    orders.write_text("pass\n")
    r = blue("play", gid, "--orders", str(orders), ok=False)
    assert r.exit_code == ExitCode.STATE and f"pbem game end {gid}" in r.output.replace("GAME", gid)
    blue("game", "end", gid, "--outbox")
    assert "every seat has revealed" in _status(blue)


def test_recovery_import_resends_nothing_and_observers_wait_for_the_reveals(tmp_path: Path) -> None:
    (red, blue, eve), gid = _duel(tmp_path, "red", "blue", "eve")
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid, "--orders", str(orders), "--outbox")
    blue("receive", str(red.last_outbox()))
    blue("play", gid, "--orders", str(orders), "--outbox")
    red("receive", str(blue.last_outbox()))
    arc = tmp_path / "game.arc"
    red("archive", "export", gid, "-o", str(arc))
    r = eve("archive", "import", str(arc), ok=False)
    assert r.exit_code == ExitCode.STATE and "observers import a game after every reveal is in" in r.output
    # Red recovers on a fresh machine: same key, empty home.
    fresh = Home(tmp_path, "red2")
    fresh.dir.mkdir()
    _copy_identity(red, fresh)
    fresh("archive", "import", str(arc))
    out = _status(fresh)
    assert "repaired" not in out and "queued" not in out
    gs = next((fresh.dir / "data" / "games").iterdir())
    assert not list((gs / "outbox").glob("*")) if (gs / "outbox").is_dir() else True


def _copy_identity(src: Home, dst: Home) -> None:
    from pbem.store import paths

    a, b = paths.resolve(src.dir), paths.resolve(dst.dir)
    for name in ("identity_file", "card_file"):
        atomic_write(getattr(b, name), getattr(a, name).read_bytes())
    dst.name = src.name  # the passphrase
