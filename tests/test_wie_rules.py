"""The War in Europe rules module (rules/wie) on the 1945 scenario: its rules cases, the
three-seat scenario and the two-player seating (71.32), the sealed air commitment, legal
actions and the map picture. The module is not registered: it is used directly."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from pbem.formats import canonical
from pbem.kit.cases import ScriptedContext, parse_case, run_case
from pbem.rulesapi import RulesModule, seat_of_side

# Installed as pbem_rules (setup.cfg); mypy reads the source tree as rules/.
RULES: RulesModule = importlib.import_module("pbem_rules.wie").RULES
CASES = sorted((Path(__file__).parent / "cases" / "wie").glob("*.case"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    run_case(parse_case(path), RULES)


def test_enough_cases_each_naming_its_rule() -> None:
    assert len(CASES) >= 30
    for p in CASES:
        case = parse_case(p)
        assert case.rule.startswith("WIE "), p.name


def _start(name: str = "battle-for-germany-1945") -> tuple[Any, Any]:
    sc = RULES.load_scenario(name)
    public, _private = RULES.initial_state(sc, {s: s for s in sc.seats}, {})
    return sc, public


def test_three_seats_and_the_two_player_seating() -> None:
    sc, public = _start()
    assert sc.seats == ("axis", "allied", "soviet") and sc.sides == {}
    assert public["order"] == ["axis", "allied", "soviet"]  # 68.0
    two, public2 = _start("battle-for-germany-1945-2p")
    assert two.seats == ("axis", "allied") and two.sides == {"allied": ("allied", "soviet")}  # 71.32
    assert seat_of_side(two.side_map(), "soviet") == "allied"
    assert public2["seats"] == {"axis": ["axis"], "allied": ["allied", "soviet"]}
    assert len(public["units"]) == 693


def _play(public: Any, seat: str, text: str, ctx: ScriptedContext) -> Any:
    ctx.seat, ctx.seq = seat, ctx.seq + 1
    orders = RULES.parse_orders(text, seat, public, None)
    return RULES.apply(public, {}, seat, orders, ctx).public, orders


def test_air_commitment_is_sealed_and_opened_together() -> None:
    """68.1 A: each seat's missions travel only in its sealed part: the public orders are
    empty, the public state holds a reference; nothing resolves until the third opening."""
    _sc, public = _start()
    ctx = ScriptedContext("axis", [4, 4, 4, 4])
    public, orders = _play(public, "axis", "air east superiority 12\nair west support 10", ctx)
    wire = canonical.decode(canonical.encode(RULES.public_orders(orders)))
    assert wire == [] and "superiority" not in repr(public)
    pend = RULES.pending(public)
    assert list(public["air"]["refs"]) == ["axis"] and pend is not None and pend.seat == "allied"
    public, _ = _play(public, "allied", "", ctx)
    public, _ = _play(public, "soviet", "air east superiority 30", ctx)
    for seat in ("axis", "allied"):
        public, _ = _play(public, seat, "", ctx)
        assert public["air"]["results"] == {}
    public, _ = _play(public, "soviet", "", ctx)
    assert set(public["air"]["opened"]) == {"axis", "allied", "soviet"}
    assert public["air"]["results"]["east"]["axis"]["superiority"] < 12
    assert public["phase"] == "axis-movement"


def test_legal_actions_parse() -> None:
    _sc, public = _start()
    for a in RULES.legal_actions(public, None, "axis"):
        if a.verb == "air":
            RULES.parse_orders(a.line({"points": "5"}), "axis", public, None)
    assert RULES.legal_actions(public, None, "soviet") == []
    public = {**public, "phase": "allied-combat", "active": "allied"}
    acts = RULES.legal_actions(public, None, "allied")
    assert {a.verb for a in acts} >= {"end-phase", "break-association"}
    for a in acts:
        RULES.parse_orders(a.line(), "allied", public, None)


def test_summary_view_map_picture() -> None:
    _sc, public = _start()
    view = RULES.summary_view(public, None, None)
    pic = view["map"]
    assert pic["type"] == "hex" and pic["low_columns"] == "even" and (pic["cols"], pic["rows"]) == (84, 64)
    assert {"id", "fill", "label", "marker", "owner"} <= set(pic["hexes"][0])
    assert {u["side"] for u in pic["units"]} == {"axis", "allied", "soviet"}
    assert any(e["kind"] == "river" for e in pic["hexsides"]) and pic["lines"]
    assert any(f[0] == "Player-turn order (69.4)" for f in view["facts"])
    template = RULES.order_template(public, None, "axis")
    assert "air [SIDE] FRONT MISSION POINTS" in template


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "window"])
def test_one_game_turn_among_three_through_the_protocol(tmp_path: Path, strict: bool) -> None:
    """Three homes play the Joint Tactical Air War (three sealed commitments, three openings:
    six files) and the Axis player-turn through the real protocol; before the last opening
    no public state holds a mission; every home reaches the same state."""
    from helpers import deliver, make_player, start_game

    from pbem import rulesapi
    from pbem.play import game
    from pbem.store import gamestore

    rulesapi.register(RULES)
    try:
        seats = ("axis", "allied", "soviet")
        players = {s: make_player(tmp_path, s) for s in seats}
        gid = start_game(players, "wie", "battle-for-germany-1945", {"strict_dice": strict})
        commits = {"axis": "air east superiority 12", "allied": "air west support 30",
                   "soviet": "air east superiority 40"}
        files = 0
        releases: list[str] = []

        def pending() -> Any:
            """The next decision, after the dice releases the engine asks for (empty files)."""
            while True:
                d = game.load(players["axis"].session, gamestore.game_dir(players["axis"].home, gid))
                pend = d.pending()
                if pend is None or pend.kind != "dice-release":
                    return d, pend
                releases.append(pend.seat)
                deliver(players, gid, pend.seat, "")

        for phase in ("commit", "open"):
            for s in seats:
                d, pend = pending()
                assert pend is not None and pend.seat == s, (phase, pend)
                if phase == "open" and s == "axis":
                    # every commitment made, none opened: no mission is in the public state
                    assert d.public["air"]["opened"] == {} and "support" not in repr(d.public)
                    assert set(d.public["air"]["refs"]) == set(seats)
                deliver(players, gid, s, commits[s] if phase == "commit" else "")
                files += 1
        assert files == 6  # one round of commitments and one of openings
        # window: the two others' releases at the start; strict: none (the air war's dice are
        # reserved by the Soviet commitment and released by the other two openings)
        assert releases == ([] if strict else ["allied", "soviet"]), releases
        views = [game.load(p.session, gamestore.game_dir(p.home, gid)) for p in players.values()]
        assert views[0].public == views[1].public == views[2].public
        assert views[0].public["air"]["results"]["east"]["axis"]["superiority"] <= 12
        assert views[0].public["phase"] == "axis-movement"
        deliver(players, gid, "axis", "end-phase")  # the Axis Movement Phase
        d, pend = pending()
        attack = next(a for a in RULES.legal_actions(d.public, None, "axis") if a.verb == "attack")
        deliver(players, gid, "axis", attack.line())
        before = len(releases)
        d, pend = pending()
        # strict: the attack is rolled in the Axis's next file, after the other two released its seeds
        assert releases[before:] == (["allied", "soviet"] if strict else [])
        assert bool(d.public["combats"]) == strict
        deliver(players, gid, "axis", "end-phase\nend-phase")
        d, pend = pending()
        assert d.public["combats"] == []
        assert pend is not None and pend.seat == "allied" and d.public["phase"] == "allied-movement"
        views = [game.load(p.session, gamestore.game_dir(p.home, gid)) for p in players.values()]
        assert views[0].public == views[1].public == views[2].public
    finally:
        rulesapi.unregister(RULES.name)


@pytest.mark.parametrize("wire", [
    "nonsense", [{"verb": "fly"}], [{"verb": "move", "line": 1, "col": 1, "unit": "GER-001"}],
    [{"verb": "move", "line": 1, "col": 1, "unit": "GER-001", "path": ["x"]}],
    [{"verb": "attack", "line": 1, "col": 1, "hex": "4512", "units": []}],
    [{"verb": "end-phase", "line": True, "col": 1}],
    [{"verb": "end-phase", "line": 1, "col": 1, "extra": 2}],
])
def test_hostile_wire_orders_refused(wire: Any) -> None:
    from pbem.errors import InvalidInput

    with pytest.raises(InvalidInput):
        RULES.orders_from_wire(wire, None)


def test_every_parsed_order_passes_the_wire_check() -> None:
    _sc, public = _start()
    text = ("move GER-001 3115\nrail GER-002 3115\nattack 4512 with GER-001 GER-002 support 4\nadvance GER-001 4512\n"
            "interdict 4512\nair axis east superiority 5 vs soviet\nassociate allied as axis\n"
            "break-association soviet at allied-combat\ndeclare-war soviet\npropose-peace allied\n"
            "place 10-8 5013\nap west 4\nend-phase")
    orders = RULES.parse_orders(text, "axis", public, None)
    assert RULES.orders_from_wire(canonical.decode(canonical.encode(orders)), None) == orders


# Units out of supply at the first Initial Supply Phases of the 1945 set-up, each with its reason.
ISOLATED = {
    "GER-089": "Royan (C0811), an Atlantic fortress of 76.21, cut off since 1944 ([WiE-base 11.4] fortress hex)",
    "GER-090": "Lorient (C0903), an Atlantic fortress of 76.21 (a port and a fort)",
    "GER-091": "St Nazaire (C1006), an Atlantic fortress of 76.21 ([WiE-base 11.4] fortress hex)",
    "GER-092": "La Rochelle (C0909), an Atlantic fortress of 76.21 ([WiE-base 11.4] fortress hex)",
    "GER-093": "Dunkirk (C2704), the Channel fortress of 76.21 (a port)",
    "GER-098": "76.21's printed C2319 lies in the French Jura behind the Allied front (open question)",
    "GER-269": "a [5]-1 fortress unit on the authoring tool's default hex D4821 for Army Group F (76.3 step 4 "
               "lets the Axis place it anywhere in the area)",
}


def test_first_supply_check_of_the_1945_set_up() -> None:
    """[WiE-base 11]: at the first Initial Supply Phases the fronts of 76.2/76.3 trace supply (the
    Soviet rail to the east edges, Courland and Memel by the Baltic ports, the partisans of 73.5);
    only the isolated garrisons above do not, and the Atlantic fortresses are never eliminated."""
    from pbem_rules.wie import supply

    for name in ("battle-for-germany-1945", "battle-for-germany-1945-2p"):
        _sc, public = _start(name)
        out = {k for side in ("axis", "allied", "soviet") for k in supply.unsupplied(public, side)}
        assert out == set(ISOLATED), name
    lost = [k for _ in range(3) for k in supply.initial_supply_phase(public, "axis")]
    assert lost == ["GER-098"]  # the only one 11.4 eliminates: neither a port, a fort nor a fortress unit


def test_starting_sequence_is_an_option() -> None:
    """76.3: with ``starting_sequence`` steps 1, 4 and 5 come before game-turn 1 (the Allied
    player first); without it the game starts from units.txt's placement at the air war."""
    sc = RULES.load_scenario("battle-for-germany-1945")
    plain, _ = RULES.initial_state(sc, {s: s for s in sc.seats}, {})
    staged, _ = RULES.initial_state(sc, {s: s for s in sc.seats}, {"starting_sequence": True})
    assert (plain["phase"], plain["setup"]) == ("air-commit", False)
    assert (staged["phase"], staged["active"], staged["setup"]) == ("setup-1", "allied", True)
    assert staged["pool"]["allied"]["units"] == ["SUP"] * 5
    pend = RULES.pending(staged)
    assert pend is not None and pend.seat == "allied" and "76.3" in pend.wanted


def test_ss_limit_is_an_option() -> None:
    """77.6 (c) "may be disregarded if the Players desire": the game option ``ss_any_time``."""
    sc = RULES.load_scenario("battle-for-germany-1945")
    plain, _ = RULES.initial_state(sc, {s: s for s in sc.seats}, {})
    free, _ = RULES.initial_state(sc, {s: s for s in sc.seats}, {"ss_any_time": True})
    assert "ss_any_time" not in plain and free["ss_any_time"] is True


def test_76_25_bomb_hits_at_the_start() -> None:
    """76.25's bombed centers start with their hits ([WiE-base 24.6]): Dulmen, Wesseling (Cologne's
    hex), Leuna, Brux, Politz (Stettin's hex)."""
    _sc, public = _start()
    assert public["bombing"]["hits"] == {"3708": ["R"], "3510": ["R"], "4515": ["R", "T"], "4619": ["T"],
                                         "5412": ["T"]}
    assert public["bombing"]["sb"] == 32 and public["bombing"]["bases"] == ["great-britain", "france", "italy"]


class _RandomDice(ScriptedContext):
    """The author's dice from a seeded generator, window mode (no dice-release files)."""

    def __init__(self, seed: int) -> None:
        super().__init__("", [])
        import random

        self.rng = random.Random(seed)

    def _take(self, sides: int, count: int, purpose: str) -> list[int]:
        self.used += count
        return [self.rng.randint(1, sides) for _ in range(count)]


def _bot_game(seed: int, scenario: str, turns: int, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """tools/bots.py's Bot writing every file in-process (its ``trial`` on this module with the
    author's own dice, copied): a fixed number of game-turns or the game's end."""
    import copy
    import random
    import sys
    from types import SimpleNamespace

    tools = str(Path(__file__).resolve().parent.parent / "tools")
    sys.path.insert(0, tools)
    bots: Any = importlib.import_module("bots")
    sc = RULES.load_scenario(scenario)
    public, _ = RULES.initial_state(sc, {s: s for s in sc.seats}, options or {})
    author = _RandomDice(seed)
    seq = 0

    def trial(d: Any, seat: str, text: str, rng: Any) -> tuple[Any, Any]:
        ctx = copy.copy(author)  # the same dice, and nothing of the trial kept
        ctx.rng, ctx.events, ctx.private_events, ctx.record = copy.deepcopy(author.rng), [], [], []
        for name in ("reserved", "rolled", "_open", "commitments", "rolls", "opened", "revealed"):
            setattr(ctx, name, dict(getattr(author, name)))
        ctx.seat, ctx.seq = seat, seq + 1
        out = RULES.apply(d.public, {}, seat, RULES.parse_orders(text, seat, d.public, None), ctx)
        return out.public, None

    saved = bots.trial
    bots.trial = trial
    try:
        players = {s: bots.Bot("wie", random.Random(seed * 7 + i)) for i, s in enumerate(sc.seats)}
        stats = bots.Stats()
        while not public["over"] and int(public["turn"]) <= turns:
            pend = RULES.pending(public)
            assert pend is not None
            d = SimpleNamespace(rules=RULES, public=public, private=None, seq=seq)
            text = players[pend.seat].write(d, pend.seat, lambda n: b"", stats)
            seq += 1
            author.seat, author.seq = pend.seat, seq
            orders = RULES.parse_orders(text, pend.seat, public, None)
            public = RULES.apply(public, {}, pend.seat, orders, author).public
            stats.files += 1
    finally:
        bots.trial = saved
        sys.path.remove(tools)
    return public, stats


@pytest.mark.parametrize(("seed", "scenario", "options"), [
    # seed 3: seed 1's random game (with the fort/rebuild offers) happens to make no accepted move;
    # 2p seed 3: seed 2's (with the bomb/reform offers) likewise
    (3, "battle-for-germany-1945", {"starting_sequence": True}), (3, "battle-for-germany-1945-2p", {})])
def test_random_bots_play_the_1945_scenario(seed: int, scenario: str, options: dict[str, Any]) -> None:
    """No dead end: whoever must act always has a listed action the rules accept (tools/bots.py).
    Six game-turns (~10 s); a whole game of 27 takes ~40 s and ends by 76.4 or a surrender."""
    public, stats = _bot_game(seed, scenario, 6, options)
    assert public["over"] or int(public["turn"]) == 7
    assert stats.files > 60 and stats.orders["end-phase"] and stats.orders["move"] and stats.orders["air"]
    assert stats.orders["deploy"] + stats.orders["place"] > 0 or not options


def _board(*lines: str) -> Any:
    public, _ = RULES.case_prestate(list(enumerate(lines, start=1)))
    return public


# A board where each verb beyond move/attack is legal (rules cases' PRESTATE lines), the verb, its seat.
OFFER_BOARDS = [
    ("rail", "axis", ("phase axis-movement",)),
    ("sail", "axis", ("phase axis-movement",)),
    ("land", "allied", ("phase allied-movement",)),
    ("drop", "allied", ("phase allied-movement",)),
    ("place", "axis", ("turn 15", "phase axis-movement", "pool axis units 10-8,6-5")),
    ("ap", "allied", ("phase allied-movement", "pool allied ap 12")),
    ("siberia", "soviet", ("units none", "phase soviet-movement", "production 60 30", "siberia 4-4,1-4")),
    ("interdict", "allied", ("turn 15", "phase allied-interdiction", "air-result west allied interdiction 10")),
    ("winter-war", "soviet", ("date 1/12/39", "poland-fallen", "phase soviet-movement")),
    ("associate", "axis", ("phase axis-movement", "status axis soviet peace")),
    ("declare-war", "soviet", ("phase soviet-movement", "status axis soviet peace")),
    ("propose-peace", "allied", ("phase allied-movement",)),
    ("break-association", "allied", ("phase allied-combat",)),
    ("air", "axis", ("phase air-commit",)),
    ("lend-lease", "allied", ("phase allied-movement", "production 60 30 10")),
    ("place", "allied", ("setup on", "phase setup-1", "pool allied units SUP,SUP")),
    ("deploy", "axis", ("setup on", "phase setup-4")),
    ("deploy", "soviet", ("setup on", "phase setup-5")),
    ("fort", "axis", ("turn 15", "phase axis-movement", "pool axis fort 1")),
    ("rebuild", "axis", ("units none", "turn 15", "phase axis-movement", "unit GX axis 6-5 5013 GER", "dead GX",
                         "pool axis ir 2")),
    ("grant", "soviet", ("units none", "date 1/1/40", "phase soviet-movement", "status axis soviet peace",
                         "production 60 30")),
    ("produce", "axis", ("units none", "date 1/1/42", "phase axis-movement", "german 20")),
    ("seize-partisans", "soviet", ("units none", "turn 15", "phase soviet-movement", "unit P1 allied 2-5 2210 FRP")),
    ("repair", "soviet", ("setup on", "phase setup-5")),
    ("bomb", "allied", ("units none", "turn 15", "phase allied-interdiction")),
    ("reform", "axis", ("units none", "turn 15", "phase axis-movement", "unit G1 axis 3-5KG 5013 GER",
                        "unit G2 axis 6-5 5013 GER", "dead G2", "pool axis ir 1")),
    ("repair-center", "axis", ("units none", "turn 15", "phase axis-movement")),
]


@pytest.mark.parametrize(("verb", "seat", "lines"), OFFER_BOARDS, ids=[f"{v}-{s}" for v, s, _ in OFFER_BOARDS])
def test_legal_actions_offer_each_verb_and_every_offer_applies(verb: str, seat: str, lines: tuple[str, ...]) -> None:
    """Every verb the module parses is offered where it is legal, with its rule number, and
    each offer (its first choices, a listed path) is accepted as a file of its own."""
    public = _board(*lines)
    acts = RULES.legal_actions(public, None, seat)
    assert verb in {a.verb for a in acts}, sorted({a.verb for a in acts})
    tried: dict[str, int] = {}
    for a in acts:
        assert a.rule.startswith(("WiE ", "WiE-base ")), a
        tried[a.verb] = tried.get(a.verb, 0) + 1
        if a.verb == "move" or tried[a.verb] > 3:
            continue  # a move's path is not listed (any walk): the move cases cover it
        values = {"path": " ".join(a.paths[0])} if a.paths else {"points": "5"} if a.verb == "air" else None
        text = a.line(values) + ("\nend-phase" if a.verb == "air" else "")
        orders = RULES.parse_orders(text, seat, public, None)
        ctx = ScriptedContext(seat, [4] * 40)
        ctx.strict_dice = False
        RULES.apply(public, {}, seat, orders, ctx)


def test_no_offer_where_the_verb_is_refused() -> None:
    """74.71 at peace, 72.2 after 1939, [WiE-base 12.1] with an empty pool: nothing offered."""
    assert not [a for a in RULES.legal_actions(_board("units none", "phase soviet-movement", "status axis soviet peace",
                                                      "production 60 30", "siberia 4-4"), None, "soviet")
                if a.verb in ("siberia", "winter-war")]
    acts = RULES.legal_actions(_board("phase axis-movement"), None, "axis")
    assert not [a for a in acts if a.verb in ("place", "ap")]
