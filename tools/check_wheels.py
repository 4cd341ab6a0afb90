"""Does every runtime dependency install from wheels on Windows, macOS and Linux? (`make wheels`)

    .venv/bin/python tools/check_wheels.py                 # the default platforms, CPython 3.11
    .venv/bin/python tools/check_wheels.py --platform win_arm64 --python-version 3.12 --python-version 3.13
    .venv/bin/python tools/check_wheels.py --keep wheels/  # keep the downloaded wheels

For each target platform it asks pip to resolve the install_requires of setup.cfg (read from the
file, so the check follows it) from wheels only, as a player's `pip install pbem` there would:

    pip download --only-binary=:all: --platform P --python-version 3.11 --implementation cp
                 --abi cp311 -d DIR <install_requires>

and prints, per platform, either "wheels only" with the resolved closure, or the package pip
found no wheel for (that player would need a compiler, or could not install at all). It needs
PyPI (or the index pip is configured with); it installs nothing.

A wheel is not the whole story: a pure-Python wheel that opens a system library at run time
(cairocffi opens the cairo DLL) resolves fine and then fails on the player's machine. So each
resolved wheel's Python files are also scanned for `dlopen(` / `find_library(`, and the hits
are printed as warnings to check by hand.

Exit status: 0 when every platform resolved from wheels only (and, with --strict, no wheel
opens a library by name), 1 otherwise, 2 when pip could not be run at all.
"""

from __future__ import annotations

import argparse
import configparser
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# One name -> the platform tags pip may pick from. macOS tags cover older releases on their own
# (pip expands macosx_11_0_arm64 to every earlier compatible tag); manylinux ones do not, so the
# Linux target lists the glibc levels of a Debian 10+/Ubuntu 18.10+ machine (glibc 2.28).
PLATFORMS: dict[str, tuple[str, ...]] = {
    "win_amd64": ("win_amd64",),
    "macosx_11_0_arm64": ("macosx_11_0_arm64",),
    "macosx_10_13_x86_64": ("macosx_10_13_x86_64",),
    "manylinux_2_28_x86_64": (*(f"manylinux_2_{m}_x86_64" for m in range(28, 4, -1)),
                              "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"),
}
NATIVE_LOAD = re.compile(rb"\b(?:dlopen|find_library)\(")
# The foreign-function toolkits define dlopen themselves; what matters is who calls them.
FFI_TOOLKITS = ("cffi-",)
NO_MATCH = re.compile(r"No matching distribution found for ([A-Za-z0-9_.\-\[\]]+)")


@dataclass
class Outcome:
    platform: str
    ok: bool
    wheels: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    native: list[str] = field(default_factory=list)
    error: str = ""


def install_requires(setup_cfg: Path) -> list[str]:
    """The runtime requirements, one per line of [options] install_requires, comments dropped."""
    cfg = configparser.ConfigParser()
    cfg.read(setup_cfg, encoding="utf-8")
    lines = (ln.split("#", 1)[0].strip() for ln in cfg["options"].get("install_requires", "").splitlines())
    return [ln for ln in lines if ln]


def native_loads(wheel: Path) -> list[str]:
    """The Python files of a wheel that open a shared library by name at run time."""
    with zipfile.ZipFile(wheel) as z:
        return [n for n in z.namelist() if n.endswith(".py") and NATIVE_LOAD.search(z.read(n))]


def check(name: str, tags: tuple[str, ...], reqs: list[str], python: str, dest: Path) -> Outcome:
    dest.mkdir(parents=True, exist_ok=True)
    abi = "cp" + python.replace(".", "")
    cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
           "--only-binary=:all:", "--python-version", python, "--implementation", "cp", "--abi", abi,
           "-d", str(dest)]
    for tag in tags:
        cmd += ["--platform", tag]
    proc = subprocess.run([*cmd, *reqs], capture_output=True, text=True, check=False)
    wheels = sorted(p.name for p in dest.glob("*.whl"))
    if proc.returncode != 0:
        missing = sorted(set(NO_MATCH.findall(proc.stderr)))
        tail = "" if missing else proc.stderr.strip().splitlines()[-1:]
        return Outcome(name, False, wheels, missing, error=str(tail[0]) if tail else "")
    others = sorted(p.name for p in dest.iterdir() if p.is_file() and p.suffix != ".whl")
    native = [f"{w}: {', '.join(files)}" for w in wheels if not w.startswith(FFI_TOOLKITS)
              if (files := native_loads(dest / w))]
    return Outcome(name, not others, wheels, others, native)


def report(o: Outcome) -> str:
    lines = [f"{o.platform}: " + ("resolved from wheels only" if o.ok else "NOT from wheels only")]
    lines += [f"  no wheel: {m}" for m in o.missing]
    if o.error:
        lines.append(f"  pip: {o.error}")
    lines += [f"  {w}" for w in o.wheels]
    lines += [f"  warning: opens a shared library by name at run time (is it in the wheel?): {n}" for n in o.native]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--platform", action="append", metavar="TAG",
                    help=f"a wheel platform tag (repeatable; default: {', '.join(PLATFORMS)})")
    ap.add_argument("--python-version", action="append", metavar="X.Y",
                    help="the target CPython (repeatable; default: 3.11, the oldest pbem supports)")
    ap.add_argument("--setup-cfg", type=Path, default=REPO / "setup.cfg")
    ap.add_argument("--keep", type=Path, help="download into this folder (one sub-folder per platform)")
    ap.add_argument("--strict", action="store_true",
                    help="also fail when a resolved wheel opens a shared library by name (make wheels)")
    a = ap.parse_args(argv)
    reqs = install_requires(a.setup_cfg)
    targets = {p: PLATFORMS.get(p, (p,)) for p in (a.platform or PLATFORMS)}
    pythons = a.python_version or ["3.11"]
    print(f"install_requires ({a.setup_cfg.name}): {' '.join(reqs)}")
    with tempfile.TemporaryDirectory(prefix="pbem-wheels-") as tmp:
        root = a.keep or Path(tmp)
        outcomes = [check(f"cp{v.replace('.', '')} {name}", tags, reqs, v, root / f"cp{v.replace('.', '')}-{name}")
                    for v in pythons for name, tags in targets.items()]
    for o in outcomes:
        print(report(o))
    if any(o.error and not o.missing and not o.wheels for o in outcomes):
        return 2
    return 0 if all(o.ok and not (a.strict and o.native) for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
