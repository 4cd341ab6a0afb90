"""The command line: `game join` shows the host's options and asks for them to be accepted;
`game end` proposes, answers, concedes and reveals; `key` warns about a weak passphrase."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli
from pbem.errors import ExitCode


class Home:
    def __init__(self, root: Path, name: str, passphrase: str = "") -> None:
        self.dir = root / name
        self.name = name
        self.passphrase = passphrase or f"a long passphrase of {name}"
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True, env: dict[str, str] | None = None,
                 input: str | None = None) -> Result:
        r = self.runner.invoke(cli, ["--home", str(self.dir), *args], input=input,
                               env={"PBEM_PASSPHRASE": self.passphrase, **(env or {})})
        if ok:
            assert r.exit_code == 0, f"{args}: {r.output}"
        return r

    def new_key(self) -> Result:
        return self("key", "new", "--name", self.name.title(), "--email", f"{self.name}@example.org",
                    "--work-factor", "10")


def _last_outbox(h: Home) -> Path:
    files = sorted((h.dir / "data" / "games").glob("*/outbox/*.pbem"), key=lambda p: p.stat().st_mtime_ns)
    return files[-1]


def _propose(tmp_path: Path, *options: str) -> tuple[Home, Home, str, Path, str]:
    red, blue = Home(tmp_path, "red"), Home(tmp_path, "blue")
    red.new_key()
    blue.new_key()
    card = tmp_path / "blue.card"
    blue("key", "card", "-o", str(card))
    opts = [x for o in options for x in ("--option", o)]
    r = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
            "--seat", f"blue={card}", *opts)
    m = re.search(r"game ([0-9a-f]{32}) proposed", r.output)
    assert m
    return red, blue, m.group(1), _last_outbox(red), red("key", "fingerprint").output.strip()


def test_join_shows_the_options_and_needs_them_accepted(tmp_path: Path) -> None:
    red, blue, gid, proposal, fpr = _propose(tmp_path, "strict_dice=false", "dice_window=16")
    r = blue("game", "join", str(proposal), "--expect", f"red={fpr}", ok=False)
    assert r.exit_code == ExitCode.USAGE
    assert "WINDOW dice" in r.output and "foresee its own rolls" in r.output
    assert "dice_window: 16" in r.output and "dice_depth:" in r.output
    assert "--accept-options" in r.output
    assert not (blue.dir / "data" / "games").exists() or not list((blue.dir / "data" / "games").iterdir())
    r = blue("game", "join", str(proposal), "--expect", f"red={fpr}", "--accept-options", "--outbox")
    assert "joined as blue" in r.output


def test_join_asks_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.cli.games as games

    red, blue, gid, proposal, fpr = _propose(tmp_path)
    monkeypatch.setattr(games, "_interactive", lambda: True)
    r = blue("game", "join", str(proposal), "--expect", f"red={fpr}", "--outbox", input="n\n", ok=False)
    assert "strict dice" in r.output and "accept these game options" in r.output and r.exit_code != 0
    r = blue("game", "join", str(proposal), "--expect", f"red={fpr}", "--outbox", input="y\n")
    assert "joined as blue" in r.output


def test_end_by_agreement_on_the_command_line(tmp_path: Path) -> None:
    red, blue, gid, proposal, fpr = _propose(tmp_path)
    blue("game", "join", str(proposal), "--expect", f"red={fpr}", "--yes", "--outbox")
    red("receive", str(_last_outbox(blue)))
    r = red("game", "end", gid, ok=False)
    assert r.exit_code == ExitCode.STATE and "--propose" in r.output and "--concede" in r.output
    assert "cannot go on" in red("game", "end", "--help").output
    r = red("game", "end", gid, "--agree", "--outbox")
    assert "end proposal written" in r.output and "next: blue: end answer" in r.output
    blue("receive", str(_last_outbox(red)))
    r = blue("game", "end", gid, "--agree", "--outbox")
    assert "every seat has agreed" in r.output
    red("receive", str(_last_outbox(blue)))
    r = red("game", "end", gid, "--outbox")
    assert "reveal written (agreed)" in r.output and "result: ended by agreement" in r.output
    blue("receive", str(_last_outbox(red)))
    assert "reveal written (agreed)" in blue("game", "end", gid, "--outbox").output


def test_concede_on_the_command_line(tmp_path: Path) -> None:
    red, blue, gid, proposal, fpr = _propose(tmp_path)
    blue("game", "join", str(proposal), "--expect", f"red={fpr}", "--yes", "--outbox")
    red("receive", str(_last_outbox(blue)))
    r = blue("game", "end", gid, "--concede", "--outbox")
    assert "reveal written (conceded)" in r.output and "result: blue conceded" in r.output
    r = blue("game", "end", gid, "--propose", "--concede", ok=False)
    assert r.exit_code == ExitCode.USAGE


@pytest.mark.parametrize("weak", ["short1", "password123!", "alllowercaseletters", "12345678901234"])
def test_key_new_warns_about_a_weak_passphrase(tmp_path: Path, weak: str) -> None:
    h = Home(tmp_path, "red", passphrase=weak)
    r = h.new_key()
    assert "pbem: warning: weak passphrase" in r.stderr
    assert "identity created" in r.stdout  # a warning, not a refusal


def test_strong_passphrases_get_no_warning(tmp_path: Path) -> None:
    for i, good in enumerate(["correct horse battery staple", "Tr0ub4dor&3xyzw", "averylongpassphraseofletters"]):
        r = Home(tmp_path, f"p{i}", passphrase=good).new_key()
        assert "warning" not in r.stderr


def test_key_passphrase_changes_it_and_warns(tmp_path: Path) -> None:
    h = Home(tmp_path, "red")
    h.new_key()
    fpr = h("key", "fingerprint").output
    r = h("key", "passphrase", "--work-factor", "10", env={"PBEM_NEW_PASSPHRASE": "qwerty"})
    assert "passphrase changed" in r.stdout and "weak passphrase" in r.stderr and "guessing tool" in r.stderr
    r = h("key", "export-age", "--secret", ok=False)
    assert r.exit_code == ExitCode.AUTH  # the old passphrase no longer opens it
    h.passphrase = "qwerty"
    assert h("key", "fingerprint").output == fpr
    assert "AGE-SECRET-KEY-" in h("key", "export-age", "--secret").output
