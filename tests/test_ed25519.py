"""Tests for pbem.crypto.ed25519: the strict key/signature policy, against the CCTV edge-case vectors.

The policy (module docstring of pbem/ed25519.py), as a table over the vectors' flags:

| flag on the vector        | outcome                                                        |
|---------------------------|----------------------------------------------------------------|
| low_order_A               | WeakKey (key rejected at import and by verify)                 |
| non_canonical_A           | WeakKey                                                        |
| low_order_component_A     | WeakKey (mixed-order key: not in the prime-order subgroup)     |
| low_order_R               | False (policy: small-order R)                                  |
| non_canonical_R           | False (policy: non-canonical R)                                |
| low_order_residue         | False (the cofactorless equation, checked by OpenSSL, fails)   |
| low_order_component_R     | no rule of its own (with a prime-order A such an R can never   |
|                           | satisfy the cofactorless equation; the vectors flag those      |
|                           | low_order_residue)                                             |
| reencoded_k               | no rule of its own (always comes with a non_canonical flag)    |
| none of the above         | True                                                           |

Key flags take precedence: a weak key raises even when the signature is also bad.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.crypto import ed25519
from pbem.errors import AuthError, InvalidInput, WeakKey

VECTORS_FILE = (
    Path(__file__).resolve().parents[1].parent / "shared" / "vectors" / "ed25519" / "ed25519vectors.json"
)

KEY_REJECT_FLAGS = frozenset({"low_order_A", "non_canonical_A", "low_order_component_A"})
SIG_REJECT_FLAGS = frozenset({"low_order_R", "non_canonical_R"})
EQUATION_FAILS_FLAGS = frozenset({"low_order_residue"})
KNOWN_FLAGS = KEY_REJECT_FLAGS | SIG_REJECT_FLAGS | EQUATION_FAILS_FLAGS | {
    "low_order_component_R",
    "reencoded_k",
}


def expected_outcome(flags: frozenset[str]) -> str:
    if flags & KEY_REJECT_FLAGS:
        return "weak-key"
    if flags & (SIG_REJECT_FLAGS | EQUATION_FAILS_FLAGS):
        return "reject"
    return "accept"


def _load_vectors() -> list[dict[str, Any]]:
    if not VECTORS_FILE.is_file():
        return []
    data: list[dict[str, Any]] = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
    return data


VECTORS = _load_vectors()
needs_vectors = pytest.mark.skipif(
    not VECTORS,
    reason=f"Ed25519 edge-case vectors not found at {VECTORS_FILE} "
    "(they live in ../shared/vectors next to the project root)",
)


def _flags(v: dict[str, Any]) -> frozenset[str]:
    return frozenset(v["flags"] or ())


def _outcome(v: dict[str, Any]) -> str:
    try:
        ok = ed25519.verify(bytes.fromhex(v["key"]), v["msg"].encode(), bytes.fromhex(v["sig"]))
    except WeakKey:
        return "weak-key"
    return "accept" if ok else "reject"


def _vector_id(v: dict[str, Any]) -> str:
    return f"{v['number']}-" + "+".join(sorted(_flags(v))) if _flags(v) else f"{v['number']}-clean"


# --- the vectors -------------------------------------------------------------------------------


@needs_vectors
@pytest.mark.parametrize("vector", VECTORS, ids=[_vector_id(v) for v in VECTORS])
def test_vector_matches_policy(vector: dict[str, Any]) -> None:
    flags = _flags(vector)
    assert flags <= KNOWN_FLAGS, f"unknown flags {sorted(flags - KNOWN_FLAGS)}: update the policy table"
    assert _outcome(vector) == expected_outcome(flags)


@needs_vectors
def test_vector_policy_counts() -> None:
    # Pinned so that a change of policy (or of OpenSSL's behaviour) shows up as a diff here.
    counts = Counter(_outcome(v) for v in VECTORS)
    assert len(VECTORS) == 914
    assert counts == {"weak-key": 886, "reject": 27, "accept": 1}


@needs_vectors
def test_accepted_set_is_subset_of_openssl() -> None:
    for v in VECTORS:
        if _outcome(v) == "accept":
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(v["key"])).verify(
                bytes.fromhex(v["sig"]), v["msg"].encode()
            )


@needs_vectors
def test_reencoded_k_always_comes_with_a_non_canonical_point() -> None:
    # The policy table gives reencoded_k no rule of its own; this is why that is enough.
    for v in VECTORS:
        flags = _flags(v)
        if "reencoded_k" in flags:
            assert flags & {"non_canonical_A", "non_canonical_R"}, v["number"]


@needs_vectors
def test_validate_public_key_on_every_vector_key() -> None:
    weak_by_key: dict[str, bool] = {}
    for v in VECTORS:
        weak = bool(_flags(v) & KEY_REJECT_FLAGS)
        assert weak_by_key.setdefault(v["key"], weak) == weak, "flags disagree for one key"
    assert len(weak_by_key) == 22
    for key_hex, weak in weak_by_key.items():
        if weak:
            with pytest.raises(WeakKey):
                ed25519.validate_public_key(bytes.fromhex(key_hex))
        else:
            ed25519.validate_public_key(bytes.fromhex(key_hex))


@needs_vectors
def test_low_order_encodings_match_the_vectors() -> None:
    lo_a = {bytes.fromhex(v["key"]) for v in VECTORS if "low_order_A" in _flags(v)}
    lo_r = {bytes.fromhex(v["sig"])[:32] for v in VECTORS if "low_order_R" in _flags(v)}
    assert lo_a == lo_r == ed25519.LOW_ORDER_ENCODINGS


# --- low-order points, derived from the curve rather than copied ------------------------------


def _encode(pt: tuple[int, int, int, int]) -> tuple[int, int]:
    x, y, z, _ = pt
    zi = pow(z, ed25519.P - 2, ed25519.P)
    return x * zi % ed25519.P, y * zi % ed25519.P


def _derive_low_order_encodings() -> set[bytes]:
    p = ed25519.P
    # L*Q lies in the 8-torsion subgroup (cyclic of order 8) for any curve point Q; take the
    # first small y that gives a generator of it (a point whose 4*T is not the identity).
    for y0 in range(2, 1000):
        x0 = ed25519._recover_x(y0, 0)
        if x0 is None:
            continue
        t = ed25519._scalar_mult(ed25519.L, (x0, y0, 1, x0 * y0 % p))
        if not ed25519._is_identity(ed25519._scalar_mult(4, t)):
            break
    else:  # pragma: no cover
        raise AssertionError("no generator of the 8-torsion found")
    encodings: set[bytes] = set()
    pt = ed25519._IDENTITY
    for _ in range(8):
        x, y = _encode(pt)
        signs = [0, 1] if x == 0 else [x & 1]  # x = 0 also has the "-0" encoding
        ys = [y, y + p] if y + p < 2**255 else [y]  # y < 19 also has the y + p encoding
        for yy in ys:
            for s in signs:
                encodings.add((yy | s << 255).to_bytes(32, "little"))
        pt = ed25519._add(pt, t)
    return encodings


def test_low_order_encodings_are_complete() -> None:
    derived = _derive_low_order_encodings()
    assert len(derived) == 14
    assert derived == ed25519.LOW_ORDER_ENCODINGS


@pytest.mark.parametrize("enc", sorted(ed25519.LOW_ORDER_ENCODINGS), ids=lambda b: b.hex()[:8] + b.hex()[-2:])
def test_every_low_order_encoding_is_a_weak_key(enc: bytes) -> None:
    with pytest.raises(WeakKey):
        ed25519.validate_public_key(enc)
    # ...also through verify, whatever the signature
    with pytest.raises(WeakKey):
        ed25519.verify(enc, b"m", bytes(64))


# --- precise rejection reasons ----------------------------------------------------------------


@pytest.mark.parametrize("length", [0, 31, 33, 64])
def test_wrong_length_key(length: int) -> None:
    with pytest.raises(WeakKey, match="must be 32 bytes"):
        ed25519.validate_public_key(b"\x09" * length)


@pytest.mark.parametrize("y0", range(19))
def test_unreduced_y_is_non_canonical(y0: int) -> None:
    enc = (ed25519.P + y0).to_bytes(32, "little")
    with pytest.raises(WeakKey, match="not reduced"):
        ed25519.validate_public_key(enc)


def test_point_not_on_curve() -> None:
    assert ed25519._recover_x(2, 0) is None  # y = 2 has no x
    with pytest.raises(WeakKey, match="not a point on the curve"):
        ed25519.validate_public_key((2).to_bytes(32, "little"))


@pytest.mark.parametrize("y", [1, ed25519.P - 1])
def test_negative_zero_x_is_non_canonical(y: int) -> None:
    enc = (y | 1 << 255).to_bytes(32, "little")
    with pytest.raises(WeakKey, match="x is 0 but the sign bit is set"):
        ed25519.validate_public_key(enc)


def test_small_order_message() -> None:
    order8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
    with pytest.raises(WeakKey, match="small order"):
        ed25519.validate_public_key(order8)


def test_mixed_order_key_is_rejected() -> None:
    # An honest key plus a point of order 8: on the curve, canonical, not small order, but with a
    # torsion component.
    honest = ed25519.public_from_seed(bytes(range(32)))
    p = ed25519.P
    y = int.from_bytes(honest, "little") & ((1 << 255) - 1)
    x = ed25519._recover_x(y, honest[31] >> 7)
    assert x is not None
    order8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
    ty = int.from_bytes(order8, "little")
    tx = ed25519._recover_x(ty, 0)
    assert tx is not None
    mx, my = _encode(ed25519._add((x, y, 1, x * y % p), (tx, ty, 1, tx * ty % p)))
    mixed = (my | (mx & 1) << 255).to_bytes(32, "little")
    with pytest.raises(WeakKey, match="torsion"):
        ed25519.validate_public_key(mixed)


def test_weak_key_error_is_an_auth_error_with_hint() -> None:
    with pytest.raises(WeakKey) as info:
        ed25519.validate_public_key(bytes(32))
    assert isinstance(info.value, AuthError)
    assert "regenerated" in info.value.hint
    assert bytes(32).hex() in info.value.message


def test_weak_keys_are_rejected_every_time() -> None:
    # Valid keys are cached; rejections must not be.
    for _ in range(3):
        with pytest.raises(WeakKey):
            ed25519.validate_public_key(bytes(32))


# --- normal operation -------------------------------------------------------------------------

# RFC 8032, section 7.1, TEST 1 and TEST 2.
RFC8032 = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
]


@pytest.mark.parametrize(("seed", "pub", "msg", "sig"), RFC8032, ids=["rfc8032-1", "rfc8032-2"])
def test_rfc8032_vectors(seed: str, pub: str, msg: str, sig: str) -> None:
    assert ed25519.public_from_seed(bytes.fromhex(seed)).hex() == pub
    assert ed25519.sign(bytes.fromhex(seed), bytes.fromhex(msg)).hex() == sig
    assert ed25519.verify(bytes.fromhex(pub), bytes.fromhex(msg), bytes.fromhex(sig))


def test_round_trip_and_tampering() -> None:
    seed = bytes(range(100, 132))
    pub = ed25519.public_from_seed(seed)
    ed25519.validate_public_key(pub)
    msg = b"pbem/v1/turn\x00game\x00seq 7"
    sig = ed25519.sign(seed, msg)
    assert len(sig) == 64
    assert ed25519.verify(pub, msg, sig)
    assert not ed25519.verify(pub, msg + b"x", sig)
    for i in (0, 31, 32, 63):
        bad = bytearray(sig)
        bad[i] ^= 1
        assert not ed25519.verify(pub, msg, bytes(bad))
    other = ed25519.public_from_seed(bytes(32))
    assert not ed25519.verify(other, msg, sig)


def test_non_canonical_s_is_rejected() -> None:
    seed = bytes(range(32))
    pub = ed25519.public_from_seed(seed)
    sig = ed25519.sign(seed, b"m")
    s = int.from_bytes(sig[32:], "little")
    assert s + ed25519.L < 2**256
    malleated = sig[:32] + (s + ed25519.L).to_bytes(32, "little")
    assert not ed25519.verify(pub, b"m", malleated)


def test_small_order_or_non_canonical_r_is_rejected() -> None:
    seed = bytes(range(32))
    pub = ed25519.public_from_seed(seed)
    sig = ed25519.sign(seed, b"m")
    for r in ed25519.LOW_ORDER_ENCODINGS | {(ed25519.P + 3).to_bytes(32, "little")}:
        assert not ed25519.verify(pub, b"m", r + sig[32:])


def test_identity_r_rejected_even_where_openssl_accepts() -> None:
    # R = identity, S = k*a: satisfies the cofactorless equation, so OpenSSL accepts it, but no
    # honest signer produces it; our policy rejects small-order R regardless.
    import hashlib

    seed = bytes(range(32))
    pub = ed25519.public_from_seed(seed)
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    r_enc = (1).to_bytes(32, "little")
    k = int.from_bytes(hashlib.sha512(r_enc + pub + b"m").digest(), "little") % ed25519.L
    sig = r_enc + (k * a % ed25519.L).to_bytes(32, "little")
    Ed25519PublicKey.from_public_bytes(pub).verify(sig, b"m")  # OpenSSL: valid
    assert not ed25519.verify(pub, b"m", sig)  # pbem: rejected


@pytest.mark.parametrize("length", [0, 63, 65])
def test_wrong_length_signature_is_false_not_error(length: int) -> None:
    pub = ed25519.public_from_seed(bytes(32))
    assert ed25519.verify(pub, b"m", b"\x01" * length) is False


def test_garbage_signatures_never_raise() -> None:
    import random

    rng = random.Random(1)
    pub = ed25519.public_from_seed(bytes(32))
    for _ in range(50):
        assert ed25519.verify(pub, b"m", rng.randbytes(64)) is False


@pytest.mark.parametrize("length", [0, 31, 33])
def test_bad_seed_length(length: int) -> None:
    with pytest.raises(InvalidInput, match="32 bytes"):
        ed25519.sign(b"\x00" * length, b"m")
    with pytest.raises(InvalidInput, match="32 bytes"):
        ed25519.public_from_seed(b"\x00" * length)
