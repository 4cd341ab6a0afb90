"""The rules hash (pbem.kit.digest) covers what decides what a file means, and nothing else."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pbem_rules.use.module import VERSION

from pbem.kit import digest

ENGINE = Path(digest.__file__).resolve().parent.parent
GAME = ENGINE.parent / "rules" / "use"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """A copy of the engine (kit, covered modules, mail) and of the USE package, hashed from there."""
    root = tmp_path / "pbem"
    for rel in [*digest.ENGINE_FILES, *(p.relative_to(ENGINE).as_posix() for p in ENGINE.glob(digest.KIT_GLOB)),
                *(p.relative_to(ENGINE).as_posix() for p in (ENGINE / "mail").glob("*.py"))]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ENGINE / rel, root / rel)
    game = tmp_path / "use"
    shutil.copytree(GAME, game, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(digest, "ENGINE_ROOT", root)
    digest.rules_digest.cache_clear()
    yield root, game
    digest.rules_digest.cache_clear()


def _hash(game: Path) -> bytes:
    digest.rules_digest.cache_clear()
    return digest.rules_digest("use", VERSION, game)


def test_copy_hashes_like_the_original(tree: tuple[Path, Path]) -> None:
    from pbem_rules.use import RULES

    _, game = tree
    # Names are relative: a copy elsewhere (an installed wheel) hashes like the checkout.
    assert _hash(game) == RULES.rules_hash()


@pytest.mark.parametrize("rel", ["kit/cases.py", "protocol/dice.py", "formats/canonical.py", "rulesapi.py",
                                 "protocol/context.py"])
def test_engine_edit_changes_the_hash(tree: tuple[Path, Path], rel: str) -> None:
    root, game = tree
    before = _hash(game)
    with open(root / rel, "a", encoding="utf-8") as f:
        f.write("# a comment is an edit too\n")
    assert _hash(game) != before


def test_new_kit_module_changes_the_hash(tree: tuple[Path, Path]) -> None:
    root, game = tree
    before = _hash(game)
    (root / "kit" / "extra.py").write_text('"""A new kit module."""\n', encoding="utf-8")
    assert _hash(game) != before


def test_mail_edit_keeps_the_hash(tree: tuple[Path, Path]) -> None:
    root, game = tree
    before = _hash(game)
    with open(root / "mail" / "config.py", "a", encoding="utf-8") as f:
        f.write("# mail never decides what a file means\n")
    (root / "mail" / "new.py").write_text("X = 1\n", encoding="utf-8")
    assert _hash(game) == before


def test_game_code_data_and_version_change_the_hash(tree: tuple[Path, Path]) -> None:
    _, game = tree
    before = _hash(game)
    for p in (game / "combat.py", game / "data" / "crt.toml"):
        saved = p.read_bytes()
        p.write_bytes(saved + b"\n")
        assert _hash(game) != before, p.name
        p.write_bytes(saved)
    assert _hash(game) == before
    digest.rules_digest.cache_clear()
    assert digest.rules_digest("use", VERSION + ".1", game) != before
    assert digest.rules_digest("other", VERSION, game) != before


def test_crlf_checkout_hashes_like_lf(tree: tuple[Path, Path]) -> None:
    root, game = tree
    before = _hash(game)
    for p in [root / "protocol" / "dice.py", game / "sequence.py"]:
        p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n"))
    assert _hash(game) == before


def test_missing_engine_module_is_refused(tree: tuple[Path, Path]) -> None:
    from pbem.errors import NotFound

    root, game = tree
    (root / "protocol" / "dice.py").unlink()
    with pytest.raises(NotFound):
        _hash(game)
