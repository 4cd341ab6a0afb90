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
from pbem.play import archive, audit, game, handover, proof
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
    # without handover=quorum nothing is escrowed: no quorum field, one recipient per part
    # (the files are byte-identical to those of a pbem without the option: measured, see §12b)
    assert "quorum" not in views[0].con.h and "quorum" not in views[0].joins["b"].header
    assert handover.recipients(views[0], "b") == [d_.card.age_recipient]


# --- the quorum handover (handover=quorum, docs/protocol.md §12b) -------------------------------


def _trio_play(p: Player, gid: bytes, orders: str, to: list[Player]) -> turnfile.SignedFile:
    f, _ = game.play(p.session, gamestore.game_dir(p.home, gid), orders)
    for q in to:
        assert game.receive(q.session, f.raw).status == "added"
    return f


@pytest.fixture(scope="module")
def lost(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Trio with handover=quorum: b seals a bid, then b's identity is lost; a and c hand b to d."""
    from helpers import start_trio

    root = tmp_path_factory.mktemp("quorum")
    (a, b, c), gid = start_trio(root, handover="quorum")
    _trio_play(a, gid, "pass\n", [b, c])
    _trio_play(b, gid, "seal 2\n", [a, c])
    sealed = _unopened(_load(a, gid), "b")
    assert sealed
    d_ = make_player(root, "d")
    consent = handover.consent(c.session, _load(c, gid), "b", d_.card)
    return {"root": root, "gid": gid, "a": a, "b": b, "c": c, "d": d_, "sealed": sealed, "consent": consent}


def test_quorum_handover_missing_a_consent_or_a_wrong_share_is_refused(lost: dict[str, Any]) -> None:
    from pbem.protocol import seatkey

    gid, a, c, d_ = (lost[k] for k in ("gid", "a", "c", "d"))
    st = gamestore.game_dir(a.home, gid)
    before = _names(a, gid)
    with pytest.raises(FileRejected, match="lacks the consent of c"):
        game.hand_over(a.session, st, "b", d_.card, consents=[])
    with pytest.raises(StateError, match="not another player's seat"):
        game.hand_over(a.session, st, "a", d_.card, consents=[lost["consent"]])
    assert _names(a, gid) == before
    # a file signed by a that leaves c's consent out: every receiver refuses it
    good = turnfile.parse(handover.make(a.session, st, _load(a, gid), "b", d_.card, [lost["consent"]]))
    cbefore = _names(c, gid)
    with pytest.raises(FileRejected, match="lacks the consent of c"):
        game.receive(c.session, _reseal(good, a, consents={}))
    # c's consent moved onto another substitute: its signature no longer holds
    eve = make_player(lost["root"], "eve")
    with pytest.raises(BadSignature, match="consent of c"):
        game.receive(c.session, _reseal(good, a, card=eve.card.to_bytes()))
    assert _names(c, gid) == cbefore
    # a's share replaced by another valid-looking one: the substitute's import refuses it, writes nothing
    bad = _reseal(good, a, part=seatkey.seal_share(bytes(32), "b", d_.card, d_.session.rng))
    (blob,) = archive.from_files([sf.read() for sf in st.files()] + [bad]).values()
    with pytest.raises(FileRejected, match="do not combine"):
        archive.import_archive(d_.session, blob)
    assert not gamestore.game_dir(d_.home, gid).root.exists()
    assert _names(a, gid) == before


def test_quorum_handover_the_substitute_opens_the_sealed_bid_and_all_audit(lost: dict[str, Any]) -> None:
    gid, a, b, c, d_ = (lost[k] for k in ("gid", "a", "b", "c", "d"))
    f, after = game.hand_over(a.session, gamestore.game_dir(a.home, gid), "b", d_.card,
                              consents=[lost["consent"]])
    assert f.author == "a" and f.header["seat"] == "b" and after.con.cards["b"].fingerprint == d_.card.fingerprint
    assert game.receive(c.session, f.raw).status == "added"
    assert game.receive(c.session, f.raw).status == "duplicate"
    # the substitute imports the game and holds the seat, its sealed bid's opening included
    _, ds = archive.import_archive(d_.session, archive.export(gamestore.game_dir(c.home, gid)))
    assert ds.my_seats == ("b",) and set(ds.secrets["openings"]) >= set(lost["sealed"])
    assert "seat b handed to D" in ds.log[-1]["phase"] and "other players" in ds.log[-1]["phase"]
    # b's old identity (were it found again) reads nothing new
    w = _trio_play(c, gid, "pass\n", [a, d_])
    with pytest.raises(age.NoMatchError):
        age.decrypt(w.header["private"]["b"], [b.session.ident.age_identity])
    _trio_play(a, gid, "pass\n", [c, d_])
    _trio_play(d_, gid, "open\n", [a, c])
    views = [_load(p, gid) for p in (a, c, d_)]
    assert len({v.last_hash for v in views}) == 1
    assert not set(lost["sealed"]) & set(_unopened(views[0], "b"))
    # the old card signing for b is refused
    last = turnfile.parse(gamestore.game_dir(a.home, gid).files()[-1].read())
    forged = _reseal(last, b, seq=views[0].seq + 1, prev=views[0].last_hash,
                     prev_attest=last.attestation.to_wire(), author="b")
    with pytest.raises(BadSignature):
        game.receive(a.session, forged)
    # a proof bundle accepts the substitute's files: the chain is intact, no problem
    rep = proof.check(proof.make(gamestore.game_dir(a.home, gid), waiting_for=None))
    assert not rep.problems, rep.problems
    # a abandons, the others reveal; every home verifies and audits the whole game, an observer too
    players = (a, c, d_)
    for p in players:
        rf, _ = game.end(p.session, gamestore.game_dir(p.home, gid), "abandoned" if p is a else "")
        for q in players:
            if q is not p:
                game.receive(q.session, rf.raw)
    obs = make_player(lost["root"], "observer")
    st, _ = archive.import_archive(obs.session, archive.export(gamestore.game_dir(a.home, gid)))
    for p, store in [*((p, gamestore.game_dir(p.home, gid)) for p in players), (obs, st)]:
        game.derive(p.session, store)  # what 'pbem verify' replays
        rep2 = audit.audit(p.session, store)
        assert rep2.complete and rep2.clean, rep2.violations


def test_quorum_option_is_refused_for_two_seats(tmp_path: Path) -> None:
    from helpers import start_duel

    from pbem.errors import InvalidInput

    with pytest.raises(InvalidInput, match="three or more seats") as e:
        start_duel(tmp_path, handover="quorum")
    assert e.value.hint
    with pytest.raises(InvalidInput, match="unknown"):
        start_duel(tmp_path, handover="everyone")


def test_an_earlier_cards_equivocation_through_a_third_seats_statement(tmp_path: Path) -> None:
    """a shows X to b and X' to c, then hands its seat over on X' (to c): b's next file, built on
    X, carries a's old card's statement of X, which c proves an equivocation (and a bundle too)."""
    from test_three_seats import _equivocate

    (a, b, c), gid, x, x2 = _equivocate(tmp_path)
    sub = make_player(tmp_path, "sub")
    # a's second home (its modified tool's other history), rebuilt from c's files, holds X'
    home = make_player(tmp_path, "fork-home").session.home
    forked = Player("a", game.Session(home, a.session.ident, rng=a.session.rng, now=a.session.now))
    (blob,) = archive.from_files([sf.read() for sf in gamestore.game_dir(c.home, gid).files()]).values()
    archive.import_archive(forked.session, blob)
    h, _ = game.hand_over(forked.session, gamestore.game_dir(forked.home, gid), "a", sub.card)
    assert h.prev == x2.hash
    assert game.receive(c.session, h.raw).status == "added"
    y, _ = game.play(b.session, gamestore.game_dir(b.home, gid), "pass\n")
    assert y.prev_attest == x.attestation
    with pytest.raises(Equivocation, match="a signed two different files with sequence number 4"):
        game.receive(c.session, y.raw)
    rep = proof.check(proof.make(gamestore.game_dir(c.home, gid), waiting_for=None))
    assert not rep.problems, rep.problems
    found = [s for s in rep.findings if s.startswith("EQUIVOCATION")]
    assert len(found) == 1 and "seat a (A)" in found[0] and "carried in b's file 5" in found[0]
