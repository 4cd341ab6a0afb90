"""pbem.kit.orders with a made-up game (a counter and named tokens), independent of USE."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest

from pbem.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderErrors
from pbem.kit.orders import Line, Verb, VerbTable, illegal, resolve_name, rollback

Order = dict[str, Any]


@dataclass
class Env:
    state: dict[str, Any]


def refuse(order: Order, message: str, rule: str) -> None:
    illegal("TOY", order, message, rule)


def parse_add(ln: Line, o: Order) -> None:
    col, n = ln.take("a number")
    if not n.isdigit():
        raise ln.err(f"{n!r} is not a number", col)
    o["n"] = int(n)


def check_add(env: Env, o: Order) -> None:
    if env.state["count"] + o["n"] > 10:
        refuse(o, "the counter stops at 10", "2.1")


def apply_add(env: Env, o: Order) -> None:
    env.state["count"] += o["n"]


def parse_paint(ln: Line, o: Order) -> None:
    col, t = ln.take("a token")
    o["token"] = resolve_name(("red", "rose", "blue"), t, ln.no, col, what="token")
    o["colour"] = ln.word(("black", "white"), "a colour")


def apply_paint(env: Env, o: Order) -> None:
    env.state["paint"][o["token"]] = o["colour"]


def parse_nothing(ln: Line, o: Order) -> None:
    pass


def apply_end(env: Env, o: Order) -> None:
    env.state["phase"] = "done"


TABLE: VerbTable[Env, Line] = VerbTable("TOY", [
    Verb("add", parse_add, apply_add, check_add, ("counting",), "add N          # TOY 2.1"),
    Verb("paint", parse_paint, apply_paint, phases=("painting", "counting"), help="paint TOKEN COLOUR"),
    Verb("end", parse_nothing, apply_end, help="end", help_in={"painting": "end   # paint dries"}),
    Verb("note", parse_nothing, apply_end),
])


def parse(text: str) -> list[Order]:
    return TABLE.parse(text, Line)


def test_orders_carry_verb_line_and_column() -> None:
    assert parse("# a comment\n\n  add 3  # three\npaint RED white\nend") == [
        {"verb": "add", "line": 3, "col": 3, "n": 3},
        {"verb": "paint", "line": 4, "col": 1, "token": "red", "colour": "white"},
        {"verb": "end", "line": 5, "col": 1},
    ]


def test_every_bad_line_is_reported_at_once() -> None:
    with pytest.raises(OrderErrors) as e:
        parse("add x\nadd 2\njump\nadd\nend now")
    got = [(type(x).__name__, x.line, x.column) for x in e.value.errors]
    assert got == [("InvalidOrder", 1, 5), ("InvalidOrder", 3, 1), ("InvalidOrder", 4, 5),
                   ("InvalidOrder", 5, 5)]
    assert "unknown order 'jump'" in str(e.value)
    assert e.value.errors[1].hint == "orders: add, paint, end, note"
    assert "missing a number" in str(e.value.errors[2])
    assert "unexpected 'now'" in str(e.value.errors[3])


def test_one_error_alone_is_raised_as_itself() -> None:
    with pytest.raises(InvalidOrder, match="expected a colour"):
        parse("paint blue green")


def test_names_resolve_exactly_or_by_unique_prefix() -> None:
    assert parse("paint bl black")[0]["token"] == "blue"
    assert parse("paint ROSE black")[0]["token"] == "rose"
    with pytest.raises(AmbiguousOrder) as amb:
        parse("paint r black")
    assert "matches red, rose" in str(amb.value) and amb.value.column == 7
    with pytest.raises(InvalidOrder, match="no token named 'green'"):
        parse("paint green black")


def test_illegal_names_rulebook_rule_line_and_column() -> None:
    env = Env({"count": 8, "paint": {}})
    (o,) = parse("\n   add 5")
    with pytest.raises(IllegalOrder) as e:
        TABLE.run(env, o)
    assert (e.value.rule, e.value.line, e.value.column) == ("TOY 2.1", 2, 4)
    assert str(e.value) == "line 2, column 4: the counter stops at 10 [TOY 2.1]"
    assert env.state["count"] == 8  # the check refused before apply ran
    with pytest.raises(IllegalOrder) as whole:
        TABLE.illegal(None, "not your turn", "1.2")
    assert whole.value.line is None and whole.value.rule == "TOY 1.2"


def test_run_checks_then_applies() -> None:
    env = Env({"count": 0, "paint": {}})
    for o in parse("add 4\npaint red black\nadd 6"):
        TABLE.run(env, o)
    assert env.state == {"count": 10, "paint": {"red": "black"}}


def test_phases_and_listing_come_from_the_table() -> None:
    assert TABLE.names == ("add", "paint", "end", "note")
    assert TABLE.phase("add") == "counting" and TABLE.phase("paint") == "painting" and TABLE.phase("end") == ""
    assert TABLE.allowed("paint", "counting") and not TABLE.allowed("add", "painting")
    assert TABLE.allowed("note", "anything")
    assert TABLE.listing("counting") == ["add N          # TOY 2.1", "paint TOKEN COLOUR", "end"]
    assert TABLE.listing("painting") == ["paint TOKEN COLOUR", "end   # paint dries"]
    assert TABLE.listing("elsewhere") == ["end"]


def test_a_verb_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        VerbTable("TOY", [Verb("end", parse_nothing, apply_end), Verb("end", parse_nothing, apply_end)])


def test_rollback_restores_the_state_in_place() -> None:
    state: dict[str, Any] = {"count": 1, "paint": {"red": "white"}}
    held = state
    with pytest.raises(IllegalOrder):
        with rollback(state, copy.deepcopy):
            state["count"] = 7
            state["paint"]["red"] = "black"
            state["new"] = True
            refuse({"line": 1, "col": 1}, "no", "9")
    assert held is state and state == {"count": 1, "paint": {"red": "white"}}
    with rollback(state, copy.deepcopy):
        state["count"] = 2
    assert state["count"] == 2  # no error: the change stays
    with pytest.raises(KeyError):
        with rollback(state, copy.deepcopy):
            state["count"] = 3
            raise KeyError("not an order error")
    assert state["count"] == 3  # only the errors named are undone
