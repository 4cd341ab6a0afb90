"""The random-play soak (tools/soak.py, docs/reliability.md), a few short games for CI.

Each game is played by random bots through the real protocol with the soak's
invariants checked after every file and a full audit at the end; `make soak`
plays many more.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import soak

from pbem import rulesapi


@pytest.fixture(autouse=True)
def _soak_registered() -> Iterator[None]:
    soak.register()
    yield
    rulesapi.unregister("skirmish")


@pytest.mark.parametrize(("name", "seed"), [("duel-short", 1), ("duel-short", 2), ("trio-four-rounds", 1),
                                            ("trio-short", 2), ("skirmish", 1)])
def test_complete_games_hold_every_invariant(tmp_path: Path, name: str, seed: int) -> None:
    res = soak.run(name, seed, tmp_path / "failed")
    assert not res.failure, res.failure
    assert res.files > 3 and res.outcome
    assert sum(res.stats.orders.values()) >= res.files // 2  # the bots play orders, not only dice files


def test_use_random_play_keeps_the_board_legal(tmp_path: Path) -> None:
    res = soak.play_game(tmp_path, "use-france-1940", 1, stop_after=10)
    assert res.files == 10
    assert res.stats.orders["move"] + res.stats.orders["end-phase"] > 0


def test_a_failure_names_its_seed_keeps_its_files_and_replays(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    spec = soak.SPECS["duel-short"]
    monkeypatch.setitem(soak.SPECS, "duel-short", soak.Spec(spec.rules, spec.scenario, 3, spec.strict))
    res = soak.run("duel-short", 5, tmp_path / "failed")
    assert "no end after 3 files" in res.failure
    assert (tmp_path / "failed" / "duel-short-seed5").is_dir()
    assert soak.replay_command("duel-short", 5).endswith("--game duel-short --seed 5 --games 1")
    again = soak.run("duel-short", 5, None)
    assert again.failure.splitlines()[0] == res.failure.splitlines()[0]  # the seed replays the game


def test_use_invariants_catch_an_illegal_board() -> None:
    use = rulesapi.get("use")
    pub, _ = use.initial_state(use.load_scenario("france-1940"), {"axis": "a", "western": "w"}, {})
    assert soak._use_checks(pub) == []
    units = sorted(k for k, u in pub["units"].items() if u["box"] is None)
    a, b = pub["units"][units[0]], pub["units"][units[1]]
    b["hex"], b["kind"] = a["hex"], a["kind"]
    pub["countries"]["FRA"]["will"] = 120
    pub["units"][units[2]]["hex"] = "9999"
    pub["units"][units[2]]["box"] = None
    bad = " ".join(soak._use_checks(pub))
    assert "stack in" in bad and "National Will 120" in bad and "not a hex of the map" in bad
