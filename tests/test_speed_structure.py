"""What a command imports (issue 11): structural checks, never timings.

`pbem --help` must not load the game layer, jinja2 or mail; `status` with
nothing to repair must not load jinja2 or mail, nor unlock; `receive` of a
plain .pbem file must not load the mail package. Each runs in a fresh
interpreter, and the modules it loaded are read from ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
from helpers import demo_turns, start_france_1940

from pbem.cli import base

HEAVY = ("pbem.play", "pbem.mail", "pbem.present", "pbem.kit", "pbem_rules", "jinja2", "email", "PIL")
_RUN = ("import json, sys\n"
        "from pbem.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n")


def _modules(*args: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    r = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True,
                       env={**os.environ, **(env or {})}, timeout=120)
    err, _, mods = r.stderr.rpartition("\nMODULES ")
    return set(json.loads(mods)), r.stdout + err


def _loaded(mods: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in mods if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_help_imports_no_game_layer() -> None:
    mods, out = _modules("--help")
    assert "Commands:" in out
    assert _loaded(mods, HEAVY) == []


def test_the_command_table_matches_the_commands() -> None:
    """`--help` lists commands from pbem.cli.base.COMMANDS without importing them: it must say what they say."""
    import importlib

    for module in {m for m, _ in base.COMMANDS.values()}:
        importlib.import_module(module)
    assert set(base.cli.commands) == set(base.COMMANDS)
    for name, cmd in base.cli.commands.items():
        module, text = base.COMMANDS[name]
        assert cmd.callback is not None and cmd.callback.__module__ == module, name
        assert " ".join((cmd.help or "").split("\n\n")[0].split()) == text, name
        assert cmd.short_help is None and not cmd.hidden, name
    lazy = click.Command("x", help=base.COMMANDS["play"][1]).get_short_help_str(45)
    assert lazy == base.cli.commands["play"].get_short_help_str(45)


def _home_with_game(tmp: Path) -> tuple[Path, Path, bytes]:
    from pbem.mail import dispatch
    from pbem.play import game
    from pbem.protocol.identity import save_identity
    from pbem.store import gamestore
    from pbem.store.fsutil import atomic_write

    players, gid = start_france_1940(tmp)
    seat, text = next(demo_turns(players, gid))
    red, blue = players[seat], next(p for s, p in players.items() if s != seat)
    f = game.play(red.session, gamestore.game_dir(red.home, gid), text)[0]
    for p in (red, blue):
        save_identity(p.session.ident, p.home.identity_file, "pw", work_factor=10)
        atomic_write(p.home.card_file, p.card.to_text().encode())
    gs = gamestore.game_dir(red.home, gid)
    d = game.load(red.session, gs)
    dispatch.repair(red.session, gs, d)  # the library wrote no mails: queue them, as status would
    return red.home.config.parent, blue.home.config.parent, f.raw


def test_status_imports_no_mail_and_does_not_unlock(tmp_path: Path) -> None:
    red_home, _, _ = _home_with_game(tmp_path)
    # A wrong passphrase: an unlock would fail the command.
    mods, out = _modules("--home", str(red_home), "status", env={"PBEM_PASSPHRASE": "wrong"})
    assert "file 1" in out and "error" not in out, out
    assert _loaded(mods, ("pbem.mail", "jinja2", "smtplib", "imaplib", "mailbox", "PIL")) == []


def test_receive_of_a_plain_file_imports_no_mail(tmp_path: Path) -> None:
    _, blue_home, raw = _home_with_game(tmp_path)
    f = tmp_path / "turn.pbem"
    f.write_bytes(raw)
    mods, out = _modules("--home", str(blue_home), "receive", str(f), env={"PBEM_PASSPHRASE": "pw"})
    assert ": added" in out, out
    assert _loaded(mods, ("pbem.mail", "jinja2", "smtplib", "imaplib", "mailbox")) == []


def test_help_is_served_without_click_and_equals_clicks() -> None:
    """`pbem --help` prints a text click rendered beforehand (pbem.cli.quick): it must be click's, byte for byte."""
    from pbem.cli import _helptext, quick

    assert _helptext.SOURCE == quick.help_source(), \
        "the commands changed: run  .venv/bin/python -c 'from pbem.cli import quick; quick.write_help()'"
    assert _helptext.HELP == quick.click_help(), \
        "click's help changed: run  .venv/bin/python -c 'from pbem.cli import quick; quick.write_help()'"
    mods, out = _modules("--help", env={"COLUMNS": "100"})
    assert out == _helptext.HELP
    assert _loaded(mods, (*HEAVY, "click")) == []
    # A narrower terminal: click wraps the text itself.
    mods, out = _modules("--help", env={"COLUMNS": "60"})
    assert "click" in mods and "Commands:" in out and out != _helptext.HELP


def test_the_glance_hashes_as_the_protocol_does() -> None:
    from pbem.protocol import turnfile
    from pbem.store import glance

    assert glance.FILE_HASH_LABEL == turnfile.FILE_HASH
    assert glance._lhash(glance.FILE_HASH_LABEL, b"x") == turnfile.file_hash(b"x")


def test_status_of_a_current_game_reads_its_glance(tmp_path: Path) -> None:
    """A current game's status line comes from glance.json: no rules, no game layer, no click;
    and it is the line the full path prints. A stale glance sends status down the full path."""
    from click.testing import CliRunner

    red_home, _, _ = _home_with_game(tmp_path)
    full = CliRunner().invoke(base.cli, ["--home", str(red_home), "status"], env={"PBEM_PASSPHRASE": "wrong"})
    assert full.exit_code == 0, full.output
    mods, out = _modules("--home", str(red_home), "status", env={"PBEM_PASSPHRASE": "wrong"})
    assert out == full.output and "file 1" in out
    assert _loaded(mods, ("pbem_rules", "jinja2", "click", "pbem.play", "pbem.protocol", "pbem.mail")) == []
    (glance_file,) = (red_home / "data" / "games").glob("*/glance.json")
    good = glance_file.read_text()
    key = json.loads(good)["key"]
    glance_file.write_text(good.replace(key, "00" * 32))  # as if a file came without its glance
    mods, out = _modules("status", "--home", str(red_home), env={"PBEM_PASSPHRASE": "wrong"})
    assert out == full.output and "pbem.play" in mods
    assert glance_file.read_text() == good  # the full path wrote it again, from the current cache
    mods, out = _modules("status", "--home", str(red_home))
    assert out == full.output and "pbem.play" not in mods


def test_the_static_map_layer_cached_on_disk_draws_the_same_png(tmp_path: Path) -> None:
    """The map's static layer kept in the home's cache folder: 0600, checked on load, same PNG to the byte."""
    import stat

    from pbem_rules.use import view
    from pbem_rules.use.initial import state_from_scenario
    from pbem_rules.use.scenario import load_scenario

    from pbem.present import raster, render
    from pbem.store import paths

    pic = view.map_picture(state_from_scenario(load_scenario("france-1940")))
    assert pic is not None
    raster._STATIC.clear()
    paths.use_cache_dir(None)
    fresh = render.map_png(pic)
    try:
        paths.use_cache_dir(tmp_path / "cache")
        raster._STATIC.clear()
        assert render.map_png(pic) == fresh  # drawn, and written
        (cached,) = (tmp_path / "cache").glob("map-static-*.bin")
        assert stat.S_IMODE(cached.stat().st_mode) == 0o600
        raster._STATIC.clear()
        assert render.map_png(pic) == fresh  # read back
        data = cached.read_bytes()
        cached.write_bytes(data[:-10] + bytes(10))  # damaged: drawn again and replaced
        raster._STATIC.clear()
        assert render.map_png(pic) == fresh
        assert cached.read_bytes() == data
        raster._STATIC.clear()  # read ahead, as the warm worker does: the same picture
        raster.preload_disk(tmp_path / "cache")
        assert len(raster._PRELOADED) == 1 and render.map_png(pic) == fresh
    finally:
        paths.use_cache_dir(None)
        raster._STATIC.clear()
        raster._PRELOADED.clear()


def test_the_log_is_kept_out_of_the_cache_and_read_only_when_asked(tmp_path: Path) -> None:
    """cache.bin holds no event log (issue 11): log.bin is appended to, and a load reads it only on demand."""
    from helpers import deliver, start_duel

    from pbem.formats import canonical
    from pbem.play import game
    from pbem.store import gamestore

    red, blue, gid = start_duel(tmp_path, scenario="endless")
    players = {"red": red, "blue": blue}
    gs = gamestore.game_dir(blue.home, gid)
    sizes = []
    for i, text in enumerate(["roll\n", "pass\n", "seal 2\n", "roll\n", "open\n"]):
        deliver(players, gid, "red" if i % 2 == 0 else "blue", text)
        sizes.append(gs.log_path.stat().st_size)
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    cache = canonical.decode(gs.cache_path.read_bytes())
    assert "log" not in cache and cache["log_n"] == 5 and cache["log_end"] == sizes[-1]
    d = game.load(blue.session, gs)
    assert d._log is None and d.last_log() == cache["log_last"]  # not read yet
    assert d.log == game.derive(blue.session, gs).log
    # A command killed after appending to log.bin but before writing cache.bin: the extra bytes
    # are cut by the next append, and a load reads only what cache.bin names.
    with open(gs.log_path, "ab") as fh:
        fh.write(b"\x00\x00\x00\x05junk!")
    assert game.load(blue.session, gs).log == game.derive(blue.session, gs).log
    deliver(players, gid, "blue", "pass\n")
    assert game.load(red.session, gamestore.game_dir(red.home, gid)).log == game.derive(blue.session, gs).log
    assert game.load(blue.session, gs).log == game.derive(blue.session, gs).log
    # A damaged log: the load replays the files instead.
    gs.log_path.write_bytes(b"\xff" * gs.log_path.stat().st_size)
    assert game.load(blue.session, gs).log == game.derive(red.session, gamestore.game_dir(red.home, gid)).log
