"""Refresh the generated parts of docs/rules-coverage.md (run by a developer; the doc is committed).

    .venv/bin/python tools/rules_coverage.py            # rewrite the doc in place
    .venv/bin/python tools/rules_coverage.py --check    # exit 1 if the doc is out of date
    .venv/bin/python tools/rules_coverage.py --list     # print the seed's USE sections

The doc is the source of the hand-written columns (status, where, note) of the USE section
table: this tool keeps them and regenerates everything else between the ``<!-- BEGIN x -->``
and ``<!-- END x -->`` markers:

* ``use-sections``: one row per numbered section of the USE seed (parsed from the text, in
  numeric order) with its title and the rules cases that cite it (RULE line, EXPECT ILLEGAL
  rule, ``USE x.y`` or ``(x.y)`` in the case text, plus the EXTRA_CASES list below);
  a section missing from the doc gets status ``TODO``;
* ``use-refs``: numbers the seed cites but has no text for (hand columns kept);
* ``summary``: the counts of USE sections by status and the number of case files;
* ``eurofront-sections`` / ``wie-sections``: the top-level sections of the other two seeds.

The seeds live outside the repository, in ``<repo>/../shared/seeds``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"
USE_SEED = "004_bb72b2d47778f3b9.txt"
EUROFRONT_SEED = "000_b0dcb9d275dc4eea.txt"
WIE_SEED = "003_a5d2870354bebb58.txt"
DOC = REPO / "docs" / "rules-coverage.md"
CASES = REPO / "tests" / "cases" / "use"

STATUSES = ("enforced", "authored data", "partial", "not yet", "n/a", "info")

NUM = r"\d+(?:\.\d+)+"
# "4.2.3 Ground Movement", "4.1.2–4.1.4 Strategic Movement Rules & Limitations", "3.0 Markers & Units".
# A numbered list item ("1. Weather Phase: ...") has no digit after its dot and does not match.
HEADING = re.compile(rf"^({NUM})(?:\s*[–-]\s*({NUM}))?\s+(\S.*)$")
# "• 14.1 Airdrop: ...", "• 15.9 Fac. Count & 15.10 Fac. Lost: ..."
BULLET_NUMBER = re.compile(rf"^\s*•\s*({NUM})\s+([^:]+?):")
# "• Home Defense (10.3.1): ...", "1. Unsupplied Attrition (7.5.1): ...", "• ... Border (13.6, 13.7): ..."
BULLET_PAREN = re.compile(rf"^\s*(?:•|\d+\.)\s*([^•:()]+?)\s*\(({NUM}(?:\s*,\s*{NUM})*)\):")
CITED = re.compile(rf"\(({NUM})\)")

# Cases that test a section without naming it (reviewed by hand; the test checks the files exist).
EXTRA_CASES: dict[str, tuple[str, ...]] = {
    "1.1.5": ("seq-date-rollover.case",),
    "1.1.6": ("combat-result-ar.case", "combat-severe-weather.case"),
    "1.3.7": ("move-transport-as-clear.case", "sm-along-line.case", "supply-full-by-line.case"),
    "1.3.9": ("combat-poor-weather.case", "seq-weather-on-axis-file.case"),
    "1.4": ("air-support-range-5.case", "airdrop-range.case", "air-strike-range.case"),
    "2.1.2": ("collapse-will-zero.case", "combat-commit-loser-loses-will.case"),
    "2.3": ("pact-no-attack.case",),
    "3.2": ("move-leg-8mp.case", "move-mobile-10mp.case"),
    "4.0": ("sm-along-line.case", "move-leg-8mp.case"),
    "4.2.3": ("move-river-plus-cumulative.case", "combat-river-drm.case"),
    "5.0": ("combat-awaits-defender.case", "air-strike.case"),
    "5.2": ("combat-air-vs-air.case", "air-strike.case", "air-strike-will-commit.case"),
    "5.3": ("combat-result-ar.case", "combat-result-de.case", "combat-result-ex.case", "combat-result-ne.case",
            "combat-isolated-defender.case", "combat-city-drm.case", "combat-capital-drm.case"),
    "5.3.5.1": ("combat-retreat-not-into-ezoc.case", "combat-retreat-gap.case"),
    "6.1": ("airdrop-place.case", "partisans-place.case"),
    "6.2": ("air-rebase.case", "air-strike.case", "combat-air-support.case"),
    "6.3": ("assault-batched.case", "combat-mobile-will-commit.case"),
    "6.3.1": ("zoc-enter-and-stop.case", "assault-ends-movement.case", "combat-mobile-will-commit.case"),
    "7.5": ("no-supply-attrition.case",),
    "10.3": ("coop-limits-minor.case", "neutral-non-violation.case", "pact-no-attack.case"),
    "12.0": ("seq-end-of-turn.case", "seq-victory-sudden.case"),
    "13.2.2": ("conquest.case",),
    "14.0": ("airdrop-return.case", "partisans-place.case"),
    "14.10": ("partisans-place.case", "partisans-needs-enemy.case"),
    "15.1": ("combat-elite-drm.case",),
    "15.4": ("bombed-removed-strategic-warfare.case", "bombing-run-max-eight.case", "bombing-run-one-per-hex.case"),
    "15.3": ("assault-marker-removed-at-phase-end.case", "assault-batched.case"),
    "15.7": ("capture-city.case", "combat-capture-city.case"),
    "15.15": ("move-mp-paid-before-entering.case",),
    "15.22": ("air-sorties-max-6.case", "air-six-sorties.case"),
    "15.24": ("sm-marker-blocks-activation.case", "sm-marker-removed.case"),
    "15.26": ("supply-low-to-no.case", "supply-none-reduces.case"),
    "15.27": ("seq-end-of-turn.case",),
    "15.31": ("collapse-will-zero.case",),
    "15.32": ("seq-weather-on-axis-file.case",),
    "15.33": ("combat-commit-loser-loses-will.case", "combat-uncommitted-loser-keeps-will.case",
              "combat-standing-will-commit.case"),
    "16.0": ("dow-joins-western-under-pact.case",),
}


def key(number: str) -> tuple[int, ...]:
    return tuple(int(x) for x in number.split("."))


def _expand(first: str, last: str) -> list[str]:
    """'4.1.2', '4.1.4' -> 4.1.2, 4.1.3, 4.1.4 (siblings only)."""
    a, b = key(first), key(last)
    if a[:-1] != b[:-1] or b[-1] < a[-1]:
        return [first, last]
    stem = ".".join(str(x) for x in a[:-1])
    return [f"{stem}.{i}" for i in range(a[-1], b[-1] + 1)]


def use_sections(text: str) -> dict[str, str]:
    """Every numbered section of the USE seed -> title, in numeric order.

    Sources, best first: a heading line; a bullet that starts with the number; a bullet or
    list item ``Title (x.y.z):``; a range heading (``4.1.2–4.1.4 ...``)."""
    found: dict[str, tuple[int, str]] = {}

    def add(number: str, title: str, rank: int) -> None:
        if number not in found or rank < found[number][0]:
            found[number] = (rank, title.strip())

    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            first, last, title = m.groups()
            if last:
                for n in _expand(first, last):
                    add(n, f"{title} ({first}–{last})", 3)
            else:
                add(first, title, 0)
            continue
        m = BULLET_NUMBER.match(line)
        if m:
            parts = re.split(rf"\s*&\s*({NUM})\s+", m.group(2))
            add(m.group(1), parts[0], 1)
            for i in range(1, len(parts) - 1, 2):
                add(parts[i], parts[i + 1], 1)
            continue
        m = BULLET_PAREN.match(line)
        if m:
            for n in re.findall(NUM, m.group(2)):
                add(n, m.group(1), 2)
    return {n: found[n][1] for n in sorted(found, key=key)}


def cited_only(text: str, sections: dict[str, str]) -> dict[str, list[str]]:
    """Numbers the seed cites in parentheses but has no text for -> the sections citing them."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            current = m.group(1)
        for n in CITED.findall(line):
            if n not in sections:
                where = out.setdefault(n, [])
                if current and current not in where:
                    where.append(current)
    return {n: out[n] for n in sorted(out, key=key)}


def top_sections(text: str) -> list[tuple[str, str]]:
    """Top-level sections ``N.0 Title`` (also ``[N.0] Title``), table-of-contents lines skipped."""
    pat = re.compile(r"^\[?(\d+)\.0\]?\s+(\S.*)$")
    out: dict[int, str] = {}
    for line in text.splitlines():
        m = pat.match(line)
        if m and int(m.group(1)) not in out:
            out[int(m.group(1))] = m.group(2).strip()
    return [(f"{n}.0", out[n]) for n in sorted(out)]


def case_citations(cases_dir: Path, sections: dict[str, str]) -> dict[str, set[str]]:
    """Section -> case file names citing it (RULE, EXPECT ILLEGAL, 'USE x.y' or '(x.y)' in the text)."""
    out: dict[str, set[str]] = {}
    pats = (re.compile(rf"^RULE\s+USE\s+({NUM})"), re.compile(rf"^EXPECT\s+ILLEGAL\s+(?:USE\s+)?({NUM})"),
            re.compile(rf"USE\s+({NUM})"), re.compile(rf"\(({NUM})\)"))
    for path in sorted(cases_dir.glob("*.case")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            for pat in pats:
                for n in pat.findall(line):
                    if n in sections:
                        out.setdefault(n, set()).add(path.name)
    for n, names in EXTRA_CASES.items():
        if n in sections:
            out.setdefault(n, set()).update(names)
    return out


# --- the document ----------------------------------------------------------------------------


def _block(doc: str, name: str) -> tuple[int, int]:
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"{DOC}: markers {begin} ... {end} not found")
    return i + len(begin), j


def _replace(doc: str, name: str, body: str) -> str:
    i, j = _block(doc, name)
    return doc[:i] + "\n" + body.rstrip("\n") + "\n" + doc[j:]


def _cells(line: str) -> list[str]:
    """The cells of a table row; ``\\|`` inside a cell is not a separator."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _rows(doc: str, name: str) -> dict[str, list[str]]:
    i, j = _block(doc, name)
    out = {}
    for line in doc[i:j].splitlines():
        cells = _cells(line)
        if line.startswith("|") and cells and re.fullmatch(NUM, cells[0]):
            out[cells[0]] = cells
    return out


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def render(doc: str) -> tuple[str, list[str]]:
    """The refreshed document and warnings."""
    warnings: list[str] = []
    text = (SEEDS / USE_SEED).read_text(encoding="utf-8")
    sections = use_sections(text)
    cites = case_citations(CASES, sections)
    case_files = sorted(p.name for p in CASES.glob("*.case"))

    old = _rows(doc, "use-sections")
    lines = ["| § | title | status | where | cases | note |", "|---|---|---|---|---|---|"]
    counts: Counter[str] = Counter()
    for n, title in sections.items():
        prev = old.get(n)
        status, where, note = (prev[2], prev[3], prev[5]) if prev and len(prev) >= 6 else ("TODO", "", "")
        if status not in STATUSES:
            warnings.append(f"USE {n}: status {status!r} is not one of {STATUSES}")
        counts[status] += 1
        cases = ", ".join(sorted(cites.get(n, ())))
        lines.append(f"| {n} | {_esc(title)} | {status} | {where} | {cases} | {note} |")
    for n in sorted(set(old) - set(sections), key=key):
        warnings.append(f"USE {n}: row in the doc but no such section in the seed (dropped)")
    doc = _replace(doc, "use-sections", "\n".join(lines))

    refs = cited_only(text, sections)
    old_refs = _rows(doc, "use-refs")
    rl = ["| number | cited in | status | note |", "|---|---|---|---|"]
    for n, citing in refs.items():
        prev = old_refs.get(n)
        status, note = (prev[2], prev[3]) if prev and len(prev) >= 4 else ("TODO", "")
        rl.append(f"| {n} | {', '.join(citing)} | {status} | {note} |")
    doc = _replace(doc, "use-refs", "\n".join(rl))

    cited = set(re.findall(r"[A-Za-z0-9_-]+\.case\b", doc))
    for name in sorted(set(case_files) - cited):
        warnings.append(f"{name} is cited nowhere in the doc")
    for name in sorted(cited - set(case_files)):
        warnings.append(f"{name} is cited in the doc but does not exist")

    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
    parts += [f"{counts[s]} {s}" for s in sorted(set(counts) - set(STATUSES))]
    summary = (f"**USE: {len(sections)} numbered sections in the seed: {', '.join(parts)}. "
               f"{len(case_files)} rules cases in `tests/cases/use/`.**")
    doc = _replace(doc, "summary", summary)

    for name, seed in (("eurofront-sections", EUROFRONT_SEED), ("wie-sections", WIE_SEED)):
        rows = ["| § | title |", "|---|---|"]
        rows += [f"| {n} | {_esc(t)} |" for n, t in top_sections((SEEDS / seed).read_text(encoding="utf-8"))]
        doc = _replace(doc, name, "\n".join(rows))
    return doc, warnings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/rules-coverage.md is out of date")
    ap.add_argument("--list", action="store_true", help="print the USE seed's numbered sections")
    args = ap.parse_args(argv)
    if not SEEDS.is_dir():
        print(f"no seeds at {SEEDS}", file=sys.stderr)
        return 2
    if args.list:
        for n, t in use_sections((SEEDS / USE_SEED).read_text(encoding="utf-8")).items():
            print(f"{n}\t{t}")
        return 0
    doc = DOC.read_text(encoding="utf-8")
    new, warnings = render(doc)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.check:
        if new != doc:
            print(f"{DOC} is out of date: run tools/rules_coverage.py", file=sys.stderr)
            return 1
        return 0
    if new != doc:
        DOC.write_text(new, encoding="utf-8")
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
