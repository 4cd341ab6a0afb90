"""Each kind of bad input gets its own typed error, exit code and hint, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import start_duel
from toygame import DUEL

from pbem.crypto import age
from pbem.errors import (
    BadSignature,
    BrokenChain,
    ExitCode,
    InvalidInput,
    LimitExceeded,
    PbemError,
    TamperedCiphertext,
    Unsupported,
    WrongGame,
)
from pbem.formats import padding
from pbem.play import game
from pbem.protocol import genesis, turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store
from pbem.store.fsutil import snapshot


def _turn(tmp: Path) -> tuple[object, object, bytes, bytes]:
    red, blue, gid = start_duel(tmp)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    return red, blue, gid, f.raw


def _refused(p: object, data: bytes, home: Path, err: type[PbemError]) -> PbemError:
    before = snapshot(home)
    with pytest.raises(err) as e:
        game.receive(p.session, data)  # type: ignore[attr-defined]
    assert snapshot(home) == before
    assert e.value.hint
    return e.value


def _resign(raw: bytes, signer: object, **changes: object) -> bytes:
    h = dict(turnfile.parse(raw).header)
    h.update(changes)
    return turnfile.seal(h, signer.session.ident.sign)  # type: ignore[attr-defined]


def test_oversized_file(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    big = turnfile.MAGIC + b"\x00" * turnfile.MAX_FILE
    e = _refused(blue, big, tmp_path, LimitExceeded)
    assert e.exit_code == ExitCode.LIMIT


def test_newer_format_version(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    _refused(blue, b"pbem-file/v2\n" + raw[13:], tmp_path, Unsupported)


def test_not_a_pbem_file(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    _refused(blue, b"From: someone\n\nhello", tmp_path, InvalidInput)


def test_signed_by_the_wrong_seat(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    forged = _resign(raw, blue)  # blue signs a file that names red as author
    _refused(blue, forged, tmp_path, BadSignature)


def test_wrong_game(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path / "a")
    red2, blue2, gid2 = start_duel(tmp_path / "b", seed="other game ")
    e = _refused(blue2, raw, tmp_path, WrongGame)
    assert e.exit_code == ExitCode.CHAIN


def test_broken_chain(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    _refused(blue, _resign(raw, red, prev=bytes(32)), tmp_path, BrokenChain)


def test_unknown_rules_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    _refused(blue, _resign(raw, red, rules_hash=bytes(32)), tmp_path, Unsupported)
    # and at join: a pbem whose rules differ refuses the game
    proposal = genesis.make_proposal(red.session.ident, rules_name="duel", scenario="standard", my_seat="red",
                                     cards={"red": red.card, "blue": blue.card}, options={},
                                     rng=red.session.rng, now=0)
    monkeypatch.setattr(DUEL, "version", "2")
    monkeypatch.setattr(type(DUEL), "rules_hash", lambda self: b"\x01" * 32)
    with pytest.raises(Unsupported):
        game.join(blue.session, proposal)


def test_tampered_private_part(tmp_path: Path) -> None:
    """The author itself sends blue a part that does not decrypt."""
    red, blue, gid, raw = _turn(tmp_path)
    h = turnfile.parse(raw).header
    part = bytearray(h["private"]["blue"])
    part[-3] ^= 1
    bad = _resign(raw, red, private={**h["private"], "blue": bytes(part)})
    e = _refused(blue, bad, tmp_path, TamperedCiphertext)
    assert e.exit_code == ExitCode.AUTH


def test_public_part_not_for_you(tmp_path: Path) -> None:
    red, blue, gid, raw = _turn(tmp_path)
    h = turnfile.parse(raw).header
    only_red = age.encrypt(age.decrypt(h["public"], [red.session.ident.age_identity]), [red.card.age_recipient])
    _refused(blue, _resign(raw, red, public=only_red), tmp_path, PbemError)


def test_wrong_digest_claimed(tmp_path: Path) -> None:
    from pbem.formats import canonical

    red, blue, gid, raw = _turn(tmp_path)
    # the claimed state digest travels in the encrypted public part (docs/protocol.md §7a)
    h = turnfile.parse(raw).header
    pub = canonical.decode(padding.unpad(age.decrypt(h["public"], [red.session.ident.age_identity]), "public"))
    pub["digest"] = bytes(32)
    recips = [red.card.age_recipient, blue.card.age_recipient]
    bad = _resign(raw, red, public=age.encrypt(padding.pad(canonical.encode(pub)), recips))
    e = _refused(blue, bad, tmp_path, FileRejected)
    assert "state" in str(e)


def test_faked_dice(tmp_path: Path) -> None:
    """A modified client that records a 6 it did not roll is caught by every opponent."""
    from pbem.formats import canonical

    red, blue, gid, raw = _turn(tmp_path)
    h = turnfile.parse(raw).header
    pub = canonical.decode(padding.unpad(age.decrypt(h["public"], [red.session.ident.age_identity]), "public"))
    real = pub["rolls"][0]["values"][0]
    pub["rolls"][0]["values"] = [6 if real != 6 else 5]
    recips = [red.card.age_recipient, blue.card.age_recipient]
    bad = _resign(raw, red, public=age.encrypt(padding.pad(canonical.encode(pub)), recips))
    e = _refused(blue, bad, tmp_path, FileRejected)
    assert "not the fair ones" in str(e)
