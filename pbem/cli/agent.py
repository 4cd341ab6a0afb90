"""`pbem agent start|status|stop` and `pbem lock`: unlock once per sitting (pbem.protocol.keyagent)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import click

from pbem.cli.base import Ctx, cli, pass_ctx
from pbem.errors import PbemError, Unsupported


@cli.group()
def agent() -> None:
    """Keep your identity unlocked for a while, in one background process."""


@agent.command("start")
@click.option("--idle", "idle_minutes", type=click.IntRange(1, 24 * 60), default=60, show_default=True,
              help="Lock after this many minutes without a request.")
@click.option("--foreground", is_flag=True, help="Serve in this process until locked (for debugging).")
@pass_ctx
def agent_start(c: Ctx, idle_minutes: int, foreground: bool) -> None:
    """Unlock your identity once; later commands of this home use it without a passphrase."""
    from pbem.protocol import keyagent

    if not keyagent.supported():
        raise Unsupported("the key agent needs Unix sockets, which this system lacks",
                          hint="each command asks for the passphrase instead")
    if keyagent.running(c.home.config):
        _warm(c, 60.0 * idle_minutes)
        click.echo("the agent is already running for this home ('pbem lock' stops it)")
        return
    ident = c.secret_identity()
    path = keyagent.socket_path(c.home.config)
    idle = idle_minutes * 60.0
    if foreground:
        keyagent.serve(ident, path, idle=idle,
                       ready=lambda: click.echo(f"agent ready ({path}); Ctrl-C or 'pbem lock' stops it"))
        return
    _daemon(lambda: keyagent.serve(ident, path, idle=idle))
    for _ in range(100):
        if keyagent.running(c.home.config):
            _warm(c, idle)
            click.echo(f"identity unlocked for this home; it locks itself after {idle_minutes} min "
                       "without use ('pbem lock' locks it now)")
            return
        time.sleep(0.05)
    raise PbemError("the agent did not start", hint="run 'pbem agent start --foreground' to see why")


def _warm(c: Ctx, idle: float) -> None:
    """Start the home's warm worker beside the agent (pbem.cli.warm): commands then start in a blink."""
    from pbem.cli import warm

    if sys.platform != "win32" and warm.supported() and not os.environ.get("PBEM_NO_WARM"):
        from pbem.cli import warmserver

        if warm.listening(c.home.config):
            return
        warmserver.spawn(c.home.config, idle, c.home.cache)


def _daemon(run: Callable[[], None]) -> None:
    """Run ``run`` in a detached child process (Unix double-fork); the parent returns at once."""
    if sys.platform == "win32":
        raise Unsupported("no key agent on Windows")
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork():
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    code = 1  # the child has no terminal left to report to: only its exit status
    try:
        run()
        code = 0
    finally:
        os._exit(code)


@agent.command("status")
@pass_ctx
def agent_status(c: Ctx) -> None:
    """Say whether an agent holds this home's identity."""
    from pbem.protocol import keyagent

    click.echo("unlocked: the agent is running for this home" if keyagent.running(c.home.config)
               else "locked: no agent runs for this home")


@agent.command("stop")
@pass_ctx
def agent_stop(c: Ctx) -> None:
    """Lock: the agent forgets the identity and stops (same as 'pbem lock')."""
    _lock(c)


@cli.command("lock")
@pass_ctx
def lock(c: Ctx) -> None:
    """Lock your identity now: the key agent forgets it and stops."""
    _lock(c)


def _lock(c: Ctx) -> None:
    from pbem.cli import warm
    from pbem.protocol import keyagent

    warm.stop(c.home.config)
    click.echo("locked" if keyagent.lock(c.home.config) else "no agent was running for this home")
