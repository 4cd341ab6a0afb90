"""The EuroFront rules module (rules/eurofront) on the SCW: its rules cases and its fog of war.

The module is not registered as a game yet, so tests/test_cases.py skips its cases; they run
here through pbem.kit.cases.run_case with the module itself (author and opponent tools).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import IllegalOrder, InvalidInput
from pbem.formats import canonical
from pbem.kit.cases import ScriptedContext, parse_case, run_case
from pbem.rulesapi import RulesModule

# Installed as pbem_rules (setup.cfg); mypy reads the source tree as rules/.
RULES: RulesModule = importlib.import_module("pbem_rules.eurofront").RULES

CASES = sorted((Path(__file__).resolve().parent / "cases" / "eurofront").glob("*.case"))
N, R = "nationalists", "republicans"
# The historical seal's secret shuffle rolls: Burgos (d2) for the Nationalists; Madrid (d4, d3,
# d2) and Barcelona (d2) for the Republicans.
SHUFFLE_A = [2, 4, 1, 2, 1]
SHUFFLE_B = [1, 1, 3, 1, 2]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    run_case(parse_case(path), RULES)


def test_enough_cases_each_naming_its_rule() -> None:
    assert len(CASES) >= 20
    for p in CASES:
        assert parse_case(p).rule.startswith("EF ")


class Game:
    """Two tools: the author's (full orders, private state) and the opponent's (public wire only)."""

    def __init__(self, dice: list[int]) -> None:
        scenario = RULES.load_scenario("scw-1936")
        self.public, self.private = RULES.initial_state(scenario, {N: "a", R: "b"}, {"setup": "historical"})
        self.seen = self.public
        self.author = ScriptedContext("", dice)
        self.opponent = ScriptedContext.opponent_of(self.author)
        self.seq = 0
        self.wire: list[bytes] = []  # what every seat's tool receives: public orders and events
        self.told = 0

    def play(self, seat: str, text: str) -> None:
        self.seq += 1
        for c in (self.author, self.opponent):
            c.seat, c.seq = seat, self.seq
        orders = RULES.parse_orders(text, seat, self.public, self.private[seat])
        out = RULES.apply(self.public, {seat: self.private[seat]}, seat, orders, self.author)
        self.public, self.private = out.public, {**self.private, **out.private}
        wire = canonical.encode(RULES.public_orders(orders))
        replay = RULES.apply(self.seen, {}, seat, RULES.orders_from_wire(canonical.decode(wire), None),
                             self.opponent)
        assert RULES.digest(replay.public) == RULES.digest(self.public)
        self.seen = replay.public
        self.wire += [wire, canonical.encode(self.author.events[self.told:])]  # this file's events
        self.told = len(self.author.events)

    def hq(self, seat: str, kind: str = "HQ") -> str:
        return str(next(t for t, i in sorted(self.private[seat]["blocks"].items()) if i["type"] == kind))


def _opening_turn(dice: list[int]) -> Game:
    g = Game(dice)
    g.play(N, "seal")
    g.play(R, "seal")
    g.play(N, f"activate {g.hq(N)}\nend-phase")
    return g


def test_seal_shuffles_in_secret_and_public_state_is_the_same() -> None:
    a, b = Game(SHUFFLE_A), Game(SHUFFLE_B)
    for g in (a, b):
        g.play(N, "seal")
        g.play(R, "seal")
    madrid = ("r3", "r4", "r5", "r6")
    assert [a.private[R]["blocks"][t]["unit"] for t in madrid] != [b.private[R]["blocks"][t]["unit"] for t in madrid]
    # Paired test (issue 13 item 2): other hidden identities, same public facts, same bytes.
    assert canonical.encode(a.public) == canonical.encode(b.public)
    assert [len(w) for w in a.wire] == [len(w) for w in b.wire]


def _hidden_units(g: Game, side: str) -> list[str]:
    # A block gone from the map (always opened first) may stay in its owner's private state.
    return [i["unit"] for t, i in g.private[side]["blocks"].items()
            if t in g.public["blocks"] and g.public["blocks"][t]["opened"] is None]


def test_no_identity_leaks_to_the_opponent() -> None:
    g = _opening_turn(SHUFFLE_A)
    hq = g.hq(N)
    inf = next(t for t, i in g.private[N]["blocks"].items() if i["unit"] == "N-NAV")
    g.play(N, f"move {inf} 1404 1405\nend-phase")
    seen = json.dumps(g.public) + "".join(w.hex() for w in g.wire)
    for unit in _hidden_units(g, N) + _hidden_units(g, R):
        assert unit not in json.dumps(g.public) and unit.encode().hex() not in seen, unit
    assert g.public["blocks"][hq]["opened"]["unit"] == "N-MOLA"  # revealed by the rules (5.2)


def test_refusal_names_no_enemy_identity() -> None:
    g = _opening_turn(SHUFFLE_A)
    for text in ("move r3 1106", "activate r3", "move r1 1012"):
        with pytest.raises(IllegalOrder) as e:
            g.play(N, text)
        assert not any(u in str(e.value) for u in _hidden_units(g, R)), str(e.value)


def test_illegal_hidden_move_caught_at_reveal() -> None:
    """A tampered tool lies to itself (its THQ 'is Armor'), moves it 3 hexes hidden: the opponent's
    tool accepts the move (3 is legal for some block), and catches it when the THQ is revealed."""
    g = Game([*SHUFFLE_A, 3])  # 3: the French Aid die of August (SCW 3)
    g.play(N, "seal")
    g.play(R, "seal")
    thq, hq = g.hq(N, "THQ"), g.hq(N)
    g.play(N, f"activate {hq}\nend-phase")
    g.private[N]["blocks"][thq] = {**g.private[N]["blocks"][thq], "type": "Armor"}
    g.play(N, f"move {thq} 1105 1106 1206\nend-phase")
    g.play(R, "end-phase\nend-phase")
    for seat in (N, R, N, R):  # August's Production (11.0), nothing built
        g.play(seat, "end-phase")
    g.private[N]["blocks"][thq] = {**g.private[N]["blocks"][thq], "type": "THQ"}
    with pytest.raises(IllegalOrder) as e:
        g.play(N, f"activate {thq}")
    assert e.value.rule == "EF 2.2" and f"file 4 by {N}" in str(e.value) and "N-JDN" in str(e.value)


def test_end_of_game_audit_rechecks_trails_never_opened() -> None:
    """The same lie, but the THQ is never opened: the trail is re-checked against the commitment
    opened at the end (rules/eurofront/audit.py; the engine hook it needs is described there)."""
    audit_final = importlib.import_module("pbem_rules.eurofront.audit").audit_final

    g = Game(SHUFFLE_A)
    g.play(N, "seal")
    g.play(R, "seal")
    thq, hq = g.hq(N, "THQ"), g.hq(N)
    assert audit_final(g.seen, g.author.commitments) == []
    g.play(N, f"activate {hq}\nend-phase")
    g.private[N]["blocks"][thq] = {**g.private[N]["blocks"][thq], "type": "Armor"}
    g.play(N, f"move {thq} 1105 1106 1206\nend-phase")
    found = audit_final(g.seen, g.author.commitments)
    assert len(found) == 1 and "EF 2.2" in found[0] and f"file 4 by {N}" in found[0] and "N-JDN" in found[0]
    assert audit_final(g.seen, {}) and all("never opened" in v for v in audit_final(g.seen, {}))


def test_hidden_attrition_removal_is_audited() -> None:
    """A hidden block removed by attrition keeps its trail and its claim for the end-of-game audit."""
    audit_final = importlib.import_module("pbem_rules.eurofront.audit").audit_final

    text = (Path(__file__).resolve().parent / "cases" / "eurofront" / "attrition-last-step-removed.case")
    case = parse_case(text)
    public, private = RULES.case_prestate(case.prestate)
    author = ScriptedContext("", list(case.dice))
    for i, block in enumerate(case.orders):
        author.seat, author.seq = block.seat, i + 1
        orders = RULES.parse_orders(block.text, block.seat, public, private.get(block.seat))
        out = RULES.apply(public, {block.seat: private.get(block.seat)}, block.seat, orders, author)
        public, private = out.public, {**private, **out.private}
    assert "r1" in public["removed"] and "R-INF" not in json.dumps(public)
    assert audit_final(public, author.commitments) == []
    lied = {ref: ({**v, "cv": 2} if isinstance(v, dict) and v.get("token") == "r1" else v)
            for ref, v in author.commitments.items()}
    assert any("10.6" in v for v in audit_final(public, lied))


def test_sealed_production_stays_off_the_wire() -> None:
    """11.1: the build and arrive lines are sealed: the public orders carry none of them."""
    orders = {"orders": [{"verb": "build", "block": "n2", "line": 1, "col": 1, "cost": 4},
                         {"verb": "arrive", "unit": "R-IB", "hex": "1409", "line": 2, "col": 1},
                         {"verb": "end-phase", "line": 3, "col": 1}]}
    assert [o["verb"] for o in RULES.public_orders(orders)["orders"]] == ["end-phase"]


def test_legal_actions_parse_and_views() -> None:
    g = _opening_turn(SHUFFLE_A)
    acts = RULES.legal_actions(g.public, g.private[N], N)
    assert {a.verb for a in acts} >= {"move", "mobilize", "end-phase"}
    assert RULES.legal_actions(g.public, g.private[R], R) == []
    for a in acts:
        text = a.line({"path": " ".join(a.paths[0])} if a.paths else None)
        RULES.parse_orders(text, N, g.public, g.private[N])
        if a.verb == "move":
            RULES.check_orders(text, N, g.public, g.private[N])
    mine = RULES.summary_view(g.public, g.private[N], N)["map"]
    units: list[dict[str, Any]] = mine["units"]
    assert all(not u["face_down"] for u in units if u["side"] == N)
    assert all(u["face_down"] for u in units if u["side"] == R)
    mailed = RULES.summary_view(g.public, None, None)["map"]["units"]
    assert [u["face_down"] for u in mailed if u["side"] == N].count(False) == 1  # the active HQ
    assert "N-MOLA" in RULES.describe_event(g.author.events[-1]) or any(
        "N-MOLA" in RULES.describe_event(e) for e in g.author.events)


def test_check_orders_dry_activation() -> None:
    g = Game(SHUFFLE_A)
    g.play(N, "seal")
    g.play(R, "seal")
    assert RULES.check_orders(f"activate {g.hq(N)}", N, g.public, g.private[N]) == []
    errors = RULES.check_orders("activate n1", N, g.public, g.private[N])  # La Coruna's infantry
    assert [e.rule for e in errors] == ["EF 5.2"]


def test_strict_dice_reserves_the_seal_shuffle() -> None:
    g = Game(SHUFFLE_A)
    assert RULES.initial_reservations(g.public) == {N: 1, R: 4}


def test_map_picture_draws() -> None:
    from pbem.present.render import map_svg

    g = _opening_turn(SHUFFLE_A)
    svg = map_svg(RULES.summary_view(g.public, g.private[R], R)["map"])
    # the Republicans' own blocks, the revealed Nationalist HQ, no hidden Nationalist block
    assert "Madrid" in svg and ">FP<" in svg and ">MOLA<" in svg and "NAV" not in svg
    # SCW 2: garrisons are public blank flat blocks: drawn for every reader, the mailed summary too
    pub = {**g.public, "garrisons": {"1409": {"side": N, "unsupplied": True}}}
    pic = RULES.summary_view(pub, None, None)["map"]
    gar = [u for u in pic["units"] if u.get("id") == "garrison-1409"]
    assert gar == [{"hex": "1409", "id": "garrison-1409", "text": "Gar", "sub": "", "side": N,
                    "flags": ["no-supply"], "face_down": False}]
    assert ">Gar<" in map_svg(pic)


class Table:
    """Two players' homes playing the SCW through the real protocol (turn files, strict dice)."""

    def __init__(self, tmp_path: Path, setup: str | None = "historical", option: str | None = None) -> None:
        from pbem.play import game
        from pbem.protocol import genesis

        helpers = importlib.import_module("helpers")  # tests/helpers.py (on the path through conftest)
        self.deliver = helpers.deliver
        self.players = {s: helpers.make_player(tmp_path, s) for s in (N, R)}
        data = genesis.make_proposal(self.players[N].session.ident, rules_name="eurofront", scenario="scw-1936",
                                     my_seat=N, cards={s: p.card for s, p in self.players.items()},
                                     options={"strict_dice": True, **({"setup": setup} if setup else {}),
                                              **({"setup-option": option} if option else {})},
                                     rng=self.players[N].session.rng,
                                     now=1_700_000_000)
        self.gid = game.create(self.players[N].session, data).con.game_id
        game.receive(self.players[R].session, data)
        jf, _ = game.join(self.players[R].session, data)
        game.receive(self.players[N].session, jf.raw)

    def dir(self, seat: str) -> Any:
        from pbem.store import gamestore

        return gamestore.game_dir(self.players[seat].home, self.gid)

    def load(self, seat: str) -> Any:
        from pbem.play import game

        return game.load(self.players[seat].session, self.dir(seat))

    def play(self, seat: str, text: str) -> None:
        while (pend := self.load(seat).pending()) is not None and pend.kind == "dice-release":
            self.deliver(self.players, self.gid, pend.seat, "")
        self.deliver(self.players, self.gid, seat, text)

    def end_and_audit(self) -> list[list[str]]:
        from pbem.play import audit, game

        for seat, other, how in ((N, R, "conceded"), (R, N, "")):
            f, _ = game.end(self.players[seat].session, self.dir(seat), how)
            game.receive(self.players[other].session, f.raw)
        return [audit.audit(p.session, self.dir(s)).violations for s, p in self.players.items()]


@pytest.fixture
def registered() -> Any:
    from pbem import rulesapi

    rulesapi.register(RULES)
    yield
    rulesapi.unregister(RULES.name)


def test_first_fortnight_through_the_protocol_and_its_audit(tmp_path: Path, registered: None) -> None:
    """Seal, activation (an opening checked by the other tool), a hidden move into an attack, the
    battle's reveals by each side's own file, fire with strict dice, and the audit of it all."""
    t = Table(tmp_path)
    t.play(N, "seal")
    t.play(R, "seal")
    mine = t.load(N).private
    hq = next(tk for tk, i in sorted(mine["blocks"].items()) if i["type"] == "HQ")
    nav = next(tk for tk, i in mine["blocks"].items() if i["unit"] == "N-NAV")
    t.play(N, f"activate {hq}\nend-phase")
    t.play(N, f"move {nav} 1303 1202\nend-phase")  # Pamplona to Bilbao (hills): an attack, 6.4
    theirs = t.load(R)
    assert theirs.public["blocks"][hq]["opened"]["unit"] == "N-MOLA"
    assert "N-NAV" not in json.dumps(theirs.public) and "N-NAV" not in json.dumps(theirs.private)
    assert theirs.public["blocks"][nav]["hex"] == "1202" and "1202" in theirs.public["battles"]
    t.play(N, "battle 1202\nend-phase")  # 7.14: reveals N-NAV; 7.15: a new battle is fought
    t.play(R, "end-phase")  # the Republicans' tool reveals its own block and fires first (7.22)
    t.play(N, "end-phase")  # Offensive Fire
    theirs = t.load(R)
    assert theirs.public["blocks"][nav]["opened"]["unit"] == "N-NAV"
    kinds = [e["kind"] for entry in theirs.log for e in entry["events"]]
    assert kinds.count("revealed") == 2 and "fire" in kinds
    t.play(R, "end-phase\nend-phase\nend-phase")
    assert t.load(N).public["month"] == "1936-08"
    assert t.end_and_audit() == [[], []]  # audit_final included: every trail checks out


def test_end_of_game_audit_through_the_protocol(tmp_path: Path, registered: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A tampered Nationalist tool seals its THQ honestly but keeps it as 'Armor', then moves it 3
    hexes hidden. The Republicans' tool accepts the move (3 hexes is legal for some block); the THQ
    is never opened in play; the full audit finds the move with the file, the seat and the rule."""
    t = Table(tmp_path)
    honest = RULES.apply

    def lying(public: Any, private: dict[str, Any], seat: str, orders: Any, ctx: Any) -> Any:
        out = honest(public, private, seat, orders, ctx)
        if seat == N and N in out.private and not public["sealed"]:
            blocks = out.private[N]["blocks"]
            for tok in blocks:
                if blocks[tok]["type"] == "THQ":
                    blocks[tok] = {**blocks[tok], "type": "Armor"}
        return out

    monkeypatch.setattr(RULES, "apply", lying)
    t.play(N, "seal")
    monkeypatch.setattr(RULES, "apply", honest)
    t.play(R, "seal")
    mine = t.load(N).private["blocks"]
    thq = next(tk for tk, i in mine.items() if i["unit"] == "N-JDN")
    hq = next(tk for tk, i in sorted(mine.items()) if i["type"] == "HQ")
    t.play(N, f"activate {hq}\nend-phase")
    t.play(N, f"move {thq} 1105 1106 1206\nend-phase")  # file 4 (the joins are not turn files)
    t.play(R, "end-phase\nend-phase")
    assert t.load(R).public["blocks"][thq]["opened"] is None
    for found in t.end_and_audit():
        final = [v for v in found if v.startswith("at the game's end")]
        assert len(final) == 1 and "EF 2.2" in final[0] and f"file 4 by {N}" in final[0] and "N-JDN" in final[0], found


def test_assigned_cvs_sealed_then_totals_audited(tmp_path: Path, registered: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """EF 22.2: the CVs assigned in the seal file never reach the other side (only the sealed
    identities do); a tool that skips the totals check seals 11 infantry CV: the other side's
    tool cannot see it in play, the end-of-game audit (every identity opened) reports it."""
    assign = importlib.import_module("pbem_rules.eurofront.assign")
    t = Table(tmp_path, "semi-historical")
    t.play(N, "cv N-NAV 3\ncv N-LEG 1\nseal")
    theirs = t.load(R)
    assert "N-NAV" not in json.dumps(theirs.public) and "N-NAV" not in json.dumps(theirs.log, default=str)
    t.play(R, "seal")
    assert t.end_and_audit() == [[], []]

    lying = Table(tmp_path / "lying", "semi-historical")
    monkeypatch.setattr(assign, "check_totals", lambda env: None)
    lying.play(N, "cv N-NAV 3\nseal")
    monkeypatch.undo()
    lying.play(R, "seal")
    for found in lying.end_and_audit():  # the replay of the seal with the author's orders finds it first
        assert any("file 1 by nationalists" in f and "11 CV" in f and "EF 22.2" in f for f in found), found


def test_sealed_free_placement_through_the_protocol(tmp_path: Path, registered: None) -> None:
    """setup-option sealed-free: two sealed placement files, each opened by its side's seal file;
    the other side never sees a unit, the audit is clean."""
    t = Table(tmp_path, "free", "sealed-free")
    t.play(N, "place N-LEG 0915\nplace N-REG1 0916\nplace N-REG2 1216\nplace N-NAV 1403\nplace N-GAL 0502\n"
              "place N-SEV 0812\nplace N-JDN 1104\nplace N-MOLA 1104")
    assert "1403" not in json.dumps(t.load(R).public) and "N-NAV" not in json.dumps(t.load(R).log, default=str)
    t.play(R, "place R-FP 1107\nplace R-CEN 1107\nplace R-MAD 1107\nplace R-CAT 2005\nplace R-LEV 1608\n"
              "place R-NOR 1202")
    t.play(N, "seal")
    t.play(R, "seal")
    theirs = t.load(R).public
    assert sorted(b["hex"] for b in theirs["blocks"].values() if b["side"] == N)[:1] == ["0502"]
    assert "N-NAV" not in json.dumps(theirs) and theirs["phase"] == "command"
    assert t.end_and_audit() == [[], []]


def test_opened_identity_checked_against_the_ob() -> None:
    """EF 22.2, 3.21, 11.82: every tool checks an opened identity against the O/B."""
    assign = importlib.import_module("pbem_rules.eurofront.assign")
    semi = {"scenario": "scw-1936", "setup": "semi-historical", "ob": True}
    nav = {"unit": "N-NAV", "type": "Infantry", "nation": "spain-nat", "cv": 4, "max": 4}
    assert assign.check_identity(semi, N, nav) is None
    assert "1 to 4" in assign.check_identity(semi, N, {**nav, "cv": 5})
    assert "historical" in assign.check_identity({**semi, "setup": "historical"}, N, nav)
    assert "O/B" in assign.check_identity(semi, N, {**nav, "type": "Armor"})
    assert "O/B" in assign.check_identity(semi, N, {**nav, "unit": "N-FAKE"})
    assert assign.check_identity({**semi, "ob": False}, N, {**nav, "unit": "N-FAKE"}) is None  # a case's blocks
    pav = {"unit": "R-PAV", "type": "Armor", "nation": "ussr", "cv": 2, "max": 4}
    assert assign.check_identity(semi, R, pav) is None  # 11.82: one CV weaker
    assert "11.82" in assign.check_identity(semi, R, {**pav, "cv": 4})
    # The audit's own sum over every opened identity (audit_final): one Nationalist CV too many.
    public, private = RULES.initial_state(RULES.load_scenario("scw-1936"), {}, {"setup": "semi-historical"})
    opened, blocks = {}, {}
    for side in (N, R):
        for i, (tok, ident) in enumerate(sorted(private[side]["blocks"].items())):
            blocks[tok] = {"side": side, "ref": f"ref-{tok}"}
            opened[f"ref-{tok}"] = {"token": tok, **ident, "cv": ident["cv"] + (1 if side == N and i == 0 else 0)}
    found = assign.audit_totals({**public, "blocks": blocks}, opened)
    assert len(found) == 1 and found[0].startswith(f"{N}: the ") and "EF 22.2" in found[0], found


def test_demo_script_plays_through_the_protocol(tmp_path: Path, registered: None) -> None:
    """The `make demo` month (default set-up): a battle whose blocks are revealed, militia placed by
    public rolls, and the simultaneous sealed production opened by both sides; the audit is clean."""
    from pbem.cli import demo

    script = RULES.demo_script("scw-1936")
    assert script is not None and RULES.demo_script("nowhere") is None
    t = Table(tmp_path, setup=None)
    steps = demo.parse_script(script)
    while steps:
        seat, text = steps.pop(0)
        pend = t.load(N).pending()
        if seat == "*":
            if pend is not None and not pend.phase.startswith(text):
                steps[:0] = [(pend.seat, "end-phase\n"), ("*", text)]
            continue
        t.play(seat, text)
    final = t.load(R)
    kinds = [e["kind"] for entry in final.log for e in entry["events"]]
    assert {"militia-roll", "activated", "battle", "revealed", "fire"} <= set(kinds), kinds
    assert final.public["produced"] == "1936-08" and final.public["setup"] == "semi-historical"
    built = [e for e in kinds if e in ("built", "build", "produced", "production-opened")]
    assert built, sorted(set(kinds))
    assert t.end_and_audit() == [[], []]


@pytest.mark.parametrize("wire", [
    {"orders": [{"verb": "fly"}]},
    {"orders": [{"verb": "move", "block": "n1", "path": [1, 2], "line": 1, "col": 1, "supreme": False}]},
    {"orders": [{"verb": "move", "block": "n1", "line": True, "col": 1}]},
    {"orders": [{"verb": "move", "extra": 1}]},
    {"orders": [{"verb": "move", "block": "n1", "sealed": True}]},
    {"orders": "seal"},
])
def test_hostile_wire_orders_refused(wire: Any) -> None:
    with pytest.raises(InvalidInput):
        RULES.orders_from_wire(wire, None)


@pytest.mark.parametrize("order", [
    {"verb": "move", "block": "n99", "path": ["1105"], "supreme": False, "line": 1, "col": 1},
    {"verb": "move", "block": "n7", "path": ["9999"], "supreme": False, "line": 1, "col": 1},
])
def test_hostile_file_naming_nothing_refused_with_a_rule(order: dict[str, Any]) -> None:
    g = _opening_turn(SHUFFLE_A)
    with pytest.raises(IllegalOrder):
        RULES.apply(g.seen, {}, N, {"orders": [order]}, ScriptedContext.opponent_of(g.author))


class RandomDice(ScriptedContext):
    """The author's dice from a seeded generator (any number of them, each within its sides)."""

    def __init__(self, seed: int) -> None:
        super().__init__("", [])
        import random

        self.rng = random.Random(seed)

    def _take(self, sides: int, count: int, purpose: str) -> list[int]:
        self.used += count
        return [self.rng.randint(1, sides) for _ in range(count)]


def _pick(g: Game, seat: str, paths: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """An attack if the block can make one, else the path ending nearest the first enemy block."""
    foe = [b["hex"] for b in g.public["blocks"].values() if b["side"] != seat]
    from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
    from pbem.kit.hexgrid import parse_hex

    return min(paths, key=lambda p: (min(GRID.distance(parse_hex(p[-1]), parse_hex(h)) for h in foe), p))


def _bot_file(g: Game, seat: str) -> str:
    """Orders a plain player might give now: every legal action tried once, kept if the file stays legal."""
    lines: list[str] = []
    for a in RULES.legal_actions(g.public, g.private[seat], seat):
        if a.verb == "end-phase":
            continue
        values = {"path": " ".join(_pick(g, seat, a.paths))} if a.paths else None
        try:
            line = a.line(values)
        except InvalidInput:
            continue
        if not RULES.check_orders("\n".join([*lines, line]), seat, g.public, g.private[seat]):
            lines.append(line)
    return "\n".join([*lines, "end-phase"])


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_keeps_the_tools_agreed_and_the_blocks_hidden(seed: int) -> None:
    g = Game([])
    g.author = RandomDice(seed)
    g.opponent = ScriptedContext.opponent_of(g.author)
    files = 0
    while g.public["month"] < "1936-12" and not g.public["over"]:
        pend = RULES.pending(g.public)
        assert pend is not None
        g.play(pend.seat, _bot_file(g, pend.seat))
        files += 1
        for side in (N, R):
            assert not any(u in json.dumps(g.public) for u in _hidden_units(g, side))
    assert files > 20
    kinds = {e["kind"] for e in g.author.events}
    assert {"activated", "moved", "battle", "revealed", "fire"} <= kinds


def _bot_game(seed: int, setup: str, until: str) -> tuple[Game, Any]:
    """tools/bots.py's Bot writing every file in-process (its ``trial`` on this module with the
    author's own dice, copied, instead of an engine context); the opponent's tool replays each."""
    import copy
    import random
    import sys
    from types import SimpleNamespace

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    bots: Any = importlib.import_module("bots")
    g = Game([])
    g.public, g.private = RULES.initial_state(RULES.load_scenario("scw-1936"), {}, {"setup": setup})
    g.seen = g.public
    g.author = author = RandomDice(seed)
    g.opponent = ScriptedContext.opponent_of(g.author)

    def trial(d: Any, seat: str, text: str, rng: Any) -> tuple[Any, Any]:
        ctx = copy.copy(author)  # the same dice, and nothing of the trial kept
        ctx.rng, ctx.events, ctx.private_events, ctx.record = copy.deepcopy(author.rng), [], [], []
        for name in ("reserved", "rolled", "_open", "commitments", "rolls", "opened", "revealed"):
            setattr(ctx, name, dict(getattr(author, name)))
        ctx.seat, ctx.seq = seat, g.seq + 1
        out = RULES.apply(d.public, {seat: d.private}, seat, RULES.parse_orders(text, seat, d.public, d.private), ctx)
        return out.public, out.private.get(seat, d.private)

    saved = bots.trial
    bots.trial = trial
    try:
        players = {s: bots.Bot("eurofront", random.Random(seed * 7 + i)) for i, s in enumerate((N, R))}
        stats = bots.Stats()
        while not g.public["over"] and g.public["month"] <= until:
            pend = RULES.pending(g.public)
            assert pend is not None
            d = SimpleNamespace(rules=RULES, public=g.public, private=g.private[pend.seat])
            g.play(pend.seat, players[pend.seat].write(d, pend.seat, lambda n: b"", stats))
            stats.files += 1
    finally:
        bots.trial = saved
        sys.path.remove(str(Path(__file__).resolve().parent.parent / "tools"))
    return g, stats


@pytest.mark.parametrize(("seed", "setup"), [(1, "semi-historical"), (2, "free")])
def test_random_bots_play_the_scw_to_its_end(seed: int, setup: str) -> None:
    """No dead end: whoever must act always has a listed action the rules accept (tools/bots.py)."""
    g, stats = _bot_game(seed, setup, "9999")
    assert g.public["over"] and "SCW rule 9" in g.public["over"]
    assert stats.files > 200 and stats.orders["end-phase"]


def test_the_soak_plays_eurofront_unregistered(tmp_path: Path) -> None:
    """tools/soak.py registers the module in its own process (no entry point yet) and its bots
    move blocks along the rules' listed paths (``Action.paths``); the soak's invariants hold."""
    import sys

    from pbem import rulesapi

    tools = str(Path(__file__).resolve().parent.parent / "tools")
    sys.path.insert(0, tools)
    try:
        soak: Any = importlib.import_module("soak")
        res = soak.play_game(tmp_path, "eurofront-scw-1936", 1, stop_after=25)
    finally:
        sys.path.remove(tools)
        rulesapi.unregister("eurofront")
    assert res.files == 25 and res.stats.orders["seal"] == 2
    assert res.stats.orders["activate"] + res.stats.orders["move"] > 0
