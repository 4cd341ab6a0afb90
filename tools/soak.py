"""Random-play soak: complete games of every game module played by bots through the real protocol.

Each game is played by random bots (tools/bots.py) seat by seat with real
identities, real files, real encryption: every file is played with
``game.play`` (the author's replay of its own file included), received by every
other player, dice releases written when strict dice ask for them. After every
file the soak checks its invariants:

* every tool reaches the same state digest, sequence number and chain hash;
* no private part of the file opens with another seat's key, and each tool
  holds private state for its own seats only;
* the pending seat has at least one legal action, and one of them is accepted
  (no dead end); a game ends within its stated number of files (no loop);
* USE: every unit on a map hex or a known box, never with a hex and a box, at
  most one unit of each stacking class in a hex (3.3) and one faction's ground
  units only and never in a water hex, National Will 0..99, PP 0..59, Extra Factories
  0..9, supply states known.

At the end every seat reveals, every tool receives every reveal and audits the
whole game (every secret opened, every roll recomputed): the audit must be clean.

Every failure prints its seed and the command that replays it, and keeps the
game's files (every home) in ``--out``. Orders the rules list but refuse when
applied are dropped by the bots and counted ("refused").

    .venv/bin/python tools/soak.py                       # the plan below (make soak)
    .venv/bin/python tools/soak.py --game duel-short --games 5 --seed 1
    .venv/bin/python tools/soak.py --game use-france-1940 --seed 3 --games 1   # replay a seed
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from bots import Bot, DeadEnd, Stats  # noqa: E402
from helpers import Player, make_player  # noqa: E402
from skirmish import SKIRMISH  # noqa: E402
from toygame import DUEL  # noqa: E402
from toygame3 import TRIO  # noqa: E402

from pbem import rulesapi  # noqa: E402
from pbem.crypto import age  # noqa: E402
from pbem.play import audit, game  # noqa: E402
from pbem.protocol import dicefiles, genesis  # noqa: E402
from pbem.protocol.turnfile import SignedFile  # noqa: E402
from pbem.store import gamestore  # noqa: E402


@dataclass(frozen=True)
class Spec:
    """One soaked scenario: its rules, how many files it may take (more is a loop), its dice."""

    rules: str
    scenario: str
    max_files: int
    strict: Callable[[int], bool]  # the dice mode by seed
    check: Callable[[Any], list[str]] | None = None


def _both(seed: int) -> bool:
    return seed % 2 == 1


def _use_checks(public: Any) -> list[str]:
    from pbem_rules.use import geo
    from pbem_rules.use.economy import EXTRA_MAX, PP_CAP
    from pbem_rules.use.state import SUPPLY_STATES, faction_of, stack_class

    b = geo.board(public)
    boxes = {"mobilization", "eliminated", "inactive", "removed", "upgrade", "turn", "conditional",
             *b.land_boxes, *b.sea_boxes}
    bad: list[str] = []
    held: dict[tuple[str, str], str] = {}
    ground: dict[str, str | None] = {}
    for uid, u in sorted(public["units"].items()):
        if u["box"] is None:
            if u["hex"] not in b.terrain:
                bad.append(f"{uid} is on {u['hex']!r}, not a hex of the map")
                continue
            key = (u["hex"], stack_class(u["kind"]))
            if key in held:
                bad.append(f"{uid} and {held[key]} stack in {u['hex']} ({key[1]}, USE 3.3)")
            held[key] = uid
            if key[1] == "ground":
                if b.is_water(u["hex"]):
                    bad.append(f"ground unit {uid} in the water hex {u['hex']}")
                side = faction_of(public, u)
                if ground.setdefault(u["hex"], side) != side:
                    bad.append(f"ground units of two factions in {u['hex']}")
        elif u["box"] not in boxes or u["hex"] is not None:
            bad.append(f"{uid} is in box {u['box']!r} with hex {u['hex']!r}")
        if u["supply"] not in SUPPLY_STATES:
            bad.append(f"{uid} has supply {u['supply']!r}")
    for code, c in sorted(public["countries"].items()):
        if not 0 <= c["will"] <= 99:
            bad.append(f"{code} National Will {c['will']} outside 0..99 (USE 2.1.2)")
        if not 0 <= c["pp"] <= PP_CAP:
            bad.append(f"{code} has {c['pp']} PP, outside 0..{PP_CAP} (USE 9.0)")
        if not 0 <= c.get("extra", 0) <= EXTRA_MAX:
            bad.append(f"{code} Extra Factories {c.get('extra')} outside 0..{EXTRA_MAX}")
    return bad


def _eurofront_checks(public: Any) -> list[str]:
    from pbem_rules.eurofront.data import SEATS, load

    board = load(public["scenario"]).board
    bad: list[str] = []
    sides: dict[str, set[str]] = {}
    for tok, b in sorted(public["blocks"].items()):
        if b["side"] not in SEATS:
            bad.append(f"{tok} has side {b['side']!r}")
        if board.terrain.get(b["hex"], "sea") == "sea":
            bad.append(f"{tok} is on {b['hex']!r}, not a land hex of the map")
        sides.setdefault(b["hex"], set()).add(b["side"])
    for h, s in sorted(sides.items()):
        if len(s) > 1 and h not in public["battles"]:
            bad.append(f"both sides in {h} with no battle (EF 6.4, 7.11)")
    return bad


# EuroFront's SCW: 35 months of 2 Fortnights, each a dozen files or so (weather, two Player-Turns
# with their combat steps), and Production's 4 files a month.
EF_FILES = 2000


SPECS: dict[str, Spec] = {
    "duel-short": Spec("duel", "short", 200, _both),
    "duel-standard": Spec("duel", "standard", 500, _both),
    "trio-short": Spec("trio", "short", 300, _both),
    "trio-four-rounds": Spec("trio", "four-rounds", 150, _both),
    "skirmish": Spec("skirmish", "meeting", 150, lambda seed: False),
    "use-france-1940": Spec("use", "france-1940", 700, _both, _use_checks),
    # USE's three factions (East and Mediterranean 1941) for three, two (one seat holding two
    # factions) and four players (the Axis split by country: rules/use/partners.py)
    "use-east-med-1941": Spec("use", "east-med-1941", 1500, _both, _use_checks),
    "use-east-med-1941-2p": Spec("use", "east-med-1941-2p", 1500, _both, _use_checks),
    "use-east-med-1941-4p": Spec("use", "east-med-1941-4p", 1500, _both, _use_checks),
    "eurofront-scw-1936": Spec("eurofront", "scw-1936", EF_FILES, _both, _eurofront_checks),
    # War in Europe: 27 game-turns of 3 seats (air commitment and opening, 4 phases each; strict
    # dice add releases after attacks): ~650 files and ~6 CPU minutes a game, so twice a soak
    "wie-1945": Spec("wie", "battle-for-germany-1945", 1500, _both),
}
# make soak: the shortest scenario 1000 times, every other one 100 times (docs/reliability.md:
# about 70 CPU minutes, 40 minutes on 2 cores), EuroFront's 35 months 10 times (~45 CPU s a game).
PLAN = {"duel-short": 1000, **{k: 100 for k in SPECS if k not in ("duel-short", "eurofront-scw-1936", "wie-1945")
                                 and not k.startswith("use-east")},
        "eurofront-scw-1936": 10, "wie-1945": 2, "use-east-med-1941": 3, "use-east-med-1941-2p": 2,
        "use-east-med-1941-4p": 3}


def register() -> None:
    for m in (DUEL, TRIO, SKIRMISH):
        rulesapi.register(m)


# Rules modules not installed as games yet (no setup.cfg entry point): the soak registers them in
# its own process when one of their scenarios is played (every player's tool runs in-process).
UNINSTALLED = {"eurofront": "pbem_rules.eurofront", "wie": "pbem_rules.wie"}


def register_rules(name: str) -> None:
    if name in UNINSTALLED and name not in rulesapi.available():
        rulesapi.register(importlib.import_module(UNINSTALLED[name]).RULES)


class Broken(Exception):
    """An invariant that does not hold."""


@dataclass
class Result:
    name: str
    seed: int
    files: int = 0
    stats: Stats = field(default_factory=Stats)
    outcome: str = ""
    failure: str = ""
    cpu: float = 0.0


# --- one game ----------------------------------------------------------------------------


def start(tmp: Path, spec: Spec, seed: int) -> tuple[dict[str, Player], bytes]:
    rules = rulesapi.get(spec.rules)
    seats = rules.load_scenario(spec.scenario).seats
    players = {s: make_player(tmp, s, f"soak{seed}-") for s in seats}
    host = players[seats[0]]
    data = genesis.make_proposal(host.session.ident, rules_name=spec.rules, scenario=spec.scenario,
                                 my_seat=seats[0], cards={s: p.card for s, p in players.items()},
                                 options={"strict_dice": spec.strict(seed)}, rng=host.session.rng,
                                 now=1_700_000_000)
    gid = game.create(host.session, data).con.game_id
    joins = []
    for p in list(players.values())[1:]:
        game.receive(p.session, data)
        jf, _ = game.join(p.session, data)
        joins.append((p, jf.raw))
    for p in players.values():
        for q, raw in joins:
            if q is not p:
                game.receive(p.session, raw)
    return players, gid


def _store(p: Player, gid: bytes) -> gamestore.GameStore:
    return gamestore.game_dir(p.home, gid)


def check_file(players: dict[str, Player], gid: bytes, f: SignedFile, spec: Spec) -> game.Derived:
    """The invariants after one file (module docstring); returns the first seat's view."""
    views = {s: game.load(p.session, _store(p, gid)) for s, p in players.items()}
    first = next(iter(views.values()))
    rules = first.rules
    for s, d in views.items():
        if (d.seq, d.last_hash, rules.digest(d.public)) != (first.seq, first.last_hash, rules.digest(first.public)):
            raise Broken(f"file {f.seq}: {s}'s tool reaches another state than {first.my_seat}'s")
        if not set(d.privates) <= {s}:
            raise Broken(f"file {f.seq}: {s}'s tool holds private state of {sorted(d.privates)}")
    for s, p in players.items():
        for other, blob in f.header["private"].items():
            if other == s:
                continue
            try:
                age.decrypt(blob, [p.session.ident.age_key()])
            except age.AgeError:
                continue
            raise Broken(f"file {f.seq}: {s}'s key opens {other}'s private part")
    if spec.check is not None:
        bad = spec.check(first.public)
        if bad:
            raise Broken(f"file {f.seq}: " + "; ".join(bad[:5]))
    return first


def play_game(tmp: Path, name: str, seed: int, stop_after: int = 0) -> Result:
    """One complete game (or its first ``stop_after`` files, unaudited: for quick checks)."""
    spec = SPECS[name]
    register_rules(spec.rules)
    res = Result(name, seed)
    t0 = time.process_time()
    players, gid = start(tmp, spec, seed)
    rnd = random.Random(f"{name}:{seed}")
    bots = {s: Bot(spec.rules, rnd) for s in players}
    trial_rng = random.Random(seed).randbytes
    watcher = next(iter(players.values()))
    d = game.load(watcher.session, _store(watcher, gid))
    while (pend := d.pending()) is not None:
        if res.files >= spec.max_files:
            raise Broken(f"no end after {res.files} files (a loop?): now {pend.phase}, {pend.seat} to act")
        p = players[pend.seat]
        text = ""
        if pend.kind != dicefiles.RELEASE_KIND:
            mine = game.load(p.session, _store(p, gid))
            mine.use_seat(pend.seat)
            if not mine.rules.legal_actions(mine.public, mine.private, pend.seat):
                raise DeadEnd(f"{pend.seat} must act ({pend.phase}) but no action is listed")
            text = bots[pend.seat].write(mine, pend.seat, trial_rng, res.stats)
        f, _ = game.play(p.session, _store(p, gid), text)
        for q in players.values():
            if q is not p and game.receive(q.session, f.raw).status != "added":
                raise Broken(f"file {f.seq} was not added by {q.name}")
        res.files += 1
        res.stats.files += 1
        d = check_file(players, gid, f, spec)
        if res.files == stop_after:
            res.outcome = f"stopped after {stop_after} files"
            return res
    res.outcome = d.rules.result(d.public) or "over"
    finish(players, gid, res.files)
    res.cpu = time.process_time() - t0
    return res


def finish(players: dict[str, Player], gid: bytes, files: int) -> None:
    """Every seat reveals; every tool receives every reveal and audits the whole game."""
    ends = {s: game.end(p.session, _store(p, gid))[0] for s, p in players.items()}
    for s, p in players.items():
        for t, f in ends.items():
            if t != s:
                game.receive(p.session, f.raw)
    for s, p in players.items():
        rep = audit.audit(p.session, _store(p, gid))
        if not rep.clean or rep.turns_replayed < files:
            raise Broken(f"{s}'s audit: {rep.violations or rep.missing_reveals}, "
                         f"{rep.turns_replayed} of {files} turns replayed")


def run(name: str, seed: int, out: Path | None) -> Result:
    """One game in a fresh folder; a failure keeps the folder in ``out`` and says how to replay it."""
    t0 = time.process_time()
    with tempfile.TemporaryDirectory(prefix="pbem-soak-") as tmp:
        try:
            return play_game(Path(tmp), name, seed)
        except Exception as e:  # noqa: BLE001 - every failure is a finding, reported with its seed
            res = Result(name, seed, failure=f"{type(e).__name__}: {e}", cpu=time.process_time() - t0)
            res.failure += "\n" + "".join(traceback.format_exception(e)[-6:])
            if out is not None:
                dest = out / f"{name}-seed{seed}"
                shutil.rmtree(dest, ignore_errors=True)
                shutil.copytree(tmp, dest)
                res.failure += f"\nfiles kept in {dest}"
            return res


def replay_command(name: str, seed: int) -> str:
    return f".venv/bin/python tools/soak.py --game {name} --seed {seed} --games 1"


# --- the run -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", choices=sorted(SPECS), help="a scenario (default: the plan)")
    ap.add_argument("--games", type=int, help="games of each scenario (default: 1000 of duel-short, 100 of the rest)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed; game k plays seed+k")
    ap.add_argument("--budget", type=float, default=0, help="game CPU seconds after which the run stops (0: none)")
    ap.add_argument("--jobs", type=int, default=2, help="games played at once (processes)")
    ap.add_argument("--why", action="store_true", help="print a few refusal messages per verb")
    ap.add_argument("--out", type=Path, default=ROOT / "soak-failures", help="where failed games' files go")
    a = ap.parse_args(argv)
    register()
    plan = {g: a.games or PLAN[g] for g in (a.game or PLAN)}
    cpu_done = 0.0
    failures = 0
    print(f"{'scenario':<18} {'games':>5} {'files':>6} {'orders':>7} {'refused':>7} {'failed':>6} "
          f"{'cpu s':>7} {'s/game':>7}", flush=True)
    wall = time.monotonic()
    with multiprocessing.Pool(a.jobs, initializer=register) as pool:
        for name, n in plan.items():
            results: list[Result] = []
            tasks = [(name, a.seed + k, a.out) for k in range(n)]
            for r in pool.imap(_run_task, tasks):
                results.append(r)
                if r.failure:
                    failures += 1
                    print(f"FAIL {name} seed {r.seed}: {r.failure}\n  replay: {replay_command(name, r.seed)}",
                          flush=True)
                if a.budget and sum(x.cpu for x in results) + cpu_done > a.budget:
                    pool.terminate()
                    break
            cpu_done += sum(r.cpu for r in results)
            summary(name, results, a.why)
            if a.budget and cpu_done > a.budget:
                break
    print(f"total: {failures} failures, {cpu_done:.0f} CPU s in games, {time.monotonic() - wall:.0f} s wall "
          f"with {a.jobs} jobs", flush=True)
    return 1 if failures else 0


def _run_task(task: tuple[str, int, Path | None]) -> Result:
    return run(*task)


def summary(name: str, results: list[Result], why: bool = False) -> None:
    ok = [r for r in results if not r.failure]
    st = Stats()
    for r in ok:
        st.add(r.stats)
    cpu = sum(r.cpu for r in ok)
    print(f"{name:<18} {len(ok):>5} {st.files:>6} {sum(st.orders.values()):>7} {sum(st.refused.values()):>7} "
          f"{len(results) - len(ok):>6} {cpu:>7.1f} {cpu / max(1, len(ok)):>7.2f}", flush=True)
    if ok:
        print("    orders: " + ", ".join(f"{v} {n}" for v, n in st.orders.most_common()), flush=True)
        print("    refused: " + (", ".join(f"{v} {n}" for v, n in st.refused.most_common()) or "none")
              + "; outcomes: " + ", ".join(f"{o} x{c}" for o, c in Counter(
                  r.outcome.split(" (")[0] for r in ok).most_common(4)), flush=True)
    for verb, msgs in sorted(st.samples.items()) if why else ():
        print(f"    why {verb}: " + " | ".join(m[:100] for m in msgs), flush=True)


if __name__ == "__main__":
    sys.exit(main())
