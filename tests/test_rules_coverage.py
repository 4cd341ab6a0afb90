"""docs/rules-coverage.md stays honest: every numbered section of the USE seed has a row, every
case file it cites exists, and every USE case file is cited (see tools/rules_coverage.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"
USE_SEED = SEEDS / "004_bb72b2d47778f3b9.txt"
DOC = REPO / "docs" / "rules-coverage.md"
CASES = REPO / "tests" / "cases" / "use"
STATUSES = ("enforced", "authored data", "partial", "not yet", "n/a", "info")

NUM = r"\d+(?:\.\d+)+"  # 1.3.7, 3.0, 10.3.1.1; never "1." (a numbered list item)
# The seed's section numbers come in four shapes (look at the text: it is a condensed rulebook):
# a heading line "4.2.3 Ground Movement", or a range heading "4.1.2–4.1.4 Strategic Movement ...";
HEADING = re.compile(rf"^({NUM})(?:\s*[–-]\s*({NUM}))?\s+\S")
# a bullet that starts with its number, "• 14.1 Airdrop:", "• 15.9 Fac. Count & 15.10 Fac. Lost:";
BULLET_NUMBER = re.compile(rf"^\s*•\s*({NUM})\s+[^:]+?(?:\s*&\s*({NUM})\s+[^:]+?)?:")
# a bullet or list item titled with its number(s): "• Home Defense (10.3.1):", "1. ... (7.5.1):".
BULLET_PAREN = re.compile(rf"^\s*(?:•|\d+\.)\s*[^•:()]+?\s*\(({NUM}(?:\s*,\s*{NUM})*)\):")


def _key(n: str) -> tuple[int, ...]:
    return tuple(int(x) for x in n.split("."))


def seed_sections(text: str) -> set[str]:
    found: set[str] = set()
    for line in text.splitlines():
        if m := HEADING.match(line):
            first, last = m.groups()
            if last is None:
                found.add(first)
                continue
            a, b = _key(first), _key(last)
            assert a[:-1] == b[:-1] and a[-1] <= b[-1], f"odd range heading: {line!r}"
            found.update(".".join(map(str, (*a[:-1], i))) for i in range(a[-1], b[-1] + 1))
        elif m := BULLET_NUMBER.match(line):
            found.update(n for n in m.groups() if n)
        elif m := BULLET_PAREN.match(line):
            found.update(re.findall(NUM, m.group(1)))
    return found


def _block(doc: str, name: str) -> str:
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    assert begin in doc and end in doc, f"docs/rules-coverage.md lost its {begin} / {end} markers"
    return doc.split(begin, 1)[1].split(end, 1)[0]


def _rows(block: str) -> dict[str, list[str]]:
    rows = {}
    for line in block.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if re.fullmatch(NUM, cells[0]):
            assert cells[0] not in rows, f"two rows for USE {cells[0]}"
            rows[cells[0]] = cells
    return rows


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sections() -> set[str]:
    if not USE_SEED.is_file():
        pytest.skip(f"the seed rulebooks are not here ({SEEDS}): /work/shared is absent")
    found = seed_sections(USE_SEED.read_text(encoding="utf-8"))
    # Guard the parser itself: every shape of heading must have been recognised.
    for n in ("1.1", "1.3.7", "3.0", "4.1.3", "4.2.3.7", "5.1", "10.3.1", "12.1", "13.7", "15.10", "17.0"):
        assert n in found, f"the heading parser missed USE {n}: has the seed's format changed?"
    assert len(found) > 150
    return found


def test_every_seed_section_has_a_row(doc: str, sections: set[str]) -> None:
    rows = _rows(_block(doc, "use-sections"))
    missing = sorted(sections - set(rows), key=_key)
    assert not missing, f"USE sections with no row in docs/rules-coverage.md: {missing} (run tools/rules_coverage.py)"
    extra = sorted(set(rows) - sections, key=_key)
    assert not extra, f"rows for numbers that are not sections of the USE seed: {extra}"
    numbers = list(rows)
    assert numbers == sorted(numbers, key=_key), "the USE rows are not in numeric order"


def test_statuses_and_summary(doc: str, sections: set[str]) -> None:
    rows = _rows(_block(doc, "use-sections"))
    bad = {n: r[2] for n, r in rows.items() if len(r) != 6 or r[2] not in STATUSES}
    assert not bad, f"rows without 6 cells or with an unknown status (one of {STATUSES}): {bad}"
    counts = Counter(r[2] for r in rows.values())
    summary = _block(doc, "summary")
    assert f"USE: {len(rows)} numbered sections" in summary, "summary line out of date (run tools/rules_coverage.py)"
    for status, n in counts.items():
        assert f"{n} {status}" in summary, f"summary says the wrong count for {status!r}: expected {n}"
    n_cases = len(list(CASES.glob("*.case")))
    assert f"{n_cases} rules cases" in summary, f"summary line should count {n_cases} case files"


def test_cited_case_files_exist(doc: str) -> None:
    cited = set(re.findall(r"[A-Za-z0-9_-]+\.case\b", doc))
    assert cited, "docs/rules-coverage.md cites no case file"
    missing = sorted(c for c in cited if not (CASES / c).is_file())
    assert not missing, f"case files cited in docs/rules-coverage.md that do not exist in tests/cases/use: {missing}"


def test_every_case_file_is_cited(doc: str) -> None:
    cited = set(re.findall(r"[A-Za-z0-9_-]+\.case\b", doc))
    files = sorted(p.name for p in CASES.glob("*.case"))
    assert files, "no case files in tests/cases/use"
    uncited = [f for f in files if f not in cited]
    assert not uncited, f"case files cited nowhere in docs/rules-coverage.md: {uncited} (run tools/rules_coverage.py)"
