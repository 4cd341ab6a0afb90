"""The protocol among three seats, with the Trio test game (tests/toygame3.py).

Genesis among three (no seed visible before every root is fixed), strict dice
with reservations and dice-release files, the reveal and full audit, and
equivocation proven with both signatures when the equivocating seat sent one
file to one player and another file to the other.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from helpers import Player, start_trio

from pbem.errors import BadSignature, BrokenChain, Equivocation, InvalidInput, StateError
from pbem.formats import canonical
from pbem.play import audit, game, proof
from pbem.protocol import turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store
from pbem.store import paths
from pbem.store.fsutil import snapshot


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _play(p: Player, gid: bytes, orders: str, to: list[Player]) -> turnfile.SignedFile:
    f, _ = game.play(p.session, _gs(p, gid), orders)
    for q in to:
        assert game.receive(q.session, f.raw).status == "added"
    return f


def _pending_seat(p: Player, gid: bytes) -> tuple[str, str]:
    pend = game.load(p.session, _gs(p, gid)).pending()
    assert pend is not None
    return pend.seat, pend.kind


def test_genesis_among_three_releases_no_seed(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    prop = turnfile.parse(_gs(a, gid).find(0, "proposal")[0].read())
    assert "releases" not in prop.header
    for p in (b, c):
        join = turnfile.parse(_gs(a, gid).find(0, "join", p.name)[0].read())
        # b's join is made before c's root is fixed: any seed in it could be ground against by c
        assert join.header["releases"] == []
    views = [game.load(p.session, _gs(p, gid)) for p in (a, b, c)]
    assert all(v.started and v.params.strict for v in views)
    assert views[0].public == views[1].public == views[2].public
    assert views[0].last_hash == views[1].last_hash == views[2].last_hash
    for v in views:
        assert all(seeds == [] for per in v.est["released"].values() for seeds in per.values())
    assert [v.my_seat for v in views] == ["a", "b", "c"]


def test_window_mode_among_three_starts_with_dice_releases(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path, strict_dice=False)
    everyone = [a, b, c]
    # nobody released at genesis, so a's first move waits for b's and c's seeds
    assert _pending_seat(a, gid) == ("b", "dice-release")
    _play(b, gid, "", [a, c])
    assert _pending_seat(c, gid) == ("c", "dice-release")
    _play(c, gid, "", [a, b])
    assert _pending_seat(a, gid) == ("a", "orders")
    _play(a, gid, "roll\n", [b, c])
    _play(b, gid, "roll\n", [a, c])
    _play(c, gid, "roll\n", [a, b])
    views = [game.load(p.session, _gs(p, gid)) for p in everyone]
    assert views[0].public == views[1].public == views[2].public
    assert all(v > 0 for v in views[0].public["scores"].values())


# (seat, orders): rolls by every seat, a secret roll and a bid opened later, and
# an "again" that needs dice-release files from the other two seats (empty orders).
STRICT_GAME = [
    ("a", "declare 2\nseal 2\n"), ("b", "declare 1\n"), ("c", "declare 2\n"),
    ("a", "roll\nsecret\n"), ("b", "roll\n"), ("c", "roll\nsecret\n"),
    ("a", "open\nreveal\ndeclare 1\nagain\n"), ("b", ""), ("c", ""), ("a", "roll\n"),
    ("b", "pass\n"), ("c", "reveal\n"),
    ("a", "pass\n"), ("b", "seal 1\n"), ("c", "pass\n"),
]


def _play_strict_game(tmp: Path) -> tuple[list[Player], bytes]:
    players, gid = start_trio(tmp, scenario="four-rounds")
    by = {p.name: p for p in players}
    for seat, orders in STRICT_GAME:
        assert _pending_seat(by[seat], gid)[0] == seat
        _play(by[seat], gid, orders, [p for p in players if p.name != seat])
    return players, gid


def test_strict_game_among_three_reveal_and_full_audit(tmp_path: Path) -> None:
    (a, b, c), gid = _play_strict_game(tmp_path)
    views = [game.load(p.session, _gs(p, gid)) for p in (a, b, c)]
    assert views[0].public == views[1].public == views[2].public
    assert views[0].pending() is None  # four rounds played
    pub = views[0].public
    assert pub["scores"]["a"] >= 2 + 1 + 1 + 1  # bid 2, a roll, a revealed roll, one more roll
    phases = [e["phase"] for e in views[1].log]
    assert phases.count("dice release") == 2
    # every seat reveals; each audits the whole game with every secret
    ends = [game.end(p.session, _gs(p, gid))[0] for p in (a, b, c)]
    for p in (a, b, c):
        for f in ends:
            if f.author != p.name:
                game.receive(p.session, f.raw)
    for p in (a, b, c):
        rep = audit.audit(p.session, _gs(p, gid))
        assert rep.clean, rep.violations
        assert rep.turns_replayed == len(STRICT_GAME)
        # three bids (one opened in play, b's by its reveal) and two secret rolls
        assert rep.secrets_checked == 2 + 2


def test_strict_roll_needs_both_other_seats(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    with pytest.raises(StateError, match="has not released"):
        game.play(a.session, _gs(a, gid), "declare 1\nroll\n")  # not in the file that reserves
    _play(a, gid, "declare 1\n", [b, c])
    _play(b, gid, "pass\n", [a, c])
    d = game.load(a.session, _gs(a, gid))
    assert len(d.est["released"]["b"]["a"]) == 1 and d.est["released"]["c"]["a"] == []
    _play(c, gid, "pass\n", [a, b])
    _play(a, gid, "roll\n", [b, c])


# -- the trusted comment and prev_attest ------------------------------------------------


def test_trusted_comment_binds_the_body(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    f = _play(a, gid, "declare 1\n", [b, c])
    tc = turnfile.trusted_comment(f.header, f.body)
    assert tc == (f"pbem turn game={gid.hex()} seq=1 author=a "
                  f"body={hashlib.sha256(f.body).hexdigest()}")
    # a tcsig over the old comment (no body hash) is refused
    old = f"pbem turn game={gid.hex()} seq=1 author=a".encode()
    forged = turnfile.SignedFile(f.raw, f.body, f.sig, a.session.ident.sign(f.sig + old), f.header)
    with pytest.raises(BadSignature):
        forged.verify_signature(a.card.signing_key)
    g = _play(b, gid, "pass\n", [a, c])
    assert f.prev_attest is None and f.header["prev_attest"] == []
    assert g.prev_attest == f.attestation
    assert g.prev_attest is not None and g.prev_attest.verify(gid, 1, a.card.signing_key)
    assert not g.prev_attest.verify(gid, 2, a.card.signing_key)  # bound to its place


def _resealed(p: Player, f: turnfile.SignedFile, **changes: object) -> bytes:
    h = dict(f.header)
    h.update(changes)
    return turnfile.seal(h, p.session.ident.sign)


def test_wrong_prev_attest_is_refused_when_the_chain_matches(tmp_path: Path) -> None:
    (a, b, c), gid = start_trio(tmp_path)
    _play(a, gid, "declare 1\n", [b, c])
    g, _ = game.play(b.session, _gs(b, gid), "pass\n")
    att = list(g.header["prev_attest"])
    att[2] = bytes(32)
    before = snapshot(tmp_path)
    with pytest.raises(FileRejected, match="prev_attest"):
        game.receive(c.session, _resealed(b, g, prev_attest=att))
    assert snapshot(tmp_path) == before
    with pytest.raises(InvalidInput, match="prev_attest"):
        _resealed(b, g, prev_attest=[])  # only file 1 attests nothing
    assert game.receive(c.session, g.raw).status == "added"


def _fork(p: Player, tmp: Path) -> Player:
    """A second home with the same identity: the cheater's modified tool keeps two histories."""
    root = tmp / f"{p.name}-fork"
    shutil.copytree(tmp / p.name, root)
    home = paths.resolve(root)
    return Player(p.name, game.Session(home, p.session.ident, rng=p.session.rng, now=p.session.now))


def _equivocate(tmp: Path) -> tuple[list[Player], bytes, turnfile.SignedFile, turnfile.SignedFile]:
    """a sends file X to b and a different file X' to c, both at seq 2."""
    (a, b, c), gid = start_trio(tmp)
    _play(a, gid, "declare 1\n", [b, c])
    _play(b, gid, "declare 1\n", [a, c])
    _play(c, gid, "declare 1\n", [a, b])
    a2 = _fork(a, tmp)
    x, _ = game.play(a.session, _gs(a, gid), "roll\n")
    x2, _ = game.play(a2.session, _gs(a2, gid), "roll\nseal 3\n")
    assert x.seq == x2.seq == 4 and x.body != x2.body
    game.receive(b.session, x.raw)
    game.receive(c.session, x2.raw)
    return [a, b, c], gid, x, x2


def test_equivocation_among_three_is_proven_with_both_signatures(tmp_path: Path) -> None:
    (a, b, c), gid, x, x2 = _equivocate(tmp_path)
    y, _ = game.play(b.session, _gs(b, gid), "pass\n")  # b builds on X
    assert y.prev_attest == x.attestation
    with pytest.raises(Equivocation, match=r"^a signed two different files with sequence number 4"):
        game.receive(c.session, y.raw)
    gs = _gs(c, gid)
    kept = {p.read_bytes() for p in gs.evidence_dir.iterdir()}
    assert kept == {x2.raw, y.raw}  # a's file to c, and b's file carrying a's signature of X
    # c's game did not move: the chain still ends at X'
    assert game.load(c.session, gs).seq == 4
    with pytest.raises(Equivocation):  # and the same again is reported the same way
        game.receive(c.session, y.raw)
    # a proof anyone can check with no key and no game folder
    rep = proof.check(proof.make(gs, waiting_for=None))
    assert not rep.problems, rep.problems
    found = [s for s in rep.findings if s.startswith("EQUIVOCATION")]
    assert len(found) == 1 and "seat a (A)" in found[0] and "sequence number 4" in found[0]
    assert "carried in b's file 5" in found[0]


def test_equivocation_seen_from_the_other_side(tmp_path: Path) -> None:
    (a, b, c), gid, x, x2 = _equivocate(tmp_path)
    # b gets X' directly: the same seat, the same place, two whole files
    with pytest.raises(Equivocation):
        game.receive(b.session, x2.raw)
    assert game.load(b.session, _gs(b, gid)).seq == 4
    assert {p.read_bytes() for p in _gs(b, gid).evidence_dir.iterdir()} == {x.raw, x2.raw}


def test_a_stranger_statement_cannot_frame_a_seat(tmp_path: Path) -> None:
    (a, b, c), gid, x, x2 = _equivocate(tmp_path)
    y, _ = game.play(b.session, _gs(b, gid), "pass\n")
    att = list(y.header["prev_attest"])
    att[4] = bytes(64)  # a's tcsig replaced: b cannot sign for a
    forged = _resealed(b, y, prev_attest=att)
    with pytest.raises(BrokenChain):
        game.receive(c.session, forged)
    assert not _gs(c, gid).evidence_dir.exists() or not any(_gs(c, gid).evidence_dir.iterdir())
    # a proof bundle with the forged statement proves nothing against a
    data = proof.make(_gs(c, gid), waiting_for=None)
    m = canonical.decode(data[len(proof.MAGIC):])
    m["evidence"] = [forged]
    rep = proof.check(proof.MAGIC + canonical.encode(m))
    assert not any(s.startswith("EQUIVOCATION") for s in rep.findings)
    assert any("not signed by a" in s for s in rep.problems)


def test_statement_proven_when_it_arrives_after_the_fork_moved_on(tmp_path: Path) -> None:
    # The cheater feeds c a longer branch (a moves twice), so b's file built on X
    # reaches c below c's current file: an old file, and still a proof.
    (a, b, c), gid = start_trio(tmp_path)
    _play(a, gid, "declare 1\n", [b, c])
    _play(b, gid, "declare 1\n", [a, c])
    _play(c, gid, "declare 1\n", [a, b])
    a2 = _fork(a, tmp_path)
    x, _ = game.play(a.session, _gs(a, gid), "roll\n")
    x2, _ = game.play(a2.session, _gs(a2, gid), "roll\nagain\n")
    z2, _ = game.play(a2.session, _gs(a2, gid), "pass\n")
    game.receive(b.session, x.raw)
    for f in (x2, z2):
        game.receive(c.session, f.raw)
    y, _ = game.play(b.session, _gs(b, gid), "pass\n")
    assert y.seq == z2.seq == 5
    with pytest.raises(Equivocation, match=r"^a signed two different files with sequence number 4"):
        game.receive(c.session, y.raw)
    rep = proof.check(proof.make(_gs(c, gid), waiting_for=None))
    assert any(s.startswith("EQUIVOCATION proven: seat a") for s in rep.findings), rep.findings
