"""A second hex game written on the kit alone (tests/skirmish), played through the real protocol.

It shows what issue 9 asks of the kit: a new game is its map, its tables and its
own rules; map reading, the other column convention, one verb table with checks
before changes, the order template, the legal-actions query, the turn stepper and
the rules hash all come from pbem.kit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import deliver, make_player
from skirmish import GRID, SKIRMISH, TABLE, board, load_units

from pbem import rulesapi
from pbem.errors import IllegalOrder, OrderErrors
from pbem.kit.hexgrid import parse_hex
from pbem.play import audit, game
from pbem.protocol import genesis
from pbem.store import gamestore


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    rulesapi.register(SKIRMISH)
    yield
    rulesapi.unregister(SKIRMISH.name)


def test_map_read_by_the_kit_on_odd_columns() -> None:
    b = board()
    assert len(b.terrain) == 30 and b.terrain[parse_hex("0303")] == "water"
    # odd columns sit lower: 0201 is north-east of 0101
    assert GRID.adjacent(parse_hex("0101"), parse_hex("0201"))
    assert GRID.hexside(parse_hex("0302"), parse_hex("0402")) in b.rivers


def _state() -> dict[str, object]:
    return dict(load_units())


def _apply(text: str, seat: str = "red") -> dict[str, object]:
    from pbem.kit.cases import ScriptedContext

    state = _state()
    orders = SKIRMISH.parse_orders(text, seat, state, None)
    return SKIRMISH.apply(state, {}, seat, orders, ScriptedContext(seat, dice=[6, 6, 6])).public  # type: ignore[no-any-return]


@pytest.mark.parametrize(("text", "rule"), [
    ("move R1 0201", "SK 3.4"),  # R3 holds it
    ("move R1 0202 0203 0204", "SK 3"),
    ("move B1 0604", "SK 1"),
    ("attack R1 0201", "SK 2"),  # a fight order in the move phase
])
def test_refusals_name_the_rule(text: str, rule: str) -> None:
    with pytest.raises(IllegalOrder) as e:
        _apply(text)
    assert e.value.rule == rule


def test_a_refused_file_changes_nothing() -> None:
    state = _state()
    before = repr(state)
    orders = SKIRMISH.parse_orders("move R2 0202\nmove R1 0201\n", "red", state, None)
    from pbem.kit.cases import ScriptedContext

    with pytest.raises(IllegalOrder):
        SKIRMISH.apply(state, {}, "red", orders, ScriptedContext("red"))
    assert repr(state) == before


def test_parse_errors_all_at_once() -> None:
    with pytest.raises(OrderErrors) as e:
        SKIRMISH.parse_orders("move R9 0101\nfly R1\nmove R1 0909\n", "red", _state(), None)
    assert [err.line for err in e.value.errors] == [1, 2, 3]


def test_template_and_legal_actions_from_the_one_table() -> None:
    state = _state()
    assert "move UNIT HEX [HEX]" in SKIRMISH.order_template(state, None, "red")
    acts = SKIRMISH.legal_actions(state, None, "red")
    assert {a.verb for a in acts} == {"move", "end-phase"}
    assert SKIRMISH.legal_actions(state, None, "blue") == []
    assert TABLE.names == ("move", "attack", "end-phase")


def _choose(public: dict[str, object], seat: str) -> str:
    """A plain player: attack whatever it can, else close in, else end the phase."""
    acts = SKIRMISH.legal_actions(public, None, seat)
    for a in acts:
        if a.verb == "attack":
            unit, target = a.args[0].choices, a.args[1].choices
            assert unit and target
            return f"attack {unit[0]} {target[0]}\n"
    units = public["units"]
    assert isinstance(units, dict)
    enemies = [parse_hex(u["hex"]) for u in units.values() if u["side"] != seat]
    lines = []
    taken = {u["hex"] for u in units.values()}
    for name, u in sorted(units.items()):
        if u["side"] != seat or public["phase"] != "move":
            continue
        here = parse_hex(u["hex"])
        best = min((n for n in GRID.neighbours(here) if n in board().terrain
                    and board().terrain[n] != "water" and str(n) not in taken
                    and GRID.hexside(here, n) not in board().rivers),
                   key=lambda n: (min(GRID.distance(n, e) for e in enemies), str(n)), default=None)
        def gap(h: object) -> int:
            return min(GRID.distance(h, e) for e in enemies)  # type: ignore[arg-type]

        if best is not None and gap(best) < gap(here):
            lines.append(f"move {name} {best}")
            taken.discard(u["hex"])
            taken.add(str(best))
    return "\n".join(lines) + "\n" if lines else "end-phase\n"


def test_a_whole_game_through_the_protocol_and_its_audit(tmp_path: Path) -> None:
    players = {s: make_player(tmp_path, s) for s in ("red", "blue")}
    data = genesis.make_proposal(players["red"].session.ident, rules_name="skirmish", scenario="meeting",
                                 my_seat="red", cards={s: p.card for s, p in players.items()},
                                 options={"strict_dice": False}, rng=players["red"].session.rng,
                                 now=1_700_000_000)
    gid = game.create(players["red"].session, data).con.game_id
    game.receive(players["blue"].session, data)
    jf, _ = game.join(players["blue"].session, data)
    game.receive(players["red"].session, jf.raw)
    files = 0
    while True:
        d = game.load(players["red"].session, gamestore.game_dir(players["red"].home, gid))
        pend = d.pending()
        if pend is None:
            break
        text = "" if pend.kind == "dice-release" else _choose(d.public, pend.seat)
        deliver(players, gid, pend.seat, text)
        files += 1
        assert files < 200, "the game does not end"
    result = d.rules.result(d.public)
    assert result is not None and re.search(r"(wins|draw) \(\d+ to \d+ strength, SK 1\)", result)
    events = [e for entry in d.log for e in entry["events"]]
    assert any(e["kind"] == "attack" for e in events), "the bots never fought"
    ends = {s: game.end(p.session, gamestore.game_dir(p.home, gid))[0] for s, p in players.items()}
    for s, p in players.items():
        for t, f in ends.items():
            if t != s:
                game.receive(p.session, f.raw)
    for p in players.values():
        rep = audit.audit(p.session, gamestore.game_dir(p.home, gid))
        assert rep.clean, rep.violations


def test_the_rules_hash_covers_the_game_files() -> None:
    from skirmish import HERE

    from pbem.kit.digest import rules_digest

    assert SKIRMISH.rules_hash() == rules_digest("skirmish", "1", HERE)
    assert SKIRMISH.rules_hash() != rules_digest("skirmish", "2", HERE)
