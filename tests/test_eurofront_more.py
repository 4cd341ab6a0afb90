"""More EuroFront tests (tests/test_eurofront_rules.py is near its size limit): Paratroops and Air
Assaults (14.x, 7.64, 7.65), Fort moves (2.28), the legal ``cv`` and ``drop`` offers, audits."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, cast

import pytest

from pbem.errors import IllegalOrder
from pbem.kit.cases import ScriptedContext, parse_case
from pbem.rulesapi import Context, RulesModule

RULES: RulesModule = importlib.import_module("pbem_rules.eurofront").RULES
verbs: Any = importlib.import_module("pbem_rules.eurofront.verbs")
data: Any = importlib.import_module("pbem_rules.eurofront.data")
CASES = Path(__file__).resolve().parent / "cases" / "eurofront"
N, R = "nationalists", "republicans"


def _play(name: str, upto: int | None = None) -> tuple[dict[str, Any], dict[str, Any], ScriptedContext]:
    """A case's files through the author's tool (as tests/test_eurofront_rules.py does)."""
    case = parse_case(CASES / f"{name}.case")
    public, private = RULES.case_prestate(case.prestate)
    author = ScriptedContext("", list(case.dice))
    for i, block in enumerate(case.orders[:upto]):
        author.seat, author.seq = block.seat, i + 1
        orders = RULES.parse_orders(block.text, block.seat, public, private.get(block.seat))
        out = RULES.apply(public, {block.seat: private.get(block.seat)}, block.seat, orders, author)
        public, private = out.public, {**private, **out.private}
    return public, private, author


def _recheck(ident: dict[str, Any], trail: list[dict[str, Any]], lost: int = 0) -> dict[str, Any]:
    block = {"side": N, "hex": "1208", "lost": lost, "up": False, "opened": None, "trail": trail, "ref": "x"}
    public = {"scenario": "scw-1936", "blocks": {"n1": block}}
    env = verbs.Env(public, None, N, cast(Context, None), data.load("scw-1936").board)
    verbs.recheck(env, "n1", ident)
    return block


def _move(**extra: Any) -> dict[str, Any]:
    return {"seq": 5, "path": ["1208"], "supreme": True, "engage": False, "weather": "dry", "rail": False, **extra}


INF = {"unit": "N-INF", "type": "Infantry", "nation": "spain", "cv": 3, "max": 4}
FORT = {**INF, "unit": "N-FORT", "type": "Fort"}


def test_hidden_airdrop_by_a_non_para_found_at_reveal() -> None:
    """14.1: the drop is the owner's claim; a block opened as anything but a Para is refused."""
    with pytest.raises(IllegalOrder) as e:
        _recheck(INF, [_move(drop=True, supreme=False)])
    assert e.value.rule == "EF 14.1" and "file 5 by nationalists" in str(e.value)
    _recheck({**INF, "type": "Para"}, [_move(drop=True, supreme=False)])


def test_hidden_fort_moves_found_at_reveal() -> None:
    """2.28: a Fort moves by rail only, never from a battle, and is then reduced to cadre strength."""
    with pytest.raises(IllegalOrder) as e:
        _recheck(FORT, [_move()])
    assert e.value.rule == "EF 2.28" and "by land" in str(e.value)
    with pytest.raises(IllegalOrder) as e:
        _recheck(FORT, [_move(rail=True, engaged=True, path=["1108", "1208"])])
    assert e.value.rule == "EF 2.28" and "out of a battle" in str(e.value)
    block = _recheck(FORT, [_move(rail=True, path=["1108", "1208"])])
    assert block["lost"] == 2 and block["trail"] == []  # 3 CV, now its cadre of 1


def test_legal_actions_offer_cv_lines_with_their_ranges() -> None:
    """22.2: the set-up's ``cv UNIT N`` lines, 1 to the unit's full CV, for rows that leave a choice."""
    scenario = RULES.load_scenario("scw-1936")
    public, private = RULES.initial_state(scenario, {}, {"setup": "semi-historical"})
    acts = [a for a in RULES.legal_actions(public, private[N], N) if a.verb == "cv"]
    assert acts and all(a.rule == "EF 22.2" for a in acts)
    by_unit = {a.args[0].choices[0]: a.args[1].choices for a in acts if a.args[0].choices}
    ident = next(i for i in private[N]["blocks"].values() if str(i["unit"]) in by_unit)
    assert by_unit[str(ident["unit"])] == tuple(str(n) for n in range(1, int(ident["max"]) + 1))
    assert not any(i["type"] == "Static" and str(i["unit"]) in by_unit for i in private[N]["blocks"].values())
    line = acts[0].line({"unit": acts[0].args[0].choices[0], "cv": "1"})  # type: ignore[index]
    RULES.parse_orders(line + "\nseal\n", N, public, private[N])  # it parses; the seal checks the totals
    public, private = RULES.initial_state(scenario, {}, {"setup": "historical"})
    assert not [a for a in RULES.legal_actions(public, private[N], N) if a.verb == "cv"]


def test_legal_actions_offer_the_paradrop() -> None:
    """14.21, 14.22: ``activate HQ paradrop`` for an HQ stacked with a Para; then ``drop`` within
    the Air Range (2), never into mountains, and only to the owner's tool (its private types)."""
    public, private, author = _play("combined-assault-example-7-65", upto=2)
    author.seat, author.seq = N, 3
    activate = [a for a in RULES.legal_actions(public, private[N], N) if a.verb == "activate"]
    assert any(a.args[0].choices == ("n4",) and any(x.name == "paradrop" for x in a.args) for a in activate)
    orders = RULES.parse_orders("activate n1\nactivate n4 paradrop\nend-phase\n", N, public, private[N])
    out = RULES.apply(public, {N: private[N]}, N, orders, author)
    drops = [a for a in RULES.legal_actions(out.public, out.private[N], N) if a.verb == "drop"]
    assert len(drops) == 1 and drops[0].args[0].choices == ("n5",)
    hexes = drops[0].args[1].choices or ()
    board = data.load("scw-1936").board
    assert "1109" in hexes and all(board.terrain[h] != "mountain" for h in hexes)
    grid: Any = importlib.import_module("pbem.kit.hexgrid")
    far = [h for h in board.terrain if grid.EVEN_COLUMNS_LOW.distance(grid.parse_hex(h), grid.parse_hex("1309")) > 2]
    assert far and not set(far) & set(hexes)
    assert not [a for a in RULES.legal_actions(out.public, None, N) if a.verb == "drop"]


def test_combined_assault_keeps_the_para_hidden_until_the_battle() -> None:
    """The drop shows a block moving, not what it is: N-PARA is public only once the battle opens it."""
    orders = "activate n1\nactivate n4 paradrop\nend-phase\nmove n2 1109\nmove n3 1109\ndrop n5 1109\nend-phase\n"
    public, private, author = _play("combined-assault-example-7-65", upto=2)
    author.seat, author.seq = N, 3
    out = RULES.apply(public, {N: private[N]}, N, RULES.parse_orders(orders, N, public, private[N]), author)
    battle = out.public["battles"]["1109"]
    assert battle["kinds"] == ["air", "river"] and battle["dropped"] == ["n5"]
    assert "N-PARA" not in json.dumps(out.public) and out.public["blocks"]["n5"]["dispersed"]


def test_unlinked_para_removed_hidden_is_audited_clean() -> None:
    """14.5: a hidden Para eliminated for want of Linkup goes to ``removed``; the audit does not
    take it for an attrition removal, and still re-checks its drop against its commitment."""
    audit_final = importlib.import_module("pbem_rules.eurofront.audit").audit_final
    public, _, author = _play("para-linkup-eliminated")
    assert "n5" in public["removed"] and public["removed"]["n5"]["unlinked"]
    assert audit_final(public, author.commitments) == []
    lied = {ref: ({**v, "type": "Infantry"} if isinstance(v, dict) and v.get("token") == "n5" else v)
            for ref, v in author.commitments.items()}
    assert any("EF 14.1" in v for v in audit_final(public, lied))
