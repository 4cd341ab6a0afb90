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
