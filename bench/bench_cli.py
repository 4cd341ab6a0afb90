"""Issue 11's command-line goals: each command's CPU time as a ratio to `python -c pass`, and peak memory.

Every command runs in a subprocess, alternately with a bare interpreter, in
the same run: a ratio survives a noisy shared machine better than a time does.
The game is France 1940 after its first files (tests/helpers.py's demo
driver). Each player's key agent runs (pbem.protocol.keyagent.serve in a thread
of this process, its socket under a temporary XDG_RUNTIME_DIR), as in a sitting
after `pbem agent start`: `play` and `receive` sign and decrypt through it and
pay no unlock. The identity files are saved at a low scrypt work factor anyway,
so that a command that fell back to unlocking would show, not hang.

``python bench/bench_cli.py --profile play`` (or receive, status, verify) prints
the cProfile of one run of that command instead (after one run that fills the
home's caches); with PBEM_BENCH_IMPORTTIME=1, what its imports cost.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

PASS = "pw"
# CPU time of a child: user + system, read from the kernel's accounting, not a wall clock.
_PROBE = ("import resource, subprocess, sys;"
          "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
          "u = resource.getrusage(resource.RUSAGE_CHILDREN);"
          "print(u.ru_utime + u.ru_stime, u.ru_maxrss, r.returncode)")


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(CPU seconds, peak RSS in MB, exit code) of one child."""
    r = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env,
                       check=True)
    out = r.stdout.split()
    return float(out[0]), int(out[1]) / 1024, int(out[2])


def _setup(tmp: Path, files: int) -> dict[str, Any]:
    from helpers import deliver, demo_turns, start_france_1940

    from pbem.play import game
    from pbem.protocol.identity import save_identity
    from pbem.store import gamestore
    from pbem.store.fsutil import atomic_write

    players, gid = start_france_1940(tmp)
    turns = demo_turns(players, gid)
    for _ in range(files):
        seat, text = next(turns)
        deliver(players, gid, seat, text)
    seat, text = next(turns)
    for p in players.values():
        save_identity(p.session.ident, p.home.identity_file, PASS, work_factor=10)
        atomic_write(p.home.card_file, p.card.to_text().encode())
    roots = {s: gamestore.game_dir(p.home, gid).root for s, p in players.items()}
    _start_agents(players)
    return {"players": players, "gid": gid, "next": (seat, text), "roots": roots,
            "saved": {s: tmp / f"saved-{s}" for s in players},
            "make_next": lambda: game.play(players[seat].session, gamestore.game_dir(players[seat].home, gid),
                                           text)[0].raw}


def _start_agents(players: dict[str, Any]) -> None:
    """One key agent per player, in threads of this process (they die with it)."""
    from pbem.protocol import keyagent

    for p in players.values():
        path = keyagent.socket_path(p.home.config)
        ready = threading.Event()
        threading.Thread(target=keyagent.serve, args=(p.session.ident, path),
                         kwargs={"idle": 3600, "ready": ready.set}, daemon=True).start()
        ready.wait(10)


def _start_warm(players: dict[str, Any]) -> None:
    """Each home's warm worker, as `pbem agent start` starts it (pbem.cli.warm)."""
    import time

    from pbem.cli import warm, warmserver

    if not warm.supported():
        return
    for p in players.values():
        warmserver.spawn(p.home.config, 3600, p.home.cache)
    for p in players.values():
        for _ in range(200):
            if warm.listening(p.home.config):
                break
            time.sleep(0.05)


def _stop_warm(players: dict[str, Any]) -> None:
    from pbem.cli import warm

    for p in players.values():
        warm.stop(p.home.config)


def _compile_all() -> None:
    import compileall

    for folder in ("pbem", "rules"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)


def _cmd(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pbem.cli", "--home", str(home), *args]


def measure(runs: int = 5, files: int = 8, profile: str | None = None) -> dict[str, float]:
    """Median CPU seconds and ratio to `python -c pass` per command, and the peak RSS of each."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-cli-"))
    os.environ["XDG_RUNTIME_DIR"] = str(tmp / "run")  # the agents' sockets, for this process and its children
    (tmp / "run").mkdir(mode=0o700)
    env = {**os.environ, "PBEM_PASSPHRASE": PASS}
    # Commands start from compiled bytecode, as an installed pbem does: a shell with
    # PYTHONDONTWRITEBYTECODE set would otherwise have every run compile what changed since.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    _compile_all()
    try:
        g = _setup(tmp, files)
        seat, text = g["next"]
        orders = tmp / "orders.txt"
        orders.write_text(text or "end-phase\n")
        gid = g["gid"].hex()
        incoming = tmp / "incoming.pbem"
        other_seat = next(s for s in g["players"] if s != seat)

        def restore(s: str) -> None:
            # Each play or receive starts from the same game.
            shutil.rmtree(g["roots"][s])
            shutil.copytree(g["saved"][s], g["roots"][s])

        home = {s: p.home.config.parent for s, p in g["players"].items()}
        play = _cmd(home[seat], "play", gid, "--outbox", *(["--orders", str(orders)] if text else []))
        receive = _cmd(home[other_seat], "receive", str(incoming))
        verify = _cmd(home[seat], "verify", gid)
        # "cold": each command in its own interpreter (PBEM_NO_WARM), as without `pbem agent
        # start` or on Windows; the others run in the home's warm worker, and their figure is
        # the client's CPU plus its child's (what the worker reports).
        cases: dict[str, Any] = {
            "help": (None, _cmd(home[seat], "--help")),
            "status": (None, _cmd(home[seat], "status")),
            "play": (seat, play),
            "receive": (other_seat, receive),
            "verify": (None, verify),
            "play_cold": (seat, ["env", "PBEM_NO_WARM=1", *play]),
            "receive_cold": (other_seat, ["env", "PBEM_NO_WARM=1", *receive]),
            "verify_cold": (None, ["env", "PBEM_NO_WARM=1", *verify]),
        }
        cpu_log = tmp / "warm-cpu.log"
        env["PBEM_WARM_CPU_LOG"] = str(cpu_log)
        for s in home:  # the first status queues the mails the library did not write
            _run(_cmd(home[s], "status"), env)
        for s in home:
            shutil.copytree(g["roots"][s], g["saved"][s])
        # The file the receive case takes in: the mover's next one, made once by the library.
        incoming.write_bytes(g["make_next"]())
        restore(seat)
        for _ in range(2):  # compile .pyc, warm the page cache
            _run([sys.executable, "-c", "pass"], env)
            _run(_cmd(home[seat], "status"), env)
        # One play first, as a sitting's earlier commands would have: the home's caches (the
        # map's static layer, compiled templates, the seed tree) are then what a player's are
        # when `pbem agent start` starts the warm worker, which reads the map's layers ahead.
        _run(["env", "PBEM_NO_WARM=1", *play], env)
        restore(seat)
        _start_warm(g["players"])
        if profile is not None:
            who, argv = cases[profile]
            if who is not None:
                restore(who)
            (ROOT / "bench-out").mkdir(exist_ok=True)
            if os.environ.get("PBEM_BENCH_IMPORTTIME"):
                # What the imports cost, outside cProfile (which inflates them): the
                # top-level entries of -X importtime, in microseconds.
                r = subprocess.run([sys.executable, "-X", "importtime", *argv[1:]], env=env,
                                   capture_output=True, text=True, check=True)
                rows = [ln.split("|") for ln in r.stderr.splitlines() if ln.startswith("import time:")]
                top = [(int(c), name.rstrip()) for _, c, name in rows[1:] if name.startswith(" ")
                       and not name.startswith("  ")]
                for us, name in sorted(top, reverse=True)[:25]:
                    print(f"{us / 1e6:8.3f} s  {name.strip()}")
                print(f"{sum(us for us, _ in top) / 1e6:8.3f} s  imports in all")
                return {}
            out = ROOT / "bench-out" / f"profile-{profile}.out"
            if profile in ("play", "receive", "verify"):  # the warm worker's child, where the work is
                subprocess.run(argv, env={**env, "PBEM_WARM_PROFILE": str(out)}, check=True,
                               stdout=subprocess.DEVNULL)
            else:
                cold = profile.endswith("_cold")
                subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), *argv[3 if cold else 1:]],
                               env={**env, "PBEM_NO_WARM": "1"} if cold else env, check=True,
                               stdout=subprocess.DEVNULL)
            import pstats

            pstats.Stats(str(out)).sort_stats("cumulative").print_stats(60)
            pstats.Stats(str(out)).sort_stats("tottime").print_stats(25)
            return {}
        from pbem.cli import warm

        warm_expected = warm.supported()
        res: dict[str, float] = {}
        samples: dict[str, list[float]] = {k: [] for k in [*cases, "pass"]}
        peak: dict[str, float] = {}
        for _ in range(runs):
            for name, make in cases.items():
                bare, _, _ = _run([sys.executable, "-c", "pass"], env)
                samples["pass"].append(bare)
                who, argv = make
                if who is not None:
                    restore(who)
                cpu_log.unlink(missing_ok=True)
                cpu, rss, rc = _run(argv, env)
                if cpu_log.exists():  # it ran in the warm worker: add what the child used
                    child_cpu, child_kb = cpu_log.read_text().split()
                    cpu += float(child_cpu)
                    rss = max(rss, int(child_kb) / 1024)
                elif name in ("play", "receive", "verify") and warm_expected:
                    raise SystemExit(f"bench: {name} did not run in the warm worker")
                if rc != 0:
                    err = subprocess.run(argv, capture_output=True, text=True, env=env).stderr
                    raise SystemExit(f"bench: {name} failed ({rc}): {' '.join(argv)}\n{err}")
                samples[name].append(cpu)
                peak[name] = max(peak.get(name, 0.0), rss)
        bare = statistics.median(samples["pass"])
        res["python_pass_s"] = bare
        for name in cases:
            t = statistics.median(samples[name])
            res[f"{name}_s"] = t
            res[f"{name}_ratio"] = t / bare
            res[f"{name}_peak_mb"] = peak[name]
        return res
    finally:
        if "g" in locals():
            _stop_warm(g["players"])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--profile"]:
        measure(profile=sys.argv[2])
        raise SystemExit(0)
    for k, v in measure(runs=int(os.environ.get("PBEM_BENCH_RUNS", "3"))).items():
        print(f"{k:24} {v:10.3f}")
    print(f"bench process peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
