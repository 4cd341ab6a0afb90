"""Every event EuroFront II and War in Europe record reads as a sentence (as USE's do, test_messages.py).

The kinds are found in the rules' code (each ``ctx.event("kind", field=...)`` call), so a new event
cannot reach a player as a ``key=value`` dump. EuroFront is a block game: its sentences use only the
event's own fields, so a block whose unit the event does not name stays "a ... block".
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Any

import pytest
from test_messages import _variants, bad_words

from pbem import rulesapi

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("eurofront", "wie")
#: ends as a sentence does: a stop, or the closing bracket of a rule reference
ENDS = (".", "!", "?", ")", "]")


def _kinds_of(arg: ast.expr) -> list[str]:
    """The kinds a call's first argument names: a constant, or either branch of ``a if c else b``."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        return _kinds_of(arg.body) + _kinds_of(arg.orelse)
    raise AssertionError(f"an event kind the test cannot read: {ast.unparse(arg)}")


@functools.cache
def event_samples(game: str) -> dict[str, list[dict[str, Any]]]:
    """Every event kind ``rules/<game>`` records, one sample per call (the field names from the
    code; a value the code computes becomes a word)."""
    samples: dict[str, list[dict[str, Any]]] = {}
    for path in sorted((ROOT / "rules" / game).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("event", "private_event") and node.args):
                continue
            for kind in _kinds_of(node.args[0]):
                ev: dict[str, Any] = {"kind": kind}
                for kw in node.keywords:
                    if kw.arg is not None:
                        ev[kw.arg] = kw.value.value if isinstance(kw.value, ast.Constant) else f"X{len(ev)}"
                samples.setdefault(kind, []).append(ev)
    return samples


CASES = [(game, kind) for game in GAMES for kind in sorted(event_samples(game))]


def _reads_as_sentence(text: str, kind: str) -> None:
    assert text and not bad_words(text), text
    assert text[0].isupper() or text[0].isdigit(), text
    assert text.endswith(ENDS), text
    assert not text.lower().startswith(kind + ":"), text


def test_the_kind_lists_are_extracted_from_the_code() -> None:
    ef, wie = event_samples("eurofront"), event_samples("wie")
    assert {"fire", "deactivated", "militia-roll", "recognition", "weather"} <= set(ef) and len(ef) >= 40
    assert {"combat", "sailed", "landed", "raid", "coin-reserved"} <= set(wie) and len(wie) >= 45


@pytest.mark.parametrize("game, kind", CASES)
def test_every_event_kind_reads_as_a_sentence(game: str, kind: str) -> None:
    view = __import__(f"pbem_rules.{game}.view", fromlist=["SENTENCES"])
    assert kind in view.SENTENCES, f"no sentence for the {game} event {kind!r} (rules/{game}/view.py)"
    rules = rulesapi.get(game)
    for sample in event_samples(game)[kind]:
        for ev in _variants(sample):
            _reads_as_sentence(rules.describe_event(ev), kind)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_event_kind_still_reads_as_words(game: str) -> None:
    text = rulesapi.get(game).describe_event({"kind": "new-thing", "units": ["A", "B"], "hex": None})
    assert not bad_words(text) and "A, B" in text
    _reads_as_sentence(text, "new-thing")


def test_eurofront_names_a_block_only_from_the_event() -> None:
    """Fog of war: a token alone reads as its side's block; a unit name only when the event has it."""
    rules = rulesapi.get("eurofront")
    fire = rules.describe_event({"kind": "fire", "block": "n8", "dice": [6, 2], "firepower": "SF", "hex": "1202",
                                 "hits": 1, "repulses": 0})
    assert fire.startswith("A Nationalist block (n8) fires at 1202") and "dice 6, 2" in fire and "1 hit" in fire
    off = rules.describe_event({"kind": "deactivated", "block": "n5", "cv": 0, "unit": "N-JDN"})
    assert "N-JDN" in off and "CV 0" in off
    hit = rules.describe_event({"kind": "hit", "block": "r3", "cv": 2, "hex": "0808"})
    assert hit == "A Republican block (r3) takes a hit at 0808: CV 2 left."


def test_wie_sentences_keep_their_words() -> None:
    """The kinds the if-chain covered read as before (a capital first letter and a final stop added)."""
    rules = rulesapi.get("wie")
    assert rules.describe_event({"kind": "moved", "unit": "GER-1", "frm": "1010", "to": "1011"}) == (
        "GER-1 moved from 1010 to 1011.")
    assert rules.describe_event({"kind": "political-points", "change": -5, "why": "Rome falls", "total": 40}) == (
        "Axis political points -5: Rome falls (71.4); now 40.")
    assert rules.describe_event({"kind": "associated", "sides": ["allied", "soviet"]}) == (
        "Allied and soviet are now associated (69.0)")
