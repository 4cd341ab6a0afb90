"""Screenshots for the docs: a USE turn summary after a combat, and a game's history page.

    .venv/bin/python tools/screenshots.py [--out docs/images] [--keep DIR]

Plays a short France 1940 game through the library (tests/browser.py: two players,
deterministic keys and dice), renders

* ``summary-france-1940.png``: the Western player's summary after the Axis's first combat (file 5), whole,
* ``history.png``: the top of the history page of the game's first two turns,

and screenshots both in Debian's headless Chromium over the DevTools protocol, failing
if the browser reports any console error. Needs the `chromium` package.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import USE_FILES, Chromium, play_use_files, png_problems, start_use  # noqa: E402

from pbem.play import game  # noqa: E402
from pbem.present import history, render, summary  # noqa: E402
from pbem.store import gamestore as store  # noqa: E402

SUMMARY_AFTER = 5  # the file that resolves the first combat (and designates an assault)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    ap.add_argument("--keep", type=Path, help="also keep the HTML pages in this folder")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=1800)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-shots-") as tmp_name:
        tmp = Path(tmp_name)
        pages = Path(a.keep) if a.keep else tmp / "pages"
        pages.mkdir(parents=True, exist_ok=True)
        axis, western, gid = start_use(tmp / "homes")
        play_use_files(axis, western, gid, 0, SUMMARY_AFTER)
        d = game.load(western.session, store.game_dir(western.home, gid))
        (pages / "summary.html").write_text(render.render_html(summary.build(d, "western")), encoding="utf-8")
        play_use_files(axis, western, gid, SUMMARY_AFTER, len(USE_FILES))
        history.main_export(axis.session, store.game_dir(axis.home, gid), pages / "history.html")

        a.out.mkdir(parents=True, exist_ok=True)
        failed = False
        with Chromium(tmp / "browser", width=a.width, height=a.height) as browser:
            # the whole summary (its combat report is below the map); the top of the history
            for page, name, full in (("summary", "summary-france-1940", True), ("history", "history", False)):
                res = browser.load((pages / f"{page}.html").as_uri(), full_page=full)
                problems = res.errors + png_problems(res.png, a.width, None if full else a.height)
                for p in problems:
                    print(f"{name}: {p}", file=sys.stderr)
                failed = failed or bool(problems)
                (a.out / f"{name}.png").write_bytes(res.png)
                print(f"wrote {a.out / f'{name}.png'} ({len(res.png) // 1024} KiB)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
