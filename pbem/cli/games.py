"""Commands that start, play and show games."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from pbem import rulesapi
from pbem.cli.base import Ctx, _ago, _send, cli, outbox_option, pass_ctx, read_text_file
from pbem.errors import FingerprintMismatch, InvalidInput, NotConfirmed, NotFound, OrderErrors, UsageError
from pbem.formats.names import USER_HINT, check_seat
from pbem.play import ending, game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import (
    Card,
)
from pbem.store import gamestore as store


@cli.group("game")
def game_group() -> None:
    """Propose and join games."""


def _parse_options(items: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            raise UsageError(f"--option '{it}' is not KEY=VALUE", hint="e.g. --option strict_dice=true")
        out[k] = int(v) if v.lstrip("-").isdigit() else (v == "true" if v in ("true", "false") else v)
    return out


@game_group.command("new")
@click.option("--rules", "rules_name", required=True, help="The game, e.g. 'use'.")
@click.option("--scenario", required=True)
@click.option("--seat", "seats", multiple=True, required=True,
              help="SEAT=me or SEAT=CARDFILE, once per seat (SEAT=me more than once where the scenario "
                   "lets one player hold several seats; the first signs the proposal).")
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
            raise UsageError(f"--seat '{item}' is not SEAT=me or SEAT=CARDFILE",
                             hint="e.g. --seat axis=me --seat western=bob.card")
        check_seat(seat, where="--seat", hint=f"{USER_HINT}; the scenario's seats are lowercase")
        if who == "me":
            cards[seat], mine = s.ident.card(), mine or seat
        else:
            try:
                cards[seat] = Card.from_text(Path(who).read_bytes())
            except OSError as e:
                raise NotFound(f"cannot read card {who}: {e.strerror}",
                               hint="check the card file's path (--seat SEAT=CARDFILE)") from None
    if mine is None:
        raise UsageError("no seat is yours", hint="add --seat SEAT=me")
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
    # The host's other seats join at once, each with its own dice master (docs/protocol.md §6a).
    for seat in d.my_seats:
        if seat in d.joins:
            click.echo(f"joined as {seat}: {gs.outbox / game.outbox_name(d.joins[seat])}")
            _send(c, gs, d, d.joins[seat], outbox_only)


def _option_lines(options: dict[str, Any]) -> list[str]:
    """The host's game options, in words a joiner can accept or refuse."""
    strict = bool(options.get("strict_dice", True))
    out = ["strict_dice: true: strict dice: no player can know any of its rolls before the action "
           "that uses them is signed" if strict else
           "strict_dice: false: WINDOW dice: each player's tool can compute its own next rolls "
           "before it chooses, so a player running a modified pbem can foresee its own rolls "
           "(e.g. declare only the combats it will win); accept only if you trust every player"]
    for k, v in sorted(options.items()):
        if k == "dice_depth":
            out.append(f"dice_depth: {v} (each player commits 2^{v} dice seeds for the whole game)")
        elif k == "dice_window":
            out.append(f"dice_window: {v} (" + ("not used in strict dice" if strict else
                                                 "rolls released ahead of the roller") + ")")
        elif k != "strict_dice":
            out.append(f"{k}: {v!r}")
    return out


def _interactive() -> bool:
    return sys.stdin.isatty()


@game_group.command("join")
@click.argument("proposal", type=click.Path(exists=True, dir_okay=False))
@click.option("--expect", "expects", multiple=True,
              help="SEAT=SHA256:... fingerprint you checked out of band (one per other seat).")
@click.option("--accept-options", is_flag=True, help="Accept the game options shown without asking.")
@click.option("--yes", is_flag=True,
              help="Accept the fingerprints and the game options without asking (you checked them).")
@outbox_option
@pass_ctx
def game_join(c: Ctx, proposal: str, expects: tuple[str, ...], accept_options: bool, yes: bool,
              outbox_only: bool) -> None:
    """Check a proposal's players and options, and countersign it.

    You accept the players' fingerprints (--expect, or a question) and the
    game options the host chose (--accept-options, or a question): in window
    dice mode a player can foresee its own rolls.
    """
    data = Path(proposal).read_bytes()
    con = genesis.read_proposal(turnfile.parse(data))
    click.echo(f"game {con.game_id.hex()}: {con.h['rules']} {con.h['rules_version']}, "
               f"scenario {con.h['scenario']}, host {con.host}")
    want = dict(e.partition("=")[::2] for e in expects)
    for seat, card in sorted(con.cards.items()):
        mark = ""
        if seat in want:
            if want[seat] != card.fingerprint:
                raise FingerprintMismatch(f"seat {seat}: fingerprint {card.fingerprint} is not the expected "
                                          f"{want[seat]}")
            mark = " (checked)"
        click.echo(f"  {seat:10} {card.name} <{card.email}> {card.fingerprint}{mark}")
    click.echo("options:")
    for line in _option_lines(con.options):
        click.echo(f"  {line}")
    s = c.session()
    me = con.seats_of(s.ident.card())
    unchecked = [x for x in con.cards if x not in want and x not in me]
    if unchecked and not yes:
        if not _interactive():
            raise NotConfirmed(f"fingerprints of {', '.join(unchecked)} are not confirmed")
        click.confirm("Do these fingerprints match what your opponents told you?", abort=True)
    if not (yes or accept_options):
        if not _interactive():
            raise NotConfirmed("you have not accepted the game options shown above",
                            hint="read them (window dice lets a player foresee its own rolls), "
                                 "then pass --accept-options, or --yes")
        click.confirm("Do you accept these game options?", abort=True)
    joins, d = game.join_seats(s, data)
    gs = store.game_dir(c.home, d.con.game_id)
    for jf in joins:  # one join per seat this player holds
        click.echo(f"joined as {jf.author}: {gs.outbox / game.outbox_name(jf)}")
        _send(c, gs, d, jf, outbox_only)


@game_group.command("end")
@click.argument("game_ref", metavar="GAME")
@click.option("--propose", "vote", flag_value="propose",
              help="Propose to end the game here by agreement, in place of your move: a signed file "
                   "every other seat answers.")
@click.option("--accept", "vote", flag_value="accept", help="Accept the open end proposal.")
@click.option("--decline", "vote", flag_value="decline",
              help="Decline the open end proposal: play goes on from the proposer's move.")
@click.option("--agree", "vote", flag_value="agree",
              help="Propose an end by agreement, or accept the open proposal: whichever the game waits for.")
@click.option("--concede", "alone", flag_value="conceded",
              help="End the game alone by conceding, with your reveal: the game's result names it.")
@click.option("--abandon", "alone", flag_value="abandoned",
              help="End the game alone by abandoning it, with your reveal: recorded as such.")
@outbox_option
@pass_ctx
def game_end(c: Ctx, game_ref: str, vote: str | None, alone: str | None, outbox_only: bool) -> None:
    """End a game: by agreement of every seat, by the rules, or alone.

    Ending by agreement: the seat whose move it is proposes (--propose), each
    other seat accepts or declines (--accept, --decline); once every seat has
    accepted, each player reveals with 'pbem game end GAME'.

    Without an option this writes your reveal, when the game is over (by the
    rules, by an agreement every seat signed, or because another seat
    conceded or abandoned). --concede and --abandon reveal in a live game.

    A reveal opens every secret you hold, so anyone can audit the game, and
    publishes your dice master: after it the game cannot go on, for anyone.
    """
    if vote and alone:
        raise UsageError("an end proposal or answer is not a reveal: give one of them",
                         hint="pass one of --propose, --accept, --decline, --agree, --concede, --abandon")
    gs = store.find_game(c.home, game_ref)
    s = c.session()
    if vote:
        if vote == "agree":
            pend = game.load(s, gs).pending()
            vote = "accept" if pend is not None and pend.kind == ending.ANSWER_KIND else "propose"
        f, d = game.play(s, gs, "", end_vote=vote)
        click.echo(f"end {vote if vote != 'propose' else 'proposal'} written (file {f.seq}): "
                   f"{gs.outbox / game.outbox_name(f)}")
        pend = d.pending()
        if ending.agreed(d.est):
            click.echo("every seat has agreed to end the game: reveal with 'pbem game end "
                       f"{gs.root.name[:12]}' (each player)")
        elif pend is not None:
            click.echo(f"next: {pend.seat}: {pend.phase}")
        _send(c, gs, d, f, outbox_only)
        return
    # One reveal per seat of this player's (docs/protocol.md §6a).
    files, d = game.end_all(s, gs, alone or "")
    for f in files:
        click.echo(f"reveal written ({f.header['reason']}): {gs.outbox / game.outbox_name(f)}")
    result = ending.outcome(d)
    if result:
        click.echo(f"result: {result}")
    waiting = [x for x in d.con.seats if x not in d.reveals]
    click.echo(f"waiting for reveals from: {', '.join(waiting)}" if waiting else "every seat has revealed")
    for f in files:
        _send(c, gs, d, f, outbox_only)


@cli.command()
@click.argument("game_ref", metavar="GAME")
@click.option("--orders", "orders_file", type=click.Path(exists=True, dir_okay=False),
              help="your orders; leave out for a dice release, which takes none")
@click.option("--dice-request", type=click.IntRange(1, 1024), default=None,
              help="window dice mode: ask the others for N more dice seeds before a long phase")
@click.option("--seat", "seat", default=None,
              help="where you hold several seats: play only if SEAT is the one to move (default: "
                   "whichever of yours is)")
@outbox_option
@pass_ctx
def play(c: Ctx, game_ref: str, orders_file: str | None, dice_request: int | None, seat: str | None,
         outbox_only: bool) -> None:
    """Apply your orders for the current phase, write the next turn file and mail it.

    When the game waits for your dice release (`pbem status` says so), play
    without --orders: the file carries only your dice seeds.
    """
    gs = store.find_game(c.home, game_ref)
    if seat is not None:
        check_seat(seat, where="--seat", hint=USER_HINT)
    if orders_file is None and dice_request is None:
        d0 = game.load(c.session(), gs)
        pend0 = d0.pending()
        if pend0 is None or pend0.kind != "dice-release":
            raise UsageError("--orders is required (only a dice release is played without orders)",
                             hint=f"run 'pbem orders template {game_ref}' to write your orders")
    text = read_text_file(orders_file, "orders file") if orders_file else ""
    f, d = game.play(c.session(), gs, text, dice_request or 0, seat=seat)
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
    errs = game.check_orders(c.session(), gs, read_text_file(orders_file, "orders file"))
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
    pend = d.pending()
    if pend is not None and pend.kind == "dice-release" and pend.seat == d.my_seat:
        click.echo(f"# {pend.wanted}\n# pbem play {game_ref}   (no --orders)\n", nl=False)
        return
    click.echo(d.rules.order_template(d.public, d.private, d.my_seat or ""), nl=False)


@orders.command("actions")
@click.argument("game_ref", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (for tools and bots) instead of text.")
@pass_ctx
def orders_actions(c: Ctx, game_ref: str, as_json: bool) -> None:
    """List what you may do now: each order with its arguments and their choices."""
    import json

    gs = store.find_game(c.home, game_ref)
    d = game.load(c.session(), gs)
    pend = d.pending()
    seat = d.my_seat or ""
    # A dice-release file is the engine's, not the game's: it takes no orders.
    acts = [] if pend is None or pend.kind == "dice-release" else d.rules.legal_actions(d.public, d.private, seat)
    mine = pend is not None and pend.seat == seat
    if as_json:
        out = {"seat": seat, "pending": None if pend is None else {
                   "seat": pend.seat, "phase": pend.phase, "kind": pend.kind, "wanted": pend.wanted},
               # the rules interface's "not answered": nothing listed although this seat must act
               "answered": not (mine and pend is not None and pend.kind != "dice-release" and not acts),
               "actions": [a.to_json() for a in acts]}
        click.echo(json.dumps(out, indent=1, sort_keys=True))
        return
    if pend is None or not mine:
        click.echo("# nothing to do now" + (f": {pend.seat} must act ({pend.wanted})" if pend else ""))
    elif pend.kind == "dice-release":
        click.echo(f"# {pend.wanted}\n# pbem play {game_ref}   (no --orders)")
    elif not acts:
        click.echo(f"# {d.rules.name} does not list its actions: see 'pbem orders template {game_ref}'")
    for a in acts:
        click.echo(_action_text(a))


def _action_text(a: rulesapi.Action) -> str:
    words, lines = [a.verb], []
    for arg in a.args:
        w = (f"{arg.keyword} " if arg.keyword else "") + arg.name.upper() + (" ..." if arg.repeat else "")
        words.append(f"[{w}]" if arg.optional else w)
        if arg.choices:
            more = f" ... ({len(arg.choices)} in all)" if len(arg.choices) > 12 else ""
            lines.append(f"    {arg.name.upper()}: {' '.join(arg.choices[:12])}{more}")
    return "\n".join([f"{' '.join(words)}    # {a.rule}: {a.summary}", *lines])


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
    from pbem.store.fsutil import atomic_write

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
@click.option("--seat", "seat", default=None,
              help="where you hold several seats: whose private view (default: the one to move, else the first)")
@pass_ctx
def show(c: Ctx, game_ref: str, as_html: bool, public: bool, output: str | None, seat: str | None) -> None:
    """Show the game as you may see it: your private view unless --public."""
    from pbem.present import render, summary
    from pbem.store.fsutil import FILE_MODE, atomic_write

    gs = store.find_game(c.home, game_ref)
    d = game.load(c.session(), gs)
    if seat is not None:
        d.use_seat(check_seat(seat, where="--seat", hint=USER_HINT))
    ctx = summary.build(d, d.my_seat, private=not public and d.my_seat is not None)
    ctx["attached"] = False  # the same page as a mail's, with no file attached to point at
    out = render.render_html(ctx) if as_html else render.render_text(ctx)
    if output:
        # The private view shows what only this seat may know: readable by its owner alone.
        atomic_write(Path(output), out.encode("utf-8"), mode=FILE_MODE)
        click.echo(f"written: {output}")
    else:
        click.echo(out, nl=False)


@cli.command()
@pass_ctx
def status(c: Ctx) -> None:
    """List this home's games and whose move it is.

    Needs no passphrase while the games' caches are current (they hold public
    state only); it unlocks your identity only to rebuild a stale cache or to
    queue a mail a crash left unwritten.
    """
    from pbem.present import summary

    games = store.all_games(c.home)
    inv = sorted(c.home.invitations.glob("*.pbem")) if c.home.invitations.is_dir() else []
    card = c.card()
    if not games and not inv:
        click.echo("no games yet: propose one with 'pbem game new' or receive a proposal")
        return
    now = int(time.time())
    for gs in games:
        peeked = game.peek(card, gs)
        if peeked is not None:
            for msg in game.repair_seats(gs, peeked.my_seats):
                click.echo(f"{gs.root.name[:12]}  repaired: {msg}")
        if peeked is not None and not game.unmailed(gs, peeked):
            d = peeked
        else:
            from pbem.mail import dispatch  # only to repair: status imports no mail otherwise

            s = c.session()
            now = s.clock()
            for msg in game.repair(s, gs):
                click.echo(f"{gs.root.name[:12]}  repaired: {msg}")
            d = game.load(s, gs)
            for msg in dispatch.repair(s, gs, d):
                click.echo(f"{gs.root.name[:12]}  repaired: {msg}")
        you = f"you: {summary.seats_text(d, d.my_seats)}" if d.my_seats else "you: observer"
        head = f"{gs.root.name[:12]}  {d.con.h['rules']}/{d.con.h['scenario']}  {you}"
        if not d.started:
            click.echo(f"{head}  waiting for joins: {', '.join(d.waiting_for_joins)}")
            continue
        pend = d.pending()
        if d.closed:
            waiting = [x for x in d.con.seats if x not in d.reveals]
            click.echo(f"{head}  ended; " + (f"waiting for reveals from {', '.join(waiting)}"
                                             if waiting else "all revealed: 'pbem verify' audits it"))
        elif pend is None:
            click.echo(f"{head}  over: {ending.outcome(d)}")
        elif pend.seat in d.my_seats:
            as_seat = f" (as {summary.seats_text(d, [pend.seat])})" if len(d.my_seats) > 1 else ""
            click.echo(f"{head}  file {d.seq}  YOUR MOVE{as_seat}: {pend.phase}")
        else:
            since = d.log[-1]["time"] if d.log else d.con.proposal.header["time"]
            click.echo(f"{head}  file {d.seq}  waiting for file {d.seq + 1} from {summary.seats_text(d, [pend.seat])} "
                       f"({pend.phase}), their move since {_ago(since, now)}")
    for p in inv:
        click.echo(f"{p.stem[:12]}  invitation: pbem game join {p}")


@cli.command("games")
def games_cmd() -> None:
    """List the games (rules modules) this pbem can play."""
    for name in rulesapi.available():
        r = rulesapi.get(name)
        click.echo(f"{name:8} {r.version:6} {r.title}: scenarios {', '.join(r.scenarios())}")
