"""`pbem board`: give one phase's orders from a local web page (pbem.present.board)."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from typing import TextIO

import click

from pbem.cli.base import Ctx, _send, cli, outbox_option, pass_ctx
from pbem.play import game
from pbem.store import gamestore as store


class _Tee(io.StringIO):
    """What ``_send`` prints goes to the terminal as usual and to the page too."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def write(self, s: str) -> int:
        self.out.write(s)
        return super().write(s)


def play_and_send(c: Ctx, session: game.Session, gs: store.GameStore, outbox_only: bool
                  ) -> Callable[[str], list[str]]:
    """The page's Play: `pbem play`'s own path (``game.play``, then ``_send`` to mail the file);
    returns the lines `pbem play` prints."""

    def run(text: str) -> list[str]:
        f, d = game.play(session, gs, text)
        pend = d.pending()
        lines = [f"turn file {f.seq} written: {gs.outbox / game.outbox_name(f)}",
                 f"next: {pend.seat}: {pend.phase}" if pend else f"game over: {d.rules.result(d.public)}"]
        for ln in lines:
            click.echo(ln)
        tee = _Tee(sys.stdout)
        with contextlib.redirect_stdout(tee):
            _send(c, gs, d, f, outbox_only)
        return lines + [ln.strip() for ln in tee.getvalue().splitlines() if ln.strip()]

    return run


@cli.command()
@click.argument("game_ref", metavar="GAME")
@click.option("--no-browser", is_flag=True, help="Print the page's one-time URL instead of opening a browser.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Listen on this port (default: any free one).")
@outbox_option
@pass_ctx
def board(c: Ctx, game_ref: str, no_browser: bool, port: int, outbox_only: bool) -> None:
    """Give your orders on a local web page: click a unit, pick an order, play the phase.

    The page is served on 127.0.0.1 only, to the browser that opens its
    one-time link. Your identity is unlocked here (key agent or passphrase
    prompt); the page never sees the passphrase. Ctrl+C or the page's Close
    button stops it.
    """
    from pbem.present.board import BoardGame, BoardServer, open_browser

    gs = store.find_game(c.home, game_ref)
    session = c.session()
    game.load(session, gs)  # refuse a broken game before any page is served
    server = BoardServer(BoardGame(session, gs, play_and_send(c, session, gs, outbox_only)), port=port)
    if no_browser or not open_browser(server.url):
        click.echo(f"open this link in your browser (it works once): {server.url}")
    else:
        click.echo(f"board opened in your browser (http://127.0.0.1:{server.port}/)")
    click.echo("Ctrl+C or the page's 'Close board' stops it")
    try:
        server.serve()
    except KeyboardInterrupt:
        click.echo("board closed")
