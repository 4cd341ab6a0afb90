"""Replays every DATC-style rules case under tests/cases/<game>/ (see pbem.kit.cases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import rulesapi
from pbem.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError, OrderErrors
from pbem.kit.cases import Case, ScriptedContext, parse_case

CASES = Path(__file__).parent / "cases"
FILES = sorted(CASES.glob("*/*.case"))


def _first(err: OrderError | OrderErrors) -> OrderError:
    return err.errors[0] if isinstance(err, OrderErrors) else err


def _run(case: Case, game: str) -> None:
    rules = rulesapi.get(game)
    public, private = rules.case_prestate(case.prestate)
    ctx = ScriptedContext(seat="", dice=list(case.dice), strict_dice=case.strict)
    if case.strict:
        ctx.reserved_before(rules.initial_reservations(public))
    for i, block in enumerate(case.orders):
        last = i == len(case.orders) - 1
        ctx.seat, ctx.seq = block.seat, i + 1
        try:
            orders = rules.parse_orders(block.text, block.seat, public, private.get(block.seat))
            out = rules.apply(public, {block.seat: private.get(block.seat)}, block.seat, orders, ctx)
        except (OrderError, OrderErrors) as exc:
            err = _first(exc)
            if not (last and case.expect):
                pytest.fail(f"{case.path.name}: orders at line {block.line} refused: {err}")
            kind, rule = case.expect
            want: Any = {"ILLEGAL": IllegalOrder, "INVALID": InvalidOrder, "AMBIGUOUS": AmbiguousOrder}[kind]
            assert isinstance(err, want), f"expected {kind}, got {type(err).__name__}: {err}"
            if rule:
                assert err.rule is not None and err.rule.replace("USE ", "") == rule.replace("USE ", ""), (
                    f"expected rule {rule}, got {err.rule}: {err}"
                )
            return
        public = out.public
        private = {**private, **out.private}
    if case.expect:
        pytest.fail(f"{case.path.name}: expected {case.expect[0]} {case.expect[1] or ''} but the orders were accepted")
    problems = rules.case_check(public, private, case.poststate)
    assert not problems, f"{case.path.name} ({case.rule}):\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_case(path: Path) -> None:
    case = parse_case(path)
    game = path.parent.name
    if game not in rulesapi.available():
        pytest.skip(f"rules module {game!r} is not installed")
    _run(case, game)


def test_cases_name_their_rule() -> None:
    for path in FILES:
        assert parse_case(path).rule, path
