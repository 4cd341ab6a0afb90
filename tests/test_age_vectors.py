"""The C2SP/CCTV age test vectors, replayed against every pbem.crypto.age entry point.

Each vector file is ``key: value`` lines, a blank line, then an age file
(zlib-compressed when ``compressed: zlib``). ``expect:`` names the outcome;
each failure kind maps to one exception class.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import age
from pbem.crypto.age import _api, _armor, _format, _recipients, _stream

VECTORS = (
    Path(__file__).resolve().parents[1].parent / "shared" / "vectors" / "age-testdata"
)

if not VECTORS.is_dir():
    pytest.skip(
        f"age test vectors not found at {VECTORS} (expected <project root>/../shared/vectors)",
        allow_module_level=True,
    )

EXPECT_ERRORS: dict[str, type[age.AgeError]] = {
    "header failure": age.HeaderError,
    "HMAC failure": age.HmacError,
    "armor failure": age.ArmorError,
    "payload failure": age.PayloadError,
    "no match": age.NoMatchError,
}
PQ_REASON = "post-quantum recipient not supported"


@dataclass
class Vector:
    name: str
    meta: dict[str, str]
    identities: list[str] = field(default_factory=list)
    passphrases: list[str] = field(default_factory=list)
    data: bytes = b""

    @property
    def expect(self) -> str:
        return self.meta["expect"]

    @property
    def armored(self) -> bool:
        return self.meta.get("armored") == "yes"

    @property
    def post_quantum(self) -> bool:
        return any(i.startswith("AGE-SECRET-KEY-PQ-") for i in self.identities)

    @property
    def file_key(self) -> bytes:
        return bytes.fromhex(self.meta["file key"])

    def binary(self) -> bytes:
        return age.dearmor(self.data) if self.armored else self.data


def load(path: Path) -> Vector:
    head, sep, body = path.read_bytes().partition(b"\n\n")
    assert sep, f"{path.name}: no blank line after the vector header"
    vector = Vector(path.name, {})
    for line in head.decode("utf-8").splitlines():
        key, _, value = line.partition(": ")
        if key == "identity":
            vector.identities.append(value)
        elif key == "passphrase":
            vector.passphrases.append(value)
        else:
            vector.meta[key] = value
    vector.data = (
        zlib.decompress(body) if vector.meta.get("compressed") == "zlib" else body
    )
    return vector


ALL = [
    load(p)
    for p in sorted(VECTORS.iterdir())
    if p.is_file() and not p.name.endswith(".md")
]
BY_NAME = {v.name: v for v in ALL}
NAMES = [v.name for v in ALL]
PQ_COUNT = sum(v.post_quantum for v in ALL)


def names(keep: Callable[[Vector], bool]) -> list[str]:
    """Vector names for a test that only applies to some vectors, so that
    inapplicable combinations are not collected (and not reported as skips)."""
    return [v.name for v in ALL if keep(v)]


# Tests that need no identity (header parsing, the STREAM with the known file
# key) also run on the post-quantum vectors; only unwrapping is unsupported.
KEY_USED = names(lambda v: v.expect in ("success", "HMAC failure", "payload failure"))
PAYLOAD_FAILURES = names(lambda v: v.expect == "payload failure")
HEADER_PARSES = names(lambda v: v.expect not in ("header failure", "armor failure"))
SUCCESSES = names(lambda v: v.expect == "success")
ARMORED_OK = names(lambda v: v.armored and v.expect != "armor failure")
BINARY_CLASSICAL = names(lambda v: not v.armored and not v.post_quantum)


def get(name: str) -> Vector:
    vector = BY_NAME[name]
    if vector.post_quantum:
        pytest.skip(PQ_REASON)
    return vector


def open_vector(v: Vector) -> bytes:
    """Decrypt through the public function that fits the vector's keys; a
    vector giving both keys and passphrases uses them together, as age does."""
    if not v.passphrases:
        return age.decrypt(v.data, v.identities)
    if not v.identities and len(v.passphrases) == 1:
        return age.decrypt_with_passphrase(v.data, v.passphrases[0])
    mixed: list[_recipients.Identity] = [
        _recipients.X25519Identity.parse(i) for i in v.identities
    ]
    mixed += [_recipients.ScryptIdentity(p, 22) for p in v.passphrases]
    return _api._decrypt(v.data, mixed)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_vectors_found() -> None:
    assert len(ALL) >= 140
    assert {v.expect for v in ALL} == {"success", *EXPECT_ERRORS}


def test_post_quantum_vectors_are_counted() -> None:
    assert PQ_COUNT > 0
    pytest.skip(f"{PQ_COUNT} post-quantum vectors skipped ({PQ_REASON})")


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_vector(name: str) -> None:
    v = get(name)
    if v.expect == "success":
        assert sha256(open_vector(v)) == v.meta["payload"]
    else:
        with pytest.raises(EXPECT_ERRORS[v.expect]):
            open_vector(v)


@pytest.mark.parametrize("name", KEY_USED, ids=KEY_USED)
def test_vector_with_revealed_file_key(name: str) -> None:
    """decrypt_with_file_key agrees with decryption by identity wherever the
    header parses and the key unwraps."""
    v = BY_NAME[name]
    if v.expect == "success":
        assert (
            sha256(age.decrypt_with_file_key(v.data, v.file_key)) == v.meta["payload"]
        )
    else:
        with pytest.raises(EXPECT_ERRORS[v.expect]):
            age.decrypt_with_file_key(v.data, v.file_key)
    if v.identities and not v.post_quantum:
        if v.expect == "HMAC failure":
            with pytest.raises(age.HmacError):
                age.unwrap_file_key(v.data, v.identities)
        else:
            assert age.unwrap_file_key(v.data, v.identities) == v.file_key


@pytest.mark.parametrize("name", PAYLOAD_FAILURES, ids=PAYLOAD_FAILURES)
def test_vector_partial_plaintext(name: str) -> None:
    """For payload failures, the plaintext released before the error (by the
    streaming decryptor) must hash to ``payload``; decrypt() releases none."""
    v = BY_NAME[name]
    _, nonce, payload = _format.parse_header(v.binary())
    released = hashlib.sha256()
    with pytest.raises(age.PayloadError):
        for chunk in _stream.iter_decrypt_payload(
            _stream.payload_key(v.file_key, nonce), payload
        ):
            released.update(chunk)
    assert released.hexdigest() == v.meta["payload"]


@pytest.mark.parametrize("name", HEADER_PARSES, ids=HEADER_PARSES)
def test_vector_header_round_trip(name: str) -> None:
    """Any header that parses re-encodes to exactly the bytes it came from."""
    v = BY_NAME[name]
    binary = v.binary()
    header, nonce, payload = _format.parse_header(binary)
    assert header.encode() + nonce + payload == binary


@pytest.mark.parametrize("name", SUCCESSES, ids=SUCCESSES)
def test_vector_stream_round_trip(name: str) -> None:
    """Re-encrypting a success vector's plaintext with its file key and nonce
    gives back its payload byte for byte."""
    v = BY_NAME[name]
    _, nonce, payload = _format.parse_header(v.binary())
    key = _stream.payload_key(v.file_key, nonce)
    assert (
        _stream.encrypt_payload(key, _stream.decrypt_payload(key, payload)) == payload
    )


@pytest.mark.parametrize("name", ARMORED_OK, ids=ARMORED_OK)
def test_vector_armor_round_trip(name: str) -> None:
    """armor(dearmor(x)) is x, up to the tolerated CRLF and outer whitespace."""
    v = BY_NAME[name]
    canonical = v.data.replace(b"\r\n", b"\n").strip(b" \t\r\n") + b"\n"
    assert _armor.armor(age.dearmor(v.data)) == canonical
    assert age.is_armored(v.data)


@pytest.mark.parametrize("name", BINARY_CLASSICAL, ids=BINARY_CLASSICAL)
def test_vector_armored_form(name: str) -> None:
    """Every binary vector gives the same outcome once armored: the armor
    layer adds no failure modes and removes none."""
    v = BY_NAME[name]
    armored = Vector(v.name, v.meta, v.identities, v.passphrases, age.armor(v.data))
    if v.expect == "success":
        assert sha256(open_vector(armored)) == v.meta["payload"]
    else:
        with pytest.raises(EXPECT_ERRORS[v.expect]):
            open_vector(armored)


# --- canonical header encoding beyond the vectors ----------------------------


MUTATION_SEEDS = [BY_NAME[n].data for n in HEADER_PARSES if not BY_NAME[n].armored]


@settings(max_examples=500, deadline=None)
@given(
    seed=st.sampled_from(MUTATION_SEEDS),
    position=st.integers(0, 10_000),
    value=st.integers(0, 255),
    insert=st.booleans(),
)
def test_mutated_header_reencodes_or_fails(
    seed: bytes, position: int, value: int, insert: bool
) -> None:
    """Canonical parsing: whatever still parses after a one-byte mutation of a
    vector's header serializes back to exactly the mutated bytes."""
    position %= seed.index(b"\n---") + 48
    tail = seed[position:] if insert else seed[position + 1 :]
    mutated = seed[:position] + bytes([value]) + tail
    try:
        header, nonce, payload = _format.parse_header(mutated)
    except age.HeaderError:
        return
    assert header.encode() + nonce + payload == mutated
