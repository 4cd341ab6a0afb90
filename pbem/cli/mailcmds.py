"""Commands that move files by mail: receive, resend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.base import Ctx, _progress, cli, outbox_option, pass_ctx
from pbem.errors import NotFound, PbemError, UsageError
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
    from pbem.play import intake  # the mail package only for mail (a plain file needs none)

    found: list[intake.FoundFile] = []
    for name in files:
        data = Path(name).read_bytes()
        head = data[:8192].lower()
        is_mail = name.lower().endswith(".eml") or (
            not data.startswith(turnfile.MAGIC) and b"mime-version:" in head and b"content-type:" in head)
        if is_mail:
            from pbem.mail import attachments_from_eml

            found.extend(attachments_from_eml(data, source=name))
        else:
            found.append(intake.FoundFile(Path(name).name, data, name))
    if maildir is not None or use_imap:
        from pbem import mail
    cfg = mail.load_config(c.home) if (maildir is not None or use_imap) else None
    if maildir is not None:
        path = Path(maildir) if maildir else (Path(cfg.maildir) if cfg and cfg.maildir else None)
        if path is None:
            raise UsageError("no Maildir given and none in config.toml", hint="pass --maildir DIR")
        found.extend(mail.from_maildir(path))
    if use_imap:
        if cfg is None or not cfg.imap_host:
            raise NotFound("no IMAP server in config.toml", hint="see docs/mail.md for the [mail] settings")
        from pbem.mail.imap import Watermark, watermark_path

        # Only what came since the last run (its files are held, pending or in quarantine);
        # --all and --since ask to look again at older mail.
        mark_path = watermark_path(c.home.data, cfg)
        mark = Watermark() if all_mail or since else Watermark.load(mark_path)
        with _progress("fetching mail") as tick:
            found.extend(mail.from_imap(cfg, mail.password_provider(cfg), search="all" if all_mail else "pbem",
                                        since=since.date() if since else None,
                                        progress=lambda i, n, *_: tick(i, n), watermark=mark))
    if not files and maildir is None and not use_imap:
        raise UsageError("nothing to receive", hint="give FILES, --maildir or --imap")
    if not found:
        if use_imap:
            mark.save(mark_path)
        click.echo("no pbem files found")
        return
    with _progress("receiving") as tick:
        results = intake.ingest(c.session(), found, progress=lambda i, n, *_: tick(i, n))
    if use_imap:
        mark.save(mark_path)
    refused = _report_received(c, results)
    if refused:
        # Each refusal has had its lines above; the closing error only counts them.
        e = PbemError(f"{len(refused)} of {len(results)} file{'s' if len(results) > 1 else ''} refused",
                      hint="the lines above name each refused file, why, and what to do")
        e.exit_code = refused[0].exit_code
        raise e


def _report_received(c: Ctx, results: list[Any]) -> list[PbemError]:
    """One line per file (and a hint line under a refusal, on stderr); returns the refusals."""
    failed: list[PbemError] = []
    for r in results:
        src, fname = r.found.source, r.found.filename
        name = src if fname in (src, Path(src).name) else f"{src}: {fname}"
        if r.skipped is not None:
            # Reported when it was first met; a one-line note, not a failure, ever after.
            click.echo(f"{name}: skipped, in quarantine since an earlier run: {r.skipped}", err=True)
            continue
        if r.error is not None and _waits_for_join(c, r):
            # Three or more players: another player's join can arrive before this player has
            # joined. It is kept (intake/pending) and taken in by the first receive after joining.
            what = f" ({r.what})" if r.what else ""
            click.echo(f"{name}{what}: kept until you join that game (you have its invitation); "
                       "'pbem receive' after 'pbem game join' takes it in")
            continue
        if r.error is not None:
            what = f" ({r.what})" if r.what else ""
            click.echo(f"{name}{what}: refused: {type(r.error).__name__}: {r.error}", err=True)
            click.echo(f"  hint: {r.error.hint}", err=True)
            if r.quarantined:
                click.echo(f"  kept in {c.home.quarantine / r.quarantined}; later runs skip it", err=True)
            failed.append(r.error)
            continue
        rec = r.received
        assert rec is not None
        what = {"added": "added", "duplicate": "already had it", "invitation": "invitation saved"}[rec.status]
        click.echo(f"{name}: game {rec.game.hex()[:12]} {rec.kind} {rec.seq} from {rec.author}: {what}")
        if rec.status == "invitation":
            click.echo(f"  join it with: pbem game join {c.home.invitations / (rec.game.hex() + '.pbem')}")
    return failed


def _waits_for_join(c: Ctx, r: Any) -> bool:
    """A file refused only because this home has not joined its game yet, whose invitation it holds."""
    from pbem.errors import WrongGame

    if not isinstance(r.error, WrongGame) or not c.home.invitations.is_dir():
        return False
    try:
        gid = turnfile.parse(r.found.data).game
    except PbemError:
        return False
    return (c.home.invitations / (gid.hex() + ".pbem")).is_file()


@cli.command()
@click.argument("game_ref", metavar="GAME", required=False)
@outbox_option
@pass_ctx
def resend(c: Ctx, game_ref: str | None, outbox_only: bool) -> None:
    """Send your mails again: those still queued, else your last file of GAME (an opponent lost it).

    Without GAME, every game's queued mails are sent. A mail is queued when
    sending failed or no SMTP server is configured (the .eml files in the
    game's outbox).
    """
    from pbem.mail import load_config

    games = [store.find_game(c.home, game_ref)] if game_ref else store.all_games(c.home)
    queued = [gs for gs in games if gs.outbox.is_dir() and any(gs.outbox.glob("*.eml"))]
    cfg = None if outbox_only else load_config(c.home)
    can_send = cfg is not None and not cfg.outbox_only
    if queued and can_send:
        _send_queued(cfg, queued)
    elif game_ref:
        # Nothing waits to be sent (or nothing can be sent): mail, or queue, the last file anew.
        _resend_last(c, games[0], outbox_only)
    elif queued:
        raise NotFound(f"mails are queued in {', '.join(str(gs.outbox) for gs in queued)}, and no SMTP "
                       "server is configured to send them",
                       hint="see docs/mail.md for the [mail] settings; or send the .eml files yourself")
    else:
        click.echo("no mail is queued; name a GAME to mail your last file of it again")


def _send_queued(cfg: Any, games: list[store.GameStore]) -> None:
    from pbem.mail import password_provider
    from pbem.mail.send import resend_outbox

    provide = password_provider(cfg)
    for gs in games:
        for r in resend_outbox(gs.outbox, cfg, provide, sent_dir=gs.sent_dir):
            click.echo(f"  {r.status}: {r.path}")


def _resend_last(c: Ctx, gs: store.GameStore, outbox_only: bool) -> None:
    """Mail this player's last file of the game again, as a new mail (the first may have been lost)."""
    s = c.session()
    d = game.load(s, gs)
    mine = [sf for sf in gs.files() if sf.author in d.my_seats]
    if not mine:
        raise NotFound("you have written no file in this game yet",
                       hint="run 'pbem status' to see whose move it is")
    f = turnfile.parse(mine[-1].read())
    click.echo(f"re-sending file {f.seq} ({f.kind})")
    from pbem.mail import dispatch, load_config
    from pbem.mail.send import send_or_queue

    cfg = None if outbox_only else load_config(c.home)
    n = len(list(gs.sent_dir.glob("*.eml"))) if gs.sent_dir.is_dir() else 0
    for m in dispatch.mails_for(s, d, f):
        r = send_or_queue(m.message, cfg, gs.outbox, name=f"{m.name[:-4]}.resend{n}.eml", sent_dir=gs.sent_dir)
        click.echo(f"  {r.status}: {r.path}")
