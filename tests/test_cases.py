"""Replays every DATC-style rules case under tests/cases/<game>/ (see pbem.kit.cases), as the author
and again as an opponent's tool would (public orders, no private state)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import rulesapi
from pbem.kit.cases import CaseFailed, ScriptedContext, parse_case, run_case

CASES = Path(__file__).parent / "cases"
FILES = sorted(CASES.glob("*/*.case"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_case(path: Path) -> None:
    case = parse_case(path)
    game = path.parent.name
    if game not in rulesapi.available():
        pytest.skip(f"rules module {game!r} is not installed")
    run_case(case, rulesapi.get(game))  # as the author, then as an opponent's tool


def test_cases_name_their_rule() -> None:
    for path in FILES:
        assert parse_case(path).rule, path


class _Fog(rulesapi.RulesModule):
    """A tiny game with a sealed plan and a secret roll; ``leak`` makes it peek where it must not."""

    name = "fog"

    def __init__(self, leak: str = "") -> None:
        self.leak = leak

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
        return {"plan": text.strip()}

    def public_orders(self, orders: Any) -> Any:
        return {"plan": None}

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        return private if private is not None else public

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any,
              ctx: rulesapi.Context) -> rulesapi.Outcome:
        s = dict(public, n=public["n"] + 1)
        if orders["plan"] == "open" or (orders["plan"] is None and public["n"] == 1):
            s["plan"], s["secret"] = ctx.open("1.0"), ctx.reveal_roll("1.r0")
        else:
            ref = ctx.commit("plan", orders["plan"])
            secret = ctx.secret_roll(6, "hidden")
            s["plan"] = orders["plan"] if self.leak == "state" else ref
            ctx.event("rolled", die=ctx.roll(6, "open")[0],
                      hidden=secret.values if self.leak == "event" else None)
        return rulesapi.Outcome(s)

    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        return {"n": 0}, {}

    def case_check(self, public: Any, private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
        want = {"plan": "attack", "secret": [4], "n": 2}
        return [] if public == want else [f"{public} is not {want}"]


FOG_CASE = """CASE fog-sealed-plan
RULE FOG 1
DESC A sealed plan and a secret roll, opened in the author's next file.
DICE-MODE window
PRESTATE
  start
DICE 4 2
ORDERS red
  attack
ORDERS red
  open
POSTSTATE
  opened
END
"""


def test_opponent_replay_reaches_the_author_state_without_the_secrets(tmp_path: Path) -> None:
    """The honest game: the opponent sees neither the plan nor the roll until they are opened."""
    path = tmp_path / "fog-sealed-plan.case"
    path.write_text(FOG_CASE, encoding="utf-8")
    run_case(parse_case(path), _Fog())


@pytest.mark.parametrize(("leak", "found"), [("state", "public state digest differs"),
                                              ("event", "public event 0 differs")])
def test_a_rule_that_leaks_a_secret_fails_the_opponent_replay_by_name(tmp_path: Path, leak: str,
                                                                      found: str) -> None:
    path = tmp_path / "fog-sealed-plan.case"
    path.write_text(FOG_CASE, encoding="utf-8")
    with pytest.raises(CaseFailed) as err:
        run_case(parse_case(path), _Fog(leak))
    msg = str(err.value)
    assert msg.startswith("fog-sealed-plan.case (FOG 1): orders at line 8, replayed as red's opponent"), msg
    assert found in msg


def test_the_opponent_knows_only_what_the_author_recorded() -> None:
    author = ScriptedContext("red", [3, 5])
    opponent = ScriptedContext.opponent_of(author)
    ref = author.commit("plan", "attack")
    assert opponent.commit("plan", "attack") == ref and opponent.commitments[ref] is None
    assert author.secret_roll(6, "hidden").values == [3] and opponent.secret_roll(6, "hidden").values is None
    with pytest.raises(CaseFailed, match="does not open"):
        opponent.open(ref)
    assert author.open(ref) == "attack" == opponent.open(ref)
    with pytest.raises(CaseFailed, match="records"):
        opponent.roll(4, "another purpose")
    assert author.roll(6, "open") == [5] == opponent.roll(6, "open")
    assert not opponent.author_mode


def test_a_dry_context_cycles_its_dice_and_knows_no_earlier_opening() -> None:
    """check_orders without the engine's context: no dice line, effects thrown away."""
    dry = ScriptedContext("axis")
    assert dry.roll(6, "a", 3) == [1, 2, 3] and dry.roll(2, "b") == [2]
    assert dry.open("3.0") == {}
    ref = dry.commit("plan", "x")
    assert ref.startswith("dry.") and dry.open(ref) == "x"
