"""The command line: a thin front over pbem.game, pbem.identity and friends.

Every refusal prints ``pbem: error: ...`` and ``pbem: hint: ...`` on stderr
and exits with the error's documented code (docs/cli.md, pbem.errors.ExitCode).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from pbem import __version__, age, game, genesis, paths, rulesapi, store, turnfile
from pbem.errors import ExitCode, InvalidInput, NotFound, OrderErrors, PbemError
from pbem.identity import (
    IDENTITY_WORK_FACTOR,
    Card,
    Identity,
    load_identity,
    new_identity,
    save_identity,
)


class Ctx:
    def __init__(self, home: paths.Home, passphrase_file: str | None) -> None:
        self.home = home
        self.passphrase_file = passphrase_file
        self._ident: Identity | None = None
        self._rng: Any = None

    def passphrase(self, *, confirm: bool = False) -> str:
        if self.passphrase_file:
            try:
                return Path(self.passphrase_file).read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as e:
                raise NotFound(f"cannot read passphrase file {self.passphrase_file}: {e.strerror}") from None
        env = os.environ.get("PBEM_PASSPHRASE")
        if env:
            return env
        if not sys.stdin.isatty():
            raise PbemError("a passphrase is needed and there is no terminal to ask on",
                            hint="set PBEM_PASSPHRASE or pass --passphrase-file FILE")
        return str(click.prompt("passphrase", hide_input=True, confirmation_prompt=confirm))

    def identity(self) -> Identity:
        if self._ident is None:
            path = self.home.identity_file
            if not path.exists():
                raise NotFound(f"no identity in {self.home.config}",
                               hint="create one with 'pbem key new --name NAME --email EMAIL'")
            self._ident = load_identity(path, self.passphrase())
        return self._ident

    def rng(self) -> Any:
        from pbem import randomness

        if self._rng is None:
            # With a demo seed, the stream must still differ between commands
            # (age nonces, commitment nonces): label it with the command and
            # how far the home's games have got.
            n = sum(1 for _ in self.home.data.rglob("*.pbem")) if self.home.data.is_dir() else 0
            self._rng = randomness.for_home(f"{self.home.config.parent.name}:{' '.join(sys.argv[1:])}:{n}")
        return self._rng

    def session(self) -> game.Session:
        return game.Session(self.home, self.identity(), rng=self.rng())

    def card(self) -> Card:
        try:
            return Card.from_text(self.home.card_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise NotFound(f"no player card in {self.home.config}",
                           hint="create an identity with 'pbem key new'") from None


pass_ctx = click.make_pass_decorator(Ctx)


class PbemGroup(click.Group):
    """Turns every PbemError into the documented error/hint lines and exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            home = paths.resolve(ctx.params.get("home"))
            if home.data.is_dir():
                with store.HomeLock(home):
                    return super().invoke(ctx)
            return super().invoke(ctx)
        except PbemError as e:
            _report(e)
            ctx.exit(e.exit_code)
        except OSError as e:
            click.echo(f"pbem: error: {e.strerror or e}: {e.filename or ''}", err=True)
            click.echo("pbem: hint: check the path and its permissions", err=True)
            ctx.exit(ExitCode.GENERIC)


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


def _send(c: Ctx, gs: store.GameStore, d: game.Derived, f: turnfile.SignedFile, outbox_only: bool) -> None:
    """Mail a produced file to the other players (or queue .eml files in the outbox)."""
    from pbem import dispatch
    from pbem.mail import MailError, load_config

    cfg = None if outbox_only else load_config(c.home)
    try:
        results = dispatch.dispatch(c.session(), gs, d, f, cfg, use_config=False)
    except MailError as e:
        where = f" ({e.queued})" if getattr(e, "queued", None) else ""
        raise MailError(f"the file is saved, but mailing it failed: {e}{where}",
                        hint=f"{e.hint}; then run 'pbem mail resend {gs.root.name[:12]}'") from None
    for r in results:
        verb = "mailed" if r.status == "sent" else "queued"
        click.echo(f"  {verb}: {r.path}")


outbox_option = click.option("--outbox", "outbox_only", is_flag=True,
                             help="Write the mails as .eml files to the game's outbox instead of sending them.")


# -- keys -------------------------------------------------------------------
@cli.group()
def key() -> None:
    """Your identity: signing and encryption keys, and your player card."""


@key.command("new")
@click.option("--name", required=True, help="Your name as other players will see it.")
@click.option("--email", required=True, help="The address your opponents mail turn files to.")
@click.option("--work-factor", type=click.IntRange(10, 22), default=IDENTITY_WORK_FACTOR,
              hidden=True, help="scrypt work factor (tests lower it).")
@pass_ctx
def key_new(c: Ctx, name: str, email: str, work_factor: int) -> None:
    """Create an identity, protected by a passphrase."""
    ident = new_identity(name, email, rng=c.rng())
    if c.home.identity_file.exists():
        raise PbemError(f"an identity already exists in {c.home.config}",
                        hint="use another --home for a second identity")
    save_identity(ident, c.home.identity_file, c.passphrase(confirm=True), work_factor=work_factor, rng=c.rng())
    from pbem.fsutil import atomic_write

    card = ident.card()
    atomic_write(c.home.card_file, card.to_text().encode())
    click.echo(f"identity created in {c.home.identity_file}")
    click.echo(f"fingerprint: {card.fingerprint}")
    click.echo("send your card ('pbem key card') to your opponents and read them the fingerprint")


@key.command("card")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the card to a file.")
@pass_ctx
def key_card(c: Ctx, output: str | None) -> None:
    """Print your public player card."""
    text = c.card().to_text()
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@key.command("fingerprint")
@click.argument("card_file", required=False, type=click.Path(exists=True, dir_okay=False))
@pass_ctx
def key_fingerprint(c: Ctx, card_file: str | None) -> None:
    """Print the fingerprint of your card (or of CARD_FILE)."""
    card = Card.from_text(Path(card_file).read_bytes()) if card_file else c.card()
    click.echo(card.fingerprint)


@key.command("export-age")
@click.option("--secret", is_flag=True, help="Print the secret key (for the stock age tool).")
@pass_ctx
def key_export_age(c: Ctx, secret: bool) -> None:
    """Print your age recipient, or with --secret an age identity file."""
    if not secret:
        click.echo(c.card().age_recipient)
        return
    ident = c.identity()
    click.echo(f"# pbem identity of {ident.name} <{ident.email}>")
    click.echo(f"# public key: {ident.age_recipient}")
    click.echo(ident.age_identity)


# -- games ------------------------------------------------------------------
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


# -- archive ----------------------------------------------------------------
@cli.group("archive")
def archive_group() -> None:
    """Export a whole game to one file, or import one (observers, recovery)."""


@archive_group.command("export")
@click.argument("game_ref", metavar="GAME")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@pass_ctx
def archive_export(c: Ctx, game_ref: str, output: str) -> None:
    """Write every file of GAME into one self-contained archive."""
    from pbem import archive
    from pbem.fsutil import atomic_write

    gs = store.find_game(c.home, game_ref)
    atomic_write(Path(output), archive.export(gs))
    click.echo(f"archive of {len(gs.files())} files written: {output}")


@archive_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@pass_ctx
def archive_import(c: Ctx, file: str) -> None:
    """Check every file of an archive and add the game to this home."""
    from pbem import archive

    gs, d = archive.import_archive(c.session(), Path(file).read_bytes())
    seat = f"as {d.my_seat}" if d.my_seat else "as an observer"
    click.echo(f"game {gs.root.name[:12]} imported {seat}: {len(gs.files())} files, at file {d.seq}")


@cli.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--maildir", "maildir", is_flag=False, flag_value="", default=None,
              help="Take the files from a Maildir (default: the one in config.toml).")
@pass_ctx
def recover(c: Ctx, files: tuple[str, ...], maildir: str | None) -> None:
    """Rebuild lost game folders from their files (mail attachments, .pbem or .eml) and your identity."""
    from pbem import archive, mail

    blobs: list[bytes] = []
    for name in files:
        data = Path(name).read_bytes()
        if name.lower().endswith(".eml"):
            blobs.extend(f.data for f in mail.attachments_from_eml(data, source=name))
        else:
            blobs.append(data)
    if maildir is not None:
        cfg = mail.load_config(c.home)
        path = Path(maildir) if maildir else (Path(cfg.maildir) if cfg and cfg.maildir else None)
        if path is None:
            raise InvalidInput("no Maildir given and none in config.toml", hint="pass --maildir DIR")
        blobs.extend(f.data for f in mail.from_maildir(path))
    if not blobs:
        raise InvalidInput("no files to recover from", hint="give the game's .pbem or .eml files, or --maildir")
    s = c.session()
    for game_id, data in archive.from_files(blobs).items():
        if store.game_dir(c.home, game_id).exists():
            click.echo(f"{game_id.hex()[:12]}: already in this home (use 'pbem receive' for new files)")
            continue
        gs, d = archive.import_archive(s, data)
        pend = d.pending()
        click.echo(f"{game_id.hex()[:12]}: rebuilt from {len(gs.files())} files, at file {d.seq}"
                   + (f"; next: {pend.seat} ({pend.phase})" if pend else ""))


@archive_group.command("history")
@click.argument("game_ref", metavar="GAME")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@pass_ctx
def archive_history(c: Ctx, game_ref: str, output: str) -> None:
    """Write the game's HTML history: a map per turn, every combat with its dice, dice statistics."""
    from pbem import history

    gs = store.find_game(c.home, game_ref)
    path = history.main_export(c.session(), gs, Path(output))
    click.echo(f"history written: {path}")


# -- turns ------------------------------------------------------------------
@cli.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--maildir", "maildir", is_flag=False, flag_value="", default=None,
              help="Read a Maildir (default: the one in config.toml).")
@click.option("--imap", "use_imap", is_flag=True, help="Fetch from the IMAP folder in config.toml.")
@click.option("--all", "all_mail", is_flag=True, help="With --imap: look at every mail, not only pbem ones.")
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), help="With --imap: mails since this date.")
@pass_ctx
def receive(c: Ctx, files: tuple[str, ...], maildir: str | None, use_imap: bool, all_mail: bool,
            since: Any) -> None:
    """Take game files into their games: .pbem files, .eml mails, a Maildir or IMAP.

    Everything that is not a pbem file is ignored; the same file twice is fine.
    """
    from pbem import mail

    found: list[mail.FoundFile] = []
    for name in files:
        data = Path(name).read_bytes()
        head = data[:8192].lower()
        is_mail = name.lower().endswith(".eml") or (
            not data.startswith(turnfile.MAGIC) and b"mime-version:" in head and b"content-type:" in head)
        if is_mail:
            found.extend(mail.attachments_from_eml(data, source=name))
        else:
            found.append(mail.FoundFile(Path(name).name, data, name))
    cfg = mail.load_config(c.home) if (maildir is not None or use_imap) else None
    if maildir is not None:
        path = Path(maildir) if maildir else (Path(cfg.maildir) if cfg and cfg.maildir else None)
        if path is None:
            raise InvalidInput("no Maildir given and none in config.toml", hint="pass --maildir DIR")
        found.extend(mail.from_maildir(path))
    if use_imap:
        if cfg is None or not cfg.imap_host:
            raise NotFound("no IMAP server in config.toml", hint="see docs/mail.md for the [mail] settings")
        with _progress("fetching mail") as tick:
            found.extend(mail.from_imap(cfg, mail.password_provider(cfg), search="all" if all_mail else "pbem",
                                        since=since.date() if since else None,
                                        progress=lambda i, n, *_: tick(i, n)))
    if not files and maildir is None and not use_imap:
        raise InvalidInput("nothing to receive", hint="give FILES, --maildir or --imap")
    if not found:
        click.echo("no pbem files found")
        return
    with _progress("receiving") as tick:
        results = mail.ingest(c.session(), found, progress=lambda i, n, *_: tick(i, n))
    failed: PbemError | None = None
    for r in results:
        name = r.found.source if r.found.source == r.found.filename else f"{r.found.source}: {r.found.filename}"
        if r.error is not None:
            click.echo(f"{name}: refused: {r.error}", err=True)
            click.echo(f"  hint: {r.error.hint}", err=True)
            failed = failed or r.error
            continue
        rec = r.received
        assert rec is not None
        what = {"added": "added", "duplicate": "already had it", "invitation": "invitation saved"}[rec.status]
        click.echo(f"{name}: game {rec.game.hex()[:12]} {rec.kind} {rec.seq} from {rec.author}: {what}")
        if rec.status == "invitation":
            click.echo(f"  join it with: pbem game join {c.home.invitations / (rec.game.hex() + '.pbem')}")
    if failed:
        raise failed


@cli.group("mail")
def mail_group() -> None:
    """Mail that is waiting in your outboxes."""


@mail_group.command("resend")
@click.argument("game_ref", metavar="GAME", required=False)
@pass_ctx
def mail_resend(c: Ctx, game_ref: str | None) -> None:
    """Send the mails still queued in a game's outbox (or every game's)."""
    from pbem.mail import load_config, password_provider
    from pbem.mail.send import resend_outbox

    cfg = load_config(c.home)
    if cfg is None or cfg.outbox_only:
        raise NotFound("no SMTP server configured", hint="see docs/mail.md; or send the .eml files yourself")
    games = [store.find_game(c.home, game_ref)] if game_ref else store.all_games(c.home)
    provide = password_provider(cfg)
    for gs in games:
        for r in resend_outbox(gs.outbox, cfg, provide, sent_dir=gs.sent_dir):
            click.echo(f"  {r.status}: {r.path}")


@cli.command()
@click.argument("game_ref", metavar="GAME")
@outbox_option
@pass_ctx
def resend(c: Ctx, game_ref: str, outbox_only: bool) -> None:
    """Mail your last file of GAME again (an opponent lost it)."""
    gs = store.find_game(c.home, game_ref)
    s = c.session()
    d = game.load(s, gs)
    mine = [sf for sf in gs.files() if sf.author == d.my_seat]
    if not mine:
        raise NotFound("you have written no file in this game yet")
    f = turnfile.parse(mine[-1].read())
    click.echo(f"re-sending file {f.seq} ({f.kind})")
    from pbem import dispatch
    from pbem.mail import load_config
    from pbem.mail.send import send_or_queue

    cfg = None if outbox_only else load_config(c.home)
    n = len(list(gs.sent_dir.glob("*.eml"))) if gs.sent_dir.is_dir() else 0
    for m in dispatch.mails_for(s, d, f):
        r = send_or_queue(m.message, cfg, gs.outbox, name=f"{m.name[:-4]}.resend{n}.eml", sent_dir=gs.sent_dir)
        click.echo(f"  {r.status}: {r.path}")


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


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--part", help="A seat whose private part to extract, or 'public'.")
@click.option("--raw", is_flag=True, help="Write the part's raw age bytes to stdout (open it with 'age -d').")
@click.option("--minisign", "minisign_dir", type=click.Path(file_okay=False),
              help="Write the signed message, its .minisig and the author's .pub into this folder.")
@click.option("--card", "card_file", type=click.Path(exists=True, dir_okay=False),
              help="The author's card (for --minisign, when the game is not in this home).")
@pass_ctx
def inspect(c: Ctx, file: str, part: str | None, raw: bool, minisign_dir: str | None,
            card_file: str | None) -> None:
    """Show a pbem file's envelope (no key needed), or extract one encrypted part."""
    f = turnfile.parse(Path(file).read_bytes())
    h = f.header
    if part:
        blob = h.get("public") if part == "public" else h.get("private", {}).get(part)
        if not isinstance(blob, bytes):
            raise NotFound(f"file has no part {part!r}",
                           hint=f"parts: public, {', '.join(sorted(h.get('private', {})))}")
        data = blob if raw else age.armor(blob)
        sys.stdout.buffer.write(data)
        return
    if minisign_dir:
        _export_minisign(f, Path(minisign_dir), file, _author_key(c, f, card_file))
        return
    info = {k: (v.hex() if isinstance(v, bytes) and len(v) <= 32 else
                f"<{len(v)} bytes>" if isinstance(v, bytes) else v)
            for k, v in h.items() if k not in ("cards", "private", "releases", "commits")}
    if "private" in h:
        info["private"] = {s: f"<{len(b)} bytes, age>" for s, b in h["private"].items()}
    if "commits" in h:
        info["commits"] = [f"{c['label']} by {c['seat']} ({c['ctx']}) {c['digest'].hex()[:16]}"
                           for c in h["commits"]]
    if "cards" in h:
        info["cards"] = {s: Card.from_bytes(b).fingerprint for s, b in h["cards"].items()}
    info["file_hash"] = f.hash.hex()
    click.echo(json.dumps(info, indent=2))


def _export_minisign(f: turnfile.SignedFile, out: Path, name: str, key: bytes) -> None:
    from pbem import minisign

    out.mkdir(parents=True, exist_ok=True)
    base = Path(name).name
    (out / f"{base}.signed").write_bytes(f.signed_message)
    (out / f"{base}.signed.minisig").write_text(minisign.signature_file(
        key, f.sig, turnfile.trusted_comment(f.header), f.tcsig,
        untrusted_comment=f"pbem signature of {base}"))
    (out / f"{f.author}.pub").write_text(minisign.public_key_file(
        key, untrusted_comment=f"pbem signing key of seat {f.author}"))
    click.echo(f"minisign -V -p {out / (f.author + '.pub')} -m {out / (base + '.signed')}")


def _author_key(c: Ctx, f: turnfile.SignedFile, card_file: str | None) -> bytes:
    """The author's signing key: from --card, the proposal itself, or the game in this home."""
    if card_file:
        return Card.from_text(Path(card_file).read_bytes()).signing_key
    if f.kind == "proposal":
        return Card.from_bytes(f.header["cards"][f.author]).signing_key
    gs = store.game_dir(c.home, f.game)
    props = gs.find(0, "proposal")
    if not props:
        raise NotFound("the author's card is needed to export the signature",
                       hint="pass --card CARDFILE, or run this in a home that has the game")
    con = genesis.read_proposal(turnfile.parse(props[0].read()))
    if f.author not in con.cards:
        raise NotFound(f"seat {f.author!r} is not in game {f.game.hex()[:12]}")
    return con.cards[f.author].signing_key


@cli.command()
@click.argument("game_ref", metavar="GAME", required=False)
@click.option("--all", "all_games", is_flag=True, help="Verify every game in this home.")
@click.option("--proof", "proof_file", type=click.Path(dir_okay=False),
              help="Also write a dispute bundle that anyone can check with 'pbem check-proof'.")
@pass_ctx
def verify(c: Ctx, game_ref: str | None, all_games: bool, proof_file: str | None) -> None:
    """Re-check a game from its files: chain, signatures, dice, commitments, rules."""
    if not game_ref and not all_games:
        raise InvalidInput("name a GAME or pass --all")
    if proof_file:
        from pbem import proof
        from pbem.fsutil import atomic_write

        gs = store.find_game(c.home, game_ref or "")
        d = game.load(c.session(), gs)
        pend = d.pending()
        waiting = pend.seat if pend is not None and pend.seat != d.my_seat else None
        atomic_write(Path(proof_file), proof.make(gs, waiting_for=waiting))
        click.echo(f"proof bundle written: {proof_file} (check it with 'pbem check-proof {proof_file}')")
    s = c.session()
    games = store.all_games(c.home) if all_games else [store.find_game(c.home, game_ref or "")]
    from pbem import audit

    bad = 0
    for gs in games:
        rep = audit.audit(s, gs)
        with _progress(f"verifying {gs.root.name[:12]}") as tick:
            d = game.derive(s, gs, progress=tick)
        n = len(gs.files())
        evid = sorted(p.name for p in gs.evidence_dir.iterdir()) if gs.evidence_dir.is_dir() else []
        click.echo(f"game {gs.root.name[:12]}: {n} files verified, at file {d.seq}: ok")
        if d.reveals:
            click.echo(f"  {audit.summary(d, rep)}")
            for v in rep.violations:
                click.echo(f"  violation: {v}")
            bad += len(rep.violations)
        if evid:
            click.echo(f"  evidence of equivocation kept: {', '.join(evid)}")
    if bad:
        raise PbemError(f"{bad} violation(s) found", hint="the lines above name each file, seat and problem")


@cli.command("check-proof")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def check_proof(file: str) -> None:
    """Check a dispute bundle (no identity or game needed)."""
    from pbem import proof

    rep = proof.check(Path(file).read_bytes())
    click.echo(f"game {rep.game[:12]}: {rep.files} files")
    for line in rep.findings:
        click.echo(f"  {line}")
    for line in rep.problems:
        click.echo(f"  problem: {line}")
    if rep.problems:
        raise PbemError(f"{len(rep.problems)} problem(s) in the bundle", hint="the bundle was altered or is incomplete")


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


def _ago(then: int, now: int) -> str:
    import datetime

    dt = max(0, now - then)
    when = datetime.datetime.fromtimestamp(then, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if dt < 3600:
        rel = f"{dt // 60} min"
    elif dt < 2 * 86400:
        rel = f"{dt // 3600} h"
    else:
        rel = f"{dt // 86400} days"
    return f"{when} ({rel} ago)"


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


@cli.command("games")
def games_cmd() -> None:
    """List the games (rules modules) this pbem can play."""
    for name in rulesapi.available():
        r = rulesapi.get(name)
        click.echo(f"{name:8} {r.version:6} {r.title}: scenarios {', '.join(r.scenarios())}")


def _report(e: PbemError) -> None:
    if isinstance(e, OrderErrors) and len(e.errors) > 1:
        click.echo(f"pbem: error: {len(e.errors)} problems in the orders", err=True)
        for sub in e.errors:
            click.echo(f"pbem: error: {sub}", err=True)
    else:
        click.echo(f"pbem: error: {e}", err=True)
    click.echo(f"pbem: hint: {e.hint}", err=True)


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="pbem")
    except Exception as e:
        if os.environ.get("PBEM_DEBUG"):
            raise
        click.echo(f"pbem: error: internal error: {type(e).__name__}: {e}", err=True)
        click.echo("pbem: hint: this is a bug in pbem; rerun with PBEM_DEBUG=1 and report the traceback", err=True)
        sys.exit(70)


if __name__ == "__main__":
    main()
