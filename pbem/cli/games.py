"""Commands that start, play and show games."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from pbem import rulesapi
from pbem.cli.base import Ctx, cli, outbox_option, pass_ctx, read_text_file
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
    lines = [f"game {d.con.game_id.hex()} proposed",
             *[f"  {seat:10} {card.name} <{card.email}> {card.fingerprint}" for seat, card in sorted(cards.items())],
             f"proposal: {gs.outbox / game.outbox_name(d.con.proposal)}"]
    # The host's other seats join at once, each with its own dice master (docs/protocol.md §6a).
    joins = [d.joins[seat] for seat in d.my_seats if seat in d.joins]
    lines += [f"joined as {jf.author}: {gs.outbox / game.outbox_name(jf)}" for jf in joins]
    # Mailed before anything is printed, as `play` does: a closed pipe cannot leave a file unmailed.
    _deliver(c, gs, d, [d.con.proposal, *joins], outbox_only, lines)


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
            out.append(f"dice_depth: {v} (each player commits 2^{v} dice seeds at a time; a new committed "
                       "tree follows before they run out)")
        elif k == "dice_window":
            out.append(f"dice_window: {v} (" + ("not used in strict dice" if strict else
                                                 "rolls released ahead of the roller") + ")")
        elif k == "handover" and v == "quorum":
            out.append("handover: quorum (a lost player's seat passes to a substitute when every other player "
                       "agrees; all the other players together could read its secrets)")
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
    # one join per seat this player holds, mailed before anything is printed
    _deliver(c, gs, d, joins, outbox_only,
             [f"joined as {jf.author}: {gs.outbox / game.outbox_name(jf)}" for jf in joins])


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
    ref = gs.root.name[:12]
    d0 = _load_repaired(c, gs)
    if vote:
        if vote == "agree":
            pend = d0.pending()
            vote = "accept" if pend is not None and pend.kind == ending.ANSWER_KIND else "propose"
        f, d = game.play(s, gs, "", end_vote=vote)
        lines = [f"end {vote if vote != 'propose' else 'proposal'} written (file {f.seq}): "
                 f"{gs.outbox / game.outbox_name(f)}"]
        pend = d.pending()
        if ending.agreed(d.est):
            lines.append(f"every seat has agreed to end the game: each player now reveals with 'pbem game end {ref}'")
        elif pend is not None:
            lines.append(f"next: {pend.seat}: {pend.phase}")
        _deliver(c, gs, d, [f], outbox_only, lines)
        return
    # One reveal per seat of this player's (docs/protocol.md §6a).
    files, d = game.end_all(s, gs, alone or "")
    lines = [f"reveal written ({f.header['reason']}): {gs.outbox / game.outbox_name(f)}" for f in files]
    result = ending.outcome(d)
    if result:
        lines.append(f"result: {result}")
    waiting = [x for x in d.con.seats if x not in d.reveals]
    lines.append(f"waiting for reveals from: {', '.join(waiting)}" if waiting else
                 f"every seat has revealed: 'pbem verify {ref}' audits the game")
    _deliver(c, gs, d, files, outbox_only, lines)


@game_group.command("handover")
@click.argument("game_ref", metavar="GAME")
@click.option("--seat", required=True, help="Your seat to hand over (handover=quorum: a lost player's).")
@click.option("--consent", is_flag=True, help="handover=quorum: write your consent and share to -o, for the writer.")
@click.option("--with", "consent_files", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="handover=quorum: each other remaining player's consent (then you write the handover).")
@click.option("--to", "card_file", required=True, type=click.Path(exists=True, dir_okay=False),
              help="The substitute's player card (compare its fingerprint with the player first).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Where to write the game's archive for the substitute (default: GAME-handover-SEAT.pbem-archive).")
@outbox_option
@pass_ctx
def game_handover(c: Ctx, game_ref: str, seat: str, consent: bool, consent_files: tuple[str, ...], card_file: str,
                  output: str | None, outbox_only: bool) -> None:
    """Hand one of your seats to another player, who plays it from then on.

    Writes a signed handover file (mailed to the other players) and the game's
    archive for the substitute, who takes the seat with 'pbem archive import'.
    The substitute gets the seat's dice secret, private state and sealed
    choices; nobody else does. Your tool reads nothing of the seat afterwards.
    """
    from pbem.play import archive, handover
    from pbem.store.fsutil import atomic_write

    check_seat(seat, where="--seat")
    gs = store.find_game(c.home, game_ref)
    card = handover.read_card(Path(card_file).read_bytes())
    d0 = _load_repaired(c, gs)
    if consent:
        out = Path(output or f"{gs.root.name[:12]}-consent-{seat}.pbem-consent")
        atomic_write(out, handover.consent(c.session(), d0, seat, card), mode=0o600)
        click.echo(f"your consent to hand seat {seat} to {card.name} is in {out}: send it to the writer")
        return
    quorum = [Path(x).read_bytes() for x in consent_files] if consent_files or seat not in d0.my_seats else None
    f, d = game.hand_over(c.session(), gs, seat, card, quorum)
    out = Path(output or f"{gs.root.name[:12]}-handover-{seat}.pbem-archive")
    atomic_write(out, archive.export(gs), mode=0o600)
    _deliver(c, gs, d, [f], outbox_only, [
        f"seat {seat} handed to {card.name} <{card.email}> ({card.fingerprint}) (file {f.seq})",
        f"send {out} to {card.name}, who takes the seat with 'pbem archive import {out}'",
        _next_line(d)])


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
    from pbem.play import lookahead

    gs = store.find_game(c.home, game_ref)
    if seat is not None:
        check_seat(seat, where="--seat", hint=USER_HINT)
    d0 = _load_repaired(c, gs)
    if orders_file is None and dice_request is None:
        pend0 = d0.pending()
        if pend0 is None or pend0.kind != "dice-release":
            raise UsageError("--orders is required (only a dice release is played without orders)",
                             hint=f"run 'pbem orders template {game_ref}' to write your orders")
    text = read_text_file(orders_file, "orders file") if orders_file else ""
    if seat is not None:
        d0.use_seat(seat)
    # What the file's automatic start resolves, told first: computed before the file is made.
    start = lookahead.file_start(d0).sentences if text else []
    f, d = game.play(c.session(), gs, text, dice_request or 0, seat=seat, loaded=d0)
    # Queued before anything is printed: a closed pipe (`| head -1`) cannot leave the file unmailed.
    _deliver(c, gs, d, [f], outbox_only, [
        *[f"your file first resolved: {s}" for s in start],
        f"turn file {f.seq} written: {gs.outbox / game.outbox_name(f)}",
        _next_line(d)])


def _load_repaired(c: Ctx, gs: store.GameStore) -> game.Derived:
    """The game, after repairing what a crash may have left: a torn store, a file of ours whose
    mail was never queued (a kill or a closed pipe between the two). Every command that plays
    starts here, so no file stays unmailed past the next command."""
    s = c.session()
    d = game.load(s, gs)
    msgs = game.repair_seats(gs, d.my_seats)
    if msgs:  # the store changed under the game: read it again
        d = game.load(s, gs)
    if game.unmailed(gs, d):
        from pbem.mail import dispatch

        msgs += dispatch.repair(s, gs, d)
    for m in msgs:
        click.echo(f"{gs.root.name[:12]}  repaired: {m}")
    return d


def _next_line(d: game.Derived) -> str:
    pend = d.pending()
    if pend is not None:
        return f"next: {pend.seat}: {pend.phase}"
    return f"game over: {ending.outcome(d)}; each player now reveals with 'pbem game end {d.con.game_id.hex()[:12]}'"


def _deliver(c: Ctx, gs: store.GameStore, d: game.Derived, files: list[turnfile.SignedFile], outbox_only: bool,
             lines: list[str]) -> None:
    """Mail (or queue) ``files``, then print ``lines`` and where each mail went.

    The mails are queued before the first word is printed: output closed early (`pbem play ...
    | head -1`) or a mail failure then never leaves a written file without its mail.
    """
    from pbem.mail import MailError, dispatch, load_config

    cfg = None if outbox_only else load_config(c.home)
    results = []
    try:
        for f in files:
            results += dispatch.dispatch(c.session(), gs, d, f, cfg, use_config=False)
    except MailError as e:
        for line in lines:
            click.echo(line)
        where = f" ({e.queued})" if getattr(e, "queued", None) else ""
        raise MailError(f"the file is saved, but mailing it failed: {e}{where}",
                        hint=f"{e.hint}; then run 'pbem resend {gs.root.name[:12]}'") from None
    for line in lines:
        click.echo(line)
    for r in results:
        click.echo(f"  {'mailed' if r.status == 'sent' else 'queued'}: {r.path}")


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
    d = _load_repaired(c, gs)
    pend = d.pending()
    if pend is not None and pend.kind == "dice-release" and pend.seat == d.my_seat:
        click.echo(f"# {pend.wanted}\n# pbem play {game_ref}   (no --orders)\n", nl=False)
        return
    click.echo(_template(d, game_ref), nl=False)


def _template(d: game.Derived, game_ref: str) -> str:
    """The game's template, with what the file's start resolves and the legal actions (pbem.present.cockpit)."""
    from pbem.play import lookahead
    from pbem.present import cockpit

    start = lookahead.file_start(d)
    seat = d.my_seat or ""
    pend = d.pending()
    # The orders meet the state the file's start leaves (a combat resolved, a unit advanced).
    public, private = (d.public, d.private) if start.public is None else (start.public, start.private)
    acts = [] if pend is None or pend.kind == "dice-release" else d.rules.legal_actions(public, private, seat)
    return cockpit.template(d.rules.order_template(public, private, seat), start.lines(), acts, game_ref)


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
    if a.note:
        lines.append(f"    {a.note}")
    if a.paths:
        lines.append(f"    ends: {' '.join(p[-1] for p in a.paths)}")
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
    d = _load_repaired(c, gs)
    click.echo(_template(d, game_ref), nl=False)
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
        _deliver(c, gs, d, [f], outbox_only, [f"turn file {f.seq} written: {gs.outbox / game.outbox_name(f)}",
                                               _next_line(d)])
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
    if not as_html and d.started:
        out = "".join(f"{line}\n" for line in _show_head(d, gs.root.name[:12], public)) + out
    if output:
        # The private view shows what only this seat may know: readable by its owner alone.
        atomic_write(Path(output), out.encode("utf-8"), mode=FILE_MODE)
        click.echo(f"written: {output}")
    else:
        click.echo(out, nl=False)


def _show_head(d: game.Derived, ref: str, public: bool) -> list[str]:
    """What `show` says first: that the game has ended (as `status` says it), or what the start
    of this player's next file will resolve (private view only: it uses the player's dice)."""
    if d.closed or d.pending() is None:
        return [f"This game is {_ending_text(d, ref)}."]
    if public:
        return []
    from pbem.play import lookahead

    return lookahead.file_start(d).lines()


@cli.command()
@pass_ctx
def status(c: Ctx) -> None:
    """List this home's games and whose move it is.

    Needs no passphrase while the games' caches are current (they hold public
    state only); it unlocks your identity only to rebuild a stale cache or to
    queue a mail a crash left unwritten.
    """
    from pbem.cli import statusline
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
        if not (d.started and d.closed):
            # One line maker for this path and the fast one that reads the glance (pbem.cli.quick).
            click.echo(statusline.line(game.glance_facts(d), gs.root.name[:12], now))
            if peeked is not None:
                game.refresh_glance(gs, d)
            continue
        you = f"you: {summary.seats_text(d, d.my_seats)}" if d.my_seats else "you: observer"
        head = f"{gs.root.name[:12]}  {d.con.h['rules']}/{d.con.h['scenario']}  {you}"
        click.echo(f"{head}  {_ending_text(d, gs.root.name[:12])}")
    for p in inv:
        click.echo(f"{p.stem[:12]}  invitation: pbem game join {p}")


def _ending_text(d: game.Derived, ref: str) -> str:
    """A game over or closed, in the words `status`, `show` and `game end` share: how it ended,
    whose reveals are still missing, and what this player runs next."""
    outcome = ending.outcome(d) or "ended"
    state = "ended" if d.closed else "over"
    waiting = [x for x in d.con.seats if x not in d.reveals]
    mine = [x for x in waiting if x in d.my_seats]
    if not waiting:
        return f"ended ({outcome}); every seat has revealed: 'pbem verify {ref}' audits the game"
    head = f"{state} ({outcome}); waiting for reveals from {', '.join(waiting)}"
    if mine:
        return f"{head}: yours is wanted, run 'pbem game end {ref}'"
    if not d.my_seats:
        return f"{head}: an observer imports the game ('pbem archive import') once every reveal is in"
    return f"{head}; you have revealed"


@cli.command("games")
def games_cmd() -> None:
    """List the games (rules modules) this pbem can play."""
    for name in rulesapi.available():
        r = rulesapi.get(name)
        click.echo(f"{name:8} {r.version:6} {r.title}: scenarios {', '.join(r.scenarios())}")
