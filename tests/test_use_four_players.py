"""USE with four players (issue 17): East and Mediterranean 1941 with the Axis split by country
(seatings.txt ``east-med-1941-4p``: the seat ``italy`` plays the Italian units, the seat ``axis``
leads the faction; DECISIONS in rules/use/seating.py), played through the protocol by four homes
and audited by an observer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Player, deliver, demo_turns, end_and_audit, make_player, start_game
from pbem_rules.use import seating

from pbem import rulesapi
from pbem.errors import StateError
from pbem.kit.records import ScenarioErrors
from pbem.play import game
from pbem.store import gamestore

FOUR = "east-med-1941-4p"
SEATING = "[USE 1.1 seating]"


def _gs(p: Player, gid: bytes) -> gamestore.GameStore:
    return gamestore.game_dir(p.home, gid)


def _load(players: dict[str, Player], gid: bytes, seat: str = "axis") -> game.Derived:
    return game.load(players[seat].session, _gs(players[seat], gid))


def _play(players: dict[str, Player], gid: bytes, steps: list[tuple[str, str]]) -> list[str]:
    """Play ``steps`` (dice releases as the engine asks); after each file every home holds only its
    own seat's private state, and a commitment stays closed to every seat but its author's until
    opened.  Returns "seat: phase" for every file sent, in order."""
    sent = []
    for seat, text in demo_turns(players, gid, list(steps)):
        pend = _load(players, gid).pending()
        deliver(players, gid, seat, text)
        sent.append(f"{seat}: {pend.phase if pend else None}")
        for other, p in players.items():
            d = game.load(p.session, _gs(p, gid))
            assert set(d.privates) == {other} and set(d.secrets_by) <= {other}
            for ref, c in d.est["commits"].items():
                if ref not in d.est["opened"] and c["seat"] != other:
                    assert all(ref not in sec for sec in d.secrets_by.values())  # closed to the others
    return sent


def _refusals(players: dict[str, Player], gid: bytes, seat: str, text: str) -> list[str]:
    p = players[seat]
    return [str(e) for e in game.check_orders(p.session, _gs(p, gid), text)]


def _pending(players: dict[str, Player], gid: bytes) -> tuple[str, str]:
    """The seat to move and its phase, once the dice releases owed (strict dice) are sent."""
    while (pend := _load(players, gid).pending()) is not None and pend.kind == "dice-release":
        deliver(players, gid, pend.seat, "")
    assert pend is not None
    return pend.seat, pend.phase


# --- the seating -----------------------------------------------------------------------------------
def test_four_seats_with_the_axis_split_by_country() -> None:
    rules = rulesapi.get("use")
    sc = rules.load_scenario(FOUR)
    assert sc.seats == ("axis", "italy", "western", "soviet") and sc.sides == {}
    assert sc.digest == rules.load_scenario("east-med-1941").digest  # the same files
    public, private = rules.initial_state(sc, {s: s for s in sc.seats}, {})
    assert public["partners"] == {"italy": {"faction": "axis", "countries": ["ITA"]}}
    assert "part" not in public and set(private) == set(sc.seats)
    for name in ("east-med-1941", "east-med-1941-2p", "france-1940"):  # their states read as before
        assert "partners" not in rules.initial_state(rules.load_scenario(name), {}, {})[0]


def test_each_seats_order_template_lists_only_its_own_part() -> None:
    """`pbem orders template` for a split faction: the lead's lists no Italian unit, the partner's
    only Italian units and production, and says whose part it is when it is not its own."""
    rules = rulesapi.get("use")
    sc = rules.load_scenario(FOUR)
    public, private = rules.initial_state(sc, {s: s for s in sc.seats}, {})
    public = dict(public, phase="actions", active="axis")
    lead = rules.order_template(public, private["axis"], "axis")
    partner = rules.order_template(public, private["italy"], "italy")
    assert "#   GER-" in lead and "#   ITA-" not in lead
    assert "nothing to do: axis must act" in partner and "#   GER-" not in partner
    public["part"] = "italy"
    partner = rules.order_template(public, private["italy"], "italy")
    assert "#   ITA-" in partner and "#   GER-" not in partner and "# USE orders for italy" in partner
    assert "nothing to do: italy must act" in rules.order_template(public, private["axis"], "axis")


@pytest.mark.parametrize(("line", "message"), [
    ("seating v italy=axis:XYZ", "unknown country 'XYZ'"),
    ("seating v italy=axes:ITA", "unknown faction 'axes'"),
    ("seating v italy=axis:GRE", "GRE is a western country, not axis"),
    ("seating v italy=axis:ITA+ITA", "country ITA is given twice"),
    ("seating v italy=axis:ITA rome=axis:ROM", "faction axis is split twice"),
    ("seating v italy=axis:ITA+GER+ROM+HUN+BUL", "the lead would have none"),
    ("seating v western=axis:ITA", "named unlike any faction"),
    ("seating v", "expected 'seating NAME"),
])
def test_a_bad_seating_is_refused_at_load(tmp_path: Path, line: str, message: str) -> None:
    src = Path(__file__).resolve().parent.parent / "scenarios" / "use" / "east-med-1941"
    (tmp_path / "countries.txt").write_text((src / "countries.txt").read_text())
    (tmp_path / "seatings.txt").write_text(f"format use-seatings 1\n{line}\n")
    with pytest.raises(ScenarioErrors, match=message):
        seating._read(tmp_path)


# --- four homes play a turn ------------------------------------------------------------------------
def _start(tmp: Path) -> tuple[dict[str, Player], bytes]:
    players = {s: make_player(tmp, s) for s in rulesapi.get("use").load_scenario(FOUR).seats}
    return players, start_game(players, "use", FOUR)


def _offers(d: game.Derived, seat: str) -> set[str]:
    """Every unit the legal-actions query offers ``seat``."""
    acts: list[Any] = rulesapi.get("use").legal_actions(d.public, None, seat)
    return {c for a in acts for g in a.args if g.kind == "unit" for c in (g.choices or ())}


def test_four_homes_play_a_turn_with_the_axis_in_two_seats(tmp_path: Path) -> None:
    players, gid = _start(tmp_path)
    # April 1941: the lead declares war on Yugoslavia (faction-wide) and ends its part of the
    # Strategic Move step; the Italian part follows (Italian units stand on Transport Lines).
    _play(players, gid, [("axis", "declare-war YUG\nend-phase\nend-phase\n")])
    assert _pending(players, gid) == ("italy", "1941-04 Axis Strategic Move Phase")
    errs = _refusals(players, gid, "italy", "declare-war TUR\n")
    assert errs and SEATING in errs[0] and "belongs to the axis seat" in errs[0]
    with pytest.raises(StateError, match="italy's move"):
        deliver(players, gid, "axis", "end-phase\n")  # the lead's part is over
    _play(players, gid, [("italy", "end-phase\n"),
                         ("western", "strategic-move UK-1ARM 0821 0921\n"),
                         ("soviet", "strategic-move USSR-19A 2001 1902 1801\n")])
    assert _pending(players, gid) == ("axis", "1941-04 Axis Actions Phase")
    d = _load(players, gid)
    lead, partner = _offers(d, "axis"), _offers(d, "italy")
    assert "GER-XL" in lead and not any(u.startswith("ITA-") for u in lead)
    assert partner == set() and not rulesapi.get("use").legal_actions(d.public, None, "italy")  # not its part
    # The lead may not order an Italian unit: the rule is cited, with the seat that may.
    errs = _refusals(players, gid, "axis", "move ITA-11A 0423\n")
    assert len(errs) == 1 and SEATING in errs[0] and "ITA-11A is a unit of ITA: it belongs to the italy seat" in errs[0]
    # The lead's attack: its Will Commit is sealed in the lead's file, opened by the lead.
    _play(players, gid, [("axis", "move GER-XL 0818\nattack 0718 from GER-XL will-commit\n")])
    d = _load(players, gid)
    sealed = [ref for ref, c in d.est["commits"].items() if ref not in d.est["opened"]]
    assert sealed and all(d.est["commits"][ref]["seat"] == "axis" for ref in sealed)
    italy = _load(players, gid, "italy")
    assert all(ref not in sec for ref in sealed for sec in italy.secrets_by.values())  # not the partner's
    _play(players, gid, [("western", "will-commit 0718 no retreat 0618\n")])
    assert _pending(players, gid)[0] == "axis"  # the seat that sealed it opens it
    _play(players, gid, [("axis", "will-commit 0718 air GER-VIIIB\n"), ("axis", "end-phase\n")])
    # The Italian part of the Axis Actions: only Italian units.
    assert _pending(players, gid) == ("italy", "1941-04 Axis Actions Phase")
    d = _load(players, gid)
    partner = _offers(d, "italy")
    assert "ITA-11A" in partner and not any(u.startswith("GER-") for u in partner)
    errs = _refusals(players, gid, "italy", "move GER-XL 0817\n")
    assert len(errs) == 1 and SEATING in errs[0] and "GER-XL is a unit of GER: it belongs to the axis seat" in errs[0]
    sent = _play(players, gid, [("italy", "attack 0522 from ITA-11A will-commit\n")])
    assert sent == ["italy: 1941-04 Axis Actions Phase"] and _pending(players, gid)[0] == "western"
    sealed = [ref for ref, c in _load(players, gid).est["commits"].items() if c["seat"] == "italy"]
    axis = _load(players, gid, "axis")
    assert sealed and all(ref not in sec for ref in sealed for sec in axis.secrets_by.values())  # not the lead's
    _play(players, gid, [("western", "will-commit 0522 yes\n")])
    assert _pending(players, gid) == ("italy", "1941-04 Axis Actions Phase")  # it opens what it sealed
    errs = _refusals(players, gid, "italy", "will-commit 0522 air GER-VIIIB\n")
    assert len(errs) == 1 and SEATING in errs[0] and "GER-VIIIB is a unit of GER" in errs[0]
    _play(players, gid, [("italy", "will-commit 0522 no-air\n")])
    assert _pending(players, gid)[0] == "italy"  # its combat resolves in its next file (strict dice)
    _play(players, gid, [("italy", "end-phase\n")])
    assert _pending(players, gid) == ("western", "1941-04 Western Actions Phase")
    d = _load(players, gid)
    assert "part" not in d.public and not d.public["combats"]
    sent = _play(players, gid, [("*", "1941-05")])
    # Italy has nothing to replace or mobilize: its part of those steps costs no file.
    assert "axis: 1941-04 Axis Replacements Phase" in sent and not any(f.startswith("italy: 1941") for f in sent)
    d = _load(players, gid)
    assert d.public["date"] == "1941-05" and d.public["phase"] == "weather" and "part" not in d.public
    end_and_audit(players, gid, tmp_path)
