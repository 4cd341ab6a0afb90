"""Game-independent order machinery: words with their places, a verb table, refusals, rollback.

A game's order language is one order per line, the verb first, '#' starting a comment. The game
declares one ``VerbTable``: for every verb its name, the phases where it may be given, and three
functions. ``parse`` reads the words after the verb into the order dict (syntax and names only);
``check`` raises ``IllegalOrder`` if the rules forbid the order now and must not change the state;
``apply`` carries it out. Parsing a file, the "unknown order" message, the phase a verb belongs
to, the order template's listing and the dispatch of an order are all driven from the table, so
adding a verb touches one place.

An order is a dict of canonical values: {"verb", "line", "col", ...fields}; ``line`` and ``col``
locate the verb so that a refusal can point at it (``illegal``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, NoReturn, TypeVar, cast

from pbem.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError, OrderErrors
from pbem.rulesapi import Action

Order = dict[str, Any]
E = TypeVar("E")  # what check and apply receive: the game's state and whatever else it needs
WORD = re.compile(r"\S+")
# Lone surrogates: bytes that were not UTF-8, decoded with surrogateescape (argv, some readers).
SURROGATE = re.compile("[\ud800-\udfff]")


class Line:
    """The words of one order line with their 1-based columns; word 0 is the verb.

    Parse functions consume words left to right; every error names the line and the column
    of the word at fault (or just past the end when a word is missing).
    """

    def __init__(self, no: int, text: str) -> None:
        self.no = no
        self.toks: list[tuple[int, str]] = [(m.start() + 1, m.group()) for m in WORD.finditer(text)]
        self.i = 1

    def err(self, msg: str, col: int | None = None, hint: str | None = None) -> InvalidOrder:
        return InvalidOrder(msg, line=self.no, column=col or (self.toks[min(self.i, len(self.toks) - 1)][0]),
                            hint=hint)

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek(self) -> str | None:
        """The next word, lower-cased, without consuming it."""
        return self.toks[self.i][1].lower() if self.more() else None

    def take(self, what: str) -> tuple[int, str]:
        """The next word and its column; ``what`` names it if it is missing."""
        if not self.more():
            end = self.toks[-1][0] + len(self.toks[-1][1])
            raise InvalidOrder(f"missing {what}", line=self.no, column=end + 1)
        t = self.toks[self.i]
        self.i += 1
        return t

    def word(self, choices: tuple[str, ...], what: str) -> str:
        """The next word, which must be one of ``choices`` (case-insensitive)."""
        col, t = self.take(what)
        if t.lower() not in choices:
            raise self.err(f"expected {what} ({' | '.join(choices)}), got {t!r}", col)
        return t.lower()

    def done(self) -> None:
        if self.more():
            col, t = self.toks[self.i]
            raise self.err(f"unexpected {t!r}", col)


def strip_comment(text: str) -> str:
    return text.split("#", 1)[0]


def resolve_name(names: Iterable[str], token: str, line: int, col: int, *, what: str = "unit",
                 hint: str | None = None) -> str:
    """Exact name (case-insensitive), else a unique prefix; several matches are ambiguous
    (``AmbiguousOrder`` listing the first five), none is ``InvalidOrder`` with ``hint``."""
    ids = sorted(names)
    low = token.lower()
    exact = [u for u in ids if u.lower() == low]
    if exact:
        return exact[0]
    pref = [u for u in ids if u.lower().startswith(low)]
    if len(pref) == 1:
        return pref[0]
    if pref:
        raise AmbiguousOrder(f"{token!r} matches {', '.join(pref[:5])}", line=line, column=col)
    raise InvalidOrder(f"no {what} named {token!r}", line=line, column=col, hint=hint)


def illegal(rulebook: str, order: Mapping[str, Any] | None, message: str, rule: str,
            hint: str | None = None) -> NoReturn:
    """Refuse ``order`` under ``rule``, a bare rule number reported as "RULEBOOK RULE" (e.g.
    "USE 4.2.3"), at the order's line and column (none for a refusal of the whole file)."""
    line = order.get("line") if order else None
    col = order.get("col") if order else None
    raise IllegalOrder(message, rule=f"{rulebook} {rule}", hint=hint, line=line, column=col)


T = TypeVar("T")


def restore(state: object, snapshot: Mapping[str, Any]) -> None:
    """Put ``snapshot``'s contents back into the dict ``state``, in place: callers hold it."""
    if not isinstance(state, dict):
        raise TypeError(f"cannot restore a {type(state).__name__}")
    state.clear()
    state.update(snapshot)


@contextmanager
def rollback(state: T, copy: Callable[[T], T],
             on: type[BaseException] | tuple[type[BaseException], ...] = OrderError) -> Iterator[None]:
    """Undo every change to the dict ``state`` (in place) if the block raises ``on``, then re-raise.

    A safety net: checks run before an order changes anything, but where a rule can only be
    checked part-way through carrying the order out (a path walked hex by hex), a refused
    order must still leave the state as it found it.
    """
    snapshot = copy(state)
    try:
        yield
    except on:
        restore(state, cast(Mapping[str, Any], snapshot))
        raise


def collect(lines: Iterable[tuple[int, str]], parse_line: Callable[[int, str], Order | None]) -> list[Order]:
    """Every line parsed; all errors are reported together (one error alone as itself)."""
    out: list[Order] = []
    errors: list[OrderError] = []
    for no, text in lines:
        try:
            o = parse_line(no, text)
        except OrderError as e:
            errors.append(e)
            continue
        if o is not None:
            out.append(o)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise OrderErrors(errors)
    return out


def _nothing(env: Any, order: Order) -> None:
    return None


L = TypeVar("L", bound=Line)  # the game's Line (it may add readers for its hexes and units)


@dataclass(frozen=True)
class Verb(Generic[E, L]):
    """One order verb. ``phases`` empty: it may be given at any step where the seat acts.

    ``parse(line, order)`` reads the words after the verb into ``order`` (it may rename the
    verb, e.g. an attack in assault mode); ``check(env, order)`` raises ``IllegalOrder`` and
    changes nothing; ``apply(env, order)`` runs only after ``check`` passed. ``help`` is the
    template line listing the verb (none: unlisted), ``help_in`` a replacement for some phases.
    ``offer(state, seat)`` lists the verb's legal actions now (pbem.rulesapi.Action; none: the
    verb is not offered), for ``RulesModule.legal_actions``.
    """

    name: str
    parse: Callable[[L, Order], None]
    apply: Callable[[E, Order], None]
    check: Callable[[E, Order], None] = _nothing
    phases: tuple[str, ...] = ()
    help: str = ""
    help_in: Mapping[str, str] = field(default_factory=dict)
    offer: Callable[[Any, str], list[Action]] | None = None


class VerbTable(Generic[E, L]):
    """A game's verbs, in the order its help lists them."""

    def __init__(self, rulebook: str, verbs: Sequence[Verb[E, L]]) -> None:
        self.rulebook = rulebook
        self.verbs: dict[str, Verb[E, L]] = {}
        for v in verbs:
            if v.name in self.verbs:
                raise ValueError(f"verb {v.name!r} declared twice")
            self.verbs[v.name] = v

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.verbs)

    def __getitem__(self, name: str) -> Verb[E, L]:
        return self.verbs[name]

    def phase(self, verb: str) -> str:
        """The phase an order of ``verb`` belongs to ("" = any)."""
        phases = self.verbs[verb].phases
        return phases[0] if phases else ""

    def allowed(self, verb: str, phase: str) -> bool:
        phases = self.verbs[verb].phases
        return not phases or phase in phases

    def parse_line(self, no: int, text: str, make_line: Callable[[int, str], L]) -> Order | None:
        """One line's order, None for a blank or comment line; ``make_line`` makes the game's
        ``Line`` (e.g. a subclass that knows the units named in the state)."""
        body = strip_comment(text)
        if not body.strip():
            return None
        bad = SURROGATE.search(body)
        if bad is not None:
            # Such a word could never be encoded into the turn file: refuse it here, at its column.
            raise InvalidOrder("this line holds bytes that are not UTF-8 text", line=no, column=bad.start() + 1)
        ln = make_line(no, body)
        col, word = ln.toks[0]
        name = word.lower()
        verb = self.verbs.get(name)
        if verb is None:
            raise InvalidOrder(f"unknown order {name!r}", line=no, column=col,
                               hint="orders: " + ", ".join(self.names))
        o: Order = {"verb": name, "line": no, "col": col}
        verb.parse(ln, o)
        ln.done()
        return o

    def parse(self, text: str, make_line: Callable[[int, str], L]) -> list[Order]:
        """Every line of ``text`` parsed; all errors are reported together."""
        return collect(enumerate(text.splitlines(), start=1),
                       lambda no, line: self.parse_line(no, line, make_line))

    def listing(self, phase: str) -> list[str]:
        """The template lines for ``phase``: its own verbs first, then those of every phase."""
        return [line for v in self._in(phase) if (line := v.help_in.get(phase, v.help))]

    def offers(self, state: Any, seat: str, phase: str) -> list[Action]:
        """The legal actions of ``phase``'s own verbs, then of the verbs of every phase."""
        return [a for v in self._in(phase) if v.offer is not None for a in v.offer(state, seat)]

    def _in(self, phase: str) -> list[Verb[E, L]]:
        """The verbs of ``phase``, its own first, then those of every phase, each in table order."""
        return ([v for v in self.verbs.values() if phase in v.phases]
                + [v for v in self.verbs.values() if not v.phases])

    def check(self, env: E, order: Order) -> None:
        self.verbs[order["verb"]].check(env, order)

    def run(self, env: E, order: Order) -> None:
        """Check the order, then apply it."""
        verb = self.verbs[order["verb"]]
        verb.check(env, order)
        verb.apply(env, order)

    def illegal(self, order: Mapping[str, Any] | None, message: str, rule: str,
                hint: str | None = None) -> NoReturn:
        illegal(self.rulebook, order, message, rule, hint)
