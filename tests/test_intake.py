"""Hostile-player intake: validly signed but malformed files, expensive proposals, quarantine, fuzzing.

Every file here is signed with a real player's key, as a player running a
modified pbem would sign it: the signature holds, the contents are hostile.
"""

from __future__ import annotations

import hashlib
import mailbox
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from helpers import Player, make_player, start_duel

from pbem.crypto import age
from pbem.errors import BadSignature, LimitExceeded, PbemError
from pbem.formats import canonical, padding
from pbem.mail import from_maildir, ingest
from pbem.play import game
from pbem.protocol import genesis, identity, schema, turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store
from pbem.store.fsutil import snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import fuzz_intake


def _reseal(author: Player, recipients: list[Player], f: turnfile.SignedFile, public: Any) -> bytes:
    """``f`` with another public part, encrypted to the real keys and signed with the author's real key."""
    header = dict(f.header)
    header["public"] = age.encrypt(padding.pad(canonical.encode(public)),
                                   [p.card.age_recipient for p in recipients], rng=author.session.rng)
    return turnfile.seal(header, author.session.ident.sign)


def _public(p: Player, f: turnfile.SignedFile) -> Any:
    return game.Keyring(p.session.ident).open(f"{f.seq}/public", f.header["public"], "public part")


def _second_game(red: Player, blue: Player) -> bytes:
    """A second duel between the same two homes."""
    data = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="short", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={"strict_dice": False},
                                 rng=red.session.rng, now=1_700_000_000)
    gid = game.create(red.session, data).con.game_id
    game.receive(blue.session, data)
    jf, _ = game.join(blue.session, data)
    game.receive(red.session, jf.raw)
    return gid


def _mail_to(box: Path, name: str, data: bytes) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "red@example.org", "blue@example.org", "[pbem] duel"
    msg.set_content("a turn\n")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    mailbox.Maildir(box, create=True).add(msg.as_bytes())


POISONS = {
    "rolls-a-map": lambda p: {**p, "rolls": {"x": 1}},
    "orders-bytes": lambda p: {**p, "orders": b"\x00" * 40},
    "events-ints": lambda p: {**p, "events": [1, 2, 3]},
}


# --- the poison file -------------------------------------------------------------------


@pytest.mark.parametrize("poison", sorted(POISONS))
def test_poison_file_is_quarantined_once_and_blocks_nothing(tmp_path: Path, poison: str) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    bad = _reseal(red, [red, blue], f, POISONS[poison](_public(red, f)))
    gid2 = _second_game(red, blue)
    good, _ = game.play(red.session, store.game_dir(red.home, gid2), "roll\n")
    box = tmp_path / "Maildir"
    _mail_to(box, "../../evil name.pbem", bad)  # the mail's file name is never used as a path
    _mail_to(box, "turn.pbem", good.raw)
    before = snapshot(blue.home.data.parent)

    results = ingest(blue.session, from_maildir(box))
    by_data = {r.found.data: r for r in results}
    r_bad, r_good = by_data[bad], by_data[good.raw]
    assert r_good.status == "added"
    assert r_bad.status == "error" and isinstance(r_bad.error, PbemError) and r_bad.error.hint
    assert "file 1" in str(r_bad.error) and "red" in str(r_bad.error)
    assert r_bad.what.endswith("turn 1 by red")
    name = hashlib.sha256(bad).hexdigest()
    assert r_bad.quarantined == f"{name}.pbem"
    after = snapshot(blue.home.data.parent)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    game2 = store.game_dir(blue.home, gid2).root.relative_to(blue.home.data.parent)
    assert all(k.startswith(("data/quarantine/", f"{game2}/")) for k in changed), changed
    assert {k for k in changed if k.startswith("data/quarantine/")} == {
        f"data/quarantine/{name}.pbem", f"data/quarantine/{name}.txt"}
    assert after[f"data/quarantine/{name}.pbem"] == bad

    # The next run: the poison file is recognised and skipped, nothing is written.
    again = ingest(blue.session, from_maildir(box))
    assert sorted(r.status for r in again) == ["duplicate", "quarantined"]
    assert str(next(r.skipped for r in again if r.status == "quarantined")).startswith("game ")
    assert snapshot(blue.home.data.parent) == after
    # The real file 1 of the first game is still received: nothing was half-applied.
    assert game.receive(blue.session, f.raw).status == "added"


def test_a_file_refused_for_the_receivers_clock_is_not_quarantined(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    slow = game.Session(blue.home, blue.session.ident, rng=blue.session.rng, now=lambda: 1_000_000_000.0)
    (r,) = ingest(slow, [fuzz_intake_found(f.raw)])
    if r.status == "added":
        pytest.skip("this pbem does not check signed times against the receiver's clock")
    assert r.status == "error" and r.quarantined is None  # tomorrow, with a right clock, it is fine
    assert not blue.home.quarantine.exists()
    (r,) = ingest(blue.session, [fuzz_intake_found(f.raw)])
    assert r.status == "added"


def test_rules_crash_on_another_seats_file_is_a_typed_rejection(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    d = game.load(blue.session, store.game_dir(blue.home, gid))
    rules = type(d.rules)

    def crash(*_: Any) -> Any:
        empty: dict[str, Any] = {}
        return empty["missing"]

    for method in ("orders_from_wire", "apply", "digest"):
        with monkeypatch.context() as m:
            m.setattr(rules, method, crash)
            with pytest.raises(FileRejected, match=r"file 1 by red .*KeyError") as e:
                game.apply_turn(blue.session, game.load(blue.session, store.game_dir(blue.home, gid)), f)
            assert isinstance(e.value.__cause__, KeyError) and e.value.hint


@pytest.mark.parametrize(("field", "value", "why"), [
    ("rolls", [{"k": 0}], "fields differ"),
    ("rolls", [{"k": "0", "sides": 6, "count": 1, "purpose": "x", "secret": False, "values": [1]}],
     "expected an integer"),
    ("roller_seeds", [["red", 0, b"x" * 32]], "expected 4 entries"),
    ("releases", [["blue", 0, b"x" * 31, []]], "expected 32 bytes"),
    ("openings", [{"ref": "1.0", "value": 1}], "fields differ"),
    ("events", [{"kind": 7}], "expected text"),
    ("events", [{"x": 1}], "expected text, found nil"),
    ("revealed", {}, "expected a list"),
    ("rolls", [{}] * (schema.MAX_ROLLS + 1), "more than"),
])
def test_public_part_schema(tmp_path: Path, field: str, value: Any, why: str) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    bad = turnfile.parse(_reseal(red, [red, blue], f, {**_public(red, f), field: value}))
    d = game.load(blue.session, store.game_dir(blue.home, gid))
    with pytest.raises(PbemError, match=why) as e:
        game.apply_turn(blue.session, d, bad)
    assert "file 1 by red" in str(e.value) and field in str(e.value)
    assert d.seq == 0


# --- the many-card proposal --------------------------------------------------------------


def _proposal_with(host: Player, cards: dict[str, bytes], base: bytes, monkeypatch: pytest.MonkeyPatch,
                   signer: Player | None = None) -> bytes:
    """A real proposal's header with other cards, signed (a modified pbem skips pbem's own checks)."""
    header = {**turnfile.parse(base).header, "cards": cards}
    with monkeypatch.context() as m:
        m.setattr(turnfile, "_check_header", lambda h: None)
        return turnfile.seal(header, (signer or host).session.ident.sign)


def _count_card_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = identity.Card.from_bytes

    def counting(data: bytes) -> identity.Card:
        calls[0] += 1
        return real(data)

    monkeypatch.setattr(identity.Card, "from_bytes", staticmethod(counting))
    return calls


def test_proposal_with_5000_cards_is_refused_before_any_card_is_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    base = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={},
                                 rng=red.session.rng, now=1_700_000_000)
    many = {"red": red.card.to_bytes(), "blue": blue.card.to_bytes()}
    card = make_player(tmp_path, "c").card.to_bytes()
    for i in range(5000):
        many[f"s{i:04d}"] = card  # a valid card: parsing each would cost a key check and a signature
    data = _proposal_with(red, many, base, monkeypatch)
    calls = _count_card_parses(monkeypatch)
    before = snapshot(blue.home.data.parent)
    with pytest.raises(LimitExceeded, match="5002 entries"):
        game.receive(blue.session, data)
    (r,) = ingest(blue.session, [fuzz_intake_found(data)])
    assert r.status == "error" and isinstance(r.error, LimitExceeded)
    assert calls[0] == 0
    after = snapshot(blue.home.data.parent)
    assert {k for k in after if after.get(k) != before.get(k)} <= {
        f"data/quarantine/{hashlib.sha256(data).hexdigest()}.{x}" for x in ("pbem", "txt")}


def fuzz_intake_found(data: bytes) -> Any:
    from pbem.mail import FoundFile

    return FoundFile("p.pbem", data, "test")


def test_proposal_signature_is_checked_after_the_host_card_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue = make_player(tmp_path, "red"), make_player(tmp_path, "blue")
    players = {"red": red, "blue": blue, **{s: make_player(tmp_path, s) for s in ("c", "d", "e")}}
    base = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard", my_seat="red",
                                 cards={"red": red.card, "blue": blue.card}, options={},
                                 rng=red.session.rng, now=1_700_000_000)
    cards = {s: p.card.to_bytes() for s, p in players.items()}
    forged = _proposal_with(red, cards, base, monkeypatch, signer=blue)  # claims red, signed by blue
    calls = _count_card_parses(monkeypatch)
    with pytest.raises(BadSignature):
        genesis.read_proposal(turnfile.parse(forged))
    assert calls[0] == 1  # the host's card, to know its key; the four others never
    genuine = _proposal_with(red, cards, base, monkeypatch)
    calls[0] = 0
    assert len(genesis.read_proposal(turnfile.parse(genuine)).cards) == 5
    assert calls[0] == 5


# --- the structure-aware fuzzer, small ------------------------------------------------------


@pytest.fixture(scope="module")
def use_targets(tmp_path_factory: pytest.TempPathFactory) -> list[fuzz_intake.Target]:
    ts: list[fuzz_intake.Target] = fuzz_intake.targets(tmp_path_factory.mktemp("fuzz"), {"strict_dice": True})
    return ts


def test_fuzz_300_mutants_of_real_use_files_give_no_untyped_exception(
        use_targets: list[fuzz_intake.Target]) -> None:
    out = fuzz_intake.fuzz(use_targets, 300, seed=8, full_every=10)
    assert sum(out.values()) == 300
    untyped = {k: v for k, v in out.items() if k[0] == "untyped"}
    net = {k: v for k, v in out.items() if k[0] == "net"}
    assert not untyped, untyped
    assert not net, net  # nothing even needed apply_turn's safety net
    assert out[("typed", "")] > 200
