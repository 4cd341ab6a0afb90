"""The rules-case language's newer statements fail when they should (pbem.kit.cases: EVENT,
NO-EVENT, EXPECT A | B and A & B; rules/use/cases.py: shock, track, turn-track, marker no-ezoc,
the statements for what USE does not represent). The passing side is tests/cases/use/*.case."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem import rulesapi
from pbem.errors import IllegalOrder, InvalidInput, OrderErrors
from pbem.kit.cases import CaseFailed, check_events, parse_case, run_case

CASES = Path(__file__).parent / "cases" / "use"


def _run(tmp_path: Path, name: str, old: str, new: str) -> None:
    text = (CASES / f"{name}.case").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / f"{name}.case"
    path.write_text(text.replace(old, new), encoding="utf-8")
    run_case(parse_case(path), rulesapi.get("use"))


@pytest.mark.parametrize(("name", "old", "new", "found"), [
    ("combat-event-dice-and-drms", "att_die=5 def_die=3", "att_die=5 def_die=4", "no matching event"),
    ("combat-event-dice-and-drms", "att_parts.tank=1", "att_parts.tank=2", "no matching event"),
    ("combat-event-dice-and-drms", "NO-EVENT air-combat", "NO-EVENT combat result=DR", "matches"),
    ("combat-no-supply-halved-event", "def_final=2", "def_final=1", "no matching event"),
    ("supply-lss-allied-unit-not-starved", "NO-EVENT supply unit=FRA-1I", "NO-EVENT supply unit=UK-3I",
     "matches"),
    ("collapse-map-box-all-units", "EVENT reduced unit=FRA-3I cause=collapse\n  EVENT eliminated",
     "EVENT eliminated unit=FRA-4I cause=collapse\n  EVENT reduced unit=FRA-3I cause=collapse\n  EVENT x",
     "from the previous EVENT's on"),
    ("mobilize-ussr-tank-reduced", "unit USSR-2S shock\n", "unit USSR-2S no-shock\n", "shock is True"),
    ("mobilize-ussr-tank-reduced", "unit USSR-1T no-shock", "unit USSR-1T shock", "shock is False"),
    ("turn-track-boxes", "turn-track 2 empty", "turn-track 2 UK-1I", "holds nothing"),
    ("turn-track-boxes", "turn-track 3 UK-2I western:partisans", "turn-track 3 UK-2I", "holds UK-2I western"),
    ("zoc-no-ezoc-marker-stays", "marker no-ezoc 0506 on", "marker no-ezoc 0506 off", "is on"),
    ("track-printed-will", "track FRA printed-will 35", "track FRA printed-will 18", "is 35"),
    ("track-printed-will", "track FRA fac-lost none", "track FRA fac-lost 1", "is None"),
])
def test_a_new_check_fails_when_the_state_differs(tmp_path: Path, name: str, old: str, new: str,
                                                  found: str) -> None:
    with pytest.raises(CaseFailed) as err:
        _run(tmp_path, name, old, new)
    assert found in str(err.value), str(err.value)


def test_either_rule_fails_when_neither_is_cited(tmp_path: Path) -> None:
    with pytest.raises(CaseFailed, match=re.escape("expected rule USE 6.2.3 | USE 5.1, got USE 4.1.4")):
        _run(tmp_path, "air-support-sm-either-rule", "USE 6.2.3 | USE 4.1.4", "USE 6.2.3 | USE 5.1")


def test_mixed_alternatives_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="not both"):
        _run(tmp_path, "air-support-sm-either-rule", "USE 6.2.3 | USE 4.1.4", "USE 6.2.3 | USE 4.1.4 & 5.1")


@pytest.mark.parametrize(("statement", "rule"), [("amphibious-invasion GER-1I NS 0505", "6.3.2")])
def test_what_use_does_not_represent_is_refused_by_name(statement: str, rule: str) -> None:
    with pytest.raises(InvalidInput, match=rule):
        rulesapi.get("use").case_prestate([(1, "map blank 20x20"), (2, statement)])


class _TwoRefusals(rulesapi.RulesModule):
    """A game that refuses a file with two errors at once, citing rules 1 and 2."""

    name = "two"

    def rules_hash(self) -> bytes:
        return b""

    def scenarios(self) -> list[str]:
        return []

    def load_scenario(self, name: str) -> rulesapi.Scenario:
        raise NotImplementedError

    def initial_state(self, scenario: rulesapi.Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        raise NotImplementedError

    def pending(self, public: Any) -> rulesapi.Pending | None:
        return None

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        raise OrderErrors([IllegalOrder("first", rule="TWO 1"), IllegalOrder("second", rule="TWO 2")])

    def public_orders(self, orders: Any) -> Any:
        return orders

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        return public

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any,
              ctx: rulesapi.Context) -> rulesapi.Outcome:
        raise NotImplementedError

    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        return {}, {}

    def case_check(self, public: Any, private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
        return []


@pytest.mark.parametrize(("expect", "ok"), [("TWO 1", True), ("TWO 2", False), ("2 | 1", True),
                                             ("2 | 3", False), ("TWO 1 & TWO 2", True), ("1 & 3", False)])
def test_all_of_reads_every_error_of_the_refusal(tmp_path: Path, expect: str, ok: bool) -> None:
    path = tmp_path / "two.case"
    path.write_text(f"CASE two\nRULE TWO 1\nPRESTATE\n  x\nORDERS red\n  go\nEXPECT ILLEGAL {expect}\nEND\n",
                    encoding="utf-8")
    if ok:
        run_case(parse_case(path), _TwoRefusals())
    else:
        with pytest.raises(CaseFailed, match="got TWO 1, TWO 2"):
            run_case(parse_case(path), _TwoRefusals())


def test_event_fields_read_as_text() -> None:
    events = [{"kind": "combat", "attackers": ["A", "B"], "parts": {"will commit": 1}, "iso": False,
               "air": None}]
    good = [(1, "EVENT combat attackers=A,B attackers.1=B \"parts.will commit=1\" iso=false air=none"),
            (2, "EVENT combat missing=none"), (3, "NO-EVENT combat iso=true")]
    assert check_events(good, events) == []
    bad = check_events([(1, "EVENT combat attackers.2=B"), (2, "EVENT combat air"), (3, "EVENT")], events)
    assert len(bad) == 3 and "PATH=VALUE" in bad[1] and "cannot read" in bad[2], bad
