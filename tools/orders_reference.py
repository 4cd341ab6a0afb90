"""The order references of the block and three-player games, from their verb tables.

docs/orders-eurofront.md and docs/orders-wie.md hold a hand-written introduction and, between
`<!-- BEGIN verbs -->` and `<!-- END verbs -->`, a table generated from each game's kit VerbTable
(the same lines `pbem orders template` prints): the order, when it may be given, the rule.
`--check` exits 1 when a page is out of date (tests/test_orders_reference.py runs it).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"eurofront": ("docs/orders-eurofront.md", "pbem_rules.eurofront.table"),
         "wie": ("docs/orders-wie.md", "pbem_rules.wie.verbs")}
BEGIN, END = "<!-- BEGIN verbs -->", "<!-- END verbs -->"


def table(module: str) -> str:
    verbs = importlib.import_module(module).TABLE.verbs.values()
    rows = ["| order | when | what, and the rule |", "|---|---|---|"]
    for v in verbs:
        if not v.help:
            continue
        usage, _, note = v.help.partition("#")
        when = ", ".join(p.replace("-", " ") for p in v.phases) or "any step where you act"
        cell = usage.strip().replace("|", "\\|")  # a table cell: the pipe of `yes|no` escaped
        rows.append(f"| `{cell}` | {when} | {note.strip().replace('|', '/')} |")
    return "\n".join(rows)


def render(doc: str, module: str) -> str:
    i, j = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[:i] + "\n" + table(module) + "\n" + doc[j:]


def main(argv: list[str]) -> int:
    stale = []
    for _game, (page, module) in PAGES.items():
        path = ROOT / page
        old = path.read_text(encoding="utf-8")
        new = render(old, module)
        if new != old:
            if "--check" in argv:
                stale.append(page)
            else:
                path.write_text(new, encoding="utf-8")
                print(f"wrote {page}")
    for page in stale:
        print(f"{page} is out of date: run tools/orders_reference.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
