"""Seat handover (docs/protocol.md §12b): a seat passes to a substitute player mid-game.

France 1940 is handed over while the Axis's sealed Will Commit is pending (its attack file sealed
it, the Western answer has not come): the substitute takes the game from an archive, opens the
commitment and plays on; both players and an observer verify and fully audit the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Player, deliver, demo_turns, make_player, start_france_1940

from pbem import rulesapi
from pbem.cli import demo
from pbem.crypto import age
from pbem.errors import BadSignature, Equivocation, NotAddressedToYou, StateError
from pbem.mail import dispatch
from pbem.play import archive, audit, game, handover
from pbem.protocol import turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore


def _names(p: Player, gid: bytes) -> list[str]:
    st = gamestore.game_dir(p.home, gid)
    return sorted(x.name for x in st.files_dir.iterdir()) + sorted(x.name for x in st.evidence_dir.glob("*"))


def _load(p: Player, gid: bytes) -> game.Derived:
    return game.load(p.session, gamestore.game_dir(p.home, gid))


def _unopened(d: game.Derived, seat: str) -> list[str]:
    return [ref for ref, c in d.est["commits"].items() if c["seat"] == seat and ref not in d.est["opened"]]


def _reseal(f: turnfile.SignedFile, signer: Player, **changes: Any) -> bytes:
    return turnfile.seal({**f.header, **changes}, signer.session.ident.sign)


@pytest.fixture(scope="module")
def handed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """France 1940 to the Axis's sealed attack, then the Axis seat handed to ``sub``."""
    root = tmp_path_factory.mktemp("handover")
    players, gid = start_france_1940(root)
    script = rulesapi.get("use").demo_script("france-1940")
    assert script is not None
    steps = demo.parse_script(script)
    turns = demo_turns(players, gid, steps)
    while not _unopened(_load(players["western"], gid), "axis"):
        deliver(players, gid, *next(turns))
    old, western, sub = players["axis"], players["western"], make_player(root, "sub")
    d = _load(old, gid)
    pend_before = d.pending()
    assert pend_before is not None and pend_before.seat == "western"  # the sealed choice is pending
    f, after = game.hand_over(old.session, gamestore.game_dir(old.home, gid), "axis", sub.card)
    assert after.my_seats == () and after.pending() == pend_before
    return {"root": root, "gid": gid, "old": old, "western": western, "sub": sub, "handover": f,
            "steps": steps, "pend": pend_before, "sealed": _unopened(d, "axis")}


def test_forged_and_replayed_handovers_are_refused(handed: dict[str, Any]) -> None:
    gid, f, western, old, sub = (handed[k] for k in ("gid", "handover", "western", "old", "sub"))
    before = _names(western, gid)
    # signed by someone else than the seat's card
    with pytest.raises(BadSignature):
        game.receive(western.session, _reseal(f, western))
    # a handover to the card that already holds the seat
    with pytest.raises(FileRejected, match="already held"):
        game.receive(western.session, _reseal(f, old, card=old.card.to_bytes()))
    assert _names(western, gid) == before
    assert game.receive(western.session, f.raw).status == "added"
    assert game.receive(western.session, f.raw).status == "duplicate"  # the same file again: harmless
    after = _names(western, gid)
    # the summary the departing player mails the others names the handover
    (mail,) = dispatch.mails_for(old.session, _load(old, gid), f, body="summary")
    assert "seat axis handed to Sub" in mail.message.get_body(("plain",)).get_content()
    # the old key, after the handover: a second handover at the next place is not the seat's
    d = _load(western, gid)
    again = _reseal(f, old, seq=d.seq + 1, prev=d.last_hash, prev_attest=f.attestation.to_wire(),
                    card=make_player(handed["root"], "eve").card.to_bytes())
    with pytest.raises(BadSignature):
        game.receive(western.session, again)
    # equivocation: the old card signs another handover for the same place
    other = _reseal(f, old, card=make_player(handed["root"], "mallory").card.to_bytes())
    with pytest.raises(Equivocation):
        game.receive(western.session, other)
    evidence = sorted(p.name for p in gamestore.game_dir(western.home, gid).evidence_dir.glob("*"))
    assert len(evidence) == 2 and _names(western, gid) == after + evidence
    assert _load(western, gid).con.cards["axis"].fingerprint == sub.card.fingerprint


def test_the_substitute_opens_the_sealed_choice_and_plays_on(handed: dict[str, Any]) -> None:
    gid, f, western, old, sub = (handed[k] for k in ("gid", "handover", "western", "old", "sub"))
    if not gamestore.game_dir(western.home, gid).find(f.seq, "handover"):
        game.receive(western.session, f.raw)
    # the substitute takes the seat from the archive the departing player sends it
    data = archive.export(gamestore.game_dir(old.home, gid))
    _, ds = archive.import_archive(sub.session, data)
    assert ds.my_seats == ("axis",) and _unopened(ds, "axis") == handed["sealed"]
    assert ds.secrets["openings"].keys() >= set(handed["sealed"])
    assert "handover: seat axis handed to Sub" in ds.log[-1]["phase"]
    players = {"western": western, "axis": sub}
    turns = demo_turns(players, gid, handed["steps"])
    seat, text = next(turns)
    assert seat == "western"
    wf, _ = deliver(players, gid, seat, text)
    # the departing player's tool reads nothing the seat is sent from now on
    for part in (wf.header["private"]["axis"], wf.header["public"]):
        with pytest.raises(age.NoMatchError):
            age.decrypt(part, [old.session.ident.age_identity])
    age.decrypt(wf.header["private"]["axis"], [sub.session.ident.age_identity])
    before = _names(old, gid)
    with pytest.raises(NotAddressedToYou):
        game.receive(old.session, wf.raw)
    assert _names(old, gid) == before
    # the substitute opens the sealed choice, and plays on
    for _ in range(4):
        deliver(players, gid, *next(turns))
    assert not set(handed["sealed"]) & set(_unopened(_load(western, gid), "axis"))
    # the old card signing a turn file for the seat is refused, nothing written
    d = _load(western, gid)
    last = turnfile.parse(gamestore.game_dir(western.home, gid).files()[-1].read())
    forged = _reseal(last, old, seq=d.seq + 1, prev=d.last_hash, prev_attest=last.attestation.to_wire(),
                     author="axis")
    before = _names(western, gid)
    with pytest.raises(BadSignature):
        game.receive(western.session, forged)
    assert _names(western, gid) == before
    # end: western concedes, the substitute reveals for the seat; both audit clean
    wr, _ = game.end(western.session, gamestore.game_dir(western.home, gid), "conceded")
    game.receive(sub.session, wr.raw)
    sr, _ = game.end(sub.session, gamestore.game_dir(sub.home, gid))
    game.receive(western.session, sr.raw)
    for p in (western, sub):
        rep = audit.audit(p.session, gamestore.game_dir(p.home, gid))
        assert rep.complete and rep.clean, rep.violations
        assert rep.turns_replayed > 5
    # an observer imports the archive and audits it, handover included
    obs = make_player(handed["root"], "observer")
    st, do = archive.import_archive(obs.session, archive.export(gamestore.game_dir(western.home, gid)))
    rep = audit.audit(obs.session, st)
    assert rep.complete and rep.clean, rep.violations
    assert any("handed to Sub" in e["phase"] for e in do.log)


def test_a_handover_is_refused_where_it_cannot_be(tmp_path: Path) -> None:
    players, gid = start_france_1940(tmp_path)
    axis, western = players["axis"], players["western"]
    st = gamestore.game_dir(axis.home, gid)
    with pytest.raises(StateError, match="not yours"):
        game.hand_over(axis.session, st, "western", make_player(tmp_path, "sub").card)
    with pytest.raises(FileRejected, match="already held"):
        game.hand_over(axis.session, st, "axis", axis.card)
    assert game.load(western.session, gamestore.game_dir(western.home, gid)).seq == 0
    assert handover.KIND == "handover"


def test_the_cli_hands_a_seat_over_and_the_substitute_takes_it(tmp_path: Path) -> None:
    from test_cli import Home, _last_outbox, two

    red, blue, gid = two.__wrapped__(tmp_path)  # type: ignore[attr-defined]
    sub = Home(tmp_path, "sub")
    sub("key", "new", "--name", "Sub", "--email", "sub@example.org", "--work-factor", "10")
    card = tmp_path / "sub.card"
    sub("key", "card", "-o", str(card))
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid[:8], "--orders", str(orders), "--outbox")
    blue("receive", str(_last_outbox(red)))
    # misuse: not your seat, a card that is not one
    r = blue("game", "handover", gid[:8], "--seat", "red", "--to", str(card), ok=False)
    assert r.exit_code != 0 and "error:" in r.output and "hint:" in r.output
    r = blue("game", "handover", gid[:8], "--seat", "blue", "--to", str(orders), ok=False)
    assert r.exit_code != 0 and "error:" in r.output
    arch = tmp_path / "take.pbem-archive"
    r = blue("game", "handover", gid[:8], "--seat", "blue", "--to", str(card), "-o", str(arch), "--outbox")
    assert "seat blue handed to Sub" in r.output
    red("receive", str(_last_outbox(blue)))
    r = sub("archive", "import", str(arch))
    assert "as blue" in r.output
    sub("play", gid[:8], "--orders", str(orders), "--outbox")
    red("receive", str(_last_outbox(sub)))
    page = tmp_path / "h.html"
    red("archive", "history", gid[:8], "-o", str(page))
    assert "handed to Sub" in page.read_text()
    red("verify", gid[:8])
    sub("verify", gid[:8])


def test_three_seats_hand_one_over_between_others_moves(tmp_path: Path) -> None:
    """Trio: b seals a value, hands its seat to d while c is to move; d opens b's seal later."""
    from helpers import start_trio

    (a, b, c), gid = start_trio(tmp_path)
    d_ = make_player(tmp_path, "d")

    def play(p: Player, orders: str, to: list[Player]) -> None:
        f, _ = game.play(p.session, gamestore.game_dir(p.home, gid), orders)
        for q in to:
            assert game.receive(q.session, f.raw).status == "added"

    play(a, "pass\n", [b, c])
    play(b, "seal 2\n", [a, c])
    sealed = _unopened(_load(a, gid), "b")
    assert sealed
    f, _ = game.hand_over(b.session, gamestore.game_dir(b.home, gid), "b", d_.card)
    for q in (a, c):
        assert game.receive(q.session, f.raw).status == "added"
    archive.import_archive(d_.session, archive.export(gamestore.game_dir(a.home, gid)))
    play(c, "pass\n", [a, d_])
    play(a, "pass\n", [c, d_])
    play(d_, "open\n", [a, c])
    views = [_load(p, gid) for p in (a, c, d_)]
    assert len({v.last_hash for v in views}) == 1
    assert not set(sealed) & set(_unopened(views[0], "b"))
    assert views[2].my_seats == ("b",) and views[0].con.players()["b"] == ("b",)
    assert views[0].con.cards["b"].fingerprint == d_.card.fingerprint
