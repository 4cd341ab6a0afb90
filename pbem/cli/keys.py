"""`pbem key ...`: the player's identity and card."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import Ctx, cli, pass_ctx
from pbem.errors import PbemError
from pbem.identity import (
    IDENTITY_WORK_FACTOR,
    Card,
    new_identity,
    save_identity,
)


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
