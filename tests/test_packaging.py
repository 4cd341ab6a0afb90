"""Packaging: setup.cfg names every package, and the wheel installs and plays outside the checkout."""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from pbem import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = set(cfg["options"]["packages"].split())
    found = set()
    for top, name in (("pbem", "pbem"), ("rules", "pbem_rules")):
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top).parts
            found.add(".".join((name, *rel)))
    assert found <= listed, f"add to setup.cfg [options] packages: {sorted(found - listed)}"


def test_engine_never_imports_a_game() -> None:
    for py in (ROOT / "pbem").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        assert "pbem_rules" not in text and "from rules" not in text, py


def test_games_never_touch_mail_or_cli() -> None:
    for py in (ROOT / "rules").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        for bad in ("pbem.mail", "pbem.cli", "import click", "smtplib", "imaplib"):
            assert bad not in text, f"{py} uses {bad}"


# --- the wheel, installed into a fresh venv -------------------------------------------------------
# Issue 10: what a player gets from `pip install pbem` must run outside the checkout. The test builds
# the wheel from a copy of the sources (so no build/ or egg-info lands in the work tree), installs it
# into a new venv and plays a USE turn between two players from that install, with HOME in tmp,
# the cwd outside the checkout and PYTHONPATH unset.
#
# Dependencies: the wheel goes in with --no-deps, and a .pth file puts this venv's site-packages
# behind the new venv's own, so the test runs offline and on a CI runner with no pip cache. The new
# venv's site-packages comes first on sys.path and importlib.metadata keeps the first distribution
# of a name, so `pbem` and its entry points are the installed copy's, and the editable install's
# finder (a .pth inside this venv's site-packages) is never run. `pip check` then proves every
# Requires-Dist of the wheel is met. PBEM_WHEEL_TEST_ONLINE=1 resolves them from the index instead.
# That every dependency exists as a wheel on Windows and macOS is `make wheels` (tools/check_wheels.py).

def test_check_wheels_flags_a_wheel_that_opens_a_system_library(tmp_path: Path) -> None:
    wheel = tmp_path / "fake-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("fake/__init__.py", "lib = ffi.dlopen(find_library('cairo'))\n")
        z.writestr("fake/other.py", "def dlopen_later(): pass\n")
        z.writestr("fake/data.txt", "dlopen(x)\n")
    assert _check_wheels().native_loads(wheel) == ["fake/__init__.py"]


SOURCES = ("pyproject.toml", "setup.cfg", "README.md", "pbem", "rules", "templates", "scenarios")
FIRST_AXIS_ORDERS = "declare-war BEL\ndeclare-war NET\nstrategic-move GER-LF3F 2208\n"


def _scripts(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def _run(cmd: list[str | Path], env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False, env=env, cwd=cwd)
    assert p.returncode == 0, f"{cmd}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a player's shell: no PYTHONPATH, no pbem or XDG settings, no active venv."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PBEM_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def _build_wheel(tmp: Path) -> Path:
    src = tmp / "src"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(path, src / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", tmp / "dist", src], env=_clean_env(), cwd=tmp)
    (wheel,) = (tmp / "dist").glob("pbem-*.whl")
    return wheel


def _install(wheel: Path, venv: Path) -> Path:
    _run([sys.executable, "-m", "venv", venv], env=_clean_env())
    py = _scripts(venv) / "python"
    if os.environ.get("PBEM_WHEEL_TEST_ONLINE") == "1":
        _run([py, "-m", "pip", "install", wheel], env=_clean_env())
    else:
        _run([py, "-m", "pip", "install", "--no-deps", "--no-index", wheel], env=_clean_env())
        new_site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             env=_clean_env()).stdout.strip())
        ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        (new_site / "zz_pbem_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")
    _run([py, "-m", "pip", "check"], env=_clean_env())
    return py


def _check_wheels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_wheels", ROOT / "tools" / "check_wheels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_wheels"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_wheel_carries_every_template_and_scenario_file(tmp_path: Path) -> None:
    with zipfile.ZipFile(_build_wheel(tmp_path)) as z:
        names = set(z.namelist())
        (meta,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        requires = [ln.split(":", 1)[1].strip() for ln in z.read(meta).decode().splitlines()
                    if ln.startswith("Requires-Dist:") and "extra ==" not in ln]
    # tools/check_wheels.py (make wheels) checks what the wheel will ask pip for
    assert sorted(_check_wheels().install_requires(ROOT / "setup.cfg")) == sorted(requires)
    data = f"pbem-{__version__}.data/data/share/pbem/"
    for top in ("templates", "scenarios"):
        for f in (ROOT / top).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts:
                rel = f.relative_to(ROOT).as_posix()
                assert data + rel in names, f"{rel} is not in the wheel: add it to setup.cfg [options.data_files]"
    assert "pbem_rules/use/data/crt.toml" in names


def test_wheel_installs_into_a_fresh_venv_and_plays_a_turn(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    py = _install(_build_wheel(tmp_path), venv)
    pbem_exe = _scripts(venv) / "pbem"
    work = tmp_path / "work"  # the players' cwd, outside the checkout
    work.mkdir()
    where = _run([py, "-c", "import pbem; from pbem.present.render import templates_dir; "
                  "from pbem_rules.use.scenario import scenario_dir; "
                  "print(pbem.__file__); print(templates_dir()); print(scenario_dir('france-1940'))"],
                 env=_clean_env(), cwd=work).stdout.split("\n")
    share = venv.resolve() / "share" / "pbem"
    assert Path(where[0]).resolve().is_relative_to(venv.resolve()), where
    assert Path(where[1]).resolve() == share / "templates", where
    assert Path(where[2]).resolve() == share / "scenarios" / "use" / "france-1940", where

    assert "Usage:" in _run([pbem_exe, "--help"], env=_clean_env(), cwd=work).stdout

    def pbem(seat: str, *args: str | Path) -> str:
        env = _clean_env(HOME=str(tmp_path / "homes" / seat), PBEM_PASSPHRASE=f"passphrase of {seat}")
        return _run([pbem_exe, *args], env=env, cwd=work).stdout

    def newest_outbox(seat: str) -> Path:
        files = (tmp_path / "homes" / seat).rglob("games/*/outbox/*.pbem")
        return max(files, key=lambda p: p.stat().st_mtime_ns)

    for seat in ("axis", "western"):
        (tmp_path / "homes" / seat).mkdir(parents=True)
        pbem(seat, "key", "new", "--name", seat.title(), "--email", f"{seat}@example.org", "--work-factor", "10")
        # no --home: platformdirs put the identity under the temporary HOME
        assert list((tmp_path / "homes" / seat).rglob("identity.age")), seat
        pbem(seat, "key", "card", "-o", work / f"{seat}.card")
    fpr = pbem("axis", "key", "fingerprint").strip()
    out = pbem("axis", "game", "new", "--rules", "use", "--scenario", "france-1940",
               "--seat", "axis=me", "--seat", f"western={work / 'western.card'}")
    gid = re.search(r"game ([0-9a-f]{32}) proposed", out)
    assert gid, out
    assert "(checked)" in pbem("western", "game", "join", newest_outbox("axis"), "--expect", f"axis={fpr}",
                               "--accept-options")
    pbem("axis", "receive", newest_outbox("western"))
    assert "YOUR MOVE" in pbem("axis", "status")
    orders = work / "orders.txt"
    orders.write_text(FIRST_AXIS_ORDERS, encoding="utf-8")
    pbem("axis", "orders", "check", gid.group(1)[:8], "--orders", orders)
    assert "turn file" in pbem("axis", "play", gid.group(1)[:8], "--orders", orders)
    turn = newest_outbox("axis")
    assert list(turn.parent.glob("*.eml")), "no mail written next to the turn file (summary, map)"
    assert "added" in pbem("western", "receive", turn)
    for seat in ("axis", "western"):
        assert "ok" in pbem(seat, "verify", "--all")


def test_data_files_are_found_after_a_user_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pip install --user` puts share/pbem under site.USER_BASE, not sys.prefix: both are searched."""
    import site
    import sys

    from pbem.kit import share

    (tmp_path / "user" / "share" / "pbem" / "templates").mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "prefix"))
    monkeypatch.setattr(site, "USER_BASE", str(tmp_path / "user"))
    assert share.find_shared("templates") == tmp_path / "user" / "share" / "pbem" / "templates"
    (tmp_path / "prefix" / "share" / "pbem" / "templates").mkdir(parents=True)
    assert share.find_shared("templates") == tmp_path / "prefix" / "share" / "pbem" / "templates"
