"""USE 5.1 step 2 through the real protocol: the email (file) cost of one combat as the rule is
written (the default) and under game option will_commit_air=sealed (docs/protocol.md §13).

The combat is the demo's first: the Axis attacks 1610 from 1710 committing GER-VIII, the Western
side does not commit. Files are counted from the attack's file to the one that resolves it,
dice-release files included (strict dice, the game default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import deliver, start_france_1940

from pbem.errors import InvalidInput
from pbem.play import game
from pbem.store import gamestore as store


def _state(players: dict[str, Any], gid: bytes) -> game.Derived:
    p = players["axis"]
    return game.load(p.session, store.game_dir(p.home, gid))


def _one_combat(tmp: Path, options: dict[str, Any], attack: str, answers: dict[str, list[str]]) -> list[str]:
    """Play up to the attack, then whatever is pending until the combat resolves; the files' seats."""
    players, gid = start_france_1940(tmp, options)
    deliver(players, gid, "axis", "declare-war BEL\ndeclare-war NET\nstrategic-move GER-LF3F 2208\n")
    deliver(players, gid, "western", "pass\n")
    deliver(players, gid, "axis", f"move GER-XIX 1710\n{attack}\n")
    files = ["axis"]
    while _state(players, gid).public["combats"]:
        pend = _state(players, gid).pending()
        assert pend is not None
        todo = answers.get(pend.seat, [])
        text = todo.pop(0) if pend.kind != "dice-release" and todo else ""
        deliver(players, gid, pend.seat, text)
        files.append(f"{pend.seat}:{pend.kind}" + ("" if text else " (no orders)"))
        assert len(files) < 12
    return files


def test_sealed_option_costs_three_files(tmp_path: Path) -> None:
    files = _one_combat(tmp_path, {"will_commit_air": "sealed"}, "attack 1610 from GER-XIX will-commit air GER-VIII",
                        {"western": ["will-commit 1610 no retreat 1510"]})
    assert files == ["axis", "western:will-commit", "axis:resolve (no orders)"]


def test_as_written_costs_five_files(tmp_path: Path) -> None:
    files = _one_combat(tmp_path, {}, "attack 1610 from GER-XIX will-commit",
                        {"western": ["will-commit 1610 no retreat 1510"], "axis": ["will-commit 1610 air GER-VIII"]})
    # attack, answer, reveal + the Axis's air unit, the Western dice release, the roll
    assert files == ["axis", "western:will-commit", "axis:resolve", "western:dice-release (no orders)",
                     "axis:resolve (no orders)"]


def test_as_written_refuses_the_air_unit_with_the_attack(tmp_path: Path) -> None:
    players, gid = start_france_1940(tmp_path)
    deliver(players, gid, "axis", "declare-war BEL\ndeclare-war NET\nstrategic-move GER-LF3F 2208\n")
    deliver(players, gid, "western", "pass\n")
    with pytest.raises(Exception, match="declared after both Will Commit"):
        deliver(players, gid, "axis", "move GER-XIX 1710\nattack 1610 from GER-XIX will-commit air GER-VIII\n")


def test_unknown_option_value_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="will_commit_air"):
        start_france_1940(tmp_path, {"will_commit_air": "maybe"})
