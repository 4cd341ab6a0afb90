"""Time of `pbem play` for one USE phase (library level, without the passphrase unlock)."""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import make_player  # noqa: E402

from pbem.mail import dispatch  # noqa: E402
from pbem.play import game  # noqa: E402
from pbem.protocol import genesis  # noqa: E402
from pbem.store import gamestore as store  # noqa: E402

ORDERS = "declare-war BEL\ndeclare-war NET\nstrategic-move GER-LF3F 2208\n"


def play_phase_seconds(runs: int = 5) -> float:
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        axis, western = make_player(tmp, "axis"), make_player(tmp, "western")
        data = genesis.make_proposal(axis.session.ident, rules_name="use", scenario="france-1940",
                                     my_seat="axis", cards={"axis": axis.card, "western": western.card},
                                     options={}, rng=axis.session.rng, now=1_700_000_000)
        gid = game.create(axis.session, data).con.game_id
        jf, _ = game.join(western.session, data)
        game.receive(axis.session, jf.raw)
        src = store.game_dir(axis.home, gid).root
        times = []
        for i in range(runs):
            copy = tmp / f"run{i}"
            shutil.copytree(src, copy / src.name)
            gs = store.GameStore(copy / src.name)
            t = time.perf_counter()
            f, d = game.play(axis.session, gs, ORDERS)
            dispatch.mails_for(axis.session, d, f)  # the summary and map PNG that go with it
            times.append(time.perf_counter() - t)
        return statistics.median(times)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    print(f"use_play_phase_s {play_phase_seconds():.2f}")
