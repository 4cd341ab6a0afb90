"""The summary and the history pages in a real browser (Debian's headless Chromium).

Each page is opened through the DevTools protocol (tests/browser.py): any console error,
uncaught exception or error log entry (such as a resource that failed to load) fails the
test; screenshots must show something. Chromium missing is a failure, not a skip, unless
PBEM_ALLOW_MISSING_TOOLS=1.
"""

from __future__ import annotations

import os
from pathlib import Path

import html5lib
import pytest
from browser import INSTALL_HINT, Chromium, find_chromium, play_use, png_problems, screenshot_cli

from pbem.play import game
from pbem.present import history, render, summary
from pbem.store import gamestore as store

W, H = 1400, 1800


def chromium_exe() -> str:
    """Called inside the tests, so a missing browser is a FAILED test rather than a setup ERROR."""
    exe = find_chromium()
    if exe is None:
        if os.environ.get("PBEM_ALLOW_MISSING_TOOLS") == "1":
            pytest.skip(INSTALL_HINT + " (skipped because PBEM_ALLOW_MISSING_TOOLS=1)")
        pytest.fail(INSTALL_HINT)
    return exe


@pytest.fixture(scope="module")
def use_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A France 1940 game after its combats: the western player's summary and the game's history."""
    root = tmp_path_factory.mktemp("use")
    axis, western, gid = play_use(root)
    d = game.load(western.session, store.game_dir(western.home, gid))
    pages = {"summary": root / "summary.html", "history": root / "history.html"}
    pages["summary"].write_text(render.render_html(summary.build(d, "western")), encoding="utf-8")
    history.main_export(axis.session, store.game_dir(axis.home, gid), pages["history"])
    return pages


def _check_page(page: Path, tmp_path: Path, must_show: list[str]) -> None:
    exe = chromium_exe()
    html = page.read_text(encoding="utf-8")
    for text in must_show:
        assert text in html
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(html)
    # the plain command-line screenshot
    shot = tmp_path / f"{page.stem}-cli.png"
    p = screenshot_cli(exe, page.as_uri(), shot, tmp_path, W, H)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-2000:]
    assert shot.is_file(), p.stderr.decode(errors="replace")[-2000:]
    assert png_problems(shot.read_bytes(), W, H) == []
    # over DevTools: console errors, exceptions, failed loads; and a screenshot
    with Chromium(tmp_path / "cdp", exe, W, H) as browser:
        res = browser.load(page.as_uri())
    assert res.errors == [], "\n".join(res.errors)
    assert png_problems(res.png, W, H) == []
    (tmp_path / f"{page.stem}-cdp.png").write_bytes(res.png)


def test_use_summary_in_chromium(use_pages: dict[str, Path], tmp_path: Path) -> None:
    _check_page(use_pages["summary"], tmp_path, ["<svg", "Countries"])


def test_history_in_chromium(use_pages: dict[str, Path], tmp_path: Path) -> None:
    _check_page(use_pages["history"], tmp_path, ["<svg", "Combat at 1610", "χ²"])


def test_console_errors_are_caught(tmp_path: Path) -> None:
    """The harness really sees what it must fail on; and the browser is gone after it."""
    exe = chromium_exe()
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bad</title></head>'
                    '<body><p>x</p><img src="missing.png" alt="">'
                    '<script>console.error("boom"); console.log("all good"); no_such_function();</script>'
                    "</body></html>", encoding="utf-8")
    browser = Chromium(tmp_path / "cdp", exe, 800, 600)
    with browser:
        pid = browser.proc.pid if browser.proc else -1
        res = browser.load(page.as_uri())
    assert any("console.error: boom" in e for e in res.errors), res.errors
    assert any("no_such_function" in e for e in res.errors), res.errors
    assert any("missing.png" in e for e in res.errors), res.errors
    assert not any("all good" in e for e in res.errors)
    assert "log: all good" in res.console
    assert browser.proc is None
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
