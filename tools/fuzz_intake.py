"""Structure-aware fuzzing of the intake: hostile but validly signed turn files.

Plays the France 1940 demo script (the `make demo` game) in-process, takes
every turn file's real decrypted public part, and feeds mutants of it
(type swaps, deletions, insertions, huge integers, deep nesting, wrong
lengths, maps turned into lists and back, values moved from elsewhere in
the part) to the receiving player exactly as ``pbem receive`` would apply
them after decryption: ``pbem.play.game.check_turn_place`` then
``pbem.play.game.apply_turn`` (schema checks, the engine, the rules, the state
digest), in replay mode for the *other* seat's file, with no unlock and no
write (``apply_turn`` never writes; the game store is only read).

Two paths, both in-process:

* full (every ``--full-every``-th input): the mutant is canonically encoded,
  padded, age-encrypted to every seat's real key and signed with the real
  author key (``pbem.protocol.turnfile.seal``), then parsed (``turnfile.parse``) and
  applied with the receiver's real keyring: the complete receive path after
  reading the bytes;
* fast (the others): the same, except that decryption is replaced by the
  canonical decoding of the mutant's canonical encoding, i.e. exactly the
  value the receiver's ``Keyring.open`` would return for the re-encrypted
  part; the signed header is the real file's.

An input passes when it is received or refused with a ``PbemError``. Any
other exception escaping is *untyped*: the count that must be 0. Separately
the run counts *net* catches: untyped exceptions raised inside the rules or
the engine that ``apply_turn`` turned into a ``FileRejected`` on purpose;
those are bugs to fix too, listed by place.

    PBEM_FUZZ_N=100000 .venv/bin/python tools/fuzz_intake.py      # make fuzz
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from pbem.crypto import age  # noqa: E402
from pbem.errors import PbemError  # noqa: E402
from pbem.formats import canonical, padding  # noqa: E402
from pbem.play import game  # noqa: E402
from pbem.protocol import genesis, turnfile  # noqa: E402
from pbem.protocol.context import FileRejected  # noqa: E402
from pbem.protocol.identity import Identity  # noqa: E402
from pbem.protocol.turnfile import SignedFile  # noqa: E402
from pbem.store import gamestore as store  # noqa: E402

HUGE = [2**63 - 1, -(2**63), 2**31, -1, 0, 10**12]


@dataclass
class Target:
    """One turn file as its receiver meets it: the receiver's state just before it."""

    session: game.Session
    gs: store.GameStore
    before: game.Derived
    f: SignedFile
    public: Any
    author: Identity
    recipients: list[str]


# --- the game ----------------------------------------------------------------------


def play_demo(tmp: Path, options: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The France 1940 demo script at library level, dice releases included (tests/helpers.py)."""
    from helpers import deliver, demo_turns, make_player

    players = {s: make_player(tmp, s) for s in ("axis", "western")}
    cards = {s: p.card for s, p in players.items()}
    data = genesis.make_proposal(players["axis"].session.ident, rules_name="use", scenario="france-1940",
                                 my_seat="axis", cards=cards, options=options,
                                 rng=players["axis"].session.rng, now=int(players["axis"].session.clock()))
    gid = game.create(players["axis"].session, data).con.game_id
    jf, _ = game.join(players["western"].session, data)
    game.receive(players["axis"].session, jf.raw)
    for seat, text in demo_turns(players, gid):
        deliver(players, gid, seat, text)
    return players, gid


def targets(tmp: Path, options: dict[str, Any]) -> list[Target]:
    """Every turn file of the demo game, seen by the seat that did not write it."""
    players, gid = play_demo(tmp, options)
    out: list[Target] = []
    recipients = [p.card.age_recipient for p in players.values()]
    for seat, p in players.items():
        gs = store.game_dir(p.home, gid)
        files = gs.files()
        d = game.begin(p.session, turnfile.parse(files[0].read()))
        for sf in files[1:]:
            f = turnfile.parse(sf.read())
            if f.kind == "join":
                game.add_join(p.session, d, f)
                continue
            if f.kind != "turn":
                continue
            if f.author != seat:
                public = d.keyring.open(f"{f.seq}/public", f.header["public"], "public part")
                out.append(Target(p.session, gs, _fork(d), f, public, players[f.author].session.ident,
                                  recipients))
            game.apply_turn(p.session, d, f)
    return out


def _fork(d: game.Derived) -> game.Derived:
    """A copy of ``d`` that ``apply_turn`` may advance without touching ``d``."""
    c = copy.copy(d)
    c.log = list(d.log)
    c.secrets = copy.deepcopy(d.secrets)
    c.keys = copy.copy(d.keys)
    return c


# --- mutations ---------------------------------------------------------------------


def _paths(v: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(v, dict):
        for k, x in v.items():
            out.extend(_paths(x, (*path, k)))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.extend(_paths(x, (*path, i)))
    return out


def _get(v: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        v = v[k]
    return v


def _vocab(v: Any) -> list[Any]:
    return [_get(v, p) for p in _paths(v) if p]


def _random_value(rnd: random.Random, vocab: list[Any]) -> Any:
    pick = rnd.randrange(14)
    if pick == 0:
        return None
    if pick == 1:
        return rnd.choice([True, False])
    if pick == 2:
        return rnd.choice(HUGE)
    if pick == 3:
        return rnd.randrange(-3, 40)
    if pick == 4:
        return rnd.choice(["", "x", "axis", "western", "0.0", "1.0", "9999", "end-phase", "\x00", "a" * 5000])
    if pick == 5:
        return rnd.choice([b"", bytes(16), bytes(32), bytes(33), b"\xff" * 64])
    if pick == 6:
        return []
    if pick == 7:
        return {}
    if pick == 8:
        return [rnd.choice(HUGE)] * rnd.randrange(1, 5)
    if pick == 9:
        return {"x": 1, "kind": rnd.choice(["x", 1])}
    if pick == 10:
        nest: Any = rnd.choice([1, "x", None])
        for _ in range(rnd.choice([5, 30, 60, 70])):
            nest = [nest] if rnd.random() < 0.5 else {"k": nest}
        return nest
    return copy.deepcopy(rnd.choice(vocab)) if vocab else None


def _swap_container(x: Any) -> Any:
    if isinstance(x, dict):
        return list(x.values())
    if isinstance(x, list):
        return {str(i): v for i, v in enumerate(x)}
    return x


def mutate(rnd: random.Random, public: Any, vocab: list[Any]) -> Any:
    """One to three structure-aware mutations of a copy of ``public``."""
    m = copy.deepcopy(public)
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        paths = _paths(m)
        path = rnd.choice(paths)
        op = rnd.randrange(8)
        if not path:
            if op < 2:
                return _random_value(rnd, vocab)
            path = (rnd.choice(list(m)),) if isinstance(m, dict) and m else path
            if not path:
                continue
        parent, key = _get(m, path[:-1]), path[-1]
        node = parent[key]
        if op == 0:  # type swap
            parent[key] = _random_value(rnd, vocab)
        elif op == 1:  # deletion
            del parent[key]
        elif op == 2:  # insertion
            if isinstance(node, dict):
                node[rnd.choice(["x", "kind", "ref", "k", "values", *[str(k) for k in node]])] = \
                    _random_value(rnd, vocab)
            elif isinstance(node, list):
                node.insert(rnd.randrange(len(node) + 1),
                            copy.deepcopy(rnd.choice(node)) if node and rnd.random() < 0.6
                            else _random_value(rnd, vocab))
            else:
                parent[key] = [node, _random_value(rnd, vocab)]
        elif op == 3:  # huge or off-by-one integers
            parent[key] = (rnd.choice(HUGE) if not isinstance(node, int) or rnd.random() < 0.5
                           else node + rnd.choice([-1, 1, 6, 1 << 20]))
        elif op == 4:  # map <-> list
            parent[key] = _swap_container(node)
        elif op == 5:  # wrong lengths
            if isinstance(node, (list, bytes, str)) and node:
                parent[key] = node[: rnd.randrange(len(node))] if rnd.random() < 0.5 else node * 2
            else:
                parent[key] = [node] * rnd.randrange(0, 4)
        elif op == 6:  # deep nesting
            for _ in range(rnd.choice([3, 20, 63, 70])):
                node = [node]
            parent[key] = node
        else:  # a real value from elsewhere in the part
            parent[key] = copy.deepcopy(rnd.choice(vocab)) if vocab else None
    return m


# --- one input ---------------------------------------------------------------------


def reseal(t: Target, public: Any, rng: Callable[[int], bytes]) -> bytes:
    """The file as the author's modified tool would send it: re-encrypted and re-signed with real keys."""
    header = dict(t.f.header)
    header["public"] = age.encrypt(padding.pad(canonical.encode(public)), t.recipients, rng=rng)
    return turnfile.seal(header, t.author.sign)


class _FastKeyring(game.Keyring):
    """The receiver's keyring, except that the public part is the mutant (see the module docstring)."""

    def __init__(self, base: game.Keyring, label: str, public: Any) -> None:
        super().__init__(base.ident)
        self.file_keys = base.file_keys
        self.label = label
        self.public = public

    def open(self, label: str, blob: bytes, what: str) -> Any:
        if label == self.label:
            return canonical.decode(canonical.encode(self.public))
        return super().open(label, blob, what)


def run_one(t: Target, mutant: Any, full: bool, rng: Callable[[int], bytes]) -> tuple[str, str]:
    """("accepted" | "typed" | "net" | "untyped", detail)."""
    d = _fork(t.before)
    try:
        if full:
            data = reseal(t, mutant, rng)
            f = turnfile.parse(data)
        else:
            canonical.encode(mutant)  # what the author's tool could not encode, it could not send
            f = t.f
            d.keys = _FastKeyring(t.before.keyring, f"{f.seq}/public", mutant)
        game.check_turn_place(t.gs, d, f)
        game.apply_turn(t.session, d, f)
    except FileRejected as e:
        cause = e.__cause__
        if cause is not None and not isinstance(cause, PbemError):
            return "net", _where(cause)
        return "typed", type(e).__name__
    except PbemError as e:
        return "typed", type(e).__name__
    except Exception as e:  # noqa: BLE001 - counting these is the point
        return "untyped", _where(e)
    return "accepted", ""


def _where(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    last = tb[-1] if tb else None
    place = f"{Path(last.filename).name}:{last.lineno}" if last else "?"
    return f"{type(e).__name__} at {place}: {str(e)[:80]}"


def baseline(ts: list[Target], rng: Callable[[int], bytes]) -> list[float]:
    """Check the harness (every real file, unmutated, is received on both paths) and time each file.

    The weights give each file about the same share of the run's time rather
    than of its inputs: a file whose replay runs the USE supply check costs
    50 times one that moves a unit, and would otherwise take most of the run.
    """
    weights = []
    for t in ts:
        t0 = time.monotonic()
        for full in (False, True):
            kind, detail = run_one(t, t.public, full, rng)
            if kind != "accepted":
                raise AssertionError(f"harness: real file {t.f.seq} not received ({kind} {detail})")
        weights.append(1.0 / max(time.monotonic() - t0, 1e-4))
    return weights


def fuzz(ts: list[Target], n: int, *, seed: int = 1, full_every: int = 20,
         report: Callable[[str], None] | None = None) -> Counter[tuple[str, str]]:
    rnd = random.Random(seed)
    rng = random.Random(seed + 1).randbytes
    vocabs = [_vocab(t.public) for t in ts]
    weights = baseline(ts, rng)
    out: Counter[tuple[str, str]] = Counter()
    t0 = time.monotonic()
    for i in range(n):
        j = rnd.choices(range(len(ts)), weights)[0]
        mutant = mutate(rnd, ts[j].public, vocabs[j])
        kind, detail = run_one(ts[j], mutant, full=(i % full_every == 0), rng=rng)
        out[(kind, detail if kind in ("untyped", "net") else "")] += 1
        if report is not None and (i + 1) % 10_000 == 0:
            report(f"{i + 1} inputs, {time.monotonic() - t0:.0f} s, "
                   f"untyped {sum(v for (k, _), v in out.items() if k == 'untyped')}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=int(os.environ.get("PBEM_FUZZ_N", "100000")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("PBEM_FUZZ_SEED", "1")))
    ap.add_argument("--full-every", type=int, default=20, help="every K-th input goes the full re-encrypt/re-sign path")
    ap.add_argument("--dice", choices=["strict", "window", "both"], default="both",
                    help="the dice mode of the demo game(s) the files come from")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as tmp:
        t0 = time.monotonic()
        modes = ["strict", "window"] if a.dice == "both" else [a.dice]
        ts = [t for m in modes for t in targets(Path(tmp) / m, {"strict_dice": m == "strict"})]
        print(f"{len(ts)} turn files from the France 1940 demo ({' and '.join(modes)} dice) "
              f"in {time.monotonic() - t0:.0f} s", flush=True)
        out = fuzz(ts, a.n, seed=a.seed, full_every=a.full_every, report=lambda s: print(s, flush=True))
    totals = Counter[str]()
    for (kind, _), v in out.items():
        totals[kind] += v
    print(f"{a.n} inputs (seed {a.seed}, 1 in {a.full_every} re-encrypted and re-signed): "
          + ", ".join(f"{k} {totals[k]}" for k in ("accepted", "typed", "net", "untyped")))
    for (kind, detail), v in sorted(out.items(), key=lambda kv: -kv[1]):
        if kind in ("untyped", "net"):
            print(f"  {kind} x{v}: {detail}")
    return 1 if totals["untyped"] else 0


if __name__ == "__main__":
    sys.exit(main())
