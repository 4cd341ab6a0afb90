"""Tests for pbem.crypto.minisign: the file formats, strict parsing, and interop with the real minisign.

The interop tests run Debian's ``minisign`` (0.11). If it is not installed they fail, saying so,
unless PBEM_ALLOW_MISSING_TOOLS=1, in which case they are skipped. Every file they make is under
pytest's tmp_path (HOME points there too, so minisign cannot touch ~/.minisign).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.crypto import ed25519, minisign
from pbem.errors import BadSignature, InvalidInput, LimitExceeded, WeakKey

SEED = bytes(range(1, 33))
PUB = ed25519.public_from_seed(SEED)
MESSAGE = b"pbem/v1/turn\x00game=4f1c9e\x00seq=7\x00" + bytes(range(256))
TRUSTED = "pbem game 4f1c9e seq 7 seat red \u00e9t\u00e9"

Runner = Callable[..., subprocess.CompletedProcess[str]]


# --- the real tool ------------------------------------------------------------------------------


def minisign_bin() -> str:
    """The path of the minisign binary; fails the calling test (or skips it) if it is missing.

    Called from inside the tests, not from a fixture, so a missing tool is reported as a FAILED
    test rather than a setup ERROR.
    """
    path = shutil.which("minisign")
    if path is None:
        if os.environ.get("PBEM_ALLOW_MISSING_TOOLS") == "1":
            pytest.skip("the `minisign` command is not installed (Debian package `minisign`); "
                        "skipped because PBEM_ALLOW_MISSING_TOOLS=1")
        pytest.fail(
            "the `minisign` command is not installed; install the Debian package `minisign` "
            "(apt-get install minisign, or `make sysdeps` as root), or set "
            "PBEM_ALLOW_MISSING_TOOLS=1 to skip the interop tests"
        )
    return path


@pytest.fixture
def run(tmp_path: Path) -> Runner:
    def _run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [minisign_bin(), *args],
            cwd=tmp_path,
            env={**os.environ, "HOME": str(tmp_path)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    return _run


def _write_export(tmp_path: Path, message: bytes, sig_text: str, pub: bytes = PUB) -> None:
    (tmp_path / "M").write_bytes(message)
    (tmp_path / "M.minisig").write_text(sig_text, encoding="utf-8", newline="")
    (tmp_path / "key.pub").write_text(
        minisign.public_key_file(pub, untrusted_comment="pbem player card red"),
        encoding="utf-8",
        newline="",
    )


def _verify_cmd(run: Runner, *extra: str) -> subprocess.CompletedProcess[str]:
    return run("-V", *extra, "-p", "key.pub", "-m", "M", "-x", "M.minisig")


def test_minisign_verifies_our_export(run: Runner, tmp_path: Path) -> None:
    _write_export(tmp_path, MESSAGE, minisign.sign_detached(SEED, MESSAGE, TRUSTED))
    result = _verify_cmd(run)
    assert result.returncode == 0, result.stderr
    assert f"Trusted comment: {TRUSTED}\n" in result.stdout


def test_minisign_accepts_our_public_key_as_a_string(run: Runner, tmp_path: Path) -> None:
    _write_export(tmp_path, MESSAGE, minisign.sign_detached(SEED, MESSAGE, TRUSTED))
    b64 = (tmp_path / "key.pub").read_text().splitlines()[1]
    result = run("-V", "-P", b64, "-m", "M", "-x", "M.minisig")
    assert result.returncode == 0, result.stderr


def _flip_b64_byte(line: str, index: int) -> str:
    raw = bytearray(base64.b64decode(line))
    raw[index] ^= 0x01
    return base64.b64encode(bytes(raw)).decode()


def _tamper(text: str, where: str) -> str:
    lines = text.split("\n")
    if where == "key id":
        lines[1] = _flip_b64_byte(lines[1], 2)
    elif where == "signature":
        lines[1] = _flip_b64_byte(lines[1], 2 + 8 + 5)
    elif where == "trusted comment":
        lines[2] = lines[2][:-1] + chr(ord(lines[2][-1]) ^ 1)
    elif where == "global signature":
        lines[3] = _flip_b64_byte(lines[3], 40)
    else:  # pragma: no cover
        raise AssertionError(where)
    return "\n".join(lines)


@pytest.mark.parametrize("where", ["message", "key id", "signature", "trusted comment", "global signature"])
def test_tampering_makes_minisign_fail(run: Runner, tmp_path: Path, where: str) -> None:
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    message = MESSAGE
    if where == "message":
        flipped = bytearray(MESSAGE)
        flipped[20] ^= 0x01
        message = bytes(flipped)
    else:
        text = _tamper(text, where)
    _write_export(tmp_path, message, text)
    result = _verify_cmd(run)
    assert result.returncode != 0, result.stdout
    # and our own verifier agrees
    assert minisign.verify_signature_file(PUB, message, text) is False


def test_minisign_verifies_only_our_untampered_export(run: Runner, tmp_path: Path) -> None:
    # Control for the test above: the same files, untouched, do verify.
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    _write_export(tmp_path, MESSAGE, text)
    assert _verify_cmd(run).returncode == 0
    assert minisign.verify_signature_file(PUB, MESSAGE, text) is True


def test_require_prehashed_rejects_our_legacy_export(run: Runner, tmp_path: Path) -> None:
    # Documented limitation (module docstring): we export algorithm "Ed", so `minisign -V -H`
    # (require prehashed signatures) refuses the file.
    _write_export(tmp_path, MESSAGE, minisign.sign_detached(SEED, MESSAGE, TRUSTED))
    result = _verify_cmd(run, "-H")
    assert result.returncode != 0
    assert "egacy" in result.stderr


@pytest.mark.parametrize(
    "trusted",
    ["", "  leading and trailing spaces  ", "\ttabs\tinside", "line\u2028separator is one line for minisign"],
    ids=["empty", "spaces", "tabs", "u2028"],
)
def test_minisign_agrees_on_unusual_trusted_comments(run: Runner, tmp_path: Path, trusted: str) -> None:
    text = minisign.sign_detached(SEED, MESSAGE, trusted)
    assert minisign.parse_signature_file(text).trusted_comment == trusted
    _write_export(tmp_path, MESSAGE, text)
    result = _verify_cmd(run)
    assert result.returncode == 0, result.stderr
    assert f"Trusted comment: {trusted}\n" in result.stdout


def test_minisign_also_accepts_crlf(run: Runner, tmp_path: Path) -> None:
    # We tolerate CRLF line ends when parsing; check minisign does too, so that tolerance keeps
    # what we accept within what minisign accepts.
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED).replace("\n", "\r\n")
    _write_export(tmp_path, MESSAGE, text)
    result = _verify_cmd(run)
    assert result.returncode == 0, result.stderr
    assert f"Trusted comment: {TRUSTED}\n" in result.stdout
    assert minisign.verify_signature_file(PUB, MESSAGE, text)


def _hand_made_file(trusted: str, untrusted: str) -> str:
    # Bypasses our length checks, to probe minisign's own limits.
    sig = ed25519.sign(SEED, MESSAGE)
    gsig = ed25519.sign(SEED, sig + trusted.encode())
    line2 = base64.b64encode(b"Ed" + minisign.key_id(PUB) + sig).decode()
    return (
        f"untrusted comment: {untrusted}\n{line2}\n"
        f"trusted comment: {trusted}\n{base64.b64encode(gsig).decode()}\n"
    )


def test_comment_limits_match_minisign(run: Runner, tmp_path: Path) -> None:
    at_limit_t = "t" * minisign.MAX_TRUSTED_COMMENT_BYTES
    at_limit_u = "u" * minisign.MAX_UNTRUSTED_COMMENT_BYTES
    # at the limits: we make the file and minisign verifies it
    text = minisign.sign_detached(SEED, MESSAGE, at_limit_t, untrusted_comment=at_limit_u)
    _write_export(tmp_path, MESSAGE, text)
    assert _verify_cmd(run).returncode == 0
    assert minisign.verify_signature_file(PUB, MESSAGE, text)
    # one byte over either limit: we refuse, and minisign would not verify such a file either
    for trusted, untrusted in ((at_limit_t + "t", "u"), ("t", at_limit_u + "u")):
        with pytest.raises(InvalidInput, match="at most"):
            minisign.sign_detached(SEED, MESSAGE, trusted, untrusted_comment=untrusted)
        over = _hand_made_file(trusted, untrusted)
        _write_export(tmp_path, MESSAGE, over)
        assert _verify_cmd(run).returncode != 0
        with pytest.raises(InvalidInput, match="at most"):
            minisign.parse_signature_file(over)


def generate_key(run: Runner, tmp_path: Path) -> minisign.MinisignPublicKey:
    """A key pair made by `minisign -G` (no password), read back from its .pub file."""
    result = run("-G", "-W", "-p", "gen.pub", "-s", "gen.key")
    assert result.returncode == 0, result.stderr
    return minisign.parse_public_key_file((tmp_path / "gen.pub").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("flags", "algorithm"), [((), b"ED"), (("-l",), b"Ed")], ids=["prehashed", "legacy"])
def test_we_verify_minisign_signatures(
    run: Runner,
    tmp_path: Path,
    flags: tuple[str, ...],
    algorithm: bytes,
) -> None:
    generated_key = generate_key(run, tmp_path)
    (tmp_path / "F").write_bytes(MESSAGE)
    result = run("-S", *flags, "-s", "gen.key", "-m", "F", "-t", TRUSTED)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "F.minisig").read_text(encoding="utf-8")
    parsed = minisign.parse_signature_file(text)
    assert parsed.algorithm == algorithm
    assert parsed.key_id == generated_key.key_id
    assert parsed.trusted_comment == TRUSTED
    pub, kid = generated_key.public_key, generated_key.key_id
    assert minisign.verify_signature_file(pub, MESSAGE, text, expected_key_id=kid)
    assert not minisign.verify_signature_file(pub, MESSAGE + b"x", text, expected_key_id=kid)
    assert not minisign.verify_signature_file(pub, MESSAGE, _tamper(text, "trusted comment"), expected_key_id=kid)
    # minisign's key ids are random, so pbem's derived id does not match them
    assert not minisign.verify_signature_file(pub, MESSAGE, text)


def test_generated_public_key_file(run: Runner, tmp_path: Path) -> None:
    generated_key = generate_key(run, tmp_path)
    text = (tmp_path / "gen.pub").read_text(encoding="utf-8")
    assert generated_key.untrusted_comment == f"minisign public key {minisign.format_key_id(generated_key.key_id)}"
    ed25519.validate_public_key(generated_key.public_key)
    assert text.endswith("\n")


# --- pure Python ---------------------------------------------------------------------------------


def test_key_id_is_derived() -> None:
    kid = minisign.key_id(PUB)
    assert kid == hashlib.sha256(b"pbem/v1/minisign-keyid" + PUB).digest()[:8]
    assert minisign.key_id(ed25519.public_from_seed(bytes(32))) != kid
    assert minisign.format_key_id(bytes.fromhex("616f10c6f8851add")) == "DD1A85F8C6106F61"
    # as minisign's "%" PRIX64: no leading zeros (the test against the real tool failed 1 time in 16)
    assert minisign.format_key_id(bytes.fromhex("616f10c6f8851a0b")) == "B1A85F8C6106F61"


def test_public_key_file_round_trip() -> None:
    text = minisign.public_key_file(PUB, untrusted_comment="pbem card")
    lines = text.split("\n")
    assert lines[0] == "untrusted comment: pbem card"
    assert lines[2] == ""
    assert base64.b64decode(lines[1]) == b"Ed" + minisign.key_id(PUB) + PUB
    parsed = minisign.parse_public_key_file(text)
    assert parsed == minisign.MinisignPublicKey("pbem card", minisign.key_id(PUB), PUB)


def test_signature_file_layout_and_round_trip() -> None:
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    parsed = minisign.parse_signature_file(text)
    assert parsed.untrusted_comment == "signature from pbem"
    assert parsed.algorithm == b"Ed" and not parsed.prehashed
    assert parsed.key_id == minisign.key_id(PUB)
    # The exported signature *is* the plain Ed25519 signature of M (what the turn file carries).
    assert parsed.signature == ed25519.sign(SEED, MESSAGE)
    assert parsed.trusted_comment == TRUSTED
    gmsg = minisign.global_signature_message(parsed.signature, TRUSTED)
    assert gmsg == parsed.signature + TRUSTED.encode("utf-8")
    assert ed25519.verify(PUB, gmsg, parsed.global_signature)
    rebuilt = minisign.signature_file(
        PUB,
        parsed.signature,
        parsed.trusted_comment,
        parsed.global_signature,
        untrusted_comment=parsed.untrusted_comment,
    )
    assert rebuilt == text
    assert minisign.verify_signature_file(PUB, MESSAGE, text)


def test_verify_prehashed_made_here() -> None:
    sig = ed25519.sign(SEED, hashlib.blake2b(MESSAGE, digest_size=64).digest())
    gsig = ed25519.sign(SEED, sig + b"ph")
    text = (
        "untrusted comment: x\n"
        + base64.b64encode(b"ED" + minisign.key_id(PUB) + sig).decode()
        + "\ntrusted comment: ph\n"
        + base64.b64encode(gsig).decode()
        + "\n"
    )
    assert minisign.parse_signature_file(text).prehashed
    assert minisign.verify_signature_file(PUB, MESSAGE, text)
    assert not minisign.verify_signature_file(PUB, MESSAGE[:-1], text)


def test_crlf_line_ends_are_tolerated() -> None:
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    assert minisign.verify_signature_file(PUB, MESSAGE, text.replace("\n", "\r\n"))
    assert minisign.verify_signature_file(PUB, MESSAGE, text.rstrip("\n"))


@pytest.mark.parametrize("bad", ["a\nb", "a\rb", "a\x00b", "end\n"], ids=["LF", "CR", "NUL", "trailing-LF"])
def test_comments_must_be_single_lines(bad: str) -> None:
    with pytest.raises(InvalidInput):
        minisign.sign_detached(SEED, MESSAGE, bad)
    with pytest.raises(InvalidInput):
        minisign.global_signature_message(bytes(64), bad)
    with pytest.raises(InvalidInput):
        minisign.sign_detached(SEED, MESSAGE, "ok", untrusted_comment=bad)
    with pytest.raises(InvalidInput):
        minisign.public_key_file(PUB, untrusted_comment=bad)


def test_signature_file_checks_the_global_signature() -> None:
    sig = ed25519.sign(SEED, MESSAGE)
    gsig = ed25519.sign(SEED, minisign.global_signature_message(sig, "one"))
    with pytest.raises(BadSignature):
        minisign.signature_file(PUB, sig, "two", gsig, untrusted_comment="x")
    with pytest.raises(InvalidInput):
        minisign.signature_file(PUB, sig[:63], "one", gsig, untrusted_comment="x")


def test_weak_keys_are_refused() -> None:
    weak = bytes(32)
    with pytest.raises(WeakKey):
        minisign.public_key_file(weak, untrusted_comment="x")
    with pytest.raises(WeakKey):
        minisign.key_id(weak)
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    with pytest.raises(WeakKey):
        minisign.verify_signature_file(weak, MESSAGE, text, expected_key_id=minisign.key_id(PUB))
    weak_pub_file = "untrusted comment: x\n" + base64.b64encode(b"Ed" + bytes(8) + weak).decode() + "\n"
    with pytest.raises(WeakKey):
        minisign.parse_public_key_file(weak_pub_file)


def _good_lines() -> list[str]:
    return minisign.sign_detached(SEED, MESSAGE, TRUSTED).split("\n")[:4]


def _with_line(index: int, value: str) -> str:
    lines = _good_lines()
    lines[index] = value
    return "\n".join(lines) + "\n"


def _retag(algorithm: bytes) -> str:
    raw = base64.b64decode(_good_lines()[1])
    return base64.b64encode(algorithm + raw[2:]).decode()


MALFORMED: dict[str, str] = {
    "empty": "",
    "three-lines": "\n".join(_good_lines()[:3]) + "\n",
    "five-lines": "\n".join([*_good_lines(), "extra"]) + "\n",
    "blank-line-at-end": "\n".join(_good_lines()) + "\n\n",
    "no-untrusted-prefix": _with_line(0, "comment: x"),
    "no-trusted-prefix": _with_line(2, "trusted: x"),
    "cr-in-trusted": _with_line(2, "trusted comment: a\rb"),
    "nul-in-trusted": _with_line(2, "trusted comment: a\x00b"),
    "bad-base64": _with_line(1, "!!!!" + _good_lines()[1][4:]),
    "base64-whitespace": _with_line(1, " " + _good_lines()[1]),
    "base64-non-ascii": _with_line(1, "\u00e9" + _good_lines()[1][1:]),
    "non-canonical-base64": _with_line(3, _good_lines()[3][:-3] + chr(ord(_good_lines()[3][-3]) + 1) + "=="),
    "short-signature-line": _with_line(1, base64.b64encode(b"Ed" + bytes(8 + 63)).decode()),
    "short-global": _with_line(3, base64.b64encode(bytes(63)).decode()),
    "unknown-algorithm": _with_line(1, _retag(b"EX")),
}


@pytest.mark.parametrize("text", list(MALFORMED.values()), ids=list(MALFORMED))
def test_malformed_signature_files(text: str) -> None:
    with pytest.raises(InvalidInput):
        minisign.parse_signature_file(text)
    with pytest.raises(InvalidInput):
        minisign.verify_signature_file(PUB, MESSAGE, text)


def test_non_canonical_base64_case_really_is_non_canonical() -> None:
    # Guard for the table above: the altered line decodes to the same length, only its unused
    # trailing bits differ.
    line = MALFORMED["non-canonical-base64"].split("\n")[3]
    assert len(base64.b64decode(line)) == 64
    assert base64.b64encode(base64.b64decode(line)).decode() != line


def test_oversized_file_is_refused_before_parsing() -> None:
    with pytest.raises(LimitExceeded):
        minisign.parse_signature_file("untrusted comment: " + "x" * (minisign.MAX_FILE_CHARS + 1))


@pytest.mark.parametrize(
    "text",
    [
        "untrusted comment: x\n",
        "untrusted comment: x\n" + base64.b64encode(b"ED" + bytes(8) + PUB).decode() + "\n",
        "untrusted comment: x\n" + base64.b64encode(b"Ed" + bytes(8) + PUB[:31]).decode() + "\n",
        "comment: x\n" + base64.b64encode(b"Ed" + bytes(8) + PUB).decode() + "\n",
    ],
    ids=["one-line", "wrong-algorithm", "short-key", "no-prefix"],
)
def test_malformed_public_key_files(text: str) -> None:
    with pytest.raises(InvalidInput):
        minisign.parse_public_key_file(text)


def test_key_id_mismatch_is_false_not_error() -> None:
    text = minisign.sign_detached(SEED, MESSAGE, TRUSTED)
    assert not minisign.verify_signature_file(PUB, MESSAGE, text, expected_key_id=bytes(8))
    with pytest.raises(InvalidInput):
        minisign.verify_signature_file(PUB, MESSAGE, text, expected_key_id=bytes(7))
