"""The command line's frame: context, error reporting, progress, and mailing what a command wrote.

Every refusal prints ``pbem: error: ...`` and ``pbem: hint: ...`` on stderr
and exits with the error's documented code (docs/cli.md, pbem.errors.ExitCode).
"""

from __future__ import annotations

import importlib
import io
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem import __version__
from pbem.cli.commands import COMMANDS, hoist_global_options
from pbem.errors import ExitCode, NotFound, OrderErrors, PbemError, UsageError
from pbem.formats.text import decode_text
from pbem.store import paths

# The game layer, identities and mail are imported by the commands that use
# them: `pbem --help` and `pbem status` must start in a blink (issue 11).
if TYPE_CHECKING:
    from pbem.play import game
    from pbem.protocol import turnfile
    from pbem.protocol.identity import Card, Identity, Keys
    from pbem.store import gamestore as store


def demo_clock() -> Callable[[], float]:
    """The wall clock, unless ``PBEM_INSECURE_CLOCK`` (seconds since 1970) pins it.

    With ``PBEM_INSECURE_SEED`` it makes a demo reproducible to the byte, so a
    refactoring can be shown to leave every file's contents unchanged. A pinned
    clock lets a player date files at will: it is announced at every use.
    """
    pinned = os.environ.get("PBEM_INSECURE_CLOCK")
    if not pinned:
        return time.time
    try:
        value = float(int(pinned))
    except ValueError:
        raise UsageError(f"PBEM_INSECURE_CLOCK must be whole seconds since 1970, not {pinned!r}",
                        hint="unset it: only demos and tests pin the clock") from None
    sys.stderr.write("pbem: warning: PBEM_INSECURE_CLOCK is set: file times are not the real time\n")
    return lambda: value


class Ctx:
    def __init__(self, home: paths.Home, passphrase_file: str | None) -> None:
        self.home = home
        self.passphrase_file = passphrase_file
        self._ident: Keys | None = None
        self._rng: Any = None

    def passphrase(self, *, confirm: bool = False) -> str:
        if self.passphrase_file:
            try:
                return _passphrase_from(Path(self.passphrase_file))
            except OSError as e:
                raise NotFound(f"cannot read passphrase file {self.passphrase_file}: {e.strerror}",
                               hint="check the path given to --passphrase-file") from None
        env = os.environ.get("PBEM_PASSPHRASE")
        if env:
            return env
        if not sys.stdin.isatty():
            raise UsageError("a passphrase is needed and there is no terminal to ask on",
                            hint="set PBEM_PASSPHRASE or pass --passphrase-file FILE")
        return str(click.prompt("passphrase", hide_input=True, confirmation_prompt=confirm))

    def identity(self) -> Keys:
        """The unlocked identity: from the key agent when one runs for this home (and no
        --passphrase-file asks for the file), else unlocked here from the identity file."""
        if self._ident is None:
            if not self.home.identity_file.exists():
                raise NotFound(f"no identity in {self.home.config}",
                               hint="create one with 'pbem key new --name NAME --email EMAIL'")
            if not self.passphrase_file:
                from pbem.protocol import keyagent

                card = self.card() if self.home.card_file.exists() else None
                self._ident = keyagent.connect(self.home.config, card)
            if self._ident is None:
                self._ident = self.secret_identity()
        return self._ident

    def secret_identity(self) -> Identity:
        """The identity with its secrets in this process (key export, the agent itself)."""
        from pbem.protocol.identity import load_identity

        path = self.home.identity_file
        if not path.exists():
            raise NotFound(f"no identity in {self.home.config}",
                           hint="create one with 'pbem key new --name NAME --email EMAIL'")
        return load_identity(path, self.passphrase())

    def rng(self) -> Any:
        from pbem.crypto import randomness

        if self._rng is None:
            # With a demo seed, the stream must still differ between commands
            # (age nonces, commitment nonces): label it with the command and
            # how far the home's games have got.
            n = sum(1 for _ in self.home.data.rglob("*.pbem")) if self.home.data.is_dir() else 0
            self._rng = randomness.for_home(f"{self.home.config.parent.name}:{' '.join(sys.argv[1:])}:{n}")
        return self._rng

    def session(self) -> game.Session:
        from pbem.play import game

        return game.Session(self.home, self.identity(), rng=self.rng(), now=demo_clock())

    def card(self) -> Card:
        from pbem.protocol.identity import Card

        try:
            return Card.from_text(self.home.card_file.read_bytes())
        except FileNotFoundError:
            raise NotFound(f"no player card in {self.home.config}",
                           hint="create an identity with 'pbem key new'") from None


def _passphrase_from(path: Path) -> str:
    """The passphrase in ``path``: its first line, a BOM and the line end (LF or CRLF) left out."""
    return decode_text(path.read_bytes(), f"passphrase file {path}").rstrip("\n")


def read_text_file(path: str, what: str) -> str:
    """A text file the player wrote (orders), however their editor saved it (pbem.formats.text)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise NotFound(f"cannot read {what} {path}: {e.strerror}", hint=f"check the path of the {what}") from None
    return decode_text(data, f"{what} {path}")


pass_ctx = click.make_pass_decorator(Ctx)


class PbemGroup(click.Group):
    """Turns every PbemError into the documented error/hint lines and exit code.

    Commands are loaded on first use (``COMMANDS``), so a command imports only what it needs.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(args))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name][0])  # registers it on this group
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing every command must not import them all: their help lines come from the table.
        rows = {name: self.commands.get(name) or click.Command(name, help=COMMANDS[name][1])
                for name in self.list_commands(ctx)}
        shown = [(n, c) for n, c in rows.items() if not c.hidden]
        if shown:
            limit = formatter.width - 6 - max(len(n) for n, _ in shown)
            with formatter.section("Commands"):
                formatter.write_dl([(n, c.get_short_help_str(limit)) for n, c in shown])

    def invoke(self, ctx: click.Context) -> Any:
        from pbem.store.gamestore import HomeLock

        try:
            home = paths.resolve(ctx.params.get("home"))
            if home.data.is_dir():
                with HomeLock(home, on_wait=_waiting):
                    return super().invoke(ctx)
            return super().invoke(ctx)
        except PbemError as e:
            _report(e)
            ctx.exit(e.exit_code)
        except OSError as e:
            click.echo(f"pbem: error: {e.strerror or e}: {e.filename or ''}", err=True)
            click.echo("pbem: hint: check the path and its permissions", err=True)
            ctx.exit(ExitCode.GENERIC)


def _waiting(lock: Path) -> None:
    click.echo(f"pbem: another pbem is using this home ({lock}); waiting for it to finish...", err=True)
    click.echo("pbem: hint: the wait ends when that pbem ends (even if it is killed); "
               "Ctrl+C to stop waiting", err=True)


@click.group(cls=PbemGroup)
@click.version_option(__version__, prog_name="pbem")
@click.option("--home", type=click.Path(file_okay=False), envvar="PBEM_HOME",
              help="Keep identity and games under this folder (default: the user's config and data folders).")
@click.option("--passphrase-file", type=click.Path(dir_okay=False),
              help="Read the identity passphrase from this file (else PBEM_PASSPHRASE, else a prompt).")
@click.pass_context
def cli(cctx: click.Context, home: str | None, passphrase_file: str | None) -> None:
    """pbem: play wargames by email with signed, encrypted turn files."""
    cctx.obj = Ctx(paths.resolve(home), passphrase_file)
    paths.use_cache_dir(cctx.obj.home.cache)


def _send(c: Ctx, gs: store.GameStore, d: game.Derived, f: turnfile.SignedFile, outbox_only: bool) -> None:
    """Mail a produced file to the other players (or queue .eml files in the outbox)."""
    from pbem.mail import MailError, dispatch, load_config

    cfg = None if outbox_only else load_config(c.home)
    try:
        results = dispatch.dispatch(c.session(), gs, d, f, cfg, use_config=False)
    except MailError as e:
        where = f" ({e.queued})" if getattr(e, "queued", None) else ""
        raise MailError(f"the file is saved, but mailing it failed: {e}{where}",
                        hint=f"{e.hint}; then run 'pbem resend {gs.root.name[:12]}'") from None
    for r in results:
        verb = "mailed" if r.status == "sent" else "queued"
        click.echo(f"  {verb}: {r.path}")


outbox_option = click.option("--outbox", "outbox_only", is_flag=True,
                             help="Write the mails as .eml files to the game's outbox instead of sending them.")


class _progress:
    """A progress bar on a terminal; silent when output goes to a file or a pipe."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.done = 0

    def __enter__(self) -> Any:
        def tick(i: int, n: int) -> None:
            if not sys.stderr.isatty():
                return
            if self.bar is None:
                self.bar = click.progressbar(length=n, label=self.label, file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(i - self.done)
            self.done = i

        return tick

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _report(e: PbemError) -> None:
    if isinstance(e, OrderErrors) and len(e.errors) > 1:
        click.echo(f"pbem: error: {len(e.errors)} problems in the orders", err=True)
        for sub in e.errors:
            click.echo(f"pbem: error: {sub}", err=True)
    else:
        click.echo(f"pbem: error: {e}", err=True)
    click.echo(f"pbem: hint: {e.hint}", err=True)


def main(argv: list[str] | None = None) -> None:
    # A path or name the console's code page cannot show (a Windows console redirected
    # to a file is cp1252) is printed escaped rather than ending the command.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        code = cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as e:  # `pbem` alone: the help, as click prints it
        click.echo(e.format_message())
        sys.exit(ExitCode.OK)
    except click.UsageError as e:
        # click's own usage errors (a missing argument, an unknown option or command) in the
        # two-line form of every other pbem error, with its exit code (docs/cli.md)
        where = e.ctx.command_path if e.ctx is not None else "pbem"
        click.echo(f"pbem: error: {e.format_message()}", err=True)
        click.echo(f"pbem: hint: run '{where} --help' to see its arguments and options", err=True)
        sys.exit(ExitCode.USAGE)
    except click.Abort:
        click.echo("pbem: stopped: nothing was changed by the question left unanswered", err=True)
        sys.exit(ExitCode.GENERIC)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except Exception as e:
        if os.environ.get("PBEM_DEBUG"):
            raise
        click.echo(f"pbem: error: internal error: {type(e).__name__}: {e}", err=True)
        click.echo("pbem: hint: this is a bug in pbem; rerun with PBEM_DEBUG=1 and report the traceback", err=True)
        sys.exit(70)
    sys.exit(code if isinstance(code, int) else 0)
