"""Commands that start, play and show games."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem import game, genesis, rulesapi, store, turnfile
from pbem.cli.base import Ctx, _ago, _send, cli, outbox_option, pass_ctx
from pbem.errors import InvalidInput, NotFound, OrderErrors, PbemError
from pbem.identity import (
    Card,
)


@cli.group("game")
def game_group() -> None:
    """Propose and join games."""


def _parse_options(items: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            raise InvalidInput(f"option {it!r} is not KEY=VALUE")
        out[k] = int(v) if v.lstrip("-").isdigit() else (v == "true" if v in ("true", "false") else v)
    return out


@game_group.command("new")
@click.option("--rules", "rules_name", required=True, help="The game, e.g. 'use'.")
@click.option("--scenario", required=True)
@click.option("--seat", "seats", multiple=True, required=True,
              help="SEAT=me or SEAT=CARDFILE, once per seat.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE game option.")
@outbox_option
@pass_ctx
def game_new(c: Ctx, rules_name: str, scenario: str, seats: tuple[str, ...],
             options: tuple[str, ...], outbox_only: bool) -> None:
    """Propose a new game; mail the proposal to every player."""
    s = c.session()
    cards: dict[str, Card] = {}
    mine = None
    for item in seats:
        seat, sep, who = item.partition("=")
        if not sep:
            raise InvalidInput(f"--seat {item!r} is not SEAT=me or SEAT=CARDFILE")
        if who == "me":
            cards[seat], mine = s.ident.card(), seat
        else:
            try:
                cards[seat] = Card.from_text(Path(who).read_bytes())
            except OSError as e:
                raise NotFound(f"cannot read card {who}: {e.strerror}") from None
    if mine is None:
        raise InvalidInput("no seat is yours", hint="add --seat SEAT=me")
    data = genesis.make_proposal(s.ident, rules_name=rules_name, scenario=scenario, my_seat=mine,
                                 cards=cards, options=_parse_options(options), rng=s.rng,
                                 now=s.clock())
    d = game.create(s, data)
    gs = store.game_dir(c.home, d.con.game_id)
    click.echo(f"game {d.con.game_id.hex()} proposed")
    for seat, card in sorted(cards.items()):
        click.echo(f"  {seat:10} {card.name} <{card.email}> {card.fingerprint}")
    click.echo(f"proposal: {gs.outbox / game.outbox_name(d.con.proposal)}")
    _send(c, gs, d, d.con.proposal, outbox_only)


@game_group.command("join")
@click.argument("proposal", type=click.Path(exists=True, dir_okay=False))
@click.option("--expect", "expects", multiple=True,
              help="SEAT=SHA256:... fingerprint you checked out of band (one per other seat).")
@click.option("--yes", is_flag=True, help="Accept the fingerprints without asking (you checked them).")
@outbox_option
@pass_ctx
def game_join(c: Ctx, proposal: str, expects: tuple[str, ...], yes: bool, outbox_only: bool) -> None:
    """Check a proposal's players and countersign it."""
    data = Path(proposal).read_bytes()
    con = genesis.read_proposal(turnfile.parse(data))
    click.echo(f"game {con.game_id.hex()}: {con.h['rules']} {con.h['rules_version']}, "
               f"scenario {con.h['scenario']}, host {con.host}")
    want = dict(e.partition("=")[::2] for e in expects)
    for seat, card in sorted(con.cards.items()):
        mark = ""
        if seat in want:
            if want[seat] != card.fingerprint:
                raise PbemError(f"seat {seat}: fingerprint {card.fingerprint} is not the expected {want[seat]}",
                                hint="do not join: the proposal carries a different key than your opponent's")
            mark = " (checked)"
        click.echo(f"  {seat:10} {card.name} <{card.email}> {card.fingerprint}{mark}")
    s = c.session()
    me = con.seat_of(s.ident.card())
    unchecked = [x for x in con.cards if x not in want and x != me]
    if unchecked and not yes:
        if not sys.stdin.isatty():
            raise PbemError(f"fingerprints of {', '.join(unchecked)} are not confirmed",
                            hint="compare them with your opponents, then pass --expect SEAT=FPR or --yes")
        click.confirm("Do these fingerprints match what your opponents told you?", abort=True)
    jf, d = game.join(s, data)
    gs = store.game_dir(c.home, d.con.game_id)
    click.echo(f"joined as {jf.author}: {gs.outbox / game.outbox_name(jf)}")
    _send(c, gs, d, jf, outbox_only)


@game_group.command("end")
@click.argument("game_ref", metavar="GAME")
@click.option("--agree", is_flag=True, help="End a game that is not over: you agree to stop it here.")
@outbox_option
@pass_ctx
def game_end(c: Ctx, game_ref: str, agree: bool, outbox_only: bool) -> None:
    """Write your reveal: it opens every secret you hold, so anyone can audit the game."""
    gs = store.find_game(c.home, game_ref)
    s = c.session()
    d = game.load(s, gs)
    if d.started and d.pending() is not None and not agree:
        raise PbemError("the game is not over",
                        hint="pass --agree if the players agreed to stop here; a reveal closes the game")
    f, d = game.end(s, gs)
    click.echo(f"reveal written: {gs.outbox / game.outbox_name(f)}")
    waiting = [x for x in d.con.seats if x not in d.reveals]
    click.echo(f"waiting for reveals from: {', '.join(waiting)}" if waiting else "every seat has revealed")
    _send(c, gs, d, f, outbox_only)


@cli.command()
@click.argument("game_ref", metavar="GAME")
@click.option("--orders", "orders_file", required=True, type=click.Path(exists=True, dir_okay=False))
@outbox_option
@pass_ctx
def play(c: Ctx, game_ref: str, orders_file: str, outbox_only: bool) -> None:
    """Apply your orders for the current phase, write the next turn file and mail it."""
    gs = store.find_game(c.home, game_ref)
    text = Path(orders_file).read_text(encoding="utf-8")
    f, d = game.play(c.session(), gs, text)
    out = gs.outbox / game.outbox_name(f)
    click.echo(f"turn file {f.seq} written: {out}")
    pend = d.pending()
    click.echo(f"next: {pend.seat}: {pend.phase}" if pend else f"game over: {d.rules.result(d.public)}")
    _send(c, gs, d, f, outbox_only)


@cli.group()
def orders() -> None:
    """Check order files, or list what you may order now."""


@orders.command("check")
@click.argument("game_ref", metavar="GAME")
@click.option("--orders", "orders_file", required=True, type=click.Path(exists=True, dir_okay=False))
@pass_ctx
def orders_check(c: Ctx, game_ref: str, orders_file: str) -> None:
    """Validate an order file without producing anything."""
    gs = store.find_game(c.home, game_ref)
    errs = game.check_orders(c.session(), gs, Path(orders_file).read_text(encoding="utf-8"))
    if errs:
        raise OrderErrors(errs)
    click.echo("orders are valid")


@orders.command("template")
@click.argument("game_ref", metavar="GAME")
@pass_ctx
def orders_template(c: Ctx, game_ref: str) -> None:
    """Print a commented order file of what you may do now."""
    gs = store.find_game(c.home, game_ref)
    d = game.load(c.session(), gs)
    click.echo(d.rules.order_template(d.public, d.private, d.my_seat or ""), nl=False)


@orders.command("prompt")
@click.argument("game_ref", metavar="GAME")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default="orders.txt", show_default=True)
@click.option("--play", "then_play", is_flag=True, help="Play the orders as soon as they are complete.")
@outbox_option
@pass_ctx
def orders_prompt(c: Ctx, game_ref: str, output: str, then_play: bool, outbox_only: bool) -> None:
    """Write your orders one line at a time, each checked against the rules as you type it.

    A refused line is shown with its rule and dropped; an empty line (or 'done') ends.
    """
    gs = store.find_game(c.home, game_ref)
    s = c.session()
    d = game.load(s, gs)
    click.echo(d.rules.order_template(d.public, d.private, d.my_seat or ""), nl=False)
    lines: list[str] = []
    while True:
        line = click.prompt("order", default="", show_default=False).strip()
        if line in ("", "done"):
            break
        errs = game.check_orders(s, gs, "\n".join([*lines, line]) + "\n")
        if errs:
            for e in errs:
                click.echo(f"  refused: {e}", err=True)
            click.echo(f"  hint: {errs[0].hint}", err=True)
            continue
        lines.append(line)
        click.echo("  ok")
    if not lines:
        raise InvalidInput("no orders given", hint="type one order a line; an empty line ends")
    from pbem.fsutil import atomic_write

    atomic_write(Path(output), ("\n".join(lines) + "\n").encode("utf-8"))
    click.echo(f"orders written: {output}")
    if then_play:
        f, d = game.play(s, gs, "\n".join(lines) + "\n")
        click.echo(f"turn file {f.seq} written: {gs.outbox / game.outbox_name(f)}")
        _send(c, gs, d, f, outbox_only)
    else:
        click.echo(f"play them with: pbem play {gs.root.name[:12]} --orders {output}")


@cli.command()
@click.argument("game_ref", metavar="GAME")
@click.option("--html", "as_html", is_flag=True, help="Write an HTML page (with the map) instead of text.")
@click.option("--public", is_flag=True, help="Only what every player may see (what mail carries).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file.")
@pass_ctx
def show(c: Ctx, game_ref: str, as_html: bool, public: bool, output: str | None) -> None:
    """Show the game as you may see it: your private view unless --public."""
    from pbem import render, summary
    from pbem.fsutil import atomic_write

    gs = store.find_game(c.home, game_ref)
    d = game.load(c.session(), gs)
    ctx = summary.build(d, d.my_seat, private=not public and d.my_seat is not None)
    out = render.render_html(ctx) if as_html else render.render_text(ctx)
    if output:
        atomic_write(Path(output), out.encode("utf-8"))
        click.echo(f"written: {output}")
    else:
        click.echo(out, nl=False)


@cli.command()
@pass_ctx
def status(c: Ctx) -> None:
    """List this home's games and whose move it is."""
    s = c.session()
    games = store.all_games(c.home)
    inv = sorted(c.home.invitations.glob("*.pbem")) if c.home.invitations.is_dir() else []
    if not games and not inv:
        click.echo("no games yet: propose one with 'pbem game new' or receive a proposal")
    from pbem import dispatch

    for gs in games:
        for msg in game.repair(s, gs):
            click.echo(f"{gs.root.name[:12]}  repaired: {msg}")
        d = game.load(s, gs)
        for msg in dispatch.repair(s, gs, d):
            click.echo(f"{gs.root.name[:12]}  repaired: {msg}")
        head = f"{gs.root.name[:12]}  {d.con.h['rules']}/{d.con.h['scenario']}  you: {d.my_seat}"
        if not d.started:
            click.echo(f"{head}  waiting for joins: {', '.join(d.waiting_for_joins)}")
            continue
        pend = d.pending()
        if d.closed:
            waiting = [x for x in d.con.seats if x not in d.reveals]
            click.echo(f"{head}  ended; " + (f"waiting for reveals from {', '.join(waiting)}"
                                             if waiting else "all revealed: 'pbem verify' audits it"))
        elif pend is None:
            click.echo(f"{head}  over: {d.rules.result(d.public)}")
        elif pend.seat == d.my_seat:
            click.echo(f"{head}  file {d.seq}  YOUR MOVE: {pend.phase}")
        else:
            since = d.log[-1]["time"] if d.log else d.con.proposal.header["time"]
            click.echo(f"{head}  file {d.seq}  waiting for file {d.seq + 1} from {pend.seat} "
                       f"({pend.phase}), their move since {_ago(since, s.clock())}")
    for p in inv:
        click.echo(f"{p.stem[:12]}  invitation: pbem game join {p}")


@cli.command("games")
def games_cmd() -> None:
    """List the games (rules modules) this pbem can play."""
    for name in rulesapi.available():
        r = rulesapi.get(name)
        click.echo(f"{name:8} {r.version:6} {r.title}: scenarios {', '.join(r.scenarios())}")
