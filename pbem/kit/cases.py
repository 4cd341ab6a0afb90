"""DATC-style rules cases: plain text, replayed by one parametrized test.

A case file (``tests/cases/<game>/*.case``) looks like::

    # free comment lines start with '#'
    CASE  use-4.2-mp-limit
    RULE  USE 4.2.3
    DESC  A mechanized unit has 10 MP in Fair weather.
    PRESTATE
      <game-specific lines describing the state>
    DICE  3 5 1            (optional: the public die results, in order)
    ORDERS axis
      <order text exactly as a player writes it>
    POSTSTATE
      <game-specific lines the resulting state must satisfy>
    END

``DICE-MODE strict`` (the game default) or ``DICE-MODE window`` says how the
rules are told to roll (``ctx.strict_dice``); a case without it runs in
strict mode, the game default (in window mode a file rolls without reserving).
In strict mode the context checks the engine's contract (docs/protocol.md §11): a roll needs a
reservation made in an earlier file (the release-only files the engine would
insert between are implied), and at the end of each file its author's
released but unrolled slots are burnt.

Several ORDERS blocks may follow one another (applied in order, each by the
seat it names). Instead of POSTSTATE a case may say ``EXPECT ILLEGAL <rule>``
(or ``EXPECT INVALID`` / ``EXPECT AMBIGUOUS``): the last ORDERS block must be
refused with that error class and, for ILLEGAL, that rule number; earlier
blocks must succeed. The game's rules module turns PRESTATE lines into a state
(``RulesModule.case_prestate``) and checks POSTSTATE lines
(``RulesModule.case_check``); the engine owns the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import InvalidInput
from pbem.formats import canonical
from pbem.formats.hashing import lhash
from pbem.rulesapi import SecretRoll


@dataclass
class OrdersBlock:
    seat: str
    text: str
    line: int


@dataclass
class Case:
    path: Path
    name: str
    rule: str
    desc: str
    prestate: list[tuple[int, str]] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    orders: list[OrdersBlock] = field(default_factory=list)
    poststate: list[tuple[int, str]] = field(default_factory=list)
    expect: tuple[str, str | None] | None = None  # ("ILLEGAL", "4.2.3")
    strict: bool = True  # DICE-MODE: strict (the game default) or window


def parse_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    case = Case(path=path, name=path.stem, rule="", desc="")
    section: str | None = None
    block: OrdersBlock | None = None
    ended = False
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if ended:
            if stripped and not stripped.startswith("#"):
                raise InvalidInput(f"{path}:{no}: text after END")
            continue
        if section != "ORDERS" and (not stripped or stripped.startswith("#")):
            continue
        head, _, rest = stripped.partition(" ")
        rest = rest.strip()
        if not line.startswith((" ", "\t")) and head in {
            "CASE", "RULE", "DESC", "PRESTATE", "DICE", "DICE-MODE", "ORDERS", "POSTSTATE", "EXPECT", "END"
        }:
            if block is not None:
                case.orders.append(block)
                block = None
            if head == "CASE":
                case.name = rest
            elif head == "RULE":
                case.rule = rest
            elif head == "DESC":
                case.desc = (case.desc + " " + rest).strip()
            elif head == "DICE":
                try:
                    case.dice.extend(int(x) for x in rest.split())
                except ValueError:
                    raise InvalidInput(f"{path}:{no}: DICE takes integers") from None
            elif head == "DICE-MODE":
                if rest not in ("strict", "window"):
                    raise InvalidInput(f"{path}:{no}: DICE-MODE takes strict or window")
                case.strict = rest == "strict"
            elif head == "ORDERS":
                if not rest:
                    raise InvalidInput(f"{path}:{no}: ORDERS needs a seat")
                block = OrdersBlock(rest, "", no)
            elif head == "EXPECT":
                kind, _, rule = rest.partition(" ")
                if kind not in {"ILLEGAL", "INVALID", "AMBIGUOUS"}:
                    raise InvalidInput(f"{path}:{no}: EXPECT takes ILLEGAL, INVALID or AMBIGUOUS")
                case.expect = (kind, rule.strip() or None)
            elif head == "END":
                ended = True
            section = head
            continue
        if section == "PRESTATE":
            case.prestate.append((no, stripped))
        elif section == "POSTSTATE":
            case.poststate.append((no, stripped))
        elif section == "ORDERS" and block is not None:
            block.text += (raw[2:] if raw.startswith("  ") else raw.lstrip()) + "\n"
        elif stripped:
            raise InvalidInput(f"{path}:{no}: line outside any section: {stripped!r}")
    if block is not None:
        case.orders.append(block)
    if not ended:
        raise InvalidInput(f"{path}: missing END")
    if not case.rule:
        raise InvalidInput(f"{path}: a case must name the rule it tests (RULE line)")
    if case.expect is None and not case.poststate:
        raise InvalidInput(f"{path}: a case needs POSTSTATE or EXPECT")
    return case


class ScriptedContext:
    """A rules Context whose dice come from the case's DICE line (author mode, no crypto)."""

    def __init__(self, seat: str, dice: list[int], seq: int = 1, strict_dice: bool = False) -> None:
        self.strict_dice = strict_dice
        self.reserved: dict[str, int] = {}  # roller -> end of its reserved slots
        self.rolled: dict[str, int] = {}  # roller -> next slot (burnt ones skipped)
        self._open: dict[str, int] = {}  # roller -> slots released when this file began
        self._file: tuple[str, int] | None = None
        self.game_id = b"\x00" * 16
        self.seat = seat
        self.seq = seq
        self.author_mode = True
        self.dice = dice
        self.used = 0
        self.events: list[dict[str, Any]] = []
        self.private_events: list[dict[str, Any]] = []
        self.commitments: dict[str, Any] = {}
        self.rolls: dict[str, list[int]] = {}

    def _take(self, sides: int, count: int, purpose: str) -> list[int]:
        out = []
        for _ in range(count):
            if self.used >= len(self.dice):
                raise InvalidInput(f"case needs more dice than its DICE line gives ({purpose})")
            v = self.dice[self.used]
            if not 1 <= v <= sides:
                raise InvalidInput(f"DICE value {v} is not a d{sides} result ({purpose})")
            out.append(v)
            self.used += 1
        return out

    def _sync(self) -> None:
        """A new (seat, seq) is a new file: the last file's author burns the slots that were
        released when it began but not rolled, and every slot reserved so far is released."""
        key = (self.seat, self.seq)
        if key == self._file:
            return
        if self._file is not None:
            prev = self._file[0]
            self.rolled[prev] = max(self.rolled.get(prev, 0), self._open.get(prev, 0))
        self._file = key
        self._open = dict(self.reserved)

    def _slot(self, purpose: str) -> None:
        if not self.strict_dice:
            return
        self._sync()
        k = self.rolled.get(self.seat, 0)
        if k >= self._open.get(self.seat, 0):
            raise InvalidInput(f"strict dice: {self.seat} rolls '{purpose}' without a die reserved in an "
                               "earlier file (the engine refuses it: seeds not released)")
        self.rolled[self.seat] = k + 1

    def reserved_before(self, counts: dict[str, int]) -> None:
        """Reservations made and released before the case begins (genesis, an earlier file)."""
        for roller, n in counts.items():
            self.reserved[roller] = self.reserved.get(roller, 0) + n

    def roll(self, sides: int, purpose: str, count: int = 1) -> list[int]:
        self._slot(purpose)
        return self._take(sides, count, purpose)

    def secret_roll(self, sides: int, purpose: str, count: int = 1) -> SecretRoll:
        self._slot(purpose)
        ref = f"{self.seq}.r{len(self.rolls)}"
        self.rolls[ref] = self._take(sides, count, purpose)
        return SecretRoll(ref, self.rolls[ref])

    def reveal_roll(self, ref: str) -> list[int]:
        return self.rolls[ref]

    def reserve_rolls(self, count: int, roller: str | None = None) -> None:
        if count < 0:
            raise InvalidInput("a negative roll reservation")
        self._sync()
        r = roller or self.seat
        self.reserved[r] = max(self.reserved.get(r, 0), self.rolled.get(r, 0)) + count

    def commit(self, label: str, value: Any, context: str = "") -> str:
        ref = f"{self.seq}.{len(self.commitments)}"
        self.commitments[ref] = value
        return ref

    def open(self, ref: str) -> Any:
        return self.commitments[ref]

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def private_event(self, kind: str, **fields: Any) -> None:
        self.private_events.append({"kind": kind, **fields})


def state_fingerprint(value: Any) -> bytes:
    return lhash("pbem/v1/case-state", canonical.encode(value))
