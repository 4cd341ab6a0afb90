"""From a produced file to the mails that carry it.

One mail per other player: the attachment is the same file for everyone.
What the body holds is the player's choice (``body`` in the [mail] config,
per game in ``[mail.body_per_game]``):

* "summary" (the default): a summary written for its recipient (what happened
  since their last turn, what is wanted of them), only from the *public*
  view, since mail travels in clear; the map is an inline PNG (``cid:map``),
  since many mail clients block SVG. The mail provider reads it too.
* "notice": a bare notice with no game content, and a subject without the
  phase, so the provider learns only what the envelope shows
  (docs/protocol.md §7a). The player reads the game with ``pbem show``.

The author's own private view is never mailed unless the player opted in
(``private_to_self``), and never for a game whose mails are notices.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from email.message import EmailMessage

from pbem.mail import Attachment, InlineImage, MailConfig, build_message, load_config
from pbem.mail.compose import GAME_HEADER, PBEM_MIME, notice_subject
from pbem.mail.config import Body, body_setting
from pbem.mail.send import SendResult, send_or_queue
from pbem.play.game import Derived, Session, outbox_name
from pbem.present import render, summary
from pbem.protocol import turnfile
from pbem.store import glance
from pbem.store.gamestore import GameStore


@dataclass
class Mail:
    seat: str
    name: str
    message: EmailMessage


def mails_for(session: Session, d: Derived, f: turnfile.SignedFile, body: Body | None = None) -> list[Mail]:
    """The mails for file ``f``, ``d`` being the game just after it.

    ``body``: "summary" or "notice"; None reads the home's choice for this game.
    """
    if body is None:
        body = body_setting(session.home).for_game(d.con.game_id)
    # a handover's author seat now names the substitute's card: the mail is the sender's own
    author = d.con.cards.get(f.author) if f.kind != "handover" else None
    sender = author.email if author else session.ident.email
    when = datetime.datetime.fromtimestamp(int(f.header["time"]), datetime.UTC)
    base = outbox_name(f)
    out = []
    png_cache: dict[str, bytes] = {}
    # One mail per player, named by its first seat: a player holding several seats gets one.
    for seat, held in d.con.players().items():
        if f.author in held:
            continue
        card = d.con.cards[seat]
        if body == "notice":
            msg = _notice(sender, card.email, d, f, seat, when)
            out.append(Mail(seat, f"{base}.{seat}.eml", msg))
            continue
        ctx = summary.build(d, seat, private=False, svg=False)
        images = []
        map_src = None
        if ctx["has_map"]:
            # Players who see the same picture get the same PNG, drawn once.
            key = json.dumps(ctx["map_picture"], sort_keys=True, default=str)
            if key not in png_cache:
                png_cache[key] = render.map_png(ctx["map_picture"])
            images.append(InlineImage("map", png_cache[key]))
            map_src = "cid:map"
        msg = build_message(
            sender=sender, recipients=[card.email], subject=summary.subject(d),
            text=render.render_text(ctx), html=render.render_html(ctx, map_src=map_src),
            attachments=[Attachment(base, f.raw, PBEM_MIME)], inline_images=images,
            headers={GAME_HEADER: d.con.game_id.hex()},
            message_id=f"<{f.hash.hex()[:32]}.{seat}@pbem.invalid>", date=when,
        )
        out.append(Mail(seat, f"{base}.{seat}.eml", msg))
    return out


def _notice(sender: str, to: str, d: Derived, f: turnfile.SignedFile, seat: str,
            when: datetime.datetime) -> EmailMessage:
    """A mail that says a file is attached and nothing about the game (no phase, no summary, no map)."""
    gid = d.con.game_id.hex()
    text = render.environment().get_template("notice.txt.j2").render(game_short=gid[:12], seq=f.seq)
    return build_message(
        sender=sender, recipients=[to], subject=notice_subject(d.con.game_id, f.seq), text=text,
        attachments=[Attachment(outbox_name(f), f.raw, PBEM_MIME)],
        headers={GAME_HEADER: gid},
        message_id=f"<{f.hash.hex()[:32]}.{seat}@pbem.invalid>", date=when,
    )


def dispatch(session: Session, store: GameStore, d: Derived, f: turnfile.SignedFile,
             cfg: MailConfig | None = None, *, use_config: bool = True) -> list[SendResult]:
    """Queue every mail for ``f`` in the outbox, then send them if mail is configured.

    The .eml is written before any sending, so a failure (or a crash) leaves
    it queued for 'pbem resend'; nothing produced is ever lost.
    """
    if cfg is None and use_config:
        cfg = load_config(session.home)
    # Without a transport (cfg None: --outbox) the choice still applies: queued
    # .eml files reach the same providers once sent.
    body = (cfg.body if cfg is not None else body_setting(session.home)).for_game(d.con.game_id)
    results = []
    mails = mails_for(session, d, f, body)
    # A private view in clear would undo a notice: the notice choice wins.
    if (cfg is not None and cfg.private_to_self and body == "summary" and f.author in d.my_seats):
        mails.append(private_mail(session, d, f))
    for m in mails:
        results.append(send_or_queue(m.message, cfg, store.outbox, name=m.name, sent_dir=store.sent_dir))
    return results


def private_mail(session: Session, d: Derived, f: turnfile.SignedFile) -> Mail:
    """The player's own private view, mailed only to the player, only when it opted in."""
    ctx = summary.build(d, f.author if f.author in d.my_seats else d.my_seat, private=True, svg=False)
    images = [InlineImage("map", render.map_png(ctx["map_picture"]))] if ctx["has_map"] else []
    msg = build_message(
        sender=session.ident.email, recipients=[session.ident.email],
        subject=summary.subject(d) + " (your private view)", text=render.render_text(ctx),
        html=render.render_html(ctx, map_src="cid:map" if images else None), inline_images=images,
        headers={GAME_HEADER: d.con.game_id.hex()},
        message_id=f"<{f.hash.hex()[:32]}.self@pbem.invalid>",
        date=datetime.datetime.fromtimestamp(int(f.header["time"]), datetime.UTC),
    )
    return Mail(d.my_seat or "", f"{outbox_name(f)}.self.eml", msg)


def repair(session: Session, store: GameStore, d: Derived) -> list[str]:
    """Queue the mails of any file of ours that has none (a crash hit between the file and its mails).

    Only queues: sending is for 'pbem resend', so repairing never surprises
    anyone with mail.
    """
    done = []
    for f, missing in missing_mails(store, d):
        for m in mails_for(session, d, f):
            if m.seat in missing:
                send_or_queue(m.message, None, store.outbox, name=m.name, sent_dir=store.sent_dir)
                done.append(f"queued the missing mail {m.name}")
    return done


def missing_mails(store: GameStore, d: Derived) -> list[tuple[turnfile.SignedFile, list[str]]]:
    """Files of ours whose mail to some seat is neither queued nor sent (no unlock needed)."""
    if not d.my_seats:
        return []
    stored = {sf.path.name: sf for sf in store.files()}
    index = [(sf.seq, sf.kind, sf.author, name) for name, sf in stored.items()]
    players = {s: list(held) for s, held in d.con.players().items()}
    missing = glance.missing_mails(d.con.game_id.hex(), index, d.my_seats, players, store.mail_names())
    return [(turnfile.parse(stored[name].read()), seats) for name, seats in missing]
