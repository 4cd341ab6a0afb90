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
blocks must succeed. Where the text gives one restriction in two places, the
rule may be ``A | B`` (the refusal cites either) or ``A & B`` (the refusal's
errors, together, cite both); the two cannot be mixed. The game's rules module
turns PRESTATE lines into a state (``RulesModule.case_prestate``) and checks
POSTSTATE lines (``RulesModule.case_check``); the engine owns the rest.

Two POSTSTATE statements belong to the engine, not the game (the game never
sees them), and check the public events the case's files recorded with
``ctx.event``: a combat's dice, modifiers and result, a supply reduction::

    EVENT KIND [PATH=VALUE ...]      an event of that kind whose fields match
    NO-EVENT KIND [PATH=VALUE ...]   no event of that kind matches

PATH is a field name, or a dotted path into nested fields (``att_parts.supply``,
``attackers.0``); a value matches as text (numbers as written, ``true``/``false``,
``none`` also for a missing field, a list as its items joined by commas). Quote
a path or value holding spaces (``"att_parts.will commit=1"``). EVENT lines match
events in order: each matches the event the previous EVENT line matched or a later
one (so several lines may check one long event, and a case can say what came first).
"""

from __future__ import annotations

import copy
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import AmbiguousOrder, IllegalOrder, InvalidInput, InvalidOrder, OrderError, OrderErrors
from pbem.formats import canonical
from pbem.formats.hashing import lhash
from pbem.rulesapi import RulesModule, SecretRoll


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
    events: list[tuple[int, str]] = field(default_factory=list)  # POSTSTATE's EVENT / NO-EVENT lines
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
                if "|" in rule and "&" in rule:
                    raise InvalidInput(f"{path}:{no}: EXPECT rules are either A | B or A & B, not both")
                case.expect = (kind, rule.strip() or None)
            elif head == "END":
                ended = True
            section = head
            continue
        if section == "PRESTATE":
            case.prestate.append((no, stripped))
        elif section == "POSTSTATE" and head in ("EVENT", "NO-EVENT"):
            case.events.append((no, stripped))
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
    if case.expect is None and not case.poststate and not case.events:
        raise InvalidInput(f"{path}: a case needs POSTSTATE or EXPECT")
    return case


class CaseFailed(AssertionError):
    """A rules case whose outcome is not what its file says; the message names the case."""


Roll = tuple[str, int, int, bool, "list[int] | None"]  # purpose, sides, count, secret, public values


class ScriptedContext:
    """The rules Context of the rules cases, the rules' unit tests and a dry check (no crypto).

    * author (``ScriptedContext(seat, dice)``): the acting seat's tool. Dice come from the
      case's DICE line; secret values and secret rolls are known; every roll, opening and
      reveal is recorded as the author's file would carry it to the other seats.
    * opponent (``ScriptedContext.opponent_of(author)``): any other seat's tool replaying that
      file (docs/protocol.md, replay mode): ``author_mode`` is False, committed values are not
      known, secret rolls read None, and rolls, openings and reveals come only from what the
      author's file recorded, so a rule that peeks at a secret shows up as a different state.
    * dry (``ScriptedContext(seat)``, no dice): dice read 1..sides cycling, and a commitment made
      in an earlier file opens as {} (unknown): for an order check whose effects are thrown
      away. Legality that depends on a future die cannot be known in advance.
    """

    def __init__(self, seat: str, dice: list[int] | None = None, seq: int = 1, strict_dice: bool = False) -> None:
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
        self.told: list[tuple[str, Any]] = []  # no recipient's tool is modelled: always empty
        self.rolls: dict[str, list[int] | None] = {}
        self.record: list[Roll] = []
        self.opened: dict[str, Any] = {}
        self.revealed: dict[str, list[int] | None] = {}
        self._author: ScriptedContext | None = None

    @classmethod
    def opponent_of(cls, author: ScriptedContext) -> ScriptedContext:
        """Another seat's tool, replaying what ``author`` plays (same seat and seq to be set on both)."""
        ctx = cls(author.seat, None, author.seq, author.strict_dice)
        ctx.author_mode = False
        ctx.reserved, ctx.rolled = dict(author.reserved), dict(author.rolled)
        ctx._author = author
        return ctx

    @property
    def dry(self) -> bool:
        return self.dice is None and self._author is None

    def _take(self, sides: int, count: int, purpose: str) -> list[int]:
        out = []
        for _ in range(count):
            if self.dice is None:
                v = self.used % sides + 1
            elif self.used >= len(self.dice):
                raise InvalidInput(f"case needs more dice than its DICE line gives ({purpose})")
            else:
                v = self.dice[self.used]
            if not 1 <= v <= sides:
                raise InvalidInput(f"DICE value {v} is not a d{sides} result ({purpose})")
            out.append(v)
            self.used += 1
        return out

    def _recorded(self, sides: int, count: int, purpose: str, secret: bool) -> list[int] | None:
        """The opponent's roll: the one the author's file records next, which must be the same roll."""
        assert self._author is not None
        rolls = self._author.record
        i = len(self.record)
        want: Roll = (purpose, sides, count, secret, None)
        if i >= len(rolls):
            raise CaseFailed(f"the opponent's tool rolls {want[:4]} but the author's file records no such roll")
        if rolls[i][:4] != want[:4]:
            raise CaseFailed(f"the opponent's tool rolls {want[:4]} where the author's file records {rolls[i][:4]}")
        self.record.append(rolls[i])
        self.used += count
        return rolls[i][4]

    def _dice(self, sides: int, count: int, purpose: str, secret: bool) -> list[int] | None:
        self._slot(purpose)
        if self._author is not None:
            return self._recorded(sides, count, purpose, secret)
        values = self._take(sides, count, purpose)
        self.record.append((purpose, sides, count, secret, None if secret else values))
        return values

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
        values = self._dice(sides, count, purpose, False)
        assert values is not None
        return values

    def secret_roll(self, sides: int, purpose: str, count: int = 1) -> SecretRoll:
        ref = f"{self.seq}.r{len(self.rolls)}"
        self.rolls[ref] = self._dice(sides, count, purpose, True)
        return SecretRoll(ref, self.rolls[ref])

    def reveal_roll(self, ref: str) -> list[int]:
        source = self._author.revealed if self._author is not None else self.rolls
        values = source.get(ref)
        if values is None:
            raise CaseFailed(f"{self.seat} reveals secret roll {ref}, which "
                             + ("the author's file does not reveal" if self._author else "it never rolled"))
        self.revealed[ref] = values
        return values

    def reserve_rolls(self, count: int, roller: str | None = None) -> None:
        if count < 0:
            raise InvalidInput("a negative roll reservation")
        self._sync()
        r = roller or self.seat
        self.reserved[r] = max(self.reserved.get(r, 0), self.rolled.get(r, 0)) + count

    def commit(self, label: str, value: Any, context: str = "") -> str:
        # A dry check's refs must not shadow the game's real ones ("seq.index").
        ref = f"{'dry' if self.dry else self.seq}.{len(self.commitments)}"
        self.commitments[ref] = value if self._author is None else None  # the opponent sees a digest only
        return ref

    def tell(self, seat: str, label: str, value: Any, context: str = "") -> str:
        # As the engine: a commitment every seat sees; the value only reaches the recipient's tool.
        return self.commit(f"tell:{label}", value, context)

    def open(self, ref: str) -> Any:
        if self._author is not None:
            if ref not in self._author.opened:
                raise CaseFailed(f"{self.seat} opens commitment {ref}, which the author's file does not open")
            value = self._author.opened[ref]
        elif ref in self.commitments:
            value = self.commitments[ref]
        elif self.dry:
            return {}  # sealed in an earlier file: the engine passes a real context when it has the opening
        else:
            raise CaseFailed(f"{self.seat} opens commitment {ref}, which was never made")
        self.opened[ref] = value
        return value

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def private_event(self, kind: str, **fields: Any) -> None:
        self.private_events.append({"kind": kind, **fields})


def run_case(case: Case, rules: RulesModule) -> None:
    """Play a case as its author, and every file again as an opponent's tool would; raise CaseFailed.

    The author's tool has the full orders, its private state and the case's dice. The
    opponent's has the public projection of the orders as it comes off the wire, none of the
    author's private state (the public state must follow without any), no committed value and
    only the dice the author's file recorded; after each file it must reach the same public
    state digest and the same public events.
    """
    public, private = rules.case_prestate(case.prestate)
    author = ScriptedContext("", list(case.dice), strict_dice=case.strict)
    if case.strict:
        author.reserved_before(rules.initial_reservations(public))
    opponent = ScriptedContext.opponent_of(author)
    seen = copy.deepcopy(public)
    for i, block in enumerate(case.orders):
        for ctx in (author, opponent):
            ctx.seat, ctx.seq = block.seat, i + 1
        try:
            orders = rules.parse_orders(block.text, block.seat, public, private.get(block.seat))
            out = rules.apply(public, {block.seat: private.get(block.seat)}, block.seat, orders, author)
        except (OrderError, OrderErrors) as exc:
            _check_refusal(case, rules, block, exc, last=i == len(case.orders) - 1)
            return
        public, private = out.public, {**private, **out.private}
        seen = _replay(case, rules, block, orders, seen, public, author, opponent)
    if case.expect:
        raise CaseFailed(f"{case.path.name}: expected {case.expect[0]} {case.expect[1] or ''} "
                         "but the orders were accepted")
    problems = rules.case_check(public, private, case.poststate) if case.poststate else []
    problems += check_events(case.events, author.events)
    if problems:
        raise CaseFailed(f"{case.path.name} ({case.rule}):\n  " + "\n  ".join(problems))


def _check_refusal(case: Case, rules: RulesModule, block: OrdersBlock, exc: OrderError | OrderErrors,
                   last: bool) -> None:
    err = exc.errors[0] if isinstance(exc, OrderErrors) else exc
    if not (last and case.expect):
        raise CaseFailed(f"{case.path.name}: orders at line {block.line} refused: {err}") from exc
    kind, rule = case.expect
    want = {"ILLEGAL": IllegalOrder, "INVALID": InvalidOrder, "AMBIGUOUS": AmbiguousOrder}[kind]
    if not isinstance(err, want):
        raise CaseFailed(f"{case.path.name}: expected {kind}, got {type(err).__name__}: {err}") from exc
    if rule and not _cites(rule, exc, f"{rules.name.upper()} "):
        cited = [e.rule for e in exc.errors] if isinstance(exc, OrderErrors) else [err.rule]
        raise CaseFailed(f"{case.path.name}: expected rule {rule}, got {', '.join(map(str, cited))}: "
                         f"{err}") from exc


def _cites(rule: str, exc: OrderError | OrderErrors, game: str) -> bool:
    """Whether a refusal cites ``rule``: one number (the first error's), ``A | B`` (the first
    error's is one of them) or ``A & B`` (each is cited by one of the refusal's errors)."""
    errors = exc.errors if isinstance(exc, OrderErrors) else [exc]
    cited = {e.rule.removeprefix(game).strip() for e in errors if e.rule is not None}
    first = errors[0].rule.removeprefix(game).strip() if errors[0].rule is not None else None
    if "&" in rule:
        return all(r.strip().removeprefix(game).strip() in cited for r in rule.split("&"))
    return first in {r.strip().removeprefix(game).strip() for r in rule.split("|")}


def check_events(lines: list[tuple[int, str]], events: list[dict[str, Any]]) -> list[str]:
    """The EVENT / NO-EVENT lines (see the module's docstring) that the public events do not satisfy."""
    bad: list[str] = []
    after = 0  # EVENT lines match in order (the same event again, or a later one)
    for no, line in lines:
        try:
            head, kind, *pairs = shlex.split(line)
        except ValueError as e:
            bad.append(f"line {no}: {line}: cannot read ({e})")
            continue
        want = [p.partition("=")[::2] for p in pairs]
        if any(not k for k, _ in want) or any("=" not in p for p in pairs):
            bad.append(f"line {no}: {line}: fields are written PATH=VALUE")
            continue
        hits = [i for i, e in enumerate(events) if e.get("kind") == kind
                and all(_field_text(e, k) == v.lower() for k, v in want)]
        if head == "NO-EVENT":
            if hits:
                bad.append(f"line {no}: {line}: event {hits[0]} matches: {events[hits[0]]}")
            continue
        later = [i for i in hits if i >= after]
        if later:
            after = later[0]
            continue
        same = [e for e in events if e.get("kind") == kind]
        where = " from the previous EVENT's on" if hits else ""
        bad.append(f"line {no}: {line}: no matching event{where}; events of that kind: {same or 'none'}")
    return bad


def _field_text(event: dict[str, Any], path: str) -> str:
    """The text an event field is compared as (lower case; a missing field reads 'none')."""
    value: Any = event
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return "none"
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    return _scalar(value)


def _scalar(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).lower()


def _replay(case: Case, rules: RulesModule, block: OrdersBlock, orders: Any, seen: Any, public: Any,
            author: ScriptedContext, opponent: ScriptedContext) -> Any:
    """Apply one file as an opponent's tool does; the new public state it holds."""
    where = f"{case.path.name} ({case.rule}): orders at line {block.line}, replayed as {block.seat}'s opponent"
    try:
        wire = canonical.decode(canonical.encode(rules.public_orders(orders)))
        out = rules.apply(seen, {}, block.seat, rules.orders_from_wire(wire, None), opponent)
    except Exception as exc:  # whatever breaks here is the case's finding: re-raised with its name
        raise CaseFailed(f"{where}: {type(exc).__name__}: {exc} (the author's tool accepted it)") from exc
    if len(opponent.record) != len(author.record):
        raise CaseFailed(f"{where}: made {len(opponent.record)} rolls, the author's file records "
                         f"{len(author.record)}")
    if rules.digest(out.public) != rules.digest(public):
        raise CaseFailed(f"{where}: public state digest differs from the author's, first at "
                         f"{_difference(public, out.public)}: the public state must follow from the public orders")
    if opponent.events != author.events:
        i = next((k for k, (a, b) in enumerate(zip(author.events, opponent.events, strict=False)) if a != b),
                 min(len(author.events), len(opponent.events)))
        mine = author.events[i] if i < len(author.events) else None
        theirs = opponent.events[i] if i < len(opponent.events) else None
        raise CaseFailed(f"{where}: public event {i} differs: the author's {mine}, the opponent's {theirs}")
    return out.public


def _difference(a: Any, b: Any, path: str = "") -> str:
    """The first path where two canonical values differ, for a readable failure."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, _MISSING) != b.get(k, _MISSING):
                return _difference(a.get(k, _MISSING), b.get(k, _MISSING), f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _difference(x, y, f"{path}/{k}")
    return f"{path or '/'}: author {a!r}, opponent {b!r}"


_MISSING = "<missing>"


def state_fingerprint(value: Any) -> bytes:
    return lhash("pbem/v1/case-state", canonical.encode(value))
