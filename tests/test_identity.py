"""Identities and player cards: storage, weak keys, tampering."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from helpers import DetRng

from pbem.errors import AuthError, InvalidInput, NotFound, PbemError, WeakKey, WrongPassphrase
from pbem.formats import canonical
from pbem.protocol.identity import CARD_SIG, Card, load_identity, new_identity, save_identity


def test_save_load_round_trip(tmp_path: Path) -> None:
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    p = tmp_path / "id.age"
    save_identity(ident, p, "correct horse", work_factor=10)
    assert load_identity(p, "correct horse") == ident
    assert p.stat().st_mode & 0o077 == 0
    with pytest.raises(WrongPassphrase):
        load_identity(p, "wrong")


def test_default_work_factor_is_18(tmp_path: Path) -> None:
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    p = tmp_path / "id.age"
    save_identity(ident, p, "pw")
    header = p.read_bytes().split(b"\n")[1]
    assert header.startswith(b"-> scrypt ") and header.endswith(b" 18")


def test_missing_and_corrupted_identity(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        load_identity(tmp_path / "none.age", "pw")
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    p = tmp_path / "id.age"
    save_identity(ident, p, "pw", work_factor=10)
    data = bytearray(p.read_bytes())
    data[-5] ^= 0x40
    p.write_bytes(bytes(data))
    with pytest.raises(InvalidInput):
        load_identity(p, "pw")
    p.write_bytes(b"garbage")
    with pytest.raises(InvalidInput):
        load_identity(p, "pw")


def test_refuses_to_overwrite(tmp_path: Path) -> None:
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    p = tmp_path / "id.age"
    save_identity(ident, p, "pw", work_factor=10)
    before = p.read_bytes()
    with pytest.raises(PbemError):
        save_identity(ident, p, "pw", work_factor=10)
    assert p.read_bytes() == before


def test_card_round_trip_and_fingerprint() -> None:
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    card = ident.card()
    again = Card.from_text(card.to_text())
    assert again == card
    assert card.fingerprint.startswith("SHA256:") and len(card.fingerprint) == 50


def test_tampered_card_refused() -> None:
    card = new_identity("Ann", "ann@example.org", rng=DetRng("ann")).card()
    m = canonical.decode(card.body)
    m["email"] = "mallory@example.org"
    forged = canonical.encode({"body": canonical.encode(m), "sig": card.signature})
    with pytest.raises(AuthError):
        Card.from_bytes(forged)


def test_weak_signing_key_refused() -> None:
    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    small_order = (1).to_bytes(32, "little")  # the identity point
    body = canonical.encode({"v": 1, "type": "pbem-card", "name": "X", "email": "x@x", "ed25519": small_order,
                             "age": ident.age_recipient, "created": 0})
    with pytest.raises(WeakKey):
        Card.from_bytes(canonical.encode({"body": body, "sig": bytes(64)}))


def test_weak_age_key_refused() -> None:
    from pbem.crypto.age import _bech32

    ident = new_identity("Ann", "ann@example.org", rng=DetRng("ann"))
    zero = _bech32.encode("age", bytes(32))
    body = canonical.encode({"v": 1, "type": "pbem-card", "name": "X", "email": "x@x",
                             "ed25519": ident.signing_key, "age": zero, "created": 0})
    sig = ident.sign(CARD_SIG.encode() + b"\x00" + body)
    with pytest.raises(WeakKey):
        Card.from_bytes(canonical.encode({"body": body, "sig": sig}))


def test_card_text_errors() -> None:
    with pytest.raises(InvalidInput):
        Card.from_text("no card here")
    with pytest.raises(InvalidInput):
        Card.from_text("-----BEGIN PBEM PLAYER CARD-----\n!!!\n-----END PBEM PLAYER CARD-----\n")
    junk = base64.b64encode(b"\x81\xa1a\x01").decode()
    with pytest.raises(InvalidInput):
        Card.from_text(f"-----BEGIN PBEM PLAYER CARD-----\n{junk}\n-----END PBEM PLAYER CARD-----\n")
