"""USE with three players (issue 17): the East and Mediterranean 1941 scenario, its seats and its
two-player seating, played through the protocol by three homes and audited by an observer."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from helpers import Player, deliver, demo_turns, end_and_audit, make_player, start_game
from pbem_rules.use.scenario import load_scenario

from pbem import rulesapi
from pbem.cli import demo
from pbem.play import game
from pbem.protocol import turnfile
from pbem.store import gamestore

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "use" / "east-med-1941"
SHAPEFILE = ROOT.parent / "shared" / "geo" / "ne_10m_admin_0_countries_deu.zip"  # ../shared, as CI lays it out
NAME, TWO = "east-med-1941", "east-med-1941-2p"


def _start(tmp: Path, scenario: str) -> tuple[dict[str, Player], bytes]:
    """The first seat hosts, every other seat joins, every join reaches every seat."""
    players = {s: make_player(tmp, s) for s in rulesapi.get("use").load_scenario(scenario).seats}
    return players, start_game(players, "use", scenario)


def _gs(p: Player, gid: bytes) -> gamestore.GameStore:
    return gamestore.game_dir(p.home, gid)


def _play_demo(players: dict[str, Player], gid: bytes, scenario: str) -> list[tuple[str, bytes]]:
    """The scenario's demo turn, file by file; returns (seat, raw file) in order.

    After each file every home checks that it holds only its own seats' private state, and that
    a commitment (the attacker's sealed Will Commit, 5.1 step 2) stays closed to the others until
    its author opens it."""
    script = rulesapi.get("use").demo_script(scenario)
    assert script is not None
    sent = []
    for seat, text in demo_turns(players, gid, demo.parse_script(script)):
        f, _ = deliver(players, gid, seat, text)
        sent.append((seat, f.raw))
        assert set(turnfile.parse(f.raw).header["private"]) == set(players)  # one sealed part a seat
        for other, p in players.items():
            d = game.load(p.session, _gs(p, gid))
            assert set(d.privates) == {other} and set(d.secrets_by) <= {other}
            for ref, c in d.est["commits"].items():
                if ref not in d.est["opened"] and c["seat"] != other:
                    assert all(ref not in sec for sec in d.secrets_by.values())  # closed to the others
    return sent


# --- the scenario ----------------------------------------------------------------------------------
def test_the_scenario_loads_and_validates() -> None:
    sc = load_scenario(NAME)
    assert (sc.map.cols, sc.map.rows) == (32, 33)
    assert all(f.played for f in sc.factions.values())
    assert {c.code: c.faction for c in sc.countries.values() if c.status == "active"} == {
        "GER": "Axis", "ITA": "Axis", "ROM": "Axis", "HUN": "Axis", "BUL": "Axis",
        "UK": "Western", "GRE": "Western", "USSR": "Soviet"}
    assert sc.countries["YUG"].status == "neutral" and sc.countries["YUG"].declare_war
    assert not sc.countries["TUR"].declare_war
    assert set(sc.map.boxes) == {"CR", "WIO", "REICH", "ITALY"}
    assert sc.map.boxes["CR"].friendly == "Soviet" and sc.map.cities["Moscow"].box == "CR"
    assert {"Kiev", "Athens", "Belgrade", "Bucharest"} <= set(sc.map.cities)
    by_faction = {f: sum(1 for u in sc.units if (sc.countries[u.country].faction or "").lower() == f)
                  for f in ("axis", "western", "soviet")}
    assert min(by_faction.values()) >= 10, by_faction
    assert [v.faction for v in sc.victory] == ["Axis", "Axis", "Western", "Soviet"]


def test_three_seats_one_per_faction() -> None:
    sc = rulesapi.get("use").load_scenario(NAME)
    assert sc.seats == ("axis", "western", "soviet") and sc.sides == {}
    assert NAME in rulesapi.get("use").scenarios() and TWO in rulesapi.get("use").scenarios()


def test_the_two_player_seating_holds_western_and_soviet_in_one_seat() -> None:
    rules = rulesapi.get("use")
    sc = rules.load_scenario(TWO)
    assert sc.seats == ("axis", "western")
    assert sc.side_map() == {"axis": ("axis",), "western": ("western", "soviet")}
    assert sc.digest == rules.load_scenario(NAME).digest  # the same files: only the seating differs
    public, private = rules.initial_state(sc, {"axis": "a", "western": "w"}, {})
    assert public["seats"] == {"western": ["western", "soviet"]} and set(private) == {"axis", "western"}
    assert "seats" not in rules.initial_state(rules.load_scenario(NAME), {}, {})[0]


def test_regenerated_map_matches_the_committed_files(tmp_path: Path) -> None:
    if not SHAPEFILE.exists():
        pytest.skip(f"generation only: the Natural Earth shapefile {SHAPEFILE} is not here (../shared)")
    if importlib.util.find_spec("shapefile") is None:
        pytest.skip("generation only: pyshp is not installed (an authoring tool dependency)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import author_map_east
    finally:
        sys.path.remove(str(ROOT / "tools"))
    author_map_east.generate(tmp_path, SHAPEFILE)
    for name in ("map.txt", "features.txt"):
        assert (tmp_path / name).read_text() == (SCENARIO / name).read_text(), name


# --- play through the protocol ---------------------------------------------------------------------
def test_three_homes_play_the_demo_turn_and_everyone_audits_it(tmp_path: Path) -> None:
    players, gid = _start(tmp_path, NAME)
    sent = _play_demo(players, gid, NAME)
    d = game.load(players["axis"].session, _gs(players["axis"], gid))
    assert d.public["date"] == "1941-05" and d.public["phase"] == "weather"
    assert d.public["countries"]["YUG"]["faction"] == "western"
    assert d.public["units"]["USSR-16A"]["hex"] == "2102"  # the Soviet mobilization
    assert len(sent) <= 20  # files of the turn, dice releases included
    # The Axis's Will Commit was sealed in its attack file and opened two files later: the
    # Western and Soviet homes saw a commitment, not a choice, in between (checked in _play_demo).
    assert sum(len(turnfile.parse(raw).header["commits"]) for seat, raw in sent if seat == "axis") >= 1
    end_and_audit(players, gid, tmp_path)


def test_two_players_play_the_same_turn_with_one_seat_for_two_factions(tmp_path: Path) -> None:
    players, gid = _start(tmp_path, TWO)
    assert set(players) == {"axis", "western"}
    sent = _play_demo(players, gid, TWO)
    d = game.load(players["axis"].session, _gs(players["axis"], gid))
    assert d.public["date"] == "1941-05" and d.public["units"]["USSR-16A"]["hex"] == "2102"
    assert {seat for seat, _ in sent} == {"axis", "western"}
    assert len(sent) < 18  # no third player to release dice or hand over to
    end_and_audit(players, gid, tmp_path)
