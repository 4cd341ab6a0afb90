"""Commands that check, export and rebuild games: verify, proofs, archives, inspect."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbem.cli.base import Ctx, _progress, cli, pass_ctx
from pbem.crypto import age
from pbem.errors import AuthError, InvalidInput, NotFound, PbemError, UsageError
from pbem.formats.names import check_seat
from pbem.play import game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import (
    Card,
)
from pbem.store import gamestore as store


@cli.group("archive")
def archive_group() -> None:
    """Export a whole game to one file, or import one (observers, recovery)."""


@archive_group.command("export")
@click.argument("game_ref", metavar="GAME")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@pass_ctx
def archive_export(c: Ctx, game_ref: str, output: str) -> None:
    """Write every file of GAME into one self-contained archive."""
    from pbem.play import archive
    from pbem.store.fsutil import atomic_write

    gs = store.find_game(c.home, game_ref)
    atomic_write(Path(output), archive.export(gs))
    click.echo(f"archive of {len(gs.files())} files written: {output}")


@archive_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@pass_ctx
def archive_import(c: Ctx, file: str) -> None:
    """Check every file of an archive and add the game to this home."""
    from pbem.play import archive

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
    from pbem import mail
    from pbem.play import archive

    found: list[tuple[str, bytes]] = []
    for name in files:
        data = Path(name).read_bytes()
        if name.lower().endswith(".eml"):
            found.extend((f.source, f.data) for f in mail.attachments_from_eml(data, source=name))
        else:
            found.append((name, data))
    if maildir is not None:
        cfg = mail.load_config(c.home)
        path = Path(maildir) if maildir else (Path(cfg.maildir) if cfg and cfg.maildir else None)
        if path is None:
            raise UsageError("no Maildir given and none in config.toml", hint="pass --maildir DIR")
        found.extend((f.source, f.data) for f in mail.from_maildir(path))
    if not found:
        raise UsageError("no files to recover from", hint="give the game's .pbem or .eml files, or --maildir")
    errors: list[PbemError] = []

    def refused(what: str, e: PbemError) -> None:
        click.echo(f"{what}: refused: {e}", err=True)
        click.echo(f"  hint: {e.hint}", err=True)
        errors.append(e)

    # Everything is parsed (every name checked) before the first game is written;
    # a file that fails is named and left out, and each game is checked whole
    # (in memory, then in a staging folder) before it is added with one rename.
    archives = archive.from_files([b for _, b in found], on_error=lambda i, e: refused(found[i][0], e))
    s = c.session()
    for game_id, data in archives.items():
        if store.game_dir(c.home, game_id).exists():
            click.echo(f"{game_id.hex()[:12]}: already in this home (use 'pbem receive' for new files)")
            continue
        try:
            gs, d = archive.import_archive(s, data)
        except PbemError as e:
            refused(f"game {game_id.hex()[:12]}", e)
            continue
        pend = d.pending()
        click.echo(f"{game_id.hex()[:12]}: rebuilt from {len(gs.files())} files, at file {d.seq}"
                   + (f"; next: {pend.seat} ({pend.phase})" if pend else ""))
    if errors:
        raise errors[0]


@archive_group.command("history")
@click.argument("game_ref", metavar="GAME")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@pass_ctx
def archive_history(c: Ctx, game_ref: str, output: str) -> None:
    """Write the game's HTML history: a map per turn, every combat with its dice, dice statistics."""
    from pbem.present import history

    gs = store.find_game(c.home, game_ref)
    path = history.main_export(c.session(), gs, Path(output))
    click.echo(f"history written: {path}")


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--part", help="A seat whose private part to extract, or 'public'.")
@click.option("--raw", is_flag=True, help="Write the part's raw age bytes to stdout (open it with 'age -d').")
@click.option("--decrypt", is_flag=True,
              help="With --part: open the part with your identity and show it (the phase, the "
                   "commitments' labels and contexts are in the public part).")
@click.option("--minisign", "minisign_dir", type=click.Path(file_okay=False),
              help="Write the signed message, its .minisig and the author's .pub into this folder.")
@click.option("--card", "card_file", type=click.Path(exists=True, dir_okay=False),
              help="The author's card (for --minisign, when the game is not in this home).")
@pass_ctx
def inspect(c: Ctx, file: str, part: str | None, raw: bool, decrypt: bool, minisign_dir: str | None,
            card_file: str | None) -> None:
    """Show a pbem file's envelope (no key needed), or extract one encrypted part."""
    f = turnfile.parse(Path(file).read_bytes())
    h = f.header
    if part:
        blob = h.get("public") if part == "public" else h.get("private", {}).get(part)
        if not isinstance(blob, bytes):
            raise NotFound(f"file has no part {part!r}",
                           hint=f"parts: public, {', '.join(sorted(h.get('private', {})))}")
        if decrypt:
            from pbem.play.game import Keyring

            plain = Keyring(c.session().ident).open(part, blob, f"part {part!r} of file {f.seq}")
            click.echo(json.dumps(plain, indent=2, default=lambda v: v.hex() if isinstance(v, bytes)
                                  else f"<{type(v).__name__}>"))
            return
        data = blob if raw else age.armor(blob)
        sys.stdout.buffer.write(data)
        return
    if minisign_dir:
        _export_minisign(f, Path(minisign_dir), file, _author_key(c, f, card_file))
        return
    info = {k: (v.hex() if isinstance(v, bytes) and len(v) <= 32 else
                f"<{len(v)} bytes>" if isinstance(v, bytes) else v)
            for k, v in h.items() if k not in ("cards", "private", "releases", "commits", "prev_attest")}
    a = f.prev_attest
    if a is not None:
        info["prev_attest"] = f"{a.kind} {f.seq - 1} by {a.author}, body {a.body_hash.hex()}"
    if "private" in h:
        info["private"] = {s: f"<{len(b)} bytes, age>" for s, b in h["private"].items()}
    if "commits" in h:
        # Only digests are in the clear; labels, contexts and the phase are in the public part.
        info["commits"] = [bytes(c).hex()[:16] for c in h["commits"]]
    if "cards" in h:
        info["cards"] = {s: Card.from_bytes(b).fingerprint for s, b in h["cards"].items()}
    info["file_hash"] = f.hash.hex()
    # Values nested in options and the like may be anything a hostile author chose.
    click.echo(json.dumps(info, indent=2, default=lambda v: f"<{type(v).__name__}>"))


def _export_minisign(f: turnfile.SignedFile, out: Path, name: str, key: bytes) -> None:
    """Write the three files into ``out`` and nowhere else.

    The seat name was checked at parse time and is checked again here, the
    input file's own name is reduced to a safe base name, and safe_join
    refuses any name or planted symbolic link that would lead out of ``out``;
    nothing is written until all three paths are known to be inside it.
    """
    from pbem.crypto import minisign
    from pbem.mail.receive import _safe_filename
    from pbem.store.fsutil import atomic_write
    from pbem.store.paths import safe_join

    base = _safe_filename(Path(name).name, 0)
    pub = safe_join(out, f"{check_seat(f.author)}.pub")
    signed, sig = safe_join(out, f"{base}.signed"), safe_join(out, f"{base}.signed.minisig")
    sig_text = minisign.signature_file(key, f.sig, turnfile.trusted_comment(f.header, f.body), f.tcsig,
                                       untrusted_comment=f"pbem signature of {base}")
    pub_text = minisign.public_key_file(key, untrusted_comment=f"pbem signing key of seat {f.author}")
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(signed, f.signed_message)
    atomic_write(sig, sig_text.encode())
    atomic_write(pub, pub_text.encode())
    click.echo(f"minisign -V -p {pub} -m {signed}")


def _author_key(c: Ctx, f: turnfile.SignedFile, card_file: str | None) -> bytes:
    """The author's signing key: from --card, the proposal itself, or the game in this home."""
    if card_file:
        return Card.from_text(Path(card_file).read_bytes()).signing_key
    if f.kind == "proposal":
        raw = f.header["cards"].get(f.author)
        if not isinstance(raw, bytes):
            raise InvalidInput(f"the proposal holds no card for its author, seat {f.author}",
                               hint="the file was not written by a genuine pbem")
        return Card.from_bytes(raw).signing_key
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
        raise UsageError("name a GAME or pass --all", hint="run 'pbem status' to list the games")
    if proof_file:
        from pbem.play import proof
        from pbem.store.fsutil import atomic_write

        gs = store.find_game(c.home, game_ref or "")
        d = game.load(c.session(), gs)
        pend = d.pending()
        waiting = pend.seat if pend is not None and pend.seat != d.my_seat else None
        atomic_write(Path(proof_file), proof.make(gs, waiting_for=waiting))
        click.echo(f"proof bundle written: {proof_file} (check it with 'pbem check-proof {proof_file}')")
    s = c.session()
    games = store.all_games(c.home) if all_games else [store.find_game(c.home, game_ref or "")]
    from pbem.play import audit

    bad = 0
    for gs in games:
        with _progress(f"verifying {gs.root.name[:12]}") as tick:
            d = game.derive(s, gs, progress=tick)
        rep = audit.audit(s, gs, d)
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
        # A violation is a signed file whose contents the rules, the dice or a commitment refute:
        # the same failure as a file refused on arrival, so the same exit code (6, docs/cli.md).
        raise AuthError(f"{bad} violation(s) found", hint="the lines above name each file, seat and problem; "
                        "keep the files as evidence ('pbem verify GAME --proof FILE')")


@cli.command("check-proof")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def check_proof(file: str) -> None:
    """Check a dispute bundle (no identity or game needed)."""
    from pbem.play import proof

    rep = proof.check(Path(file).read_bytes())
    click.echo(f"game {rep.game[:12]}: {rep.files} files")
    for line in rep.findings:
        click.echo(f"  {line}")
    for line in rep.problems:
        click.echo(f"  problem: {line}")
    if rep.problems:
        raise AuthError(f"{len(rep.problems)} problem(s) in the bundle", hint="the bundle was altered or is incomplete")
