"""docs/rules-coverage.md stays honest: every numbered section of the USE, EuroFront and War in
Europe seeds (and of the authored WiE base rules) has a row with a known status, every case file it
cites exists, and every case file is cited in its game's part (see tools/rules_coverage.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"
USE_SEED = SEEDS / "004_bb72b2d47778f3b9.txt"
EF_SEED = SEEDS / "000_b0dcb9d275dc4eea.txt"
WIE_SEED = SEEDS / "003_a5d2870354bebb58.txt"
WIE_BASE = REPO / "docs" / "wie-base-rules.md"
DOC = REPO / "docs" / "rules-coverage.md"
CASES = REPO / "tests" / "cases" / "use"
EF_CASES = REPO / "tests" / "cases" / "eurofront"
WIE_CASES = REPO / "tests" / "cases" / "wie"
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


def _rows(block: str, key: str = NUM) -> dict[str, list[str]]:
    rows = {}
    for line in block.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if re.fullmatch(key, cells[0]):
            assert cells[0] not in rows, f"two rows for {cells[0]}"
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
    summary = next((ln for ln in _block(doc, "summary").splitlines() if ln.startswith("**USE:")), "")
    assert f"USE: {len(rows)} numbered sections" in summary, "summary line out of date (run tools/rules_coverage.py)"
    for status, n in counts.items():
        assert f"{n} {status}" in summary, f"summary says the wrong count for {status!r}: expected {n}"
    n_cases = len(list(CASES.glob("*.case")))
    assert f"{n_cases} rules cases" in summary, f"summary line should count {n_cases} case files"


def _parts(doc: str) -> dict[Path, str]:
    """Each game's part of the doc: its section blocks; USE's is everything else (its prose cites cases)."""
    ef = _block(doc, "eurofront-sections")
    wie = _block(doc, "wie-sections") + _block(doc, "wie-base-sections")
    use = doc
    for part in (ef, _block(doc, "wie-sections"), _block(doc, "wie-base-sections")):
        use = use.replace(part, "")
    return {CASES: use, EF_CASES: ef, WIE_CASES: wie}


def test_cited_case_files_exist(doc: str) -> None:
    assert re.findall(r"[A-Za-z0-9_-]+\.case\b", doc), "docs/rules-coverage.md cites no case file"
    for cases_dir, part in _parts(doc).items():
        cited = set(re.findall(r"[A-Za-z0-9_-]+\.case\b", part))
        missing = sorted(c for c in cited if not (cases_dir / c).is_file())
        assert not missing, f"case files cited in docs/rules-coverage.md that do not exist in {cases_dir}: {missing}"


def test_every_case_file_is_cited(doc: str) -> None:
    for cases_dir, part in _parts(doc).items():
        cited = set(re.findall(r"[A-Za-z0-9_-]+\.case\b", part))
        files = sorted(p.name for p in cases_dir.glob("*.case"))
        assert files, f"no case files in {cases_dir}"
        uncited = [f for f in files if f not in cited]
        assert not uncited, (f"{cases_dir.name} case files cited nowhere in their game's part of "
                             f"docs/rules-coverage.md: {uncited} (run tools/rules_coverage.py)")


# --- EuroFront and War in Europe -------------------------------------------------------------------
# Their numbering is decimal (1.1, 1.11, 1.12, 1.2: 1.11 is a part of 1.1), headings as printed:
# EuroFront "5.21 Deploying HQs. When ..." and bullets "- 11.731 Sea Supply. ..."; WiE "67.0 ..."
# and "[71.12] Example A: ...". Both open with a table of contents ("- 1.0 The Maps",
# "- [68.0] Sequence of Play"), a run of "- " lines to skip. The SCW scenario's special rules
# are "1) Hex Control. ..." .. "10) EuroFront Carryover. ..." after "SCW Special Rules".

EF_HEADING = re.compile(r"^(?:-\s+)?(\d+\.\d+)\s+\S")
WIE_HEADING = re.compile(r"^(?:\[(\d+\.\d+)\]|(\d+\.\d+)\s)")
SCW_RULE = re.compile(r"^(\d+)\)\s+\S")
ROW = r"\d+(?:\.\d+)*|SCW(?: \d+)?"


def _without_contents(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "Table of Contents")
    end = start
    while end < len(lines) and (lines[end].strip() == "Table of Contents" or lines[end].startswith("- ")):
        end += 1
    return lines[:start] + lines[end:]


def _dkey(n: str) -> tuple[int, ...]:
    """Decimal order; the SCW rows last."""
    if n.startswith("SCW"):
        return (1000, *(int(x) for x in n.split()[1:]))
    major, _, frac = n.partition(".")
    return (int(major), *(int(d) for d in frac.rstrip("0")))


def ef_sections(text: str) -> set[str]:
    found: set[str] = set()
    special = False
    for line in _without_contents(text):
        if line.startswith("Scenario: 1936 Spanish Civil War"):
            found.add("SCW")
        special = special or line.startswith("SCW Special Rules")
        if special and (m := SCW_RULE.match(line)) and int(m.group(1)) <= 10:
            found.add(f"SCW {m.group(1)}")
        elif m := EF_HEADING.match(line):
            found.add(m.group(1))
    return found


def wie_sections(text: str) -> set[str]:
    return {m.group(1) or m.group(2) for ln in _without_contents(text) if (m := WIE_HEADING.match(ln))}


def wie_base_sections(text: str) -> set[str]:
    """docs/wie-base-rules.md: "## 5. Movement ...", "## 4.0 The player-turn", "**5.1** ...", "**8.2 Ownership**"."""
    found: set[str] = set()
    for line in text.splitlines():
        if m := re.match(r"^##\s+(\d+(?:\.\d+)?)\.?\s", line):
            found.add(m.group(1))
        elif m := re.match(r"^\*\*(\d+\.\d+)\b", line):
            found.add(m.group(1))
    return found


def _seed(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"the seed rulebooks are not here ({SEEDS}): /work/shared is absent")
    return path.read_text(encoding="utf-8")


GAMES = {  # block -> (label, parser, source, numbers the parser must find, at least so many sections)
    "eurofront-sections": ("EuroFront", ef_sections, EF_SEED,
                           ("1.11", "1.331", "4.311", "5.721", "10.7", "10.71", "11.731", "15.531",
                            "20.76", "21.399", "22.31", "SCW", "SCW 1", "SCW 7", "SCW 10"), 450),
    "wie-sections": ("WiE", wie_sections, WIE_SEED,
                     ("67.0", "68.0", "71.12", "74.56", "75.94", "76.2", "76.26", "77.83", "78.0"), 150),
    "wie-base-sections": ("WiE base rules", wie_base_sections, WIE_BASE,
                          ("1", "1.1", "2.3", "4.0", "8.2", "10.5", "13.7", "24.68"), 50),
}


@pytest.mark.parametrize("block", list(GAMES))
def test_other_games_every_section_has_a_row(doc: str, block: str) -> None:
    label, parse, source, expected, at_least = GAMES[block]
    found = parse(_seed(source))
    for n in expected:  # guard the parser itself
        assert n in found, f"the heading parser missed {label} {n}: has the text's format changed?"
    assert len(found) >= at_least, f"only {len(found)} {label} sections found"
    rows = _rows(_block(doc, block), ROW)
    missing = sorted(found - set(rows), key=_dkey)
    assert not missing, f"{label} sections with no row in the doc: {missing} (run tools/rules_coverage.py)"
    extra = sorted(set(rows) - found, key=_dkey)
    assert not extra, f"rows for numbers that are not {label} sections: {extra}"
    assert list(rows) == sorted(rows, key=_dkey), f"the {label} rows are not in decimal order"
    bad = {n: r[2] for n, r in rows.items() if len(r) != 6 or r[2] not in STATUSES}
    assert not bad, f"{label} rows without 6 cells or with an unknown status (one of {STATUSES}): {bad}"
    empty = sorted((n for n, r in rows.items() if r[2] != "info" and not r[5]), key=_dkey)
    assert not empty, f"{label} rows without a note: {empty}"


@pytest.mark.parametrize("block", list(GAMES))
def test_other_games_summary(doc: str, block: str) -> None:
    label = GAMES[block][0]
    _seed(GAMES[block][2])
    rows = _rows(_block(doc, block), ROW)
    line = next((ln for ln in _block(doc, "summary").splitlines() if ln.startswith(f"**{label}")), "")
    assert f"{len(rows)} " in line and "sections" in line, f"no {label} summary line, or out of date: {line!r}"
    for status, n in Counter(r[2] for r in rows.values()).items():
        assert f"{n} {status}" in line, f"the {label} summary says the wrong count for {status!r}: expected {n}"
    cases = {"EuroFront": EF_CASES, "WiE": WIE_CASES}.get(label)
    if cases is not None:
        n_cases = len(list(cases.glob("*.case")))
        assert f"{n_cases} rules cases" in line, f"the {label} summary line should count {n_cases} case files"
