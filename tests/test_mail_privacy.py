"""Mail privacy is chosen, not assumed (issue 8, point 8; docs/protocol.md §7a).

A USE France 1940 file that declares a combat with a sealed Will Commit is
mailed in "notice" mode: the whole .eml (headers, text, and the attached file's
bytes outside its age ciphertexts) holds no phase name, hex number, unit name
or commitment label or context: every such string of the file's decrypted
public part is searched for. In "summary" mode the public summary is there, by
choice. The phase and the commitments' labels and contexts now travel in the
encrypted public part, and the receiver still checks them there.
"""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import Player, deliver, demo_turns, make_player, start_france_1940

from pbem.crypto import age
from pbem.errors import InvalidInput
from pbem.formats import canonical, padding
from pbem.mail import dispatch
from pbem.mail.compose import to_eml
from pbem.mail.config import BodySetting, MailConfigError, body_setting, parse_config
from pbem.play import game
from pbem.protocol import turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_HEX = re.compile(r"\b\d{4}\b")
_UNIT = re.compile(r"\b[A-Z]{2,4}-[A-Za-z0-9]+\b")


@pytest.fixture(scope="module")
def will_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Player], game.Derived, turnfile.SignedFile]:
    """Plays the demo script until the Axis file that attacks with a sealed Will Commit."""
    players, gid = start_france_1940(tmp_path_factory.mktemp("privacy"))
    for seat, text in demo_turns(players, gid):
        f, d = deliver(players, gid, seat, text)
        if any(c["label"] == "will-commit" for c in _public(d, f)["commits"]):
            return players, d, f
    raise AssertionError("the demo script seals no Will Commit")


def _public(d: game.Derived, f: turnfile.SignedFile) -> Any:
    return d.keyring.open(f"{f.seq}/public", f.header["public"], f"the public part of file {f.seq}")


def _strings(x: Any) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def _needles(pub: dict[str, Any], seats: list[str]) -> set[str]:
    """What the public part says about the game: phase, labels, contexts, hexes, units, every longer string."""
    texts = _strings(pub)
    out = {pub["phase"]}
    for c in pub["commits"]:
        out |= {c["label"], c["ctx"], c["ctx"].split(":", 1)[1]}
    for t in texts:
        out |= set(_HEX.findall(t)) | set(_UNIT.findall(t))
        if len(t) >= 5:
            out.add(t)
    # Seat names are the envelope's by design (the attachment's name, the message id).
    return {n for n in out if n.lower() not in seats and _TOKEN.findall(n)}


def _found(needle: str, hay: list[str]) -> bool:
    """Token-wise: a hex "1610" is found as a word, never inside a hash's hex digits."""
    want = [t.lower() for t in _TOKEN.findall(needle)]
    n = len(want)
    return any(hay[i:i + n] == want for i in range(len(hay) - n + 1))


def _clear_bytes(f: turnfile.SignedFile) -> bytes:
    """The file's bytes with every age ciphertext cut out: what anyone without a key can read."""
    raw = f.raw
    for blob in [f.header["public"], *f.header["private"].values()]:
        assert raw.count(blob) == 1
        raw = raw.replace(blob, b"")
    return raw


def _eml_clear_tokens(eml: bytes, f: turnfile.SignedFile) -> list[str]:
    """Tokens of a whole mail: headers, every text part, and the attachment outside its ciphertexts."""
    msg = email.message_from_bytes(eml, policy=email.policy.default)
    header_text = eml.split(b"\r\n\r\n", 1)[0].decode("ascii")
    parts = [header_text]
    attached = 0
    for part in msg.walk():
        if part.is_multipart():
            continue
        parts.append("\n".join(f"{k}: {v}" for k, v in part.items()))
        if part.get_content_maintype() == "text":
            parts.append(part.get_content())
        elif part.get_content_type() == "application/vnd.pbem":
            data = part.get_payload(decode=True)
            assert data == f.raw, "the attachment is the file"
            attached += 1
            parts.append(_clear_bytes(f).decode("latin-1"))
    assert attached == 1
    return [t.lower() for t in _TOKEN.findall("\n".join(parts))]


def test_notice_mail_tells_the_provider_nothing_of_the_game(
        will_file: tuple[dict[str, Player], game.Derived, turnfile.SignedFile]) -> None:
    players, d, f = will_file
    pub = _public(d, f)
    assert any(c["label"] == "will-commit" and c["ctx"].split(":", 1)[1].startswith("combat ")
               for c in pub["commits"]), "the file declares a combat and seals a Will Commit"
    needles = _needles(pub, d.con.seats)
    assert pub["phase"] in needles and any(_HEX.fullmatch(n) for n in needles) and any(
        _UNIT.fullmatch(n) for n in needles), needles
    mails = dispatch.mails_for(players["axis"].session, d, f, "notice")
    assert [m.seat for m in mails] == ["western"]
    for m in mails:
        eml = to_eml(m.message)
        assert str(m.message["Subject"]) == f"[pbem] game {d.con.game_id.hex()[:12]}: file {f.seq}"
        assert [p.get_content_type() for p in m.message.walk() if not p.is_multipart()] == [
            "text/plain", "application/vnd.pbem"], "no HTML, no map"
        hay = _eml_clear_tokens(eml, f)
        leaked = sorted(n for n in needles if _found(n, hay))
        assert not leaked, f"the notice mail shows game content: {leaked}"


def test_the_clear_header_holds_only_digests(
        will_file: tuple[dict[str, Player], game.Derived, turnfile.SignedFile]) -> None:
    _, d, f = will_file
    h = f.header
    assert "phase" not in h and "digest" not in h
    assert h["commits"] and all(isinstance(c, bytes) and len(c) == 32 for c in h["commits"])
    pub = _public(d, f)
    assert len(pub["commits"]) == len(h["commits"])
    hay = [t.lower() for t in _TOKEN.findall(_clear_bytes(f).decode("latin-1"))]
    assert not [n for n in _needles(pub, d.con.seats) if _found(n, hay)]


def test_summary_mail_shows_the_public_summary_by_choice(
        will_file: tuple[dict[str, Player], game.Derived, turnfile.SignedFile]) -> None:
    players, d, f = will_file
    pub = _public(d, f)
    (m,) = dispatch.mails_for(players["axis"].session, d, f, "summary")
    text = "\n".join(p.get_content() for p in m.message.walk() if p.get_content_maintype() == "text")
    assert pub["phase"] in text
    assert any(u in text for t in _strings(pub["events"]) for u in _UNIT.findall(t))
    # the same search that finds nothing in a notice finds the game here
    hay = _eml_clear_tokens(to_eml(m.message), f)
    shown = {n for n in _needles(pub, d.con.seats) if _found(n, hay)}
    assert pub["phase"] in shown and "GER-XIX" in shown
    assert "image/png" in [p.get_content_type() for p in m.message.walk()], "the public map"


def _reseal(f: turnfile.SignedFile, d: game.Derived, author: Player, pub: Any) -> bytes:
    """``f`` with another public part, validly signed by its real author (a modified pbem)."""
    header = dict(f.header)
    header["public"] = age.encrypt(padding.pad(canonical.encode(pub)),
                                   [c.age_recipient for c in d.con.cards.values()])
    return turnfile.seal(header, author.session.ident.sign)


def test_phase_and_commitment_context_are_checked_from_the_public_part(
        will_file: tuple[dict[str, Player], game.Derived, turnfile.SignedFile]) -> None:
    players, d, f = will_file
    axis = players["axis"]
    west = players["western"]
    pub = _public(d, f)
    # A modified pbem signs what it likes; the receiver replays it on the game as it was before f.
    prior = _prior(west, d.con.game_id, f.seq)
    wrong_phase = dict(pub, phase="1940-05 Western Action Phase")
    with pytest.raises(FileRejected, match="claims phase"):
        game.apply_turn(west.session, prior, turnfile.parse(_reseal(f, d, axis, wrong_phase)))
    prior = _prior(west, d.con.game_id, f.seq)
    moved = []
    for c in pub["commits"]:
        ctx = c["ctx"]
        if c["label"] == "will-commit":
            hexes = _HEX.findall(ctx)
            ctx = ctx.replace(hexes[-1], "0101")  # the same sealed choice, claimed for another target
        moved.append({"label": c["label"], "ctx": ctx})
    with pytest.raises(FileRejected, match="labelled differently"):
        game.apply_turn(west.session, prior, turnfile.parse(_reseal(f, d, axis, dict(pub, commits=moved))))
    prior = _prior(west, d.con.game_id, f.seq)
    with pytest.raises(InvalidInput):
        game.apply_turn(west.session, prior, turnfile.parse(_reseal(f, d, axis, dict(pub, commits=[]))))
    prior = _prior(west, d.con.game_id, f.seq)
    game.apply_turn(west.session, prior, f)  # the genuine file still passes


def _prior(p: Player, gid: bytes, seq: int) -> game.Derived:
    """The game as ``p`` knew it just before file ``seq`` (replayed from its own files)."""
    gs = store.game_dir(p.home, gid)
    files = gs.files()
    d = game.begin(p.session, turnfile.parse(files[0].read()))
    from pbem.play import reveal

    parsed = [turnfile.parse(sf.read()) for sf in files[1:]]
    reveal.preload_keys(d, [x for x in parsed if x.kind == "reveal"])
    for x in parsed:
        if x.kind == "join":
            game.add_join(p.session, d, x)
        elif x.kind == "turn" and x.seq < seq:
            game.apply_turn(p.session, d, x)
    return d


# --- the setting ---------------------------------------------------------------------------------


def _doc(**mail: Any) -> dict[str, Any]:
    return {"mail": {"from": "a@example.org", "outbox_only": True, **mail}}


def test_body_setting_default_and_per_game_override() -> None:
    cfg = parse_config(_doc())
    assert cfg is not None and cfg.body == BodySetting() and cfg.body.for_game(bytes(16)) == "summary"
    cfg = parse_config(_doc(body="notice", body_per_game={"3fa9c2": "summary", "3FA9C2D1E0AB": "notice"}))
    assert cfg is not None
    gid = bytes.fromhex("3fa9c2d1e0ab" + "00" * 10)
    assert cfg.body.for_game(gid) == "notice"  # the longest prefix wins
    assert cfg.body.for_game(bytes.fromhex("3fa9c2ff" + "00" * 12)) == "summary"
    assert cfg.body.for_game(bytes(16)) == "notice"


@pytest.mark.parametrize("mail, where", [
    ({"body": "none"}, "mail.body"),
    ({"body": True}, "mail.body"),
    ({"body_per_game": {"3fa": "notice"}}, "mail.body_per_game.3fa"),
    ({"body_per_game": {"3fa9c2": "clear"}}, "mail.body_per_game.3fa9c2"),
    ({"body_per_game": "notice"}, "mail.body_per_game"),
])
def test_a_mistyped_body_setting_is_refused_not_defaulted(mail: dict[str, Any], where: str) -> None:
    with pytest.raises(MailConfigError, match=re.escape(where)):
        parse_config(_doc(**mail))


def test_body_alone_needs_no_mail_server_and_applies_to_queued_mails(tmp_path: Path) -> None:
    p = make_player(tmp_path, "red")
    assert body_setting(p.home) == BodySetting()
    p.home.config_file.parent.mkdir(parents=True, exist_ok=True)
    p.home.config_file.write_text('[mail]\nbody = "notice"\n', encoding="utf-8")
    assert parse_config({"mail": {"body": "notice"}}) is None  # no transport: .eml files only
    assert body_setting(p.home).for_game(bytes(16)) == "notice"
    p.home.config_file.write_text('[mail]\nbody = "notcie"\n', encoding="utf-8")
    with pytest.raises(MailConfigError, match=r"mail\.body"):
        body_setting(p.home)


def test_dispatch_follows_the_home_setting_and_drops_the_private_copy(tmp_path: Path) -> None:
    from helpers import start_duel

    red, blue, gid = start_duel(tmp_path)
    gs = store.game_dir(red.home, gid)
    f, d = game.play(red.session, gs, "roll\n")
    red.home.config_file.parent.mkdir(parents=True, exist_ok=True)
    red.home.config_file.write_text(
        f'[mail]\nfrom = "red@example.org"\noutbox_only = true\nprivate_to_self = true\n'
        f'[mail.body_per_game]\n"{gid.hex()[:12]}" = "notice"\n', encoding="utf-8")
    results = dispatch.dispatch(red.session, gs, d, f)
    assert len(results) == 1, "no private view mailed for a game whose mails are notices"
    msg = email.message_from_bytes(results[0].path.read_bytes(), policy=email.policy.default)
    assert msg["Subject"] == f"[pbem] game {gid.hex()[:12]}: file {f.seq}" and msg["To"] == blue.card.email
    (text,) = [p.get_content() for p in msg.walk() if p.get_content_maintype() == "text"]
    assert f"A new pbem file for game {gid.hex()[:12]} is attached" in text and "pbem receive" in text
    assert "scores" not in text and "roll" not in text


def test_inspect_shows_no_phase_but_a_player_decrypts_it(
        will_file: tuple[dict[str, Player], game.Derived, turnfile.SignedFile], tmp_path: Path) -> None:
    """`pbem inspect` shows the envelope (digests only); `--part public --decrypt` shows a player the phase."""
    from click.testing import CliRunner

    from pbem.cli import cli
    from pbem.protocol.identity import save_identity

    players, d, f = will_file
    west = players["western"]
    if not west.home.identity_file.exists():
        save_identity(west.session.ident, west.home.identity_file, "pass-w", work_factor=10)
    path = tmp_path / "f.pbem"
    path.write_bytes(f.raw)
    phase = _public(d, f)["phase"]
    runner = CliRunner()
    env = {"PBEM_PASSPHRASE": "pass-w"}
    home = str(west.home.config.parent)
    r = runner.invoke(cli, ["--home", home, "inspect", str(path)], env=env)
    assert r.exit_code == 0, r.output
    assert phase not in r.output and "combat" not in r.output and "will-commit" not in r.output
    r = runner.invoke(cli, ["--home", home, "inspect", str(path), "--part", "public", "--decrypt"], env=env)
    assert r.exit_code == 0, r.output
    assert phase in r.output and "will-commit" in r.output
