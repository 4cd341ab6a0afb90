"""Refresh the generated parts of docs/rules-coverage.md (run by a developer; the doc is committed).

    .venv/bin/python tools/rules_coverage.py            # rewrite the doc in place
    .venv/bin/python tools/rules_coverage.py --check    # exit 1 if the doc is out of date
    .venv/bin/python tools/rules_coverage.py --list     # print the seed's USE sections
    .venv/bin/python tools/rules_coverage.py --list wie # ... or another game's (use, eurofront, wie, wie-base)

The doc is the source of the hand-written columns (status, where, note) of the section tables:
this tool keeps them and regenerates everything else between the ``<!-- BEGIN x -->`` and
``<!-- END x -->`` markers:

* ``use-sections``, ``eurofront-sections``, ``wie-sections``, ``wie-base-sections``: one row per
  numbered section of the USE seed, the EuroFront seed (plus its Spanish Civil War scenario and
  special rules 1-10, rows ``SCW``, ``SCW 1``..``SCW 10``), the War in Europe booklet and the
  authored WiE base rules (docs/wie-base-rules.md), parsed from the text, in numeric order (USE:
  15.9 before 15.10) or decimal order (the others: 1.1, 1.11, 1.12, 1.2), with
  the title and the rules cases that cite it (see ``GAMES``: the RULE line, the EXPECT ILLEGAL
  rule, a citation in the case text, plus a game's ``extra`` list); a section missing from the
  doc gets status ``TODO``; the same function (``section_table``) makes all four;
* ``use-refs``: numbers the USE seed cites but has no text for (hand columns kept);
* ``summary``: per game the counts of sections by status and the number of case files.

The seeds live outside the repository, in ``<repo>/../shared/seeds``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"
USE_SEED = "004_bb72b2d47778f3b9.txt"
EUROFRONT_SEED = "000_b0dcb9d275dc4eea.txt"
WIE_SEED = "003_a5d2870354bebb58.txt"
DOC = REPO / "docs" / "rules-coverage.md"
WIE_BASE = REPO / "docs" / "wie-base-rules.md"
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
    """Numeric order; EuroFront's ``SCW`` rows (the scenario, then rules 1-10) come last."""
    if number.startswith("SCW"):
        return (1000, *(int(x) for x in number.split()[1:]))
    return tuple(int(x) for x in number.split("."))


def decimal_key(number: str) -> tuple[int, ...]:
    """Printed order of decimal numbering (EuroFront, WiE): 1.0, 1.1, 1.11, 1.12, 1.2; SCW rows last."""
    if number.startswith("SCW"):
        return key(number)
    major, _, frac = number.partition(".")
    return (int(major), *(int(d) for d in frac.rstrip("0")))


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


def _short_title(text: str) -> str:
    """'Playable Area. The EastFront ...' -> 'Playable Area'; long first sentences are cut."""
    text = text.replace("**", "").strip()
    m = re.match(r"(.+?)(?:\.\s|\.?$)", text)
    title = (m.group(1) if m else text).strip().rstrip(":")
    if ": " in title and len(title) > 45:  # "ALLIED DEPLOYMENT: exactly as outlined in ..."
        title = title.split(": ", 1)[0]
    if len(title) > 70:
        title = title[:70].rsplit(" ", 1)[0] + " …"
    return title


def _outside_toc(text: str) -> list[str]:
    """The lines of a seed without its table of contents (the ``- ...`` run after the heading)."""
    out: list[str] = []
    in_toc = False
    for line in text.splitlines():
        if line.strip() == "Table of Contents":
            in_toc = True
            continue
        if in_toc and line.startswith("- "):
            continue
        in_toc = False
        out.append(line)
    return out


def _collect(found: dict[str, list[str]], number: str, title: str) -> None:
    """A number printed twice (EuroFront 20.76, WiE 76.2) keeps both titles on one row."""
    titles = found.setdefault(number, [])
    if title not in titles:
        titles.append(title)


def _merge(found: dict[str, list[str]]) -> dict[str, str]:
    return {n: " / ".join(t) + (" (number printed twice)" if len(t) > 1 else "")
            for n, t in sorted(found.items(), key=lambda kv: decimal_key(kv[0]))}


# "5.21 Deploying HQs. When ...", "- 11.731 Sea Supply. HQs in ..." (bullets outside the contents).
EF_HEADING = re.compile(rf"^(?:-\s+)?({NUM})\s+(\S.*)$")
# The SCW special rules: "1) Hex Control. In the SCW, ...", after "SCW Special Rules".
SCW_RULE = re.compile(r"^(\d+)\)\s+(.+?)\.(?:\s|$)")
SCW_SCENARIO = "Scenario: 1936 Spanish Civil War"


def eurofront_sections(text: str) -> dict[str, str]:
    """Every numbered section of the EuroFront seed, then the SCW scenario (``SCW``, its unnumbered
    set-up text) and its special rules (``SCW 1``..``SCW 10``)."""
    found: dict[str, list[str]] = {}
    scw = special = False
    for line in _outside_toc(text):
        if line.startswith(SCW_SCENARIO):
            scw = True
            _collect(found, "SCW", "Spanish Civil War scenario: situation, map, sides, set-ups (unnumbered)")
            continue
        if scw and line.startswith("SCW Special Rules"):
            special = True
            continue
        m = SCW_RULE.match(line) if special else None
        if m and 1 <= int(m.group(1)) <= 10:
            _collect(found, f"SCW {m.group(1)}", m.group(2))
            continue
        m = EF_HEADING.match(line)
        if m:
            _collect(found, m.group(1), _short_title(m.group(2)))
    return _merge(found)


# "67.0 Introduction", "[71.12] Example A: In summer 1940 ...".
WIE_HEADING = re.compile(rf"^(?:\[({NUM})\]|({NUM}))\s*(\S.*)$")


def wie_sections(text: str) -> dict[str, str]:
    """Every numbered section of the War in Europe booklet (67.0-78.0 with sub-numbers)."""
    found: dict[str, list[str]] = {}
    for line in _outside_toc(text):
        m = WIE_HEADING.match(line)
        if m:
            _collect(found, m.group(1) or m.group(2), _short_title(m.group(3)))
    return _merge(found)


# docs/wie-base-rules.md: "## 5. Movement and terrain", "## 4.0 The player-turn",
# "**2.3 Weather** is fixed ...", "**5.1** A unit spends ...", "**8.2 Ownership** (69.2). ...".
BASE_HEADING = re.compile(r"^##\s+(\d+(?:\.\d+)?)\.?\s+(\S.*)$")
BASE_BOLD = re.compile(r"^\*\*(\d+\.\d+)\s*([^*]*)\*\*\s*(.*)$")


def wie_base_sections(text: str) -> dict[str, str]:
    """Every numbered section of the authored WiE base rules (headings and bold numbers)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = BASE_HEADING.match(line)
        if m:
            _collect(found, m.group(1), m.group(2).strip())
            continue
        m = BASE_BOLD.match(line)
        if m:
            title = m.group(2).strip().rstrip(".") or _short_title(m.group(3))
            _collect(found, m.group(1), title)
    return _merge(found)


# A citation pattern: a regex whose groups give section numbers, and how to turn a match into
# row keys (default: every number of group 1, a comma-separated list allowed).
Cite = tuple[re.Pattern[str], Callable[[re.Match[str]], list[str]]]


def _numbers(m: re.Match[str]) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)*", m.group(1))


def _scw(m: re.Match[str]) -> list[str]:
    """``EF SCW 9B`` cites SCW 9; ``EF SCW Setup``, ``EF SCW The Map`` the scenario text."""
    return [f"SCW {m.group(1)}"] if m.group(1) else ["SCW"]


USE_CITES: tuple[Cite, ...] = (
    (re.compile(rf"^RULE\s+USE\s+({NUM})"), _numbers),
    (re.compile(rf"^EXPECT\s+ILLEGAL\s+(?:USE\s+)?({NUM})"), _numbers),
    (re.compile(rf"USE\s+({NUM})"), _numbers),
    (re.compile(rf"\(({NUM})\)"), _numbers),
)
EF_CITES: tuple[Cite, ...] = (
    (re.compile(rf"\bEF\s+({NUM})"), _numbers),
    (re.compile(r"\bEF\s+SCW\s+(?:(\d+)[A-D]?\b|[A-Z])"), _scw),
    (re.compile(r"\bSCW\s+rule\s+(\d+)"), _scw),
    (re.compile(rf"\(({NUM})\)"), _numbers),
)
WIE_CITES: tuple[Cite, ...] = (
    (re.compile(rf"\bWIE\s+({NUM})", re.IGNORECASE), _numbers),
    (re.compile(rf"\(({NUM})\)"), _numbers),
)
BASE_NUMS = r"\d+(?:\.\d+)*(?:\s*,\s*\d+(?:\.\d+)*)*"
WIE_BASE_CITES: tuple[Cite, ...] = ((re.compile(rf"WiE-base\s+({BASE_NUMS})"), _numbers),)

# Cases that cite no section of their game, assigned by hand (the test checks the files exist).
EF_EXTRA_CASES: dict[str, tuple[str, ...]] = {}
WIE_EXTRA_CASES: dict[str, tuple[str, ...]] = {}


def case_citations(cases_dir: Path, sections: dict[str, str], cites: tuple[Cite, ...] = USE_CITES,
                   extra: dict[str, tuple[str, ...]] | None = None, chapter: bool = False) -> dict[str, set[str]]:
    """Section -> case file names citing it (by default USE's: RULE, EXPECT ILLEGAL, 'USE x.y' or
    '(x.y)' in the text, plus EXTRA_CASES). With ``chapter``, a number the text lacks goes to its
    chapter's row ('9.4' to '9'): the authored WiE base rules grow with their cases."""
    out: dict[str, set[str]] = {}
    for path in sorted(cases_dir.glob("*.case")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            for pat, keys in cites:
                for m in pat.finditer(line):
                    for n in keys(m):
                        if chapter and n not in sections:
                            n = n.split(".")[0]
                        if n in sections:
                            out.setdefault(n, set()).add(path.name)
    for n, names in (EXTRA_CASES if extra is None else extra).items():
        if n in sections:
            out.setdefault(n, set()).update(names)
    return out


@dataclass(frozen=True)
class Game:
    """One section table of the doc: where its text and cases are, how they are parsed."""

    label: str  # "USE", "EuroFront", ... (summary line, warnings)
    block: str  # the doc's marker name
    source: Path  # the seed (or authored rules) text
    parse: Callable[[str], dict[str, str]]
    cases: Path
    cites: tuple[Cite, ...]
    extra: dict[str, tuple[str, ...]] = field(default_factory=dict)
    order: Callable[[str], tuple[int, ...]] = decimal_key  # USE numbers 15.9 before 15.10
    chapter: bool = False  # see case_citations


GAMES = (
    Game("USE", "use-sections", SEEDS / USE_SEED, use_sections, CASES, USE_CITES, EXTRA_CASES, key),
    Game("EuroFront", "eurofront-sections", SEEDS / EUROFRONT_SEED, eurofront_sections,
         REPO / "tests" / "cases" / "eurofront", EF_CITES, EF_EXTRA_CASES),
    Game("WiE", "wie-sections", SEEDS / WIE_SEED, wie_sections, REPO / "tests" / "cases" / "wie",
         WIE_CITES, WIE_EXTRA_CASES),
    Game("WiE-base", "wie-base-sections", WIE_BASE, wie_base_sections, REPO / "tests" / "cases" / "wie",
         WIE_BASE_CITES, chapter=True),
)


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


ROW_KEY = re.compile(r"\d+(?:\.\d+)*|SCW(?: \d+)?")


def _rows(doc: str, name: str) -> dict[str, list[str]]:
    i, j = _block(doc, name)
    out = {}
    for line in doc[i:j].splitlines():
        cells = _cells(line)
        if line.startswith("|") and cells and ROW_KEY.fullmatch(cells[0]):
            out[cells[0]] = cells
    return out


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def _counts(counts: Counter[str]) -> str:
    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
    parts += [f"{counts[s]} {s}" for s in sorted(set(counts) - set(STATUSES))]
    return ", ".join(parts)


def section_table(doc: str, game: Game) -> tuple[str, Counter[str], list[str]]:
    """The game's refreshed section table (hand columns kept), its status counts and warnings."""
    warnings: list[str] = []
    parsed = game.parse(game.source.read_text(encoding="utf-8"))
    sections = {n: parsed[n] for n in sorted(parsed, key=game.order)}
    cites = case_citations(game.cases, sections, game.cites, game.extra, game.chapter)
    old = _rows(doc, game.block)
    lines = ["| § | title | status | where | cases | note |", "|---|---|---|---|---|---|"]
    counts: Counter[str] = Counter()
    for n, title in sections.items():
        prev = old.get(n)
        status, where, note = (prev[2], prev[3], prev[5]) if prev and len(prev) >= 6 else ("TODO", "", "")
        if status not in STATUSES:
            warnings.append(f"{game.label} {n}: status {status!r} is not one of {STATUSES}")
        counts[status] += 1
        cases = ", ".join(sorted(cites.get(n, ())))
        lines.append(f"| {n} | {_esc(title)} | {status} | {where} | {cases} | {note} |")
    for n in sorted(set(old) - set(sections), key=game.order):
        warnings.append(f"{game.label} {n}: row in the doc but no such section in the seed (dropped)")
    return _replace(doc, game.block, "\n".join(lines)), counts, warnings


def _cited_case_files(doc: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9_-]+\.case\b", doc))


def _case_warnings(doc: str) -> list[str]:
    """Every case file cited in its game's part of the doc, and no citation of a missing file.

    USE's part is the doc without the other games' section blocks (its prose cites cases too)."""
    use_part = doc
    parts: dict[Path, set[str]] = {}
    for game in GAMES[1:]:
        i, j = _block(doc, game.block)
        parts.setdefault(game.cases, set()).update(_cited_case_files(doc[i:j]))
        use_part = use_part.replace(doc[i:j], "")
    parts[CASES] = _cited_case_files(use_part)
    warnings = []
    for cases_dir, cited in parts.items():
        files = {p.name for p in cases_dir.glob("*.case")}
        where = cases_dir.relative_to(REPO)
        warnings += [f"{where}/{n} is cited nowhere in the doc" for n in sorted(files - cited)]
        warnings += [f"{where}/{n} is cited in the doc but does not exist" for n in sorted(cited - files)]
    return warnings


def render(doc: str) -> tuple[str, list[str]]:
    """The refreshed document and warnings."""
    warnings: list[str] = []
    summary: list[str] = []
    for game in GAMES:
        doc, counts, w = section_table(doc, game)
        warnings += w
        n_cases = len(list(game.cases.glob("*.case")))
        if game.label == "USE":
            summary.append(f"**USE: {sum(counts.values())} numbered sections in the seed: {_counts(counts)}. "
                           f"{n_cases} rules cases in `tests/cases/use/`.**")
        elif game.label == "WiE-base":
            summary.append(f"**WiE base rules (authored, `docs/wie-base-rules.md`): {sum(counts.values())} "
                           f"numbered sections: {_counts(counts)}.**")
        else:
            cases_dir = game.cases.relative_to(REPO).as_posix()
            summary.append(f"**{game.label}: {sum(counts.values())} sections in the seed: {_counts(counts)}. "
                           f"{n_cases} rules cases in `{cases_dir}/`.**")

    text = (SEEDS / USE_SEED).read_text(encoding="utf-8")
    refs = cited_only(text, use_sections(text))
    old_refs = _rows(doc, "use-refs")
    rl = ["| number | cited in | status | note |", "|---|---|---|---|"]
    for n, citing in refs.items():
        prev = old_refs.get(n)
        status, note = (prev[2], prev[3]) if prev and len(prev) >= 4 else ("TODO", "")
        rl.append(f"| {n} | {', '.join(citing)} | {status} | {note} |")
    doc = _replace(doc, "use-refs", "\n".join(rl))

    warnings += _case_warnings(doc)
    doc = _replace(doc, "summary", "\n\n".join(summary))
    return doc, warnings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/rules-coverage.md is out of date")
    ap.add_argument("--list", nargs="?", const="use", choices=("use", "eurofront", "wie", "wie-base"),
                    help="print a game's numbered sections (default: USE)")
    args = ap.parse_args(argv)
    if not SEEDS.is_dir():
        print(f"no seeds at {SEEDS}", file=sys.stderr)
        return 2
    if args.list:
        game = next(g for g in GAMES if g.block == f"{args.list}-sections")
        for n, t in game.parse(game.source.read_text(encoding="utf-8")).items():
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
