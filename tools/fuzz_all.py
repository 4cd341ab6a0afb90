"""Fuzzing of every parser that reads bytes or text another player, a mail or an author wrote.

Seeds come from a real game: a Duel played in-process (tests/helpers.py), its
turn files, their age-encrypted parts, the player cards, an archive and a proof
bundle; the order texts of the France 1940 demo and of each test game's legal
actions; the scenario files of every game and Skirmish's map and units; a game
mail with a turn file attached. Each input is a seed changed by a simple
structure-aware mutator with a fixed seed (bit flips, byte runs, msgpack length
markers, splices with other seeds; for text: lines dropped, doubled, swapped,
words replaced by words of the same corpus, huge numbers, control characters;
for canonical values: the type swaps, deletions and deep nesting of
tools/fuzz_intake.py, re-encoded). An input passes when the parser returns or
raises a ``pbem.errors.PbemError`` (age's ``AgeError`` is one); anything else is
counted as *untyped*, the count that must be 0, and listed by place.

    .venv/bin/python tools/fuzz_all.py -n 100000          # make fuzz (after tools/fuzz_intake.py)
    .venv/bin/python tools/fuzz_all.py -n 2000 --parser orders-use --seed 7
"""

from __future__ import annotations

import argparse
import email.policy
import mailbox
import os
import random
import shutil
import ssl
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

import fuzz_intake  # noqa: E402

from pbem import rulesapi  # noqa: E402
from pbem.cli import demo  # noqa: E402
from pbem.crypto import age  # noqa: E402
from pbem.errors import PbemError  # noqa: E402
from pbem.formats import canonical, padding  # noqa: E402
from pbem.kit.records import Issues, ScenarioErrors, read_records  # noqa: E402
from pbem.mail.receive import attachments_from_eml, from_maildir  # noqa: E402
from pbem.play import archive, game, proof  # noqa: E402
from pbem.protocol import turnfile  # noqa: E402
from pbem.protocol.identity import Card  # noqa: E402
from pbem.store import gamestore  # noqa: E402

INTERESTING = [b"\x00", b"\xff", b"\xc0", b"\xc4\xff", b"\xc5\xff\xff", b"\xc6\xff\xff\xff\xff",
               b"\xdc\xff\xff", b"\xdd\xff\xff\xff\xff", b"\xde\xff\xff", b"\xdf\x7f\xff\xff\xff",
               b"\xd9\xff", b"\xdb\xff\xff\xff\xff", b"\xcf" + b"\xff" * 8, b"\xd3\x80" + b"\x00" * 7,
               b"\x91" * 40, b"\x81\xa1k" * 30, b"\r\n", b"\n", b"-> ", b"---", b"age-encryption.org/v1\n",
               b"-----BEGIN AGE ENCRYPTED FILE-----\n", b"pbem-file/v1\n", b"=", b"\x80\x80"]
WORDS = ["", "0", "-1", "99999999999999999999", "0101", "9999", "x" * 300, "\u00e9", "\ufeff", "\u202e",
         "\x00", "\t", "#", "\"", "'", "\\", "=", "a=b", "a=b=c", "none", "yes", "from", "air", "end-phase"]


# --- mutators ----------------------------------------------------------------------


def mutate_bytes(rnd: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    b = bytearray(data)
    for _ in range(rnd.choice([1, 1, 1, 2, 3, 5])):
        n = len(b)
        op = rnd.randrange(9)
        i = rnd.randrange(n + 1)
        if op == 0 and n:
            b[min(i, n - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1 and n:
            b[min(i, n - 1)] = rnd.randrange(256)
        elif op == 2:
            b[i:i] = rnd.choice(INTERESTING)
        elif op == 3 and n:
            del b[i:i + rnd.choice([1, 2, 4, 16, 256])]
        elif op == 4:
            del b[i:]
        elif op == 5 and n:
            j = rnd.randrange(n)
            b[i:i] = b[j:j + rnd.choice([1, 8, 64, 1024])]
        elif op == 6 and pool:
            other = rnd.choice(pool)
            j = rnd.randrange(len(other) + 1)
            b[i:] = other[j:]
        elif op == 7:
            b[i:i] = rnd.randbytes(rnd.choice([1, 4, 32]))
        elif n:
            b[min(i, n - 1)] = rnd.choice([0, 0x7F, 0x80, 0xFF, 0x0A, 0x20])
    return bytes(b)


def _tokens(pool: list[str]) -> list[str]:
    return sorted({w for t in pool for w in t.split()})


def mutate_text(rnd: random.Random, text: str, vocab: list[str]) -> str:
    lines = text.split("\n")
    for _ in range(rnd.choice([1, 1, 2, 3, 6])):
        op = rnd.randrange(8)
        k = rnd.randrange(len(lines))
        words = lines[k].split(" ")
        if op == 0 and len(lines) > 1:
            del lines[k]
        elif op == 1:
            lines.insert(k, rnd.choice(lines) if rnd.random() < 0.7 else " ".join(rnd.choices(vocab, k=3)))
        elif op == 2:
            j = rnd.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op in (3, 4):
            w = rnd.randrange(len(words))
            words[w] = rnd.choice(vocab) if op == 3 else rnd.choice(WORDS)
            lines[k] = " ".join(words)
        elif op == 5:
            words.insert(rnd.randrange(len(words) + 1), rnd.choice(vocab + WORDS))
            lines[k] = " ".join(words)
        elif op == 6:
            s = lines[k]
            i = rnd.randrange(len(s) + 1)
            lines[k] = s[:i] + rnd.choice(["\x00", "\r", "\t", "\x0b", "\u2028", "\udcff", "\u00ff",
                                           "=", "\"", "'", "#", "\\", ",", "  "]) + s[i:]
        else:
            s = lines[k]
            lines[k] = s[: rnd.randrange(len(s) + 1)]
    return "\n".join(lines)


def mutate_value(rnd: random.Random, value: Any, vocab: list[Any]) -> Any:
    return fuzz_intake.mutate(rnd, value, vocab)


# --- the parsers -------------------------------------------------------------------


@dataclass
class Parser:
    name: str
    run: Callable[[random.Random], None]
    inputs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    untyped: Counter[str] = field(default_factory=Counter)  # by exception type and place
    examples: dict[str, str] = field(default_factory=dict)  # one message for each
    seconds: float = 0.0


def _where(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    last = tb[-1] if tb else None
    place = f"{Path(last.filename).name}:{last.lineno}" if last else "?"
    return f"{type(e).__name__} at {place}"


def one(p: Parser, rnd: random.Random) -> None:
    p.inputs += 1
    try:
        p.run(rnd)
    except PbemError as e:
        p.outcomes[type(e).__name__] += 1
    except Exception as e:  # noqa: BLE001 - counting these is the point
        where = _where(e)
        p.untyped[where] += 1
        p.examples.setdefault(where, str(e)[:120])
    else:
        p.outcomes["accepted"] += 1


# --- the seeds ---------------------------------------------------------------------

DUEL_GAME = ["roll\nseal 2\nsecret\n", "secret\nseal 1\n", "open\nreveal\n", "reveal\nroll\n", "roll\n", "open\n"]


@dataclass
class Corpus:
    tmp: Path
    files: list[bytes] = field(default_factory=list)
    ciphers: list[bytes] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    cards: list[bytes] = field(default_factory=list)
    archive: bytes = b""
    proof: bytes = b""
    mail: bytes = b""
    keyring: game.Keyring | None = None
    orders: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    states: dict[str, Any] = field(default_factory=dict)


def build(tmp: Path) -> Corpus:
    """A Duel played through the real protocol (window dice), both reveals, its archive and proof."""
    from helpers import start_duel
    from soak import register

    register()
    c = Corpus(tmp)
    red, blue, gid = start_duel(tmp / "duel", scenario="endless")
    for i, text in enumerate(DUEL_GAME):
        p, q = (red, blue) if i % 2 == 0 else (blue, red)
        f, _ = game.play(p.session, gamestore.game_dir(p.home, gid), text)
        game.receive(q.session, f.raw)
    gs = gamestore.game_dir(red.home, gid)
    c.archive = archive.export(gs)
    c.proof = proof.make(gs, waiting_for="blue", note="fuzz seed")
    c.keyring = game.Keyring(red.session.ident)
    for sf in gs.files():
        raw = sf.read()
        c.files.append(raw)
        f = turnfile.parse(raw)
        if f.kind == "turn":
            c.ciphers += [f.header["public"], f.header["private"]["red"]]
            c.values.append(c.keyring.open(f"{f.seq}/public", f.header["public"], "public part"))
            c.values.append(c.keyring.open(f"{f.seq}/red", f.header["private"]["red"], "private part"))
    c.cards = [red.card.to_text().encode(), blue.card.to_text().encode()]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "red@example.org", "blue@example.org", "[pbem] duel turn 3"
    msg.set_content("Your move.\n")
    msg.add_attachment(c.files[-1], maintype="application", subtype="octet-stream", filename="t-000003.pbem")
    c.mail = msg.as_bytes(policy=email.policy.SMTP)
    _orders(c)
    return c


def _orders(c: Corpus) -> None:
    """Order texts of every game: the France 1940 demo's files, each test game's listed actions."""
    use = rulesapi.get("use")
    script = use.demo_script("france-1940")
    assert script is not None
    pub, _ = use.initial_state(use.load_scenario("france-1940"), {"axis": "a", "western": "w"}, {})
    c.states["use"] = pub
    c.orders["use"] = [(s, t) for s, t in demo.parse_script(script) if s != "*"]
    for name in ("duel", "trio", "skirmish"):
        rules = rulesapi.get(name)
        sc = rules.load_scenario(rules.scenarios()[0])
        pub, _ = rules.initial_state(sc, {s: s for s in sc.seats}, {})
        c.states[name] = pub
        seat = rules.pending(pub).seat  # type: ignore[union-attr]
        lines = [a.line({x.name: (x.choices or ("0101",))[0] for x in a.args})
                 for a in rules.legal_actions(pub, None, seat)]
        c.orders[name] = [(seat, "\n".join(lines) + "\n")]
    c.orders["skirmish"].append(("red", "move R1 0202 0203\nmove R2 0102\nend-phase\n"))
    c.orders["skirmish"].append(("red", "attack R1 0302  # a fight\n"))
    # The games not registered yet (EuroFront, War in Europe): registered in this process as the
    # soak does; their corpus is every order block of their rules cases.
    from soak import register_rules

    from pbem.kit.cases import parse_case

    for name in ("eurofront", "wie"):
        register_rules(name)
        rules = rulesapi.get(name)
        sc = rules.load_scenario(rules.scenarios()[0])
        pub, _ = rules.initial_state(sc, {s: s for s in sc.seats}, {})
        c.states[name] = pub
        c.orders[name] = [(b.seat, b.text) for path in sorted((ROOT / "tests" / "cases" / name).glob("*.case"))
                          for b in parse_case(path).orders if b.seat in sc.seats]


# --- each parser as one input ------------------------------------------------------


def parsers(c: Corpus) -> list[Parser]:
    """Every fuzzed parser, each a function of the input's random source."""
    return [*_protocol_parsers(c), *_bundle_parsers(c),
            *(Parser(f"orders-{g}", _orders_parser(c, g))
              for g in ("use", "duel", "trio", "skirmish", "eurofront", "wie")),
            Parser("records", _records_parser(c)), Parser("scenario-use", _scenario_parser(c)),
            Parser("scenario-use-east", _scenario_parser(c, "use", "east-med-1941")),
            Parser("scenario-eurofront", _scenario_parser(c, "eurofront", "scw-1936")),
            Parser("scenario-wie", _scenario_parser(c, "wie", "battle-for-germany-1945"))]


def _protocol_parsers(c: Corpus) -> list[Parser]:
    assert c.keyring is not None
    kr = c.keyring
    ident = kr.ident.age_key()
    armored = [age.armor(x) for x in c.ciphers]
    values = list(c.values)
    vocab = [fuzz_intake._vocab(v) for v in values]
    parts = [canonical.encode(v) for v in values]

    def envelope(rnd: random.Random) -> None:
        raw = rnd.choice(c.files)
        if rnd.random() < 0.5:
            turnfile.parse(mutate_bytes(rnd, raw, c.files))
            return
        f = turnfile.parse(raw)
        header = mutate_value(rnd, f.header, fuzz_intake._vocab(f.header))
        body = canonical.encode(header)
        turnfile.parse(turnfile.MAGIC + canonical.encode({"body": body, "sig": f.sig, "tcsig": f.tcsig}))

    def decoder(rnd: random.Random) -> None:
        k = rnd.randrange(len(values))
        data = (mutate_bytes(rnd, parts[k], parts) if rnd.random() < 0.6
                else canonical.encode(mutate_value(rnd, values[k], vocab[k])))
        canonical.decode(data)

    def age_header(rnd: random.Random) -> None:
        ct = rnd.choice(c.ciphers)
        cut = ct.find(b"\n---") + 48
        kr.open("x", mutate_bytes(rnd, ct[:cut], c.ciphers) + ct[cut:], "part")

    def age_armor(rnd: random.Random) -> None:
        text = rnd.choice(armored)
        data = (mutate_text(rnd, text.decode(), ["AAAA", "=", "-----END AGE ENCRYPTED FILE-----"])
                .encode("utf-8", "surrogateescape")
                if rnd.random() < 0.5 else mutate_bytes(rnd, text, armored))
        age.decrypt(data, [ident])

    def age_payload(rnd: random.Random) -> None:
        ct = rnd.choice(c.ciphers)
        cut = ct.find(b"\n---") + 48
        kr.open("x", ct[:cut] + mutate_bytes(rnd, ct[cut:], []), "part")

    def padded(rnd: random.Random) -> None:
        v = rnd.randrange(len(values))
        frame = padding.pad(canonical.encode(values[v]))
        canonical.decode(padding.unpad(mutate_bytes(rnd, frame, []), "part"))

    def card(rnd: random.Random) -> None:
        text = rnd.choice(c.cards)
        if rnd.random() < 0.5:
            Card.from_text(mutate_text(rnd, text.decode(), ["AAAA", "===="]))
        elif rnd.random() < 0.5:
            Card.from_text(mutate_bytes(rnd, text, c.cards))
        else:
            Card.from_bytes(mutate_bytes(rnd, Card.from_text(text).to_bytes(), []))
    return [Parser("envelope", envelope), Parser("canonical", decoder), Parser("age-header", age_header),
            Parser("age-armor", age_armor), Parser("age-payload", age_payload), Parser("padding", padded),
            Parser("card", card)]


def _bundle_parsers(c: Corpus) -> list[Parser]:
    def bundle(data: bytes, magic: bytes) -> Callable[[random.Random], bytes]:
        def make(rnd: random.Random) -> bytes:
            if rnd.random() < 0.5:
                return mutate_bytes(rnd, data, c.files)
            m = canonical.decode(data[len(magic):])
            files = list(m["files"])
            i = rnd.randrange(len(files))
            op = rnd.randrange(4)
            if op == 0:
                files[i] = mutate_bytes(rnd, files[i], c.files)
            elif op == 1:
                del files[i]
            elif op == 2:
                files.insert(i, rnd.choice(c.files))
            else:
                files[i], files[0] = files[0], files[i]
            m["files"] = files
            if rnd.random() < 0.2:
                m = mutate_value(rnd, m, [])
            return magic + canonical.encode(m)
        return make

    arc, prf = bundle(c.archive, archive.MAGIC), bundle(c.proof, proof.MAGIC)

    def mail(rnd: random.Random) -> None:
        data = (mutate_text(rnd, c.mail.decode("ascii"), ["Content-Type: multipart/mixed; boundary=x",
                                                          "--x", "Content-Transfer-Encoding: base64",
                                                          "filename*=utf-8''%ff.pbem", "=?utf-8?b?AA==?="])
                .encode("utf-8", "surrogateescape") if rnd.random() < 0.7 else mutate_bytes(rnd, c.mail, []))
        for found in attachments_from_eml(data):
            turnfile.parse(found.data)

    def maildir(rnd: random.Random) -> None:
        box = c.tmp / "maildir"
        shutil.rmtree(box, ignore_errors=True)
        mailbox.Maildir(box, create=True)
        (box / "new" / f"m{rnd.randrange(10**9)}").write_bytes(mutate_bytes(rnd, c.mail, []))
        for found in from_maildir(box):
            turnfile.parse(found.data)

    return [Parser("archive", lambda r: _ignore(archive.read(arc(r)))),
            Parser("proof", lambda r: _ignore(proof.check(prf(r)))), Parser("mail-eml", mail),
            Parser("mail-maildir", maildir), Parser("mail-imap", _imap_parser(c))]


class _FakeImap:
    """An IMAP server's answers as imaplib hands them to pbem.mail.imap, each one mutated:
    the server is not trusted to be well-formed (a hostile or broken one must give a MailError)."""

    def __init__(self, rnd: random.Random, mail: bytes) -> None:
        self.rnd, self.mail = rnd, mail

    def _b(self, data: bytes) -> bytes:
        return mutate_bytes(self.rnd, data, [b"UID", b"RFC822.SIZE", b"(", b")", b"*", b"{99}"]) \
            if self.rnd.random() < 0.5 else data

    def _typ(self) -> str:
        return self.rnd.choice(["OK", "OK", "OK", "OK", "NO", "BAD", ""])

    def select(self, mailbox: str, readonly: bool = False) -> tuple[str, list[Any]]:
        return self._typ(), [self._b(b"3")]

    def response(self, code: str) -> tuple[str, list[Any]]:
        return code, self.rnd.choice([[self._b(b"1234")], [], [None], [b""]])

    def uid(self, command: str, *args: str) -> tuple[str, list[Any]]:
        if command == "SEARCH":
            return self._typ(), [self._b(b"1 2 3")]
        if "RFC822.SIZE" in args[-1]:
            return self._typ(), [self._b(f"{i} (UID {i} RFC822.SIZE {len(self.mail)})".encode()) for i in (1, 2, 3)]
        body = self._b(self.mail) if self.rnd.random() < 0.3 else self.mail
        head = self._b(f"1 (UID 1 BODY[] {{{len(body)}}}".encode())
        return self._typ(), self.rnd.choice([[(head, body), b")"], [head, body], [(head,)], [None]])

    def logout(self) -> tuple[str, list[Any]]:
        return "BYE", []


def _imap_parser(c: Corpus) -> Callable[[random.Random], None]:
    from pbem.mail import imap
    from pbem.mail.config import MailConfig

    cfg = MailConfig(sender="fuzz@example.org", imap_host="imap.invalid", imap_user="fuzz")
    # Loading the system's CA store is 97% of an input when each call builds its context:
    # the fake server never looks at it, so one serves every input.
    ctx = ssl.create_default_context()

    def run(rnd: random.Random) -> None:
        real = imap._connect, imap._login
        imap._connect = lambda cfg, ctx: _FakeImap(rnd, c.mail)  # type: ignore[assignment,return-value]
        imap._login = lambda conn, cfg, provide: None  # type: ignore[assignment]
        try:
            mark = imap.Watermark() if rnd.random() < 0.5 else None
            for found in imap.from_imap(cfg, lambda *a: "pw", ssl_context=ctx, watermark=mark):
                turnfile.parse(found.data)
        finally:
            imap._connect, imap._login = real
    return run


def _ignore(_: object) -> None:
    return None


def _orders_parser(c: Corpus, name: str) -> Callable[[random.Random], None]:
    rules = rulesapi.get(name)
    texts = c.orders[name]
    vocab = _tokens([t for _, t in texts]) + (sorted(c.states[name].get("units", {})) if name == "use" else [])
    state = c.states[name]

    def run(rnd: random.Random) -> None:
        seat, text = rnd.choice(texts)
        parsed = rules.parse_orders(mutate_text(rnd, text, vocab), seat, state, None)
        # what `pbem play` does next with parsed orders: both projections go into the file
        canonical.encode(rules.public_orders(parsed))
        canonical.encode(rules.private_orders(parsed))
    return run


def _records_parser(c: Corpus) -> Callable[[random.Random], None]:
    from pbem.kit.hexgrid import ODD_COLUMNS_LOW
    from pbem.kit.hexmap import check_hexsides, read_hex_map

    sk = ROOT / "tests" / "skirmish" / "data"
    use = ROOT / "scenarios" / "use" / "france-1940"
    seeds = [(sk / "map.txt", "skirmish-map"), (sk / "units.txt", "skirmish-units"),
             (use / "scenario.txt", "use-scenario"), (use / "countries.txt", "use-countries")]
    texts = [(p.read_text(encoding="utf-8"), kind) for p, kind in seeds]
    vocab = _tokens([t for t, _ in texts])
    dest = c.tmp / "records.txt"

    def run(rnd: random.Random) -> None:
        from skirmish import SCHEMA

        text, kind = rnd.choice(texts)
        if rnd.random() < 0.8:
            dest.write_text(mutate_text(rnd, text, vocab), encoding="utf-8", errors="surrogateescape")
        else:
            dest.write_bytes(mutate_bytes(rnd, text.encode(), []))
        issues = Issues()
        recs = read_records(dest, kind, issues)
        if kind == "skirmish-map":
            check_hexsides(read_hex_map(recs, issues, SCHEMA).hexes, issues, ODD_COLUMNS_LOW)
        if issues:
            raise ScenarioErrors(issues)  # as a game's loader does once it has read everything
    return run


def _scenario_parser(c: Corpus, game: str = "use", scenario: str = "france-1940"
                     ) -> Callable[[random.Random], None]:
    """One scenario directory of a game, its files mutated one at a time, through the game's loader."""
    from pbem_rules.eurofront import data as ef
    from pbem_rules.use import scenario as scen
    from pbem_rules.wie import data as wie

    loaders: dict[str, Callable[[Path], object]] = {
        "use": scen.load_scenario, "eurofront": lambda d: ef.load_dir(d, scenario),
        "wie": lambda d: wie.load_dir(d, scenario)}
    src = ROOT / "scenarios" / game / scenario
    dest = c.tmp / game / f"fuzzed-{scenario}"
    shutil.copytree(src, dest)
    names = sorted(p.name for p in src.iterdir() if p.suffix in (".txt", ".toml"))
    originals = {n: (src / n).read_text(encoding="utf-8") for n in names}
    vocab = _tokens(list(originals.values()))

    def run(rnd: random.Random) -> None:
        name = rnd.choice(names)
        try:
            (dest / name).write_text(mutate_text(rnd, originals[name], vocab), encoding="utf-8",
                                     errors="surrogateescape")
            loaders[game](dest)
        finally:
            (dest / name).write_text(originals[name], encoding="utf-8")
    return run


# --- the run -----------------------------------------------------------------------


def fuzz(ps: list[Parser], n: int, seed: int, report: Callable[[str], None] | None = None) -> None:
    for p in ps:
        rnd = random.Random(f"{seed}:{p.name}")
        t0 = time.process_time()
        for _ in range(n):
            one(p, rnd)
        p.seconds = time.process_time() - t0
        if report is not None:
            report(line(p))


def line(p: Parser) -> str:
    typed = sum(v for k, v in p.outcomes.items() if k != "accepted")
    return (f"{p.name:<14} {p.inputs:>8} {p.seconds:>8.1f} {p.inputs / max(p.seconds, 1e-9):>8.0f} "
            f"{p.outcomes['accepted']:>8} {typed:>8} {sum(p.untyped.values()):>7}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=int(os.environ.get("PBEM_FUZZ_N", "100000")),
                    help="inputs per parser")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("PBEM_FUZZ_SEED", "1")))
    ap.add_argument("--parser", action="append", help="only these parsers")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-all-") as tmp:
        ps = [p for p in parsers(build(Path(tmp))) if not a.parser or p.name in a.parser]
        print(f"{'parser':<14} {'inputs':>8} {'cpu s':>8} {'per s':>8} {'accepted':>8} {'typed':>8} {'untyped':>7}",
              flush=True)
        fuzz(ps, a.n, a.seed, lambda s: print(s, flush=True))
    bad = 0
    for p in ps:
        for where, v in p.untyped.most_common():
            bad += v
            print(f"  {p.name}: untyped x{v}: {where}: {p.examples[where]}")
    print(f"{sum(p.inputs for p in ps)} inputs (seed {a.seed}), {bad} untyped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
