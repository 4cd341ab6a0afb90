"""`pbem key ...`: the player's identity and card."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from pbem.cli.base import Ctx, _passphrase_from, cli, demo_clock, pass_ctx
from pbem.errors import AlreadyExists, NotFound, UsageError
from pbem.protocol.identity import (
    IDENTITY_WORK_FACTOR,
    Card,
    change_passphrase,
    new_identity,
    passphrase_warnings,
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
    ident = new_identity(name, email, rng=c.rng(), now=demo_clock())
    if c.home.identity_file.exists():
        raise AlreadyExists(f"an identity already exists in {c.home.config}")
    passphrase = c.passphrase(confirm=True)
    _warn_weak(passphrase)
    save_identity(ident, c.home.identity_file, passphrase, work_factor=work_factor, rng=c.rng())
    from pbem.store.fsutil import atomic_write

    card = ident.card()
    atomic_write(c.home.card_file, card.to_text().encode())
    click.echo(f"identity created in {c.home.identity_file}")
    click.echo(f"fingerprint: {card.fingerprint}")
    click.echo("send your card ('pbem key card') to your opponents and read them the fingerprint")


def _warn_weak(passphrase: str) -> None:
    """Advice on stderr, never a refusal: the player knows their threat better than pbem does."""
    problems = passphrase_warnings(passphrase)
    if problems:
        click.echo(f"pbem: warning: weak passphrase: {'; '.join(problems)}", err=True)
        click.echo("pbem: hint: a stolen identity file can be attacked offline: prefer four or more random "
                   "words, and change it with 'pbem key passphrase'", err=True)


@key.command("passphrase")
@click.option("--new-passphrase-file", type=click.Path(dir_okay=False),
              help="Read the new passphrase from this file (else PBEM_NEW_PASSPHRASE, else a prompt).")
@click.option("--work-factor", type=click.IntRange(10, 22), default=IDENTITY_WORK_FACTOR,
              hidden=True, help="scrypt work factor (tests lower it).")
@pass_ctx
def key_passphrase(c: Ctx, new_passphrase_file: str | None, work_factor: int) -> None:
    """Change the passphrase that protects your identity (your keys and card stay the same)."""
    old = c.passphrase()
    if new_passphrase_file:
        try:
            new = _passphrase_from(Path(new_passphrase_file))
        except OSError as e:
            raise NotFound(f"cannot read passphrase file {new_passphrase_file}: {e.strerror}",
                           hint="check the path given to --new-passphrase-file") from None
    elif os.environ.get("PBEM_NEW_PASSPHRASE"):
        new = os.environ["PBEM_NEW_PASSPHRASE"]
    elif sys.stdin.isatty():
        new = str(click.prompt("new passphrase", hide_input=True, confirmation_prompt=True))
    else:
        raise UsageError("a new passphrase is needed and there is no terminal to ask on",
                        hint="set PBEM_NEW_PASSPHRASE or pass --new-passphrase-file FILE")
    _warn_weak(new)
    change_passphrase(c.home.identity_file, old, new, work_factor=work_factor, rng=c.rng())
    click.echo(f"passphrase changed for {c.home.identity_file}")


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
    ident = c.secret_identity()
    click.echo(f"# pbem identity of {ident.name} <{ident.email}>")
    click.echo(f"# public key: {ident.age_recipient}")
    click.echo(ident.age_identity)
