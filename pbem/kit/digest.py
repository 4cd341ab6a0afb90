"""The rules hash: one digest over everything that decides what a game's files mean.

Every file records its game's rules hash, and a tool refuses to join or replay a
game whose recorded hash differs from its own (pbem.protocol.genesis
``check_local_rules``): two players whose copies would read the same file
differently must find out at the proposal, not turns later through a state
digest that no longer matches.

What decides what a file means, and is therefore covered:

- the game package: every ``.py`` (the rules themselves; any edit, even a
  comment, changes the hash, so releases are the unit of compatibility) and
  its data files (tables, charts);
- ``pbem/kit/*.py``: code the game imports and runs as its own (the scripted
  context, the sequence-of-play stepper);
- the engine modules the rules run through while a file is applied
  (``ENGINE_FILES``): ``rulesapi.py`` (the interface, its defaults such as the
  state digest), ``formats/canonical.py`` (how orders and state decode and
  encode), ``formats/hashing.py`` (the hash every roll, commitment and digest is
  built on), ``protocol/dice.py`` (seeds to die values), ``protocol/context.py``
  (which roll index a roll takes, what a commitment or tell records) and
  ``protocol/commit.py`` (what value a commitment binds);
- the game's name and version string.

Not covered, because they do not change what a file means: the file format,
signatures, encryption and seed proofs (pbem.crypto, protocol/turnfile and the
rest of pbem.protocol: a difference there refuses a file outright, and the
format carries its own version tag), the store, the game chain's bookkeeping
(pbem.play), presentation (pbem.present), mail and the CLI, and the error
classes' messages (pbem.errors). Including them would make every cosmetic
release an incompatible one.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path

from pbem.errors import NotFound

#: the installed ``pbem`` package (not imported: the kit must not import the engine's top package)
ENGINE_ROOT = Path(__file__).resolve().parent.parent
#: engine modules, relative to ENGINE_ROOT, that decide what a file means (see the module docstring)
ENGINE_FILES = ("rulesapi.py", "formats/canonical.py", "formats/hashing.py", "protocol/dice.py",
                "protocol/context.py", "protocol/commit.py")
#: the kit's own code, relative to ENGINE_ROOT
KIT_GLOB = "kit/*.py"
DOMAIN = b"pbem/v1/rules-hash\n"


def _update(h: hashlib._Hash, section: str, root: Path, paths: Iterable[Path]) -> None:
    """Hash files under ``root`` by their relative name, sorted, CRLF-normalised, length-prefixed.

    Names are bound (a renamed or moved file changes the hash) and relative, so a
    checkout and an installed wheel agree (a game's package may be installed
    under another name than its source folder).
    CRLF is folded so a Windows checkout hashes like a Unix one.
    """
    files = sorted((p.relative_to(root).as_posix(), p) for p in paths if p.is_file())
    h.update(section.encode() + b"\0" + len(files).to_bytes(8, "big"))
    for name, p in files:
        content = p.read_bytes().replace(b"\r\n", b"\n")
        h.update(name.encode() + b"\0" + len(content).to_bytes(8, "big") + content)


def engine_digest() -> bytes:
    """Hash over the kit and the engine modules of ENGINE_FILES (not cached: see ``rules_digest``)."""
    h = hashlib.sha256(b"pbem/v1/rules-engine\n")
    _update(h, "kit", ENGINE_ROOT, ENGINE_ROOT.glob(KIT_GLOB))
    _update(h, "engine", ENGINE_ROOT, (ENGINE_ROOT / f for f in ENGINE_FILES))
    return h.digest()


def game_digest(package: Path, data: tuple[str, ...] = ("data/*",)) -> bytes:
    """Hash over a game package's code (every ``.py`` under it) and its data files (``data`` globs)."""
    h = hashlib.sha256(b"pbem/v1/rules-game\n")
    _update(h, "code", package, package.rglob("*.py"))
    _update(h, "data", package, (p for pattern in data for p in package.glob(pattern)))
    return h.digest()


@functools.cache
def rules_digest(name: str, version: str, package: Path, data: tuple[str, ...] = ("data/*",)) -> bytes:
    """The rules hash of game ``name`` at ``version`` whose package folder is ``package``.

    Cached for the life of the process: the files are read once. A tool that
    edits the kit or the engine while running (a demo during development) keeps
    the hash it started with; a fresh process sees the new one, and then refuses
    the games made before — expected.
    """
    missing = [f for f in ENGINE_FILES if not (ENGINE_ROOT / f).is_file()]
    if missing:
        # A silently skipped module would hash like an absent one on every machine.
        raise NotFound(f"rules hash: engine modules missing: {', '.join(missing)}",
                       hint="this pbem install is incomplete; reinstall it")
    h = hashlib.sha256(DOMAIN)
    for part in (name.encode(), version.encode(), game_digest(package, data), engine_digest()):
        h.update(len(part).to_bytes(8, "big") + part)
    return h.digest()
