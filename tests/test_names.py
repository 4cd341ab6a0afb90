"""Names are data, never paths: a hostile seat name is refused before anything is written.

A stranger (eve) signs, with her own key, a single file whose seat is named
like a path, a device or with a NUL, and mails it to a player (blue) who is
in a game. Whatever command blue feeds it to, the file is refused with a
typed error and a hint; nothing is written outside blue's home and nothing in
it changes (the quarantine and evidence folders aside).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import DetRng, make_player, start_duel

from pbem.cli import cli
from pbem.errors import Equivocation, ExitCode, InvalidInput
from pbem.formats import canonical, names
from pbem.play import archive, game
from pbem.protocol import genesis, turnfile
from pbem.protocol.identity import Card, Identity, new_identity
from pbem.store import gamestore as store
from pbem.store.paths import safe_join

HOSTILE = ["../../x", "../../../../../../x", "a\x00b", "Blue", "con", "nul", "lpt1", "a/b", "x" * 33]
COMMANDS = ["recover", "archive-import", "receive", "inspect"]


# --- the grammar -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["axis", "western", "red", "france-1940", "use", "a", "x" * 32, "b2-c"])
def test_good_names(name: str) -> None:
    assert names.check_seat(name) == name
    assert names.check_name("scenario", name) == name


@pytest.mark.parametrize("name", [*HOSTILE, "", "-a", "1a", "a_b", "a.b", "é", "a b", "com9", "aux",
                                  "a\nb", "\x1b[2J", 7, b"red", None])
def test_bad_names(name: Any) -> None:
    with pytest.raises(names.InvalidName) as e:
        names.check_seat(name)
    assert isinstance(e.value, InvalidInput) and e.value.exit_code == ExitCode.INVALID
    assert "lowercase" in e.value.hint
    # the message shows the name escaped and short: no terminal control reaches the screen
    assert "\x00" not in str(e.value) and "\x1b" not in str(e.value) and len(str(e.value)) < 200


def test_safe_join_stays_in_its_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert safe_join(out, "red.pub") == out / "red.pub"
    for bad in ["../red.pub", "a/b", "..", ".hidden", "con.pub", "a\x00b", ""]:
        with pytest.raises(names.InvalidName):
            safe_join(out, bad)
    (out / "blue.pub").symlink_to(tmp_path / "victim")
    with pytest.raises(names.InvalidName):
        safe_join(out, "blue.pub")
    with pytest.raises(names.InvalidName):
        store.file_name(1, "turn", "../x")


# --- hostile files -----------------------------------------------------------------------

def forge(header: dict[str, Any], ident: Identity, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Sign a header as a modified pbem would: with every structural check switched off."""
    with monkeypatch.context() as m:
        m.setattr(turnfile, "_check_header", lambda h: None)
        return turnfile.seal(header, ident.sign)


def eve() -> Identity:
    return new_identity("Eve", "eve@example.org", rng=DetRng("eve"), now=lambda: 1.7e9)


def stranger_proposal(seat: str, victim: Card, monkeypatch: pytest.MonkeyPatch, game_id: bytes | None = None
                      ) -> bytes:
    """A proposal by eve giving the victim a seat; eve's own seat is ``seat``."""
    ev = eve()
    good = genesis.make_proposal(ev, rules_name="duel", scenario="standard", my_seat="red",
                                 cards={"red": ev.card(), "blue": victim}, options={},
                                 rng=DetRng("eve game"), now=1_700_000_000)
    h = dict(turnfile.parse(good).header)
    h["author"] = seat
    h["cards"] = {seat: ev.card().to_bytes(), "blue": victim.to_bytes()}
    if game_id is not None:
        h["game"] = game_id
    return forge(h, ev, monkeypatch)


def listing(root: Path) -> dict[str, str]:
    """Every folder, file and link under ``root`` with a hash of its content (quarantine and evidence aside)."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            rel = str(p.relative_to(root))
            if {"quarantine", "evidence"} & set(Path(rel).parts):
                continue
            if p.is_symlink():
                out[rel] = "link " + os.readlink(p)
            elif p.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


class Home:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / name
        self.name = name

    def __call__(self, *args: str, ok: bool = True) -> Result:
        r = CliRunner().invoke(cli, ["--home", str(self.dir), *args], env={"PBEM_PASSPHRASE": f"pass-{self.name}"})
        if ok:
            assert r.exit_code == 0, f"{args}: {r.output}"
        return r


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """red and blue (the victim) in a started game, through the command line."""
    root = tmp_path_factory.mktemp("names")
    red, blue = Home(root, "red"), Home(root, "blue")
    for h in (red, blue):
        h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org", "--work-factor", "10")
    blue("key", "card", "-o", str(root / "blue.card"))
    red("game", "new", "--rules", "duel", "--scenario", "standard", "--seat", "red=me",
        "--seat", f"blue={root / 'blue.card'}")
    proposal = next((root / "red" / "data" / "games").glob("*/outbox/*.pbem"))
    blue("game", "join", str(proposal), "--yes")
    red("receive", str(next((root / "blue" / "data" / "games").glob("*/outbox/*.pbem"))))
    blue("status")  # takes the home lock once: its (empty) lock file exists from here on
    return root


@pytest.fixture
def world(base: Path, tmp_path: Path) -> Iterator[tuple[Path, Home, Card]]:
    root = tmp_path / "w"
    shutil.copytree(base, root, symlinks=True)
    yield root, Home(root, "blue"), Card.from_text((root / "blue.card").read_bytes())


def mail_to_maildir(maildir: Path, data: bytes) -> None:
    for d in ("new", "cur", "tmp"):
        (maildir / d).mkdir(parents=True, exist_ok=True)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "eve@example.org", "blue@example.org", "pbem: your move"
    msg.set_content("your move")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename="turn.pbem")
    (maildir / "new" / "1800000000.1.host").write_bytes(msg.as_bytes())


def game_of(data: bytes) -> bytes:
    """The game id of a file, read without any check (as a stranger's tool would)."""
    outer = canonical.decode(data[len(turnfile.MAGIC):])
    return bytes(canonical.decode(outer["body"])["game"])


def hostile_args(command: str, root: Path, data: bytes) -> list[str]:
    """Put the stranger's file where ``command`` takes it from; the command line to run."""
    inbox = root / "inbox"
    inbox.mkdir()
    if command == "recover":
        mail_to_maildir(inbox / "Maildir", data)
        return ["recover", "--maildir", str(inbox / "Maildir")]
    if command == "archive-import":
        arch = archive.MAGIC + canonical.encode({"game": game_of(data), "rules": "duel", "scenario": "standard",
                                                 "files": [data]})
        (inbox / "game.pbem-archive").write_bytes(arch)
        return ["archive", "import", str(inbox / "game.pbem-archive")]
    (inbox / "turn.pbem").write_bytes(data)
    if command == "receive":
        return ["receive", str(inbox / "turn.pbem")]
    return ["inspect", str(inbox / "turn.pbem"), "--minisign", str(root / "out")]


@pytest.mark.parametrize("seat", HOSTILE)
@pytest.mark.parametrize("command", COMMANDS)
def test_hostile_seat_name_is_refused_and_nothing_changes(
        world: tuple[Path, Home, Card], command: str, seat: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root, blue, card = world
    args = hostile_args(command, root, stranger_proposal(seat, card, monkeypatch))
    before = listing(root.parent)
    r = blue(*args, ok=False)
    assert r.exit_code == ExitCode.INVALID, r.output
    assert "seat name" in r.output and "pbem: hint:" in r.output and "internal error" not in r.output
    assert listing(root.parent) == before


@pytest.mark.parametrize("same_game", [False, True])
def test_recover_rebuilds_the_real_game_and_names_the_strangers_mail(
        world: tuple[Path, Home, Card], monkeypatch: pytest.MonkeyPatch, same_game: bool) -> None:
    """One stranger's mail in the Maildir neither escapes the home nor stops the recovery of the real game.

    With ``same_game`` the stranger copies the game id (it travels in the clear)
    into a proposal of its own, whose seat name sorts before the host's.
    """
    root, blue, card = world
    (gdir,) = (root / "blue" / "data" / "games").iterdir()
    shutil.rmtree(gdir)
    maildir = root / "Maildir"
    for i, f in enumerate(sorted((root / "red" / "data" / "games" / gdir.name / "files").iterdir())):
        mail_to_maildir(maildir, f.read_bytes())
        os.rename(maildir / "new" / "1800000000.1.host", maildir / "new" / f"1800000000.{i + 2}.host")
    forged = (stranger_proposal("a", card, monkeypatch, bytes.fromhex(gdir.name)) if same_game
              else stranger_proposal("../../../../../../x", card, monkeypatch))
    mail_to_maildir(maildir, forged)
    before = listing(root.parent)
    r = blue("recover", "--maildir", str(maildir), ok=False)
    assert r.exit_code == ExitCode.INVALID, r.output
    assert f"{gdir.name[:12]}: rebuilt from 2 files" in r.output
    why = "a second proposal" if same_game else "seat name"
    assert re.search(rf"maildir 1800000000\.1\.host part \d+: refused: {why}", r.output), r.output
    after = listing(root.parent)
    new = {k for k in after if k not in before}
    assert new and all(k.startswith(f"w/blue/data/games/{gdir.name}") for k in new), new
    assert "ok" in blue("verify", gdir.name).output


def test_inspect_minisign_does_not_follow_a_planted_link(world: tuple[Path, Home, Card]) -> None:
    root, blue, _ = world
    (proposal,) = (root / "red" / "data" / "games").glob("*/files/000000-proposal-red.pbem")
    outside = root / "precious.txt"
    outside.write_text("keep me")
    out = root / "out"
    out.mkdir()
    (out / "red.pub").symlink_to(outside)
    before = listing(root.parent)
    r = blue("inspect", str(proposal), "--minisign", str(out), ok=False)
    assert r.exit_code == ExitCode.INVALID and "pbem: hint:" in r.output, r.output
    assert listing(root.parent) == before and outside.read_text() == "keep me"
    (out / "red.pub").unlink()
    blue("inspect", str(proposal), "--minisign", str(out))
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["000000-proposal-red.pbem.signed", "000000-proposal-red.pbem.signed.minisig", "red.pub"])


def test_seat_on_the_command_line(world: tuple[Path, Home, Card]) -> None:
    root, blue, _ = world
    for seat in ("Red", "con", "../x", "a\x00b"):
        r = blue("game", "new", "--rules", "duel", "--scenario", "standard", "--seat", f"{seat}=me",
                 "--seat", f"blue={root / 'blue.card'}", ok=False)
        assert r.exit_code == ExitCode.INVALID, r.output
        assert "--seat" in r.output and "pick a name like that" in r.output


# --- every name field of a file, at parse time ------------------------------------------

@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("genuine")
    red, blue, gid = start_duel(tmp)
    gs = store.game_dir(red.home, gid)
    f, _ = game.play(red.session, gs, "roll\nseal 1\n")
    return {"red": red, "blue": blue, "gid": gid, "proposal": gs.find(0, "proposal")[0].read(), "turn": f.raw}


@pytest.mark.parametrize("field", ["author", "cards", "rules", "scenario", "private"])
@pytest.mark.parametrize("bad", ["../x", "a\x00b", "Red", "con"])
def test_every_name_field_is_checked_at_parse(genuine: dict[str, Any], field: str, bad: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    red = genuine["red"]
    kind = "turn" if field == "private" else "proposal"
    h = dict(turnfile.parse(genuine[kind]).header)
    if field in ("cards", "private"):
        h[field] = {(bad if k == "blue" else k): v for k, v in h[field].items()}
    else:
        h[field] = bad
    data = forge(h, red.session.ident, monkeypatch)
    with pytest.raises(names.InvalidName, match=r"name .* is not allowed"):
        turnfile.parse(data)
    with pytest.raises(names.InvalidName):
        game.receive(genuine["blue"].session, data)


def test_two_files_at_one_place_in_an_archive_are_equivocation(tmp_path: Path) -> None:
    """Two different files signed by one seat for one place are proof, not a crash on the second write."""
    red, blue, gid = start_duel(tmp_path)
    gs = store.game_dir(red.home, gid)
    d = game.load(red.session, gs)
    one = game.produce_turn(red.session, gs, d, "roll\n")
    two = game.produce_turn(red.session, gs, game.load(red.session, gs), "seal 2\n")
    assert one != two
    files = [sf.read() for sf in gs.files()]
    (data,) = archive.from_files([*files, one, two]).values()
    obs = make_player(tmp_path, "observer")
    before = listing(tmp_path)
    with pytest.raises(Equivocation):
        archive.import_archive(obs.session, data)
    assert listing(tmp_path) == before
