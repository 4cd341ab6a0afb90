"""The HTML history of a whole game: valid HTML5, self-contained, and the dice counted right."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import html5lib
import pytest
from helpers import Player, make_player, start_duel
from toygame import Duel

from pbem.play import archive, game
from pbem.present import history
from pbem.protocol import turnfile
from pbem.store import gamestore as store

SVG = "{http://www.w3.org/2000/svg}"


def _turn(p: Player, other: Player, gid: bytes, orders: str) -> None:
    f, _ = game.play(p.session, store.game_dir(p.home, gid), orders)
    game.receive(other.session, f.raw)


def _played(tmp: Path) -> tuple[Player, Player, bytes]:
    red, blue, gid = start_duel(tmp)
    _turn(red, blue, gid, "roll\nroll\nseal 2\n")
    _turn(blue, red, gid, "roll\nsecret\n")
    _turn(red, blue, gid, "roll\nopen\n")
    _turn(blue, red, gid, "roll\nreveal\n")
    _turn(red, blue, gid, "pass\n")
    return red, blue, gid


def _fair_dice(p: Player, gid: bytes) -> Counter[tuple[str, int]]:
    """(seat, face) counts straight from the turn files' public roll records and revealed secret rolls:
    what the engine checked against the committed seeds, independent of the events."""
    gs = store.game_dir(p.home, gid)
    d = game.derive(p.session, gs)
    out: Counter[tuple[str, int]] = Counter()
    for sf in gs.files():
        if sf.kind != "turn":
            continue
        f = turnfile.parse(sf.read())
        pub = d.keyring.open(f"{f.seq}/public", f.header["public"], "public part")
        for r in pub["rolls"]:
            if not r["secret"]:
                out.update((f.author, v) for v in r["values"])
    for ref, values in d.est["revealed_rolls"].items():
        if values is not None:
            out.update((ref.split(".")[0], v) for v in values)
    return out


def _parse(html: str) -> ET.Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    root: ET.Element = parser.parse(html)  # raises on any HTML5 parse error
    return root


def _self_contained(html: str) -> None:
    assert not re.search(r"""(src|href|xlink:href)\s*=\s*["']?\s*(https?:|//|file:)""", html, re.I)
    assert not re.search(r"<(script|link|iframe|object|embed)\b", html, re.I)
    assert "@import" not in html and "url(" not in html
    assert not re.search(r"""\ssrc\s*=""", html)  # no image or other resource at all


def _text(e: ET.Element) -> str:
    return "".join(e.itertext()).strip()


def _stats_tables(root: ET.Element) -> dict[str, dict[int, int]]:
    """{seat: {face: count}} read back from the page's dice tables."""
    out: dict[str, dict[int, int]] = {}
    dice = next(s for s in root.iter("section") if s.get("id") == "dice")
    for card in dice.iter("div"):
        if card.get("class") != "seatcard":
            continue
        h3 = card.find("h3")
        assert h3 is not None
        seat = _text(h3).split()[0]
        counts: dict[int, int] = {}
        for tr in card.iter("tr"):
            cells = [_text(td) for td in tr.findall("td")]
            if cells:
                counts[int(cells[0])] = int(cells[1])
        out[seat] = counts
    return out


def test_duel_history(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    html = history.build_history(blue.session, store.game_dir(blue.home, gid))
    root = _parse(html)
    _self_contained(html)
    assert html.startswith("<!DOCTYPE html>")

    fair = _fair_dice(blue, gid)
    assert sum(fair.values()) == 6  # 5 public rolls and one revealed secret roll
    tables = _stats_tables(root)
    assert set(tables) == {"red", "blue"}
    for seat in ("red", "blue"):
        assert tables[seat] == {face: fair[(seat, face)] for face in range(1, 7)}, seat

    # the chart shows the same counts, and the expected count per face
    charts = [s for s in root.iter(f"{SVG}svg") if "chart" in (s.get("class") or "")]
    assert len(charts) == 2
    for svg, seat in zip(charts, ("blue", "red"), strict=True):
        titles = [_text(t) for t in svg.iter(f"{SVG}title")]
        for face in range(1, 7):
            assert f"face {face}: {fair[(seat, face)]} rolled" in titles
        n = sum(fair[(seat, f)] for f in range(1, 7))
        assert f"face 1: {n / 6:.1f} expected" in titles

    # turns are grouped from the phase labels ("turn 1 red", "turn 1 blue", ...)
    sections = {s.get("id"): s for s in root.iter("section")}
    assert {"t-turn-1", "t-turn-2", "t-turn-3"} <= set(sections)
    t1 = _text(sections["t-turn-1"])
    assert "File 1" in t1 and "File 2" in t1 and "File 3" not in t1
    # every file's events are there, with their dice
    assert "revealed" in html and "sealed" in html
    assert "χ²" in html and "p = " in html
    assert "Audit" not in html  # no reveals yet


def test_history_with_reveals_has_audit_and_works_for_an_observer(tmp_path: Path) -> None:
    red, blue, gid = _played(tmp_path)
    fr, _ = game.end(red.session, store.game_dir(red.home, gid), "conceded")  # the game is live
    game.receive(blue.session, fr.raw)
    fb, _ = game.end(blue.session, store.game_dir(blue.home, gid))
    game.receive(red.session, fb.raw)
    html = history.build_history(red.session, store.game_dir(red.home, gid))
    _parse(html)
    assert "full audit: 5 turns replayed" in html and "no violation" in html

    obs = make_player(tmp_path, "observer")
    gs, _ = archive.import_archive(obs.session, archive.export(store.game_dir(red.home, gid)))
    out = history.main_export(obs.session, gs, tmp_path / "out" / "history.html")
    page = out.read_text(encoding="utf-8")
    _parse(page)
    assert _stats_tables(_parse(page)) == _stats_tables(_parse(html))


def test_history_before_any_turn(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    html = history.build_history(red.session, store.game_dir(red.home, gid))
    _parse(html)
    _self_contained(html)
    assert "No turn has been played yet" in html


# --- dice extraction -------------------------------------------------------------------------------

PUBLIC: dict[str, Any] = {
    "units": {"GER-XIX": {"country": "GER"}, "FRA-2A": {"country": "FRA"}, "X": {"side": "soviet"}},
    "countries": {"GER": {"faction": "axis"}, "FRA": {"faction": "western"}},
}
SEATS = ("axis", "western", "soviet")


def test_generic_dice_combat_goes_to_attacker_and_defender() -> None:
    e = {"kind": "combat", "attackers": ["GER-XIX"], "defender": "FRA-2A", "att_die": 5, "def_die": 2,
         "att_drm": 3, "att_final": 8}
    # whoever wrote the file, each die belongs to the side it served
    assert history.generic_dice(e, "western", SEATS, PUBLIC) == [("axis", 6, 5), ("western", 6, 2)]
    e2 = {**e, "defender": "X"}
    assert history.generic_dice(e2, "axis", SEATS, PUBLIC) == [("axis", 6, 5), ("soviet", 6, 2)]
    # unknown units in a two-seat game: the defender is the other seat
    e3 = {**e, "attackers": ["?"], "defender": "?"}
    assert history.generic_dice(e3, "axis", ("axis", "western"), None) == [("axis", 6, 5), ("western", 6, 2)]


def test_generic_dice_fields() -> None:
    g = history.generic_dice
    assert g({"kind": "weather", "zone": "mild", "die": 4}, "axis", SEATS) == [("axis", 6, 4)]
    assert g({"kind": "marker-return", "faction": "western", "die": 6}, "axis", SEATS) == [("western", 6, 6)]
    assert g({"kind": "roll", "seat": "red", "value": 3}, "red", ("red", "blue")) == [("red", 6, 3)]
    assert g({"kind": "revealed", "seat": "blue", "value": 1}, "blue", ("red", "blue")) == [("blue", 6, 1)]
    assert g({"kind": "volley", "dice": [1, 6, 6], "sides": 10}, "red", ("red",)) == [("red", 10, v) for v in (1, 6, 6)]
    # a "value" that is not a roll, and numbers that are not dice, are not counted
    assert g({"kind": "opened", "seat": "red", "value": 2}, "red", ("red", "blue")) == []
    assert g({"kind": "standing", "seat": "western", "value": 1211}, "western", SEATS) == []
    assert g({"kind": "roll", "value": 7}, "red", ("red",)) == []
    assert g({"kind": "roll", "value": True}, "red", ("red",)) == []


def test_rules_hook_wins() -> None:
    class Rules(Duel):
        def dice_in_event(self, event: dict[str, Any], author: str, public: Any
                          ) -> list[tuple[str, int, int]] | None:
            return [("blue", 8, 7)] if event["kind"] == "x" else []

    assert history.dice_in_event(Rules(), {"kind": "x", "die": 3}, "red", ("red", "blue")) == [("blue", 8, 7)]
    assert history.dice_in_event(Rules(), {"kind": "y", "die": 3}, "red", ("red", "blue")) == []
    # the base class's default (None) leaves it to the generic reading
    assert history.dice_in_event(Duel(), {"kind": "y", "die": 3}, "red", ("red", "blue")) == [("red", 6, 3)]


# --- statistics ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("x", "df", "p"), [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (9.487729, 4, 0.05),
    (11.070498, 5, 0.05), (15.086272, 5, 0.01), (1.145476, 5, 0.95), (4.351460, 5, 0.5),
    (6.634897, 1, 0.01), (16.918978, 9, 0.05),
])
def test_chi_square_survival(x: float, df: int, p: float) -> None:
    assert history.chi_square_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_chi_square_edges() -> None:
    assert history.chi_square_sf(0.0, 5) == 1.0
    assert history.chi_square_sf(200.0, 5) < 1e-30
    vals = [history.chi_square_sf(x / 2, 5) for x in range(0, 60)]
    assert all(a >= b for a, b in itertools.pairwise(vals))
    with pytest.raises(ValueError):
        history.chi_square_sf(1.0, 0)


def test_dice_stats() -> None:
    rolls = [("a", 6, v) for v in (1, 1, 2, 3, 6, 6)] + [("b", 6, 4)] * 60
    st = {s.seat: s for s in history.dice_stats(rolls, ["a", "b", "c"])}
    assert st["a"].counts == [2, 1, 1, 0, 0, 2] and st["a"].n == 6 and st["a"].expected == 1.0
    assert st["a"].chi2 == pytest.approx(4.0) and not st["a"].enough
    assert st["b"].p_value < 1e-20 and "very unlikely" in st["b"].verdict()
    assert st["c"].n == 0 and st["c"].verdict() == "no dice"
    fair = history.dice_stats([("a", 6, 1 + i % 6) for i in range(60)], ["a"])[0]
    assert fair.chi2 == 0 and fair.p_value == 1.0 and fair.verdict() == "consistent with fair dice"


def test_turns_come_from_pending_not_the_phase_label() -> None:
    def rec(seq: int, phase: str, turn: int | None) -> history.FileRecord:
        return history.FileRecord(seq, "red", phase, 0, [], None, [], turn)

    # a label naming another turn, or none, does not matter: Pending.turn decides
    files = [rec(1, "turn 9 red", 1), rec(2, "dice release", 1), rec(3, "Setup", 2), rec(4, "x", None)]
    assert [(k, [f.seq for f in g]) for k, g in history.group_turns(files)] == [
        ("Turn 1", [1, 2]), ("Turn 2", [3]), ("File 4", [4])]


def test_seat_colours() -> None:
    c = history.seat_colours(["blue", "red", "north", "south"], {})
    assert c["red"] == history.NAMED["red"] and c["blue"] == history.NAMED["blue"]
    assert len(set(c.values())) == 4
    sides = {"axis": {"fill": "#5b5f63"}}
    assert history.seat_colours(["axis", "western"], sides)["axis"] == "#5b5f63"
