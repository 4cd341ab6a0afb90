"""The legal-actions query (rulesapi.RulesModule.legal_actions, issue 9 point 2).

USE: at every position of the France 1940 demo (replayed at library level, as in
test_leaks.py) every action listed for the seat that must act parses, with its
first choices and with every optional argument too; other seats get nothing.
The test games: every action listed is applied without IllegalOrder, over whole
games. The CLI: `pbem orders actions GAME --json`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import deliver, demo_turns, start_duel, start_france_1940, start_trio
from test_cli import Home, _last_outbox

from pbem import rulesapi
from pbem.play import game
from pbem.rulesapi import Action, SecretRoll
from pbem.store import gamestore as store


def _fill(a: Action, public: Any, optional: bool) -> str:
    """The action's line: first choices; a value of the kind where none is listed."""
    sample = {"hex": "0101", "loc": "0101", "number": "1", "unit": sorted(public.get("units", {"x": 0}))[0]}
    values = {}
    for arg in a.args:
        if arg.optional and not optional:
            continue
        values[arg.name] = arg.choices[0] if arg.choices else sample[arg.kind]
    return a.line(values)


def _positions(tmp: Path) -> list[tuple[str, Any, Any, str]]:
    """(seat, public, private, orders the demo then played) before each file of the demo."""
    players, gid = start_france_1940(tmp)
    out = []
    for seat, text in demo_turns(players, gid):
        p = players[seat]
        mine = game.load(p.session, store.game_dir(p.home, gid))
        if text:
            out.append((seat, mine.public, mine.private, text))
        deliver(players, gid, seat, text)
    return out

@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Any, Any, str]]:
    return _positions(tmp_path_factory.mktemp("legal"))


def test_use_every_listed_action_parses(positions: list[tuple[str, Any, Any, str]]) -> None:
    rules = rulesapi.get("use")
    verbs_seen: set[str] = set()
    for seat, public, private, _text in positions:
        acts = rules.legal_actions(public, private, seat)
        assert acts, f"nothing listed for {seat} although it must act"
        for a in acts:
            verbs_seen.add(a.verb)
            for optional in (False, True):
                line = _fill(a, public, optional)
                rules.parse_orders(line + "\n", seat, public, private)  # raises on a bad line
        other = "western" if seat == "axis" else "axis"
        assert rules.legal_actions(public, private, other) == []
    assert len(positions) >= 5
    # the demo walks through declarations of war, moves, attacks and a Will Commit answer
    assert {"declare-war", "move", "attack", "will-commit", "end-phase"} <= verbs_seen


def test_use_lists_the_verbs_the_demo_played(positions: list[tuple[str, Any, Any, str]]) -> None:
    """The demo's first order at each position is of a listed verb (orders of a later phase aside)."""
    rules = rulesapi.get("use")
    hits = 0
    for seat, public, private, text in positions:
        first = next((ln.split()[0] for ln in text.splitlines() if ln.split() and not ln.startswith("#")), None)
        listed = {a.verb for a in rules.legal_actions(public, private, seat)}
        hits += first in listed
    assert hits >= len(positions) * 3 // 4


class _AnyDice:
    """A context whose dice and openings are all 1: the test games' checks do not look at values."""

    game_id, seq, author_mode, strict_dice = b"\0" * 16, 1, True, False

    def __init__(self, seat: str) -> None:
        self.seat = seat

    def roll(self, sides: int, purpose: str, count: int = 1) -> list[int]:
        return [1] * count

    def secret_roll(self, sides: int, purpose: str, count: int = 1) -> SecretRoll:
        return SecretRoll("1.0", [1] * count)

    def reveal_roll(self, ref: str) -> list[int]:
        return [1]

    def reserve_rolls(self, count: int, roller: str | None = None) -> None:
        return None

    def commit(self, label: str, value: Any, context: str = "") -> str:
        return "1.0"

    def open(self, ref: str) -> Any:
        return 1

    def tell(self, seat: str, label: str, value: Any, context: str = "") -> str:
        return "1.0"

    @property
    def told(self) -> list[tuple[str, Any]]:
        return []

    def event(self, kind: str, **fields: Any) -> None:
        return None

    def private_event(self, kind: str, **fields: Any) -> None:
        return None


def _try_all(rules: rulesapi.RulesModule, public: Any, private: dict[str, Any], seat: str) -> list[Action]:
    acts = rules.legal_actions(public, private.get(seat), seat)
    for a in acts:
        line = _fill(a, public, optional=False)
        parsed = rules.parse_orders(line + "\n", seat, public, private.get(seat))
        rules.apply(public, private, seat, parsed, _AnyDice(seat))
    return acts


def test_duel_listed_actions_apply(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path, scenario="short")
    players = {"red": red, "blue": blue}
    for turn in range(12):
        d = game.load(red.session, store.game_dir(red.home, gid))
        pend = d.pending()
        if pend is None:
            break
        p = players[pend.seat]
        mine = game.load(p.session, store.game_dir(p.home, gid))
        acts = _try_all(mine.rules, mine.public, {pend.seat: mine.private}, pend.seat)
        assert acts
        other = "blue" if pend.seat == "red" else "red"
        assert mine.rules.legal_actions(mine.public, None, other) == []
        pick = [a for a in acts if a.verb != "again"][turn % (len(acts) - 1)]
        f, _ = game.play(p.session, store.game_dir(p.home, gid), _fill(pick, mine.public, False) + "\n")
        for q in players.values():
            if q is not p:
                game.receive(q.session, f.raw)


def test_trio_listed_actions_apply(tmp_path: Path) -> None:
    players, gid = start_trio(tmp_path, scenario="short", strict_dice=False)
    by = {p.name: p for p in players}
    verbs: set[str] = set()
    for turn in range(15):
        d = game.load(players[0].session, store.game_dir(players[0].home, gid))
        pend = d.pending()
        if pend is None:
            break
        p = by[pend.seat]
        mine = game.load(p.session, store.game_dir(p.home, gid))
        text = ""  # a dice-release file (pbem.protocol.dicefiles) takes no orders
        if pend.kind != "dice-release":
            acts = _try_all(mine.rules, mine.public, {pend.seat: mine.private}, pend.seat)
            verbs |= {a.verb for a in acts}
            picks = [a for a in acts if a.verb not in ("again", "declare")]
            text = _fill(picks[turn % len(picks)], mine.public, False) + "\n"
        f, _ = game.play(p.session, store.game_dir(p.home, gid), text)
        for q in players:
            if q is not p:
                game.receive(q.session, f.raw)
    assert {"seal", "open", "secret", "reveal"} <= verbs


def test_the_default_is_not_answered() -> None:
    from toygame import Duel

    class Silent(Duel):
        legal_actions = rulesapi.RulesModule.legal_actions

    assert Silent().legal_actions({}, None, "red") == []


def test_action_line_needs_a_value_without_choices() -> None:
    from pbem.errors import InvalidInput
    from pbem.rulesapi import Arg

    a = Action("move", (Arg("unit", "unit", ("GE-1",)), Arg("path", "loc", None, repeat=True)))
    assert a.line({"path": "0203"}) == "move GE-1 0203"
    with pytest.raises(InvalidInput, match="no value for path"):
        a.line()


def test_cli_actions_json(tmp_path: Path) -> None:
    red, blue = Home(tmp_path, "red"), Home(tmp_path, "blue")
    for h in (red, blue):
        h("key", "new", "--name", h.name.title(), "--email", f"{h.name}@example.org", "--work-factor", "10")
    blue("key", "card", "-o", str(tmp_path / "blue.card"))
    r = red("game", "new", "--rules", "duel", "--scenario", "short", "--seat", "red=me",
            "--seat", f"blue={tmp_path / 'blue.card'}", "--option", "strict_dice=false")
    m = re.search(r"game ([0-9a-f]{32}) proposed", r.output)
    assert m
    gid = m.group(1)
    blue("game", "join", str(_last_outbox(red)), "--expect", f"red={red('key', 'fingerprint').output.strip()}",
         "--accept-options")
    red("receive", str(_last_outbox(blue)))
    out = json.loads(red("orders", "actions", gid[:8], "--json").output)
    assert out["seat"] == "red" and out["pending"]["seat"] == "red" and out["answered"]
    seal = next(a for a in out["actions"] if a["verb"] == "seal")
    assert seal["args"] == [{"name": "bid", "kind": "number", "keyword": "", "optional": False,
                             "repeat": False, "choices": ["1", "2", "3"]}]
    assert {a["verb"] for a in out["actions"]} >= {"roll", "pass", "secret"}
    idle = json.loads(blue("orders", "actions", gid[:8], "--json").output)
    assert idle["actions"] == [] and idle["answered"]
    text = red("orders", "actions", gid[:8]).output
    assert "seal BID    # Duel 2: seal a hidden bid\n    BID: 1 2 3" in text
    assert "nothing to do now: red must act" in blue("orders", "actions", gid[:8]).output


def test_use_an_opening_file_lists_its_air_declaration() -> None:
    """Soak find (session 6, east-med-1941-4p seed 1): under 5.1 as written, the attacker's file
    that opens its sealed Will Commit must begin with its air declaration when it committed
    (module.run_file opens it first), so the listed actions offer it before the opening too;
    they listed only the phase's verbs, every one refused: a dead end for a client."""
    use = rulesapi.get("use")
    public, _ = use.initial_state(use.load_scenario("east-med-1941"), {}, {})
    public.update(phase="actions", active="axis")
    public["combats"] = [{"advance": False, "advancer": None, "attacker": "axis", "attackers": ["ITA-11A"],
                          "declare": True, "def_air": None, "def_commit": True, "defender": "western",
                          "defender_unit": "GRE-EPI", "id": 2, "kind": "mobile", "ref": "21.0", "retreat": None,
                          "status": "await-resolve", "target": "0522"}]
    assert use.pending(public).kind == "resolve"
    offered = [(a.verb, [g.choices for g in a.args]) for a in use.legal_actions(public, None, "axis")]
    assert ("will-commit", [("0522",), ("no-air",)]) in offered
