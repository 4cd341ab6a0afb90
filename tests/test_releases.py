"""Games outlive upgrades (issue 16, points 1 and 5; docs/protocol.md §15).

- Every release a game's ``releases.toml`` says this pbem plays has a fixture archive (a whole
  game that release wrote: `make demo`'s), and this pbem imports, verifies and audits it in full.
- A game started by the release before (its two homes in the middle of the demo, written by
  that release: tests/fixtures/releases/*-midgame.*) is continued by this pbem to the end of the
  demo script and verified by both homes.
- A release this pbem no longer plays, an unknown build of the same version, and a newer one are
  refused with one message naming both versions and the exact command that makes it playable.
"""

from __future__ import annotations

import dataclasses
import json
import tarfile
import time
from pathlib import Path

import pytest
from helpers import Clock, DetRng, Player, deliver, demo_turns, make_player

from pbem import __version__, rulesapi
from pbem.errors import Unsupported
from pbem.play import archive, audit, game
from pbem.protocol import releases
from pbem.store import gamestore

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "releases"
PLAYED = [(name, r) for name in rulesapi.available() for r in releases.known(rulesapi.get(name)) if r.plays]


def test_some_release_is_listed_and_its_fixture_exists() -> None:
    assert PLAYED, "rules/use/releases.toml lists the releases this pbem plays"
    for name, r in PLAYED:
        assert r.fixture and (ROOT / r.fixture).is_file(), (name, r.version, r.pbem, r.fixture)


def _observer(tmp: Path) -> Player:
    p = make_player(tmp, "observer")
    p.session.now = time.time  # the fixtures carry their release's real signing times
    return p


@pytest.mark.parametrize("name,rel", PLAYED, ids=[f"{n}-{r.version}-pbem-{r.pbem}" for n, r in PLAYED])
def test_a_release_this_pbem_plays_verifies_in_full(tmp_path: Path, name: str, rel: releases.Release) -> None:
    obs = _observer(tmp_path)
    gs, d = archive.import_archive(obs.session, (ROOT / rel.fixture).read_bytes())
    assert d.con.h["rules_hash"] == rel.hash and d.con.h["rules_version"] == rel.version
    rep = audit.audit(obs.session, gs, d)
    assert rep.clean and rep.turns_replayed > 10, (rep.violations, rep.missing_reveals)


MIDGAMES = sorted(FIXTURES.glob("*-use-midgame.json"))


def _midgame(tmp: Path, meta_path: Path = MIDGAMES[0]) -> tuple[dict[str, Player], bytes, dict[str, object]]:
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    gid = bytes.fromhex(str(meta["game"]))
    with tarfile.open(meta_path.with_suffix(".tar.gz")) as tar:
        tar.extractall(tmp / "unpacked", filter="data")
    players = {}
    for seat in meta["seats"]:  # type: ignore[attr-defined]
        p = make_player(tmp, seat)  # the same deterministic identity the release used
        # a fresh stream (the release's is spent) and a clock after its last file
        p.session.rng, p.session.now = DetRng(f"after the upgrade {seat}"), Clock(int(meta["last_time"]) + 600)  # type: ignore[call-overload]
        files = gamestore.game_dir(p.home, gid).files_dir
        files.mkdir(parents=True)
        for f in sorted((tmp / "unpacked" / seat / "files").iterdir()):
            (files / f.name).write_bytes(f.read_bytes())
        players[seat] = p
    return players, gid, meta


@pytest.mark.parametrize("meta_path", MIDGAMES, ids=[p.stem for p in MIDGAMES])
def test_a_game_started_before_the_upgrade_is_finished_after_it(tmp_path: Path, meta_path: Path) -> None:
    players, gid, meta = _midgame(tmp_path, meta_path)
    watcher = players["axis"]
    d = game.load(watcher.session, gamestore.game_dir(watcher.home, gid))
    assert d.seq == meta["played"]
    done = 0
    steps = [(str(a), str(b)) for a, b in meta["remaining"]]  # type: ignore[attr-defined]
    for seat, text in demo_turns(players, gid, steps):  # what the release left of the demo script
        f, _ = deliver(players, gid, seat, text)
        assert f.header["rules_hash"] == d.con.h["rules_hash"]  # the game keeps its release's rules
        done += 1
    assert done >= 5
    for p in players.values():
        d = game.load(p.session, gamestore.game_dir(p.home, gid))
        assert d.violations == [] and d.seq == meta["played"] + done


def _header(rules: rulesapi.RulesModule, version: str, h: bytes) -> dict[str, object]:
    return {"rules": rules.name, "rules_version": version, "rules_hash": h}


def test_refusals_name_both_versions_and_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulesapi.get("use")
    old = next(r for n, r in PLAYED if n == "use")  # the oldest release USE lists
    releases.check_rules(rules, _header(rules, old.version, old.hash))  # played: no error
    retired = dataclasses.replace(old, plays=False)
    monkeypatch.setattr(releases, "known", lambda r: (retired,))
    with pytest.raises(Unsupported) as e:
        releases.check_rules(rules, _header(rules, old.version, old.hash))
    assert f"pbem {old.pbem}" in str(e.value) and f"this pbem {__version__}" in str(e.value)
    assert f"pip install 'pbem=={old.pbem}'" in (e.value.hint or "")
    with pytest.raises(Unsupported) as e:
        releases.check_rules(rules, _header(rules, rules.version, b"\1" * 32))
    assert "development build" in str(e.value) and "01010101" in str(e.value)
    with pytest.raises(Unsupported) as e:
        releases.check_rules(rules, _header(rules, "99.0", b"\2" * 32))
    assert "newer" in str(e.value) and "99.0" in str(e.value) and "--upgrade" in (e.value.hint or "")


def test_a_retired_release_is_refused_before_anything_is_written(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    players, gid, _ = _midgame(tmp_path)
    p = players["western"]
    gs = gamestore.game_dir(p.home, gid)
    if game.load(p.session, gs).con.h["rules_hash"] == rulesapi.get("use").rules_hash():
        pytest.skip("this build is the fixture's own release: nothing to refuse")
    before = sorted(x.name for x in gs.root.rglob("*"))
    monkeypatch.setattr(releases, "known", lambda r: tuple(dataclasses.replace(x, plays=False)
                                                           for x in releases._read(r.releases_file())))
    with pytest.raises(Unsupported, match="no longer plays"):
        game.load(p.session, gs)
    assert sorted(x.name for x in gs.root.rglob("*")) == before


def _pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            out[name.strip()] = version.strip()
    return out


def test_the_runtime_dependencies_are_the_release_pins() -> None:
    """Point 2: the versions that decide what pbem computes are pinned, and they are what runs."""
    import configparser
    import importlib.metadata as md

    pins = _pins()
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    required = [r.split("#")[0].strip() for r in cfg["options"]["install_requires"].splitlines()]
    for req in filter(None, required):
        name, _, low = req.partition(">=")
        pinned = next((v for k, v in pins.items() if k.lower() == name.strip().lower()), None)
        assert pinned is not None, f"{name} is not pinned in constraints.txt"
        assert tuple(map(int, pinned.split(".")[:2])) >= tuple(map(int, low.split(".")[:2])), (name, pinned, low)
    for name, version in pins.items():
        assert md.version(name) == version, f"{name} {md.version(name)} runs, the release pins {version}"


def test_a_rule_changed_by_a_release_keeps_its_old_meaning_in_older_games(tmp_path: Path) -> None:
    """USE 0.11 adds Will Commit's +1 to air combat; genesis hands the proposal's rules_version to
    ``started_by``, which marks only the games of 0.11 and later (docs/protocol.md §15): a game of
    0.10 (the pbem 0.2.0 fixture) starts from exactly the state its release made."""
    obs = _observer(tmp_path)
    fixture = next(r for n, r in PLAYED if n == "use" and r.version == "0.10")
    _, d = archive.import_archive(obs.session, (ROOT / fixture.fixture).read_bytes())
    old_public, _ = d.con.initial_state()
    assert "air_commit_drm" not in old_public
    use = rulesapi.get("use")
    new_public = use.started_by(old_public, use.version)
    assert new_public["air_commit_drm"] is True and "air_commit_drm" not in old_public  # not mutated
