"""The command line end to end: two homes, genesis, join, three turns, verify."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli
from pbem.errors import ExitCode


class Home:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / name
        self.name = name
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True) -> Result:
        r = self.runner.invoke(cli, ["--home", str(self.dir), *args],
                               env={"PBEM_PASSPHRASE": f"pass-{self.name}"})
        if ok:
            assert r.exit_code == 0, f"{args}: {r.output}{r.stderr if r.stderr_bytes else ''}"
        return r


def _last_outbox(h: Home) -> Path:
    files = sorted((h.dir / "data" / "games").glob("*/outbox/*.pbem"), key=lambda p: p.stat().st_mtime_ns)
    return files[-1]


@pytest.fixture
def two(tmp_path: Path) -> tuple[Home, Home, str]:
    red, blue = Home(tmp_path, "red"), Home(tmp_path, "blue")
    for h in (red, blue):
        r = h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org", "--work-factor", "10")
        assert "fingerprint: SHA256:" in r.output
    blue_card = tmp_path / "blue.card"
    blue("key", "card", "-o", str(blue_card))
    # the duel rolls freely: window dice mode (strict, the default, is tested in test_fair_dice.py)
    r = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
            "--seat", f"blue={blue_card}", "--option", "strict_dice=false")
    gid = re.search(r"game ([0-9a-f]{32}) proposed", r.output)
    assert gid
    proposal = _last_outbox(red)
    red_fpr = red("key", "fingerprint").output.strip()
    r = blue("game", "join", str(proposal), "--expect", f"red={red_fpr}", "--accept-options")
    assert "(checked)" in r.output
    red("receive", str(_last_outbox(blue)))
    return red, blue, gid.group(1)


def test_status_needs_no_unlock_while_the_cache_is_current(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    """cache.bin holds public state only, so `status` reads it without the passphrase (issue 8, point 6)."""
    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid[:8], "--orders", str(orders))
    blue("receive", str(_last_outbox(red)))
    r = blue.runner.invoke(cli, ["--home", str(blue.dir), "status"], env={"PBEM_PASSPHRASE": "wrong"})
    assert r.exit_code == 0, r.output
    assert "YOUR MOVE" in r.output
    (next((blue.dir / "data" / "games").glob("*/cache.bin"))).unlink()  # stale: now it must unlock
    r = blue.runner.invoke(cli, ["--home", str(blue.dir), "status"], env={"PBEM_PASSPHRASE": "wrong"})
    assert r.exit_code != 0


def test_two_homes_three_turns_verify(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    red, blue, gid = two
    assert "YOUR MOVE" in red("status").output
    assert "waiting for file 1 from red" in blue("status").output
    orders = tmp_path / "o.txt"
    for player, other, text in [(red, blue, "roll\nseal 2\n"), (blue, red, "roll\n"), (red, blue, "open\n")]:
        orders.write_text(text)
        player("orders", "check", gid[:8], "--orders", str(orders))
        r = player("play", gid[:8], "--orders", str(orders))
        assert "turn file" in r.output
        r = other("receive", str(_last_outbox(player)))
        assert "added" in r.output
    for h in (red, blue):
        r = h("verify", gid)
        assert "ok" in r.output
        assert "ok" in h("verify", "--all").output
    # a third identity with no seat reads nothing
    eve = Home(tmp_path, "eve")
    eve("key", "new", "--name", "Eve", "--email", "eve@example.org", "--work-factor", "10")
    r = eve("receive", str(_last_outbox(red)), ok=False)
    assert r.exit_code == ExitCode.CHAIN
    assert "pbem: hint:" in r.output


def test_errors_have_hints_and_codes(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("open\n")
    r = red("play", gid, "--orders", str(orders), ok=False)
    assert r.exit_code == ExitCode.ILLEGAL
    assert "pbem: error:" in r.output and "[Duel 3]" in r.output and "pbem: hint:" in r.output
    orders.write_text("fly\n")
    r = red("orders", "check", gid, "--orders", str(orders), ok=False)
    assert r.exit_code == ExitCode.INVALID and "line 1, column 1" in r.output
    orders.write_text("roll\n")
    r = blue("play", gid, "--orders", str(orders), ok=False)
    assert r.exit_code == ExitCode.STATE
    junk = tmp_path / "junk.pbem"
    junk.write_bytes(b"hello")
    r = red("receive", str(junk), ok=False)
    assert r.exit_code == ExitCode.INVALID
    r = Home(tmp_path, "nobody")("status", ok=False)
    assert r.exit_code == ExitCode.NOT_FOUND
    r = red("play", "ffff", "--orders", str(orders), ok=False)
    assert r.exit_code == ExitCode.NOT_FOUND


def test_wrong_passphrase(two: tuple[Home, Home, str]) -> None:
    red, _, gid = two
    # `status` needs no unlock; `show` (the private view) does
    r = red.runner.invoke(cli, ["--home", str(red.dir), "show", gid[:8]], env={"PBEM_PASSPHRASE": "nope"})
    assert r.exit_code == ExitCode.AUTH
    assert "wrong passphrase" in r.output


def test_inspect_and_raw_part_opens_with_age_module(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    from pbem.crypto import age

    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid, "--orders", str(orders))
    f = _last_outbox(red)
    assert '"kind": "turn"' in red("inspect", str(f)).output
    r = red.runner.invoke(cli, ["--home", str(blue.dir), "inspect", str(f), "--part", "blue", "--raw"])
    assert r.exit_code == 0
    key = blue("key", "export-age", "--secret").output
    ident = [ln for ln in key.splitlines() if ln.startswith("AGE-SECRET-KEY-1")]
    assert age.decrypt(r.stdout_bytes, ident)


def _need(tool: str) -> str:
    import os
    import shutil

    path = shutil.which(tool)
    if path is None:
        if os.environ.get("PBEM_ALLOW_MISSING_TOOLS") == "1":
            pytest.skip(f"{tool} not installed")
        pytest.fail(f"the Debian package '{tool}' is needed for this interop test: apt-get install {tool}")
    return path


def test_stock_tools_open_and_check_a_turn_file(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    """A turn file's part opens with the stock age tool; its signature checks with stock minisign."""
    import subprocess

    from pbem.formats import padding

    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("roll\nseal 3\n")
    red("play", gid, "--orders", str(orders))
    f = _last_outbox(red)
    # age: blue extracts the public part and opens it with its exported secret key
    part = tmp_path / "public.age"
    r = blue.runner.invoke(cli, ["--home", str(blue.dir), "inspect", str(f), "--part", "public", "--raw"])
    part.write_bytes(r.stdout_bytes)
    keyfile = tmp_path / "blue.key"
    keyfile.write_text(blue("key", "export-age", "--secret").output)
    out = subprocess.run([_need("age"), "-d", "-i", str(keyfile), str(part)], capture_output=True, check=True)
    assert padding.unpad(out.stdout, "public part")  # canonical msgpack of the public payload, padded
    # red's private part is not for blue
    r = blue.runner.invoke(cli, ["--home", str(blue.dir), "inspect", str(f), "--part", "red", "--raw"])
    part.write_bytes(r.stdout_bytes)
    bad = subprocess.run([_need("age"), "-d", "-i", str(keyfile), str(part)], capture_output=True)
    assert bad.returncode != 0
    # minisign: export the signature from blue's home (which knows red's card) and check it
    outdir = tmp_path / "ms"
    r = blue("inspect", str(f), "--minisign", str(outdir))
    pub = outdir / "red.pub"
    msg = outdir / f"{f.name}.signed"
    ok = subprocess.run([_need("minisign"), "-V", "-p", str(pub), "-m", str(msg)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "seq=1 author=red" in ok.stdout
    data = bytearray(msg.read_bytes())
    data[-1] ^= 1
    msg.write_bytes(bytes(data))
    bad2 = subprocess.run([_need("minisign"), "-V", "-p", str(pub), "-m", str(msg)], capture_output=True)
    assert bad2.returncode != 0


def test_end_export_observer_verify(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("seal 2\nroll\n")
    red("play", gid, "--orders", str(orders))
    blue("receive", str(_last_outbox(red)))
    r = red("game", "end", gid, ok=False)
    assert r.exit_code == ExitCode.STATE and "--propose" in r.output
    # ending by agreement: blue (whose move it is) proposes, red accepts, then both reveal
    blue("game", "end", gid, "--agree")
    red("receive", str(_last_outbox(blue)))
    red("game", "end", gid, "--agree")
    blue("receive", str(_last_outbox(red)))
    red("game", "end", gid)
    blue("receive", str(_last_outbox(red)))
    assert "waiting for reveals from blue" in blue("status").output
    blue("game", "end", gid)
    red("receive", str(_last_outbox(blue)))
    assert "no violation" in red("verify", gid).output
    arc = tmp_path / "game.pbemarchive"
    red("archive", "export", gid, "-o", str(arc))
    obs = Home(tmp_path, "obs")
    obs("key", "new", "--name", "Obs", "--email", "obs@example.org", "--work-factor", "10")
    assert "as an observer" in obs("archive", "import", str(arc)).output
    assert "no violation" in obs("verify", gid).output


def test_equivocation_proof_bundle(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    from pbem.protocol import turnfile

    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid, "--orders", str(orders))
    good = _last_outbox(red)
    blue("receive", str(good))
    # red's modified client signs a second, different file 1
    from pbem.protocol.identity import load_identity

    ident = load_identity(red.dir / "config" / "identity.age", "pass-red")
    h = dict(turnfile.parse(good.read_bytes()).header)
    h["time"] += 5
    evil = tmp_path / "evil.pbem"
    evil.write_bytes(turnfile.seal(h, ident.sign))
    r = blue("receive", str(evil), ok=False)
    assert r.exit_code == ExitCode.EQUIVOCATION
    bundle = tmp_path / "proof.bin"
    blue("verify", gid, "--proof", str(bundle))
    r = Home(tmp_path, "judge")("check-proof", str(bundle))
    assert "EQUIVOCATION proven: seat red" in r.output


def test_history_and_show(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    red, blue, gid = two
    orders = tmp_path / "o.txt"
    orders.write_text("roll\n")
    red("play", gid, "--orders", str(orders))
    out = tmp_path / "h.html"
    assert "history written" in red("archive", "history", gid, "-o", str(out)).output
    assert out.read_text().startswith("<!DOCTYPE html>")
    page = tmp_path / "s.html"
    red("show", gid, "--html", "-o", str(page))
    assert "private view" in page.read_text()
    assert "waiting for" in red("show", gid).output.lower()


def test_interactive_orders_prompt(two: tuple[Home, Home, str], tmp_path: Path) -> None:
    red, blue, gid = two
    out = tmp_path / "typed.txt"
    r = red.runner.invoke(cli, ["--home", str(red.dir), "orders", "prompt", gid, "-o", str(out), "--play"],
                          env={"PBEM_PASSPHRASE": "pass-red"}, input="open\nroll\nseal 2\n\n")
    assert r.exit_code == 0, r.output
    assert "refused" in r.output and "[Duel 3]" in r.output  # 'open' with nothing sealed
    assert out.read_text() == "roll\nseal 2\n"
    assert "turn file 1 written" in r.output
