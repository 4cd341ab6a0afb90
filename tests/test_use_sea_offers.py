"""The sea verbs' legal actions (rules/use/sealegal.py): offered where their markers and units
are, every listed line parses (first choices and every optional argument), and nothing new is
offered without them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pbem_rules.use import cases, verbs

from pbem.rulesapi import Action

CASES = Path(__file__).parent / "cases" / "use"
SAMPLE = {"hex": "0809", "loc": "0809", "number": "1", "country": "UK", "unit": "UK-1I", "word": "x"}
SEA_VERBS = {"surprise", "invade", "carrier-strike", "evacuate", "convoy-action", "surface-action",
             "evacuate-on-retreat", "buy-back"}


def _state(name: str) -> cases.State:
    text = (CASES / f"{name}.case").read_text().splitlines()
    start = text.index("PRESTATE") + 1
    end = next(i for i in range(start, len(text)) if not text[i].startswith("  "))
    s, _ = cases.prestate([(i, ln.strip()) for i, ln in enumerate(text[start:end], start)])
    return s


def _line(a: Action, optional: bool) -> str:
    values = {arg.name: (arg.choices[0] if arg.choices else SAMPLE[arg.kind])
              for arg in a.args if optional or not arg.optional}
    return a.line(values)


@pytest.mark.parametrize(("case", "seat", "verb"), [
    ("amphib-enemy-unit-in-hex", "western", "invade"),
    ("surprise-land-hex", "axis", "surprise"),
    ("surprise-air-drm-carrier", "western", "carrier-strike"),
    ("evac-ready", "western", "evacuate-on-retreat"),
    ("evac-ready-action-use", "western", "evacuate"),
    ("convoy-action-place", "western", "convoy-action"),
    ("surface-action-place", "axis", "surface-action"),
    ("surprise-buy-back", "western", "buy-back"),
])
def test_sea_verb_offered_and_parses(case: str, seat: str, verb: str) -> None:
    s = _state(case)
    acts = [a for a in verbs.legal_actions(s, seat) if a.verb == verb]
    assert acts, f"{verb} not offered in {case}"
    for a in acts:
        assert a.rule.startswith("USE ")
        for optional in (False, True):
            verbs.parse(_line(a, optional), dict(s))


def test_nothing_offered_without_markers() -> None:
    s = _state("combat-result-de")
    assert not {a.verb for a in verbs.legal_actions(s, "axis")} & SEA_VERBS
