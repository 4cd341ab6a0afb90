"""Each kind of bad input gets its own typed error, exit code and hint, and changes nothing."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import start_duel
from toygame import DUEL

from pbem.cli import cli
from pbem.crypto import age
from pbem.errors import (
    BadSignature,
    BrokenChain,
    ExitCode,
    IllegalOrder,
    InvalidInput,
    InvalidOrder,
    LimitExceeded,
    OrderErrors,
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


# --- every error class: its exit code and default hint as docs/cli.md gives them -----------------

def _documented() -> dict[str, tuple[str, str]]:
    """docs/cli.md's table of error classes: class -> (code, default hint)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| (.+) \|$", text, re.M)
    return {name: (code.strip(), hint.strip()) for name, code, hint in rows}


def _classes() -> dict[str, type[PbemError]]:
    import pbem.errors as errors

    return {n: c for n, c in inspect.getmembers(errors, inspect.isclass)
            if issubclass(c, PbemError) and c.__module__ == errors.__name__}


def test_every_error_class_is_in_the_docs_table_and_only_those() -> None:
    assert sorted(_documented()) == sorted(_classes())


CODE_NAMES = {"generic": 1, "usage": 2, "invalid": 3, "illegal": 4, "ambiguous": 5, "auth": 6, "chain": 7,
              "equivocation": 8, "unsupported": 9, "not found": 10, "mail": 11, "state": 12, "limit": 13}


@pytest.mark.parametrize("name", sorted(_classes()))
def test_error_class_code_and_hint_agree_with_docs(name: str) -> None:
    cls = _classes()[name]
    code, hint = _documented()[name]
    if cls is OrderErrors:  # carries the first error's code and hint
        e = OrderErrors([IllegalOrder("no", rule="1.2"), InvalidOrder("bad")])
        assert (e.exit_code, e.hint) == (ExitCode.ILLEGAL, IllegalOrder.default_hint)
        assert code == hint == "the first error's"
        return
    assert str(cls.exit_code) == code and cls.default_hint == hint
    assert cls.exit_code in CODE_NAMES.values()
    made = cls("m", rule="1.2") if cls is IllegalOrder else cls("m")
    assert made.exit_code == cls.exit_code and made.hint == hint


def test_exit_code_names_agree_with_docs() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = dict((name, int(code)) for code, name in re.findall(r"^\| (\d+) \| ([a-z ]+) \|", text, re.M))
    assert {k: v for k, v in rows.items() if k in CODE_NAMES} == CODE_NAMES
    for k, v in CODE_NAMES.items():
        assert getattr(ExitCode, k.upper().replace(" ", "_")) == v


# --- the command line's refusals that once had the wrong code or hint ----------------------------

def _pbem(home: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, [*args, "--home", str(home)], env={"PBEM_PASSPHRASE": "pw-long-enough",
                                                                     **(env or {})})


def _lines(r: Result) -> tuple[str, str]:
    err = [x for x in r.output.splitlines() if x.startswith("pbem: ")]
    error = next(x for x in err if x.startswith("pbem: error: "))
    hint = next(x for x in err if x.startswith("pbem: hint: "))
    return error, hint


def test_verify_without_a_game_is_a_usage_error(tmp_path: Path) -> None:
    r = _pbem(tmp_path / "h", "verify")
    assert r.exit_code == ExitCode.USAGE, r.output
    error, hint = _lines(r)
    assert "name a GAME or pass --all" in error and "malformed" not in hint


def test_missing_passphrase_file_names_the_option(tmp_path: Path) -> None:
    home = tmp_path / "h"
    r = _pbem(home, "key", "new", "--name", "A", "--email", "a@example.org", "--work-factor", "10",
              "--passphrase-file", str(tmp_path / "nope.txt"))
    assert r.exit_code == ExitCode.NOT_FOUND, r.output
    error, hint = _lines(r)
    assert "passphrase file" in error and "--passphrase-file" in hint and "pbem status" not in hint


def test_identity_already_exists_is_a_state_error(tmp_path: Path) -> None:
    home = tmp_path / "h"
    args = ("key", "new", "--name", "A", "--email", "a@example.org", "--work-factor", "10")
    assert _pbem(home, *args).exit_code == 0
    r = _pbem(home, *args)
    assert r.exit_code == ExitCode.STATE, r.output
    assert "already exists" in _lines(r)[0] and "--home" in _lines(r)[1]


def test_join_fingerprint_mismatch_and_unconfirmed(tmp_path: Path) -> None:
    red, blue = tmp_path / "red", tmp_path / "blue"
    for h, n in ((red, "Red"), (blue, "Blue")):
        assert _pbem(h, "key", "new", "--name", n, "--email", f"{n}@example.org", "--work-factor", "10").exit_code == 0
    card = tmp_path / "blue.card"
    _pbem(blue, "key", "card", "-o", str(card))
    r = _pbem(red, "game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
              "--seat", f"blue={card}", "--outbox")
    assert r.exit_code == 0, r.output
    proposal = next((red / "data" / "games").glob("*/outbox/*.pbem"))
    r = _pbem(blue, "game", "join", str(proposal), "--expect", "red=SHA256:wrong", "--accept-options")
    assert r.exit_code == ExitCode.AUTH, r.output
    assert "not the expected" in _lines(r)[0] and "do not join" in _lines(r)[1]
    r = _pbem(blue, "game", "join", str(proposal), "--accept-options")
    assert r.exit_code == ExitCode.USAGE, r.output
    assert "not confirmed" in _lines(r)[0] and "--expect" in _lines(r)[1]


def test_global_options_after_the_command(tmp_path: Path) -> None:
    home = tmp_path / "h"
    r = CliRunner().invoke(cli, ["key", "new", "--name", "A", "--email", "a@example.org", "--work-factor", "10",
                                 f"--home={home}"], env={"PBEM_PASSPHRASE": "pw-long-enough"})
    assert r.exit_code == 0 and (home / "config").is_dir(), r.output
    r = CliRunner().invoke(cli, ["status", "--home", str(home)])
    assert r.exit_code == 0 and "no games yet" in r.output, r.output
    assert "pbem: error" not in r.output


def test_receive_names_each_file_once_and_refusals_on_stderr(tmp_path: Path) -> None:
    from pbem.protocol.identity import save_identity
    from pbem.store.fsutil import atomic_write

    red, blue, gid, raw = _turn(tmp_path)
    save_identity(blue.session.ident, blue.home.identity_file, "pw-blue", work_factor=10)
    atomic_write(blue.home.card_file, blue.card.to_text().encode())
    good, junk = tmp_path / "turn1.pbem", tmp_path / "junk.pbem"
    good.write_bytes(raw)
    junk.write_bytes(b"hello")
    r = CliRunner().invoke(cli, ["receive", str(good), str(junk), "--home", str(blue.home.config.parent)],
                           env={"PBEM_PASSPHRASE": "pw-blue"})
    assert r.exit_code == ExitCode.INVALID, r.output
    assert r.stdout.count("turn1.pbem") == 1 and "junk" not in r.stdout, r.stdout
    assert r.stderr.count("junk.pbem") == 1 and "turn1" not in r.stderr, r.stderr
    refusal = next(x for x in r.stderr.splitlines() if "junk.pbem" in x).split("refused: ", 1)[1]
    assert r.output.count(refusal.split(": ", 1)[1]) == 1  # the closing error does not repeat it
    assert "pbem: error: 1 of 2 files refused" in r.stderr


@pytest.mark.parametrize(("args", "message", "where"), [
    (["play"], "Missing argument 'GAME'", "pbem play"),
    (["frobnicate"], "No such command 'frobnicate'", "pbem"),
    (["status", "--bogus"], "No such option '--bogus'", "pbem status"),
])
def test_click_usage_errors_read_like_every_other_error(tmp_path: Path, args: list[str], message: str,
                                                        where: str) -> None:
    """A command line click refuses gets pbem's two lines and exit code 2 (docs/cli.md), not click's
    own three-line form."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home")}
    r = subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [f"pbem: error: {message}.",
                                     f"pbem: hint: run '{where} --help' to see its arguments and options"]
