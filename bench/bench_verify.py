"""Issue 11's verify curve: `verify` of a test game at 100, 300 and 1,000 files, against the
signature-check floor (the time to parse the same files and check their signatures alone).

The game is the duel of tests/toygame.py (a rules module that costs next to nothing, so what
is measured is the engine: chain, signatures, decryption, dice, commitments, state copies),
played once into a temporary folder with deterministic randomness (tests/helpers.py's players):
rolls, sealed bids opened later, secret rolls revealed later, and passes. The 100- and
300-file games are the first files of the 1,000-file one. `verify` is timed as the command
runs it (pbem.play.game.derive and pbem.play.audit.audit), in this process, because the duel
is registered only here; each size is measured alternately with its floor, median of runs.

``--before`` (or PBEM_BENCH_BEFORE=1) also times the same games with the engine state
deep-copied at every file, as before issue 11, in the same run, for the curve's comparison.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

SIZES = (100, 300, 1000)


def _orders(i: int, seat: str, state: dict[str, Any]) -> str:
    """A deterministic mix: every kind of dice and secret the engine checks, mostly passes."""
    sealed, secret = state.setdefault(f"sealed-{seat}", False), state.setdefault(f"secret-{seat}", False)
    k = (i // 2) % 10
    if k == 1:
        return "roll\n"
    if k == 3:
        state[f"sealed-{seat}"] = not sealed
        return "open\n" if sealed else f"seal {1 + i % 3}\n"
    if k == 6:
        state[f"secret-{seat}"] = not secret
        return "reveal\n" if secret else "secret\n"
    return "pass\n"


def build(tmp: Path, files: int) -> tuple[Any, Any, bytes]:
    """The duel played to ``files`` turn files; returns (red, blue, game id)."""
    from helpers import deliver, start_duel
    from toygame import DUEL

    from pbem import rulesapi

    rulesapi.register(DUEL)
    red, blue, gid = start_duel(tmp, scenario="endless", seed="bench-verify")
    players = {"red": red, "blue": blue}
    state: dict[str, Any] = {}
    for i in range(files):
        seat = "red" if i % 2 == 0 else "blue"
        deliver(players, gid, seat, _orders(i, seat, state))
    return red, blue, gid


def _prefix(src: Path, dst: Path, turns: int) -> None:
    """A copy of the game folder holding its genesis files and first ``turns`` turn files."""
    from pbem.store.gamestore import NAME_RE

    (dst / "files").mkdir(parents=True)
    for p in (src / "files").iterdir():
        m = NAME_RE.match(p.name)
        if m and int(m.group(1)) <= turns:
            shutil.copy2(p, dst / "files" / p.name)


def _verify_once(session: Any, gs: Any) -> float:
    from pbem.play import audit, game

    t = time.process_time()
    d = game.derive(session, gs)
    audit.audit(session, gs, d)
    return time.process_time() - t


def _floor_once(gs: Any, cards: dict[str, Any]) -> float:
    from pbem.protocol import turnfile

    t = time.process_time()
    for sf in gs.files():
        f = turnfile.parse(sf.read())
        f.verify_signature(cards[f.author].signing_key)
    return time.process_time() - t


def measure(runs: int = 3, before: bool = False) -> dict[str, float]:
    """CPU seconds of verify and of the floor at each size, and their ratio."""
    from pbem.play import chain, game
    from pbem.protocol.context import clone
    from pbem.store import gamestore

    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-verify-"))
    saved = chain.copy_engine_state
    try:
        t0 = time.perf_counter()
        red, _, gid = build(tmp / "play", max(SIZES))
        built = time.perf_counter() - t0
        src = gamestore.game_dir(red.home, gid).root
        cards = {s: c for s, c in game.load(red.session, gamestore.game_dir(red.home, gid)).con.cards.items()}
        res: dict[str, float] = {"verify_build_s": built}
        for n in SIZES:
            root = tmp / "sizes" / str(n) / gid.hex()
            _prefix(src, root, n)
            gs = gamestore.GameStore(root)
            for mode in ("", "before_") if before else ("",):
                chain.copy_engine_state = clone if mode else saved  # type: ignore[assignment]
                v, f = [], []
                for _ in range(runs):
                    v.append(_verify_once(red.session, gs))
                    f.append(_floor_once(gs, cards))
                files = len(gs.files())
                key = f"{mode}verify_{n}"
                res[f"{key}_s"] = statistics.median(v)
                res[f"{key}_floor_s"] = statistics.median(f)
                res[f"{key}_ratio"] = res[f"{key}_s"] / res[f"{key}_floor_s"]
                res[f"{key}_files_per_s"] = files / res[f"{key}_s"]
                res[f"{key}_files"] = files
        return res
    finally:
        chain.copy_engine_state = saved  # type: ignore[assignment]
        shutil.rmtree(tmp, ignore_errors=True)


def curve_table(res: dict[str, float]) -> str:
    rows = ["| turn files | verify | files/s | signature-check floor | ratio to the floor |",
            "|---|---|---|---|---|"]
    for mode, label in (("before_", " (deep copies, before)"), ("", "")):
        for n in SIZES:
            k = f"{mode}verify_{n}"
            if f"{k}_s" in res:
                rows.append(f"| {n:,}{label} | {res[f'{k}_s']:.3f} s | {res[f'{k}_files_per_s']:,.0f} | "
                            f"{res[f'{k}_floor_s']:.3f} s | {res[f'{k}_ratio']:.1f}x |")
    return "\n".join(rows)


if __name__ == "__main__":
    before = "--before" in sys.argv or bool(os.environ.get("PBEM_BENCH_BEFORE"))
    out = measure(runs=int(os.environ.get("PBEM_BENCH_RUNS", "3")), before=before)
    for k, v in out.items():
        print(f"{k:28} {v:10.3f}")
    print(curve_table(out))
