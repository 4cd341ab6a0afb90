"""Fast paths for `pbem --help` and `pbem status`: answered without importing click or the game layer.

Issue 11 asks both to start in a blink (1.5x and 2x of a bare interpreter); importing click
alone costs more than that. Each fast path answers only when it can say exactly what the click
command would (byte for byte; tests/test_speed_structure.py compares them) and otherwise
returns False, and the click command runs as before:

- `--help` prints the text click rendered when the table of commands last changed
  (pbem/cli/_helptext.py, rewritten by ``write_help``) while that table and the version are the
  same, on a terminal 80 columns or wider (or none), where click's width is fixed at 78.
- `status` prints each game's line from its glance (pbem.store.glance) when every game has a
  current one and nothing to repair or mail, the home's card exists and its lock is free.
"""

from __future__ import annotations

import os
import sys

from pbem.cli.commands import COMMANDS, GLOBAL_OPTIONS, hoist_global_options


def run(argv: list[str]) -> bool:
    """Answer ``argv`` here when a fast path can; False: the caller runs click."""
    try:
        text = _answer(argv)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return False  # anything unexpected: the full path decides, and reports it as it does
    if text is None:
        return False
    sys.stdout.write(text)  # outside the try: a failed write must not be retried by click
    return True


def _answer(argv: list[str]) -> str | None:
    args = hoist_global_options(argv)
    if args and args[-1] in ("--help", "status"):
        opts = global_options(args[:-1])
        if opts is not None:
            return _help() if args[-1] == "--help" else _status(opts)
    return None


def _terminal_columns() -> int:
    """shutil.get_terminal_size().columns, as click's help formatter reads it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
        columns = columns or 80
    return columns


def help_source() -> str:
    """What the prebuilt help was rendered from: a change to it makes the text stale."""
    import zlib

    from pbem import __version__

    return f"{zlib.crc32(repr((__version__, sorted(COMMANDS.items()))).encode()):08x}"


def _help() -> str | None:
    from pbem.cli import _helptext

    if _helptext.SOURCE != help_source() or _terminal_columns() < 80:
        return None
    return _helptext.HELP


def click_help() -> str:
    """`pbem --help` as click renders it on an 80-column terminal (imports click)."""
    import click.formatting

    from pbem.cli.base import cli

    saved = click.formatting.FORCED_WIDTH
    click.formatting.FORCED_WIDTH = 78
    try:
        with cli.make_context("pbem", ["--help"], resilient_parsing=True) as ctx:
            return cli.get_help(ctx) + "\n"
    finally:
        click.formatting.FORCED_WIDTH = saved


def write_help() -> None:
    """Rewrite pbem/cli/_helptext.py from click (run after changing a command's help line)."""
    path = os.path.join(os.path.dirname(__file__), "_helptext.py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('"""`pbem --help`, rendered by click (pbem.cli.quick.write_help writes this file)."""\n'
                 "# ruff: noqa: E501\n\n"
                 f"SOURCE = {help_source()!r}\nHELP = {click_help()!r}\n")


def global_options(front: list[str]) -> str | None:
    """The --home of the global options ('' for none), None when anything else is there."""
    home = ""
    i = 0
    while i < len(front):
        name, eq, value = front[i].partition("=")
        if name not in GLOBAL_OPTIONS:
            return None
        if not eq:
            i += 1
            if i >= len(front):
                return None
            value = front[i]
        if name == "--home":
            if home:
                return None
            home = value
        i += 1
    return home


def home_folders(option: str) -> tuple[str, str] | None:
    """(config, data) folders as pbem.store.paths.resolve finds them."""
    root = option or os.environ.get("PBEM_HOME") or ""
    if not root:
        if "PBEM_HOME" in os.environ:
            return None  # an empty PBEM_HOME: let click read it
        import platformdirs

        return platformdirs.user_config_dir("pbem"), platformdirs.user_data_dir("pbem")
    if os.path.exists(root) and not os.path.isdir(root):
        return None  # click refuses it, with its message
    base = os.path.realpath(os.path.expanduser(root))
    return os.path.join(base, "config"), os.path.join(base, "data")


def _status(home_option: str) -> str | None:
    found = home_folders(home_option)
    if found is None:
        return None
    config, data = found
    if not os.path.isfile(os.path.join(config, "card.txt")) or not os.path.isdir(data):
        return None
    from pbem.store import oslock

    fd = os.open(os.path.join(data, ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if not oslock.try_lock(fd):
            return None  # another pbem runs: the full path waits for it and says so
        try:
            lines = _status_lines(data)
        finally:
            oslock.unlock(fd)
    finally:
        os.close(fd)
    return None if lines is None else "".join(f"{x}\n" for x in lines)


def _status_lines(data: str) -> list[str] | None:
    import re
    import time

    from pbem.cli.statusline import line
    from pbem.store import glance

    games_dir = os.path.join(data, "games")
    games = sorted(n for n in _listdir(games_dir)
                   if re.fullmatch(r"[0-9a-f]{32}", n) and os.path.isdir(os.path.join(games_dir, n)))
    inv = sorted(n for n in _listdir(os.path.join(data, "invitations")) if n.endswith(".pbem"))
    if any(n.startswith(".") for n in inv):
        return None  # a name whose stem pathlib reads otherwise
    if not games and not inv:
        return ["no games yet: propose one with 'pbem game new' or receive a proposal"]
    now = int(time.time())
    out = []
    for name in games:
        g = glance.read(os.path.join(games_dir, name))
        if g is None:
            return None
        out.append(line(g, name[:12], now))
    for n in inv:
        out.append(f"{n[:-len('.pbem')][:12]}  invitation: pbem game join {os.path.join(data, 'invitations', n)}")
    return out


def _listdir(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []
