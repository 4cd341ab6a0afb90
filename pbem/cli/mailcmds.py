"""Commands that move files by mail: receive, mail resend, resend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.base import Ctx, _progress, cli, outbox_option, pass_ctx
from pbem.errors import InvalidInput, NotFound, PbemError
from pbem.play import game
from pbem.protocol import turnfile
from pbem.store import gamestore as store


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
    Each file is received on its own: a refused file never stops the others.
    A file refused for what it is (malformed, badly signed) is kept in the
    home's quarantine folder and skipped, with a note, by later runs.
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
        if r.skipped is not None:
            # Reported when it was first met; a one-line note, not a failure, ever after.
            click.echo(f"{name}: skipped, in quarantine since an earlier run: {r.skipped}", err=True)
            continue
        if r.error is not None:
            what = f" ({r.what})" if r.what else ""
            click.echo(f"{name}{what}: refused: {type(r.error).__name__}: {r.error}", err=True)
            click.echo(f"  hint: {r.error.hint}", err=True)
            if r.quarantined:
                click.echo(f"  kept in {c.home.quarantine / r.quarantined}; later runs skip it", err=True)
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
    mine = [sf for sf in gs.files() if sf.author in d.my_seats]
    if not mine:
        raise NotFound("you have written no file in this game yet")
    f = turnfile.parse(mine[-1].read())
    click.echo(f"re-sending file {f.seq} ({f.kind})")
    from pbem.mail import dispatch, load_config
    from pbem.mail.send import send_or_queue

    cfg = None if outbox_only else load_config(c.home)
    n = len(list(gs.sent_dir.glob("*.eml"))) if gs.sent_dir.is_dir() else 0
    for m in dispatch.mails_for(s, d, f):
        r = send_or_queue(m.message, cfg, gs.outbox, name=f"{m.name[:-4]}.resend{n}.eml", sent_dir=gs.sent_dir)
        click.echo(f"  {r.status}: {r.path}")
