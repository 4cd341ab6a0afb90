"""Properties of the pbem.crypto.age public API: round trips, key handling, failure
classes on damaged input, determinism under injected randomness."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.crypto import age
from pbem.crypto.age import _bech32, _format, _recipients
from pbem.errors import ExitCode, PbemError

CHUNK = 64 * 1024
# The example keys from the age spec.
SPEC_IDENTITY = (
    "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
)
SPEC_RECIPIENT = "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"
SPEC_PQ_IDENTITY = (
    "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR"
)
SPEC_TAG_RECIPIENT = (
    "age1tag1qt8lw0ual6avlwmwatk888yqnmdamm7xfd0wak53ut6elz5c4swx2yqdj4e"
)

ID1 = age.generate_x25519_identity()
ID2 = age.generate_x25519_identity()
R1 = age.x25519_recipient(ID1)
R2 = age.x25519_recipient(ID2)


def counter_rng(seed: bytes = b"seed") -> Callable[[int], bytes]:
    """A deterministic byte source (SHA-256 in counter mode), for tests only."""
    state = {"n": 0}

    def rng(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + state["n"].to_bytes(8, "big")).digest()
            state["n"] += 1
        return out[:n]

    return rng


# --- errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (age.HeaderError, ExitCode.INVALID),
        (age.ArmorError, ExitCode.INVALID),
        (age.KeyFormatError, ExitCode.INVALID),
        (age.HmacError, ExitCode.AUTH),
        (age.PayloadError, ExitCode.AUTH),
        (age.NoMatchError, ExitCode.AUTH),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_error_classes(cls: type[age.AgeError], code: int) -> None:
    assert issubclass(cls, age.AgeError)
    assert issubclass(age.AgeError, PbemError)
    assert cls.exit_code == code
    err = cls("message")
    assert err.hint == cls.default_hint and err.hint
    assert str(err) == "message"


# --- keys --------------------------------------------------------------------


def test_spec_example_key() -> None:
    assert age.x25519_recipient(SPEC_IDENTITY) == SPEC_RECIPIENT
    assert age.x25519_recipient(SPEC_IDENTITY.lower()) == SPEC_RECIPIENT


def test_generated_identity_format() -> None:
    identity = age.generate_x25519_identity()
    assert identity.startswith("AGE-SECRET-KEY-1") and identity == identity.upper()
    assert len(identity) == 74
    recipient = age.x25519_recipient(identity)
    assert recipient.startswith("age1") and recipient == recipient.lower()
    assert len(recipient) == 62


def test_generate_is_deterministic_with_rng() -> None:
    assert age.generate_x25519_identity(counter_rng()) == age.generate_x25519_identity(
        counter_rng()
    )
    assert age.generate_x25519_identity(
        counter_rng(b"a")
    ) != age.generate_x25519_identity(counter_rng(b"b"))


def _flip_char(text: str, i: int) -> str:
    alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    c = text[i].lower()
    new = alphabet[(alphabet.index(c) + 1) % 32]
    return text[:i] + (new.upper() if text[i].isupper() else new) + text[i + 1 :]


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "age1",
        "AGE-SECRET-KEY-1",
        SPEC_IDENTITY[:-1],
        SPEC_IDENTITY[:20] + SPEC_IDENTITY[20:].lower(),  # mixed case
        _flip_char(SPEC_IDENTITY, 30),  # checksum
        SPEC_IDENTITY.replace("AGE-SECRET-KEY-", "AGE-PUBLIC-KEY-"),
        SPEC_RECIPIENT,  # a recipient is not an identity
        SPEC_PQ_IDENTITY,
        "AGE-SECRET-KEY-1\u00e9",
        _bech32.encode("AGE-SECRET-KEY-", bytes(31)),  # wrong length
    ],
)
def test_bad_identity_strings(bad: str) -> None:
    with pytest.raises(age.KeyFormatError):
        age.x25519_recipient(bad)
    with pytest.raises(age.KeyFormatError):
        age.decrypt(age.encrypt(b"x", [R1]), [bad])


@pytest.mark.parametrize(
    "bad",
    [
        "",
        SPEC_IDENTITY,
        _flip_char(SPEC_RECIPIENT, 10),
        SPEC_TAG_RECIPIENT,
        _bech32.encode("age", bytes(33)),
        _bech32.encode("age", bytes(32)),  # low-order point: no shared secret
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE",
    ],
)
def test_bad_recipient_strings(bad: str) -> None:
    with pytest.raises(age.KeyFormatError):
        age.encrypt(b"x", [bad])


def test_bech32_rejects_nonzero_padding() -> None:
    good = _bech32.encode("age", bytes(range(32)))
    assert _bech32.decode(good) == ("age", bytes(range(32)))
    # 32 bytes use 52 five-bit groups with 4 padding bits; set one of them.
    values = [_bech32._CHARSET.index(c) for c in good[4:-6]]
    values[-1] |= 1
    poly = _bech32._polymod(_bech32._hrp_expand("age") + values + [0] * 6) ^ 1
    checksum = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    bad = "age1" + "".join(_bech32._CHARSET[v] for v in values + checksum)
    with pytest.raises(age.KeyFormatError, match="padding"):
        _bech32.decode(bad)


def test_read_identity_file() -> None:
    text = f"# created: now\n# public key: {R1}\n\n{ID1}\n{ID2}\n"
    assert age.read_identity_file(text) == [ID1, ID2]
    with pytest.raises(age.KeyFormatError):
        age.read_identity_file("# only a comment\n")
    with pytest.raises(age.KeyFormatError):
        age.read_identity_file(f"{ID1}\nnot a key\n")


# --- round trips -------------------------------------------------------------


@pytest.mark.parametrize(
    "size", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 200 * 1024]
)
def test_round_trip_sizes(size: int) -> None:
    data = bytes(i % 256 for i in range(size))
    ciphertext = age.encrypt(data, [R1])
    chunks = max(1, -(-size // CHUNK))
    header_len = ciphertext.index(b"\n---") + len("\n--- ") + 43 + 1
    assert len(ciphertext) == header_len + 16 + size + 16 * chunks
    assert age.decrypt(ciphertext, [ID1]) == data
    assert age.decrypt(age.armor(ciphertext), [ID1]) == data


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=3000), n_recipients=st.integers(1, 4))
def test_round_trip_many_recipients(data: bytes, n_recipients: int) -> None:
    identities = [age.generate_x25519_identity() for _ in range(n_recipients)]
    ciphertext = age.encrypt(data, [age.x25519_recipient(i) for i in identities])
    for identity in identities:
        assert age.decrypt(ciphertext, [identity]) == data
    assert ciphertext.count(b"\n-> X25519 ") == n_recipients


def test_any_matching_identity_works() -> None:
    ciphertext = age.encrypt(b"secret", [R2])
    assert age.decrypt(ciphertext, [ID1, ID2]) == b"secret"
    assert age.decrypt(ciphertext, [ID2, ID1]) == b"secret"


def test_wrong_key() -> None:
    ciphertext = age.encrypt(b"secret", [R1])
    with pytest.raises(age.NoMatchError):
        age.decrypt(ciphertext, [ID2])
    with pytest.raises(age.NoMatchError):
        age.unwrap_file_key(ciphertext, [ID2])
    with pytest.raises(age.NoMatchError):
        age.decrypt(ciphertext, [])


def test_passphrase_round_trip() -> None:
    ciphertext = age.encrypt_with_passphrase(b"orders", "pass phrase", work_factor=10)
    assert b"\n-> scrypt " in ciphertext and b" 10\n" in ciphertext
    assert age.decrypt_with_passphrase(ciphertext, "pass phrase") == b"orders"
    assert (
        age.decrypt_with_passphrase(age.armor(ciphertext), "pass phrase") == b"orders"
    )
    with pytest.raises(age.NoMatchError, match="wrong"):
        age.decrypt_with_passphrase(ciphertext, "pass phrasE")
    with pytest.raises(age.NoMatchError):
        age.decrypt(ciphertext, [ID1])
    with pytest.raises(age.HeaderError, match="exceeds"):
        age.decrypt_with_passphrase(ciphertext, "pass phrase", max_work_factor=9)


def test_passphrase_on_key_encrypted_file() -> None:
    with pytest.raises(age.NoMatchError, match="not passphrase-encrypted"):
        age.decrypt_with_passphrase(age.encrypt(b"x", [R1]), "anything")


def test_unicode_passphrase_is_utf8() -> None:
    ciphertext = age.encrypt_with_passphrase(b"x", "pässwörd ✓", work_factor=8)
    assert age.decrypt_with_passphrase(ciphertext, "pässwörd ✓") == b"x"


@pytest.mark.parametrize("work_factor", [0, -1, 41])
def test_bad_work_factor(work_factor: int) -> None:
    with pytest.raises(age.HeaderError):
        age.encrypt_with_passphrase(b"x", "pw", work_factor=work_factor)


def test_bad_encrypt_arguments() -> None:
    with pytest.raises(age.HeaderError):
        age.encrypt(b"x", [])
    with pytest.raises(age.HeaderError):
        age.encrypt_with_passphrase(b"x", "", work_factor=8)
    with pytest.raises(age.KeyFormatError):
        age.encrypt(b"x", [R1], file_key=bytes(15))
    with pytest.raises(age.AgeError):
        age.encrypt(b"x", [R1], rng=lambda n: bytes(n - 1))


# --- revealed file keys ------------------------------------------------------


def test_unwrap_then_decrypt_with_file_key() -> None:
    data = bytes(range(256)) * 300
    ciphertext = age.encrypt(data, [R1, R2])
    file_key = age.unwrap_file_key(ciphertext, [ID2])
    assert len(file_key) == 16
    assert age.unwrap_file_key(ciphertext, [ID1]) == file_key
    assert age.decrypt_with_file_key(ciphertext, file_key) == data
    assert age.decrypt_with_file_key(age.armor(ciphertext), file_key) == data
    wrong = bytes(b ^ 1 for b in file_key)
    with pytest.raises(age.HmacError):
        age.decrypt_with_file_key(ciphertext, wrong)
    with pytest.raises(age.KeyFormatError):
        age.decrypt_with_file_key(ciphertext, file_key + b"\0")


def test_injected_file_key_is_used() -> None:
    key = bytes(range(16))
    ciphertext = age.encrypt(b"data", [R1], file_key=key)
    assert age.unwrap_file_key(ciphertext, [ID1]) == key
    assert age.decrypt_with_file_key(ciphertext, key) == b"data"
    pw = age.encrypt_with_passphrase(b"data", "pw", work_factor=8, file_key=key)
    assert age.decrypt_with_file_key(pw, key) == b"data"


def test_deterministic_with_injected_randomness() -> None:
    key = bytes(16)
    data = b"data" * 1000

    def seal(seed: bytes = b"seed", file_key: bytes | None = key) -> bytes:
        return age.encrypt(data, [R1, R2], file_key=file_key, rng=counter_rng(seed))

    def seal_pw(seed: bytes = b"seed") -> bytes:
        return age.encrypt_with_passphrase(
            data, "pw", work_factor=8, file_key=key, rng=counter_rng(seed)
        )

    assert seal() == seal()
    assert seal(file_key=None) == seal(file_key=None)  # file key drawn from rng
    assert seal(b"other") != seal()
    assert seal_pw() == seal_pw()
    assert seal_pw(b"other") != seal_pw()
    # Without injection every file gets a fresh file key and nonce.
    assert age.encrypt(data, [R1]) != age.encrypt(data, [R1])


# --- damaged input -----------------------------------------------------------


SMALL = age.encrypt(b"attack at dawn", [R1])
SMALL_PW = age.encrypt_with_passphrase(b"attack at dawn", "pw", work_factor=4)


def test_every_flipped_byte_is_an_age_error() -> None:
    for i in range(len(SMALL)):
        for bit in (0x01, 0x80):
            damaged = bytearray(SMALL)
            damaged[i] ^= bit
            with pytest.raises(age.AgeError):
                age.decrypt(bytes(damaged), [ID1])


def test_every_flipped_byte_with_passphrase_is_an_age_error() -> None:
    for i in range(len(SMALL_PW)):
        damaged = bytearray(SMALL_PW)
        damaged[i] ^= 0x01
        with pytest.raises(age.AgeError):
            age.decrypt_with_passphrase(bytes(damaged), "pw")


def test_every_flipped_armor_byte_is_an_age_error() -> None:
    armored = age.armor(SMALL)
    for i in range(len(armored)):
        damaged = bytearray(armored)
        damaged[i] ^= 0x01
        if bytes(damaged).strip() == armored.strip():
            continue  # a flip inside the tolerated outer whitespace
        with pytest.raises(age.AgeError):
            age.decrypt(bytes(damaged), [ID1])


def test_every_truncation_is_an_age_error() -> None:
    for n in range(len(SMALL)):
        with pytest.raises(age.AgeError):
            age.decrypt(SMALL[:n], [ID1])
    armored = age.armor(SMALL)
    for n in range(len(armored) - 1):  # dropping only the final LF is tolerated
        with pytest.raises(age.AgeError):
            age.decrypt(armored[:n], [ID1])


def test_truncation_at_chunk_boundary() -> None:
    ciphertext = age.encrypt(bytes(3 * CHUNK), [R1])
    body_start = len(ciphertext) - (3 * CHUNK + 3 * 16)
    for chunks in (1, 2):
        with pytest.raises(age.PayloadError):
            age.decrypt(ciphertext[: body_start + chunks * (CHUNK + 16)], [ID1])


def test_trailing_data() -> None:
    for extra in (b"\0", b"x" * 17, bytes(CHUNK + 16)):
        with pytest.raises(age.PayloadError):
            age.decrypt(SMALL + extra, [ID1])
    with pytest.raises(age.ArmorError):
        age.decrypt(age.armor(SMALL) + b"x", [ID1])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbage=st.binary(max_size=400))
def test_garbage_only_raises_age_errors(garbage: bytes) -> None:
    for data in (garbage, _format.VERSION_LINE + b"\n" + garbage, SMALL[:90] + garbage):
        with pytest.raises(age.AgeError):
            age.decrypt(data, [ID1])
        with pytest.raises(age.AgeError):
            age.decrypt_with_file_key(data, bytes(16))
    try:
        age.dearmor(garbage)
    except age.AgeError:
        pass


@settings(max_examples=100, deadline=None)
@given(
    stanzas=st.lists(
        st.tuples(
            st.lists(
                st.text(
                    st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1
                ),
                min_size=1,
            ),
            st.binary(max_size=200),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_header_encode_parse_round_trip(stanzas: list[tuple[list[str], bytes]]) -> None:
    parsed = [_format.Stanza(tuple(args), body) for args, body in stanzas]
    encoded = _format.encode_header(parsed, bytes(16)) + bytes(16)
    header, _, _ = _format.parse_header(encoded)
    assert list(header.stanzas) == parsed
    _format.verify_header_mac(header, bytes(16))


def test_unknown_stanzas_are_skipped() -> None:
    """Grease: stanzas of unknown types before and after ours are ignored."""
    file_key = bytes(range(16))
    x25519 = _recipients.X25519Recipient.parse(R1).wrap(file_key, counter_rng())
    stanzas = [
        _format.Stanza(("grease", "a!b"), b"\x00" * 70),
        x25519,
        _format.Stanza(("example.com/enigma",), b""),
    ]
    header = _format.encode_header(stanzas, file_key)
    from pbem.crypto.age._stream import encrypt_payload, payload_key

    nonce = bytes(16)
    data = header + nonce + encrypt_payload(payload_key(file_key, nonce), b"hello")
    assert age.decrypt(data, [ID1]) == b"hello"
    with pytest.raises(age.NoMatchError):
        age.decrypt(data, [ID2])


# --- armor -------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=500))
def test_armor_round_trip(data: bytes) -> None:
    armored = age.armor(data)
    assert age.dearmor(armored) == data
    assert age.dearmor(armored.replace(b"\n", b"\r\n")) == data
    assert age.dearmor(b"\n \t\n" + armored + b"\n\n  ") == data
    assert all(len(line) <= 64 for line in armored.splitlines()[1:-1])
    assert age.is_armored(armored)


def test_armor_shape() -> None:
    assert (
        age.armor(b"")
        == b"-----BEGIN AGE ENCRYPTED FILE-----\n-----END AGE ENCRYPTED FILE-----\n"
    )
    armored = age.armor(bytes(48 * 2 + 1))
    assert [len(line) for line in armored.splitlines()] == [34, 64, 64, 4, 32]


def test_is_armored() -> None:
    assert not age.is_armored(SMALL)
    assert not age.is_armored(b"")
    assert age.is_armored(age.armor(SMALL))
    assert age.is_armored(b"  \n" + age.armor(SMALL))


@pytest.mark.parametrize(
    "damage",
    [
        lambda a: a.replace(b"-----\n", b"-----\n\n", 1),  # blank line after BEGIN
        lambda a: a.replace(b"AGE ENCRYPTED", b"age ENCRYPTED"),
        lambda a: b"x" + a,
        lambda a: a.replace(b"\n", b"\n ", 2),  # indented line
        lambda a: a.replace(b"\n-----END", b" \n-----END"),  # trailing space
        lambda a: a[: a.index(b"\n-----END")] + b"\n",  # no end line
        lambda a: a.replace(b"==\n", b"\n"),  # padding removed
        lambda a: a.replace(b"==\n", b"=\n"),  # padding cut short
        lambda a: a.replace(b"==\n", b"\n==\n"),  # padding on its own line
    ],
)
def test_damaged_armor(damage: Callable[[bytes], bytes]) -> None:
    # Binary length 1 (mod 3), so the last armor line carries "==" padding.
    size = next(n for n in range(100, 103) if len(age.encrypt(b"x" * n, [R1])) % 3 == 1)
    armored = age.armor(age.encrypt(b"x" * size, [R1]))
    assert b"==\n-----END" in armored
    with pytest.raises(age.ArmorError):
        age.decrypt(damage(armored), [ID1])
