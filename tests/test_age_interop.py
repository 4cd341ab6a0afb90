"""Interoperability with the reference tool: Debian's ``age`` (1.1.x).

These tests must run in CI: a missing ``age`` binary is a failure, not a skip,
unless PBEM_ALLOW_MISSING_TOOLS=1 is set.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from pbem.crypto import age

SIZES = [0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 200 * 1024]
SIZE_IDS = ["0", "1", "64KiB-1", "64KiB", "64KiB+1", "200KiB"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"'{name}' not found on PATH: install the Debian package 'age' (apt-get install age)"
        if os.environ.get("PBEM_ALLOW_MISSING_TOOLS") == "1":
            pytest.skip(message)
        pytest.fail(message)
    return path


@pytest.fixture(scope="module")
def age_bin() -> str:
    return _tool("age")


@pytest.fixture(scope="module")
def keygen_bin() -> str:
    return _tool("age-keygen")


def plaintext(size: int) -> bytes:
    # Not all one byte value, so misplaced chunks would be noticed.
    pattern = bytes(range(251))
    return (pattern * (size // len(pattern) + 1))[:size]


def run(argv: list[str], stdin: bytes = b"") -> bytes:
    done = subprocess.run(
        argv, input=stdin, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, (
        f"{argv[0]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}"
    )
    return done.stdout


def run_with_tty(
    argv: list[str], answers: list[str], timeout: float = 120
) -> tuple[int, bytes]:
    """Run ``argv`` on a pseudo-terminal, typing each answer after each
    passphrase prompt: age reads passphrases from the terminal, not stdin."""
    pid, fd = pty.fork()
    if pid == 0:  # child
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    output = b""
    pending = list(answers)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                output += data
            prompts = output.lower().count(b"passphrase")
            if pending and prompts > len(answers) - len(pending):
                os.write(fd, pending.pop(0).encode() + b"\n")
    finally:
        os.close(fd)
    if time.monotonic() >= deadline:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output


def write_key(path: Path, identity: str) -> Path:
    path.write_text(f"# created by pbem tests\n{identity}\n")
    return path


def keygen(keygen_bin: str, tmp_path: Path, name: str) -> tuple[Path, str, str]:
    key = tmp_path / name
    run([keygen_bin, "-o", str(key)])
    text = key.read_text()
    public = next(
        line.split(": ", 1)[1]
        for line in text.splitlines()
        if line.startswith("# public key: ")
    )
    (identity,) = age.read_identity_file(text)
    return key, identity, public


# --- keys ------------------------------------------------------------------


def test_age_keygen_keys_are_accepted(keygen_bin: str, tmp_path: Path) -> None:
    _, identity, public = keygen(keygen_bin, tmp_path, "key.txt")
    assert identity.startswith("AGE-SECRET-KEY-1")
    assert age.x25519_recipient(identity) == public


def test_pbem_keys_are_accepted_by_age_keygen(keygen_bin: str, tmp_path: Path) -> None:
    identity = age.generate_x25519_identity()
    out = run([keygen_bin, "-y", str(write_key(tmp_path / "key.txt", identity))])
    assert out.decode().strip() == age.x25519_recipient(identity)


# --- X25519, one recipient, both directions ----------------------------------


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_pbem_encrypts_age_decrypts(
    age_bin: str, keygen_bin: str, tmp_path: Path, size: int
) -> None:
    key, _, public = keygen(keygen_bin, tmp_path, "key.txt")
    data = plaintext(size)
    enc = tmp_path / "file.age"
    enc.write_bytes(age.encrypt(data, [public]))
    assert run([age_bin, "-d", "-i", str(key), str(enc)]) == data


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_age_encrypts_pbem_decrypts(age_bin: str, tmp_path: Path, size: int) -> None:
    identity = age.generate_x25519_identity()
    data = plaintext(size)
    ciphertext = run([age_bin, "-r", age.x25519_recipient(identity)], stdin=data)
    assert age.decrypt(ciphertext, [identity]) == data
    file_key = age.unwrap_file_key(ciphertext, [identity])
    assert age.decrypt_with_file_key(ciphertext, file_key) == data


# --- several recipients ------------------------------------------------------


def test_pbem_encrypts_to_several_age_decrypts_with_each(
    age_bin: str, keygen_bin: str, tmp_path: Path
) -> None:
    keys = [keygen(keygen_bin, tmp_path, f"key{i}.txt") for i in range(3)]
    data = plaintext(70_000)
    enc = tmp_path / "file.age"
    enc.write_bytes(age.encrypt(data, [public for _, _, public in keys]))
    for key, _, _ in keys:
        assert run([age_bin, "-d", "-i", str(key), str(enc)]) == data


def test_age_encrypts_to_several_pbem_decrypts_with_each(age_bin: str) -> None:
    identities = [age.generate_x25519_identity() for _ in range(3)]
    argv = [age_bin]
    for identity in identities:
        argv += ["-r", age.x25519_recipient(identity)]
    data = plaintext(70_000)
    ciphertext = run(argv, stdin=data)
    for identity in identities:
        assert age.decrypt(ciphertext, [identity]) == data
    with pytest.raises(age.NoMatchError):
        age.decrypt(ciphertext, [age.generate_x25519_identity()])


# --- armor -------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_pbem_armors_age_decrypts(
    age_bin: str, keygen_bin: str, tmp_path: Path, size: int
) -> None:
    key, _, public = keygen(keygen_bin, tmp_path, "key.txt")
    data = plaintext(size)
    enc = tmp_path / "file.age"
    enc.write_bytes(age.armor(age.encrypt(data, [public])))
    assert run([age_bin, "-d", "-i", str(key), str(enc)]) == data


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_age_armors_pbem_decrypts(age_bin: str, size: int) -> None:
    identity = age.generate_x25519_identity()
    data = plaintext(size)
    armored = run([age_bin, "-a", "-r", age.x25519_recipient(identity)], stdin=data)
    assert age.is_armored(armored)
    assert age.decrypt(armored, [identity]) == data
    # Both sides produce the one canonical armor encoding.
    assert age.armor(age.dearmor(armored)) == armored


# --- passphrase (age prompts on the terminal, so drive it through a pty) -----


def test_pbem_passphrase_age_decrypts(age_bin: str, tmp_path: Path) -> None:
    data = plaintext(100_000)
    enc = tmp_path / "file.age"
    enc.write_bytes(age.encrypt_with_passphrase(data, "correct horse", work_factor=10))
    out = tmp_path / "out.bin"
    code, transcript = run_with_tty(
        [age_bin, "-d", "-o", str(out), str(enc)], ["correct horse"]
    )
    assert code == 0, transcript.decode(errors="replace")
    assert out.read_bytes() == data


def test_age_passphrase_pbem_decrypts(age_bin: str, tmp_path: Path) -> None:
    data = plaintext(1000)
    src = tmp_path / "plain.bin"
    src.write_bytes(data)
    enc = tmp_path / "file.age"
    answers = ["correct horse", "correct horse"]
    code, transcript = run_with_tty(
        [age_bin, "-p", "-a", "-o", str(enc), str(src)], answers
    )
    assert code == 0, transcript.decode(errors="replace")
    ciphertext = enc.read_bytes()
    # age picks its own work factor (18 in 1.1.x), within pbem's default limit.
    assert age.decrypt_with_passphrase(ciphertext, "correct horse") == data
    with pytest.raises(age.NoMatchError):
        age.decrypt_with_passphrase(ciphertext, "wrong horse")


# --- age rejects what pbem rejects -------------------------------------------


def test_age_rejects_pbem_file_with_flipped_payload_byte(
    age_bin: str, keygen_bin: str, tmp_path: Path
) -> None:
    key, identity, public = keygen(keygen_bin, tmp_path, "key.txt")
    ciphertext = bytearray(age.encrypt(plaintext(1000), [public]))
    ciphertext[-20] ^= 1
    enc = tmp_path / "file.age"
    enc.write_bytes(bytes(ciphertext))
    done = subprocess.run(
        [age_bin, "-d", "-i", str(key), str(enc)], capture_output=True, check=False
    )
    assert done.returncode != 0
    with pytest.raises(age.PayloadError):
        age.decrypt(bytes(ciphertext), [identity])


def test_missing_tool_fails_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI must not silently skip interop: a missing binary is a failure."""
    monkeypatch.delenv("PBEM_ALLOW_MISSING_TOOLS", raising=False)
    with pytest.raises(pytest.fail.Exception, match="install the Debian package 'age'"):
        _tool("pbem-test-no-such-tool")
    monkeypatch.setenv("PBEM_ALLOW_MISSING_TOOLS", "1")
    with pytest.raises(pytest.skip.Exception):
        _tool("pbem-test-no-such-tool")
