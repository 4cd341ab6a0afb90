"""The fog-of-war check over the SCW demo (issue 13): no block identity or CV of one side is in
anything the other side's home can decrypt before the rules reveal it.

What a home can decrypt, file by file: each turn file's public part and every private part
encrypted to it, the mails it received, and the summaries it wrote. What is secret: each block's
identity (unit, type, nation, CV, full CV), read from the private state its owner's files carry
(each turn file holds its author's state, encrypted to the author), until the first
file whose public openings open it (an HQ's activation 5.2, an Active Battle 7.14, a Rearguard
6.52, ...). A unit's name is a tell wherever it appears; a CV, type or nation is a tell when it
sits beside the block's token in structured data (a small number alone says nothing).

The map picture in the mails is a PNG, which no string search reads: the paired test in
tests/test_eurofront_fog.py shows the mails (map included) are byte-identical when the hidden
identities differ.

`make demo` runs this on demo-out/eurofront (`python tools/eurofront_leaks.py DIR`); the test
runs ``check`` on a replay of the demo and on planted leaks.
"""

from __future__ import annotations

import dataclasses
import email
import email.policy
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

IDENTITY_KEYS = ("unit", "cv", "max", "type", "nation")
NEVER = 10**9  # the file that opens a block never opened
# A map picture's counter: its label, its type and CV line, its steps (pbem.present.render's input).
COUNTER_KEYS = ("text", "sub", "steps")
FILE_SEQ = re.compile(r"-(\d{6})-[a-z]+-[a-z0-9_-]+\.pbem")


@dataclass(frozen=True)
class Artefact:
    """Something ``viewer``'s home can read, made by file ``seq`` (0: before play)."""

    viewer: str
    seq: int
    what: str
    text: str
    data: Any = None  # the decoded structure, when it has one


@dataclass(frozen=True)
class Secret:
    side: str
    token: str
    unit: str
    opened_at: int  # the file that opened it in play; a huge number if never


def secrets(private_blocks: dict[str, dict[str, Any]], openings: Iterable[tuple[int, Any]],
            side: str) -> list[Secret]:
    """``side``'s block identities (token -> identity, from its private state) with the file
    that first opened each; ``openings``: (seq, opened value) of every public opening in play."""
    first: dict[str, int] = {}
    for seq, value in openings:
        if isinstance(value, dict) and isinstance(value.get("token"), str) and "unit" in value:
            first.setdefault(value["token"], seq)
    return [Secret(side, tok, str(ident["unit"]), first.get(tok, NEVER))
            for tok, ident in sorted(private_blocks.items())]


def _mappings(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        yield data
        for v in data.values():
            yield from _mappings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _mappings(v)


def check(artefacts: Iterable[Artefact], hidden: Iterable[Secret]) -> list[str]:
    """Every leak: an artefact that tells its viewer an enemy block's identity before it opened."""
    found = []
    hidden = list(hidden)
    for a in artefacts:
        for s in hidden:
            if s.side == a.viewer or a.seq >= s.opened_at:
                continue
            if s.unit in a.text:
                found.append(f"{a.what} (file {a.seq}, seen by {a.viewer}) names {s.unit}, "
                             f"the {s.side} block {s.token} unopened until file {s.opened_at}")
            for m in _mappings(a.data):
                named = s.token in (m.get("block"), m.get("token"))
                keys = sorted(k for k in IDENTITY_KEYS if k in m) if named else []
                if m.get("id") == s.token and m.get("side") == s.side:
                    keys = sorted(k for k in COUNTER_KEYS if k in m)
                if keys:
                    found.append(f"{a.what} (file {a.seq}, seen by {a.viewer}) gives {', '.join(keys)} "
                                 f"of the {s.side} block {s.token} unopened until file {s.opened_at}")
    return found


def mail_artefacts(viewer: str, raw: bytes, what: str) -> Artefact:
    """A received mail: its subject and text parts; the file it carries names its seq."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    texts, seq = [str(msg["Subject"])], 0
    for part in msg.walk():
        name = part.get_filename()
        if name and (m := FILE_SEQ.search(name)):
            seq = int(m.group(1))
        if part.get_content_maintype() == "text":
            texts.append(str(part.get_content()))
    return Artefact(viewer, seq, what, "\n".join(texts))


def _json(data: Any) -> str:
    return json.dumps(data, default=lambda b: b.hex() if isinstance(b, bytes) else repr(b))


def demo_artefacts(out: Path, seats: list[str]) -> tuple[list[Artefact], list[Secret], int]:
    """What each home of a finished `pbem.cli.demo` run in ``out`` can read, every secret, and the
    first reveal's file (the game's end)."""
    from pbem.errors import NotAddressedToYou
    from pbem.play.derived import Keyring
    from pbem.protocol import turnfile
    from pbem.protocol.identity import load_identity
    from pbem.store import paths

    files = sorted((out / "files").glob("*.pbem"))
    arts: list[Artefact] = []
    openings: list[tuple[int, Any]] = []
    blocks: dict[str, dict[str, Any]] = {}
    for seat in seats:
        home = paths.resolve(out / "homes" / seat)
        ident = load_identity(home.identity_file, f"demo passphrase of {seat}")
        ring = Keyring(ident)
        for path in files:
            f = turnfile.parse(path.read_bytes())
            if f.kind != "turn":
                continue
            parts = {"public": f.header["public"], **dict(f.header["private"])}
            for name, blob in parts.items():
                try:
                    data = ring.open(f"{f.seq}/{name}", blob, f"the {name} part of file {f.seq}")
                except NotAddressedToYou:
                    continue
                if name == "public" and seat == seats[0]:
                    openings += [(f.seq, o["value"]) for o in data.get("openings", [])]
                if name == seat and f.author == seat:  # its own state: where its secrets come from
                    for tok, ident_ in ((data.get("state") or {}).get("blocks") or {}).items():
                        blocks.setdefault(seat, {})[tok] = ident_
                elif name in ("public", seat):
                    arts.append(Artefact(seat, f.seq, f"the {name} part of {path.name}", _json(data), data))
        for box in sorted((out / "maildirs" / seat).glob("*/*")):
            arts.append(mail_artefacts(seat, box.read_bytes(), f"the mail {box.name}"))
        for page in sorted((out / "summaries" / seat).glob("*.html")):
            arts.append(Artefact(seat, int(page.stem), f"the summary {seat}/{page.name}",
                                 page.read_text(encoding="utf-8")))
    # The players' reveals at the game's end open everything: what comes with or after them tells
    # no secret of the play.
    heads = [turnfile.parse(p.read_bytes()) for p in files]
    end = min((f.seq for f in heads if f.kind == "reveal"), default=NEVER)
    hidden = [dataclasses.replace(s, opened_at=min(s.opened_at, end))
              for seat in seats for s in secrets(blocks[seat], openings, seat)]
    return arts, hidden, end


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "demo-out/eurofront")
    seats = ["nationalists", "republicans"]
    arts, hidden, end = demo_artefacts(out, seats)
    leaks = check(arts, hidden)
    kinds = {a.what.split()[1] for a in arts}
    opened = sum(1 for s in hidden if s.opened_at < end)
    print(f"  fog of war: {len(arts)} things the homes can read ({', '.join(sorted(kinds))}) checked against "
          f"{len(hidden)} block identities ({opened} opened by the rules in play, the rest by the "
          f"reveals at the game's end, file {end}): "
          + ("no leak" if not leaks else f"{len(leaks)} LEAKS"))
    for leak in leaks[:20]:
        print("    " + leak)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
