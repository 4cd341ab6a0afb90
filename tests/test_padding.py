"""Length hiding: the size of a file or a mail does not tell a sealed choice.

Unit tests of the padding frame, then the attack of issue 8: the same USE
position played with each Will Commit choice (yes, no, yes with an air unit)
must give a turn file and a mail of the very same size.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import Clock, DetRng, Player, deliver, demo_turns, start_france_1940

from pbem.crypto import age
from pbem.errors import LimitExceeded
from pbem.formats import canonical, padding
from pbem.formats.padding import BadPadding
from pbem.mail import dispatch
from pbem.mail.compose import to_eml
from pbem.play import game
from pbem.protocol import turnfile
from pbem.store import gamestore as store
from pbem.store import paths


def test_buckets_are_powers_of_two_from_one_kib() -> None:
    assert padding.bucket(0) == 1024
    assert padding.bucket(1020) == 1024
    assert padding.bucket(1021) == 2048
    assert padding.bucket(5000) == 8192
    assert padding.bucket(padding.MAX_BUCKET - 4) == padding.MAX_BUCKET
    with pytest.raises(LimitExceeded):
        padding.bucket(padding.MAX_BUCKET - 3)


def test_frame_round_trip_and_shared_bucket() -> None:
    for content in (b"", b"x", bytes(range(256)) * 9):
        frame = padding.pad(content)
        assert len(frame) == padding.bucket(len(content))
        assert padding.unpad(frame, "part") == content
    framed = padding.pad_all({"a": b"a" * 10, "b": b"b" * 3000, "c": b""})
    assert {len(f) for f in framed.values()} == {4096}
    assert padding.unpad(framed["c"], "part") == b""
    with pytest.raises(ValueError):
        padding.pad(b"x" * 2000, to=1024)


@pytest.mark.parametrize("frame", [
    b"",                                                  # too short for a prefix
    padding.pad(b"abc")[:-1],                             # not a bucket
    padding.pad(b"abc") + bytes(1000),                    # not a bucket either
    padding.pad(b"abc")[:-1] + b"\x01",                   # non-zero padding
    (2000).to_bytes(4, "big") + bytes(1020),              # length beyond the frame
    (1021).to_bytes(4, "big") + bytes(1020),              # length one byte beyond
])
def test_bad_frames_are_refused(frame: bytes) -> None:
    with pytest.raises(BadPadding) as e:
        padding.unpad(frame, "the public part of file 3")
    assert e.value.hint


def test_unpadded_part_is_refused_by_a_receiver(tmp_path: Path) -> None:
    """A modified client that writes a part without the frame is refused, with a typed error."""
    from helpers import start_duel

    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    h = dict(f.header)
    frame = age.decrypt(h["public"], [red.session.ident.age_identity])
    plain = padding.unpad(frame, "public part")
    h["public"] = age.encrypt(plain, [red.card.age_recipient, blue.card.age_recipient])
    bad = turnfile.seal(h, red.session.ident.sign)
    before = sorted(p.name for p in store.game_dir(blue.home, gid).files_dir.iterdir())
    with pytest.raises(BadPadding):
        game.receive(blue.session, bad)
    assert sorted(p.name for p in store.game_dir(blue.home, gid).files_dir.iterdir()) == before


def test_private_parts_of_unequal_length_are_refused(tmp_path: Path) -> None:
    """A modified client that pads only the author's own part would tell whom it told something."""
    from helpers import start_duel

    from pbem.play.chain import FileRejected

    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "roll\n")
    h = dict(f.header)
    h["private"] = dict(h["private"])
    h["private"]["blue"] = age.encrypt(padding.pad(canonical.encode({"events": []}) + bytes(0)) + bytes(1024),
                                       [blue.card.age_recipient])
    bad = turnfile.seal(h, red.session.ident.sign)
    with pytest.raises(FileRejected, match="differ in length"):
        game.receive(blue.session, bad)


# -- the size comparison on a real USE position ------------------------------

# Per Will Commit variant (USE 5.1 step 2): as written, the attack seals the Will choice alone
# (the air unit is declared after the reveal); with the sealed option, the air unit with it.
CHOICES = {
    "as-written": {
        "yes": "attack 1610 from GER-XIX will-commit",
        "no": "attack 1610 from GER-XIX no-commit",
    },
    "sealed": {
        "yes": "attack 1610 from GER-XIX will-commit",
        "no": "attack 1610 from GER-XIX no-commit",
        "air": "attack 1610 from GER-XIX will-commit air GER-VIII",
    },
}


def _twin(p: Player, root: Path) -> Player:
    """The same player, with a copy of its home and a fresh deterministic rng and clock."""
    shutil.copytree(p.home.config.parent, root / p.name)
    sess = game.Session(paths.resolve(root / p.name), p.session.ident, rng=DetRng("twin " + p.name),
                        now=Clock(1_900_000_000))
    return Player(p.name, sess)


@pytest.fixture(scope="module", params=sorted(CHOICES))
def before_combat(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[dict[str, Player], bytes, str]:
    """France 1940 up to the Axis file that declares the first combat (the demo's third file)."""
    variant = str(request.param)
    players, gid = start_france_1940(tmp_path_factory.mktemp("padding"),
                                     {"strict_dice": False, "will_commit_air": variant})
    turns = demo_turns(players, gid)
    steps = [next(turns), next(turns)]
    assert [s for s, _ in steps] == ["axis", "western"]
    for seat, text in steps:
        deliver(players, gid, seat, text)
    return players, gid, variant


def _sizes(players: dict[str, Player], gid: bytes, root: Path, order: str) -> dict[str, Any]:
    axis, western = _twin(players["axis"], root), _twin(players["western"], root)
    f, d = game.play(axis.session, store.game_dir(axis.home, gid), f"move GER-XIX 1710\n{order}\n")
    assert game.receive(western.session, f.raw).status == "added"
    (mail,) = dispatch.mails_for(axis.session, d, f)
    h = f.header
    opening = canonical.decode(padding.unpad(age.decrypt(h["private"]["axis"], [axis.session.ident.age_identity]),
                                             "private part"))["openings"]
    return {"file": len(f.raw), "mail": len(to_eml(mail.message)), "public": len(h["public"]),
            "private": {s: len(b) for s, b in h["private"].items()}, "sealed": list(opening.values())}


def test_sizes_do_not_tell_the_will_commit_choice(
        before_combat: tuple[dict[str, Player], bytes, str], tmp_path: Path) -> None:
    players, gid, variant = before_combat
    seen = {c: _sizes(players, gid, tmp_path / c, order) for c, order in CHOICES[variant].items()}
    # The files really seal different choices...
    sealed = [s["sealed"][0]["value"] for s in seen.values()]
    assert len({repr(v) for v in sealed}) == len(sealed), sealed
    assert [v["commit"] for v in sealed] == [c != "no" for c in seen]
    # ...and nothing an opponent or a mail server sees tells them apart.
    for key in ("file", "mail", "public", "private"):
        assert len({repr(s[key]) for s in seen.values()}) == 1, (
            f"{key} sizes differ by choice: {', '.join(f'{c}={s[key]}' for c, s in seen.items())}")
    # Every seat's private part has the same length, the author's included.
    assert len(set(seen["yes"]["private"].values())) == 1
