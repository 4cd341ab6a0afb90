"""The interface between the engine and a game's rules module.

The engine never imports a game: it finds rules modules by name in the
registry (``pbem.rules`` entry points, or ``register`` for tests) and drives
them only through ``RulesModule``.

State is split the way fog of war demands:

* ``public``: what every seat knows. Every tool holds it and every tool must
  reach the same ``digest(public)`` after each file.
* ``private[seat]``: what only that seat knows (hidden blocks, its hand).
  Only that seat's tool ever holds it.

Both are canonical values (dicts of str/int/bytes/bool/None/lists), so the
engine can cache, hash and encrypt them without knowing the game.

Orders are applied in one of two modes through the same ``apply``:

* *author* mode: the acting seat's tool has the full orders and its private
  state; ``ctx.author_mode`` is True; secret values and secret rolls are known.
* *replay* mode: every other tool has only ``public_orders`` (what the author
  chose to show) and no private state of the author; secret values handed to
  ``ctx.commit`` are ignored and secret roll values are ``None``.

A rules module must compute the public state only from what replay mode can
see; the engine checks this on every file because the author's claimed
digest must equal what every other tool recomputes.

What a seat may do now is asked with ``legal_actions`` (docs/orders.md,
"Legal actions"): a list of ``Action`` (a verb and its typed ``Arg``s, each
with concrete choices where the module can give them cheaply). Templates,
the cockpit's board and the soak's bots are built on it. Every action listed
must parse once its arguments are filled in; it need not pass every check of
``apply`` (a listed attack may still be refused for supply or stacking).

Effects on another seat's hidden units (a spy's report, a hidden unit
destroyed by an attack only its owner can resolve): the author tells that
seat (``ctx.tell``); the seat's tool applies it to its private state; the
public state holds only what everyone may know. In ``apply``, replay mode, the
tool holding the seat told passes its own private state in ``private`` (under
that seat) and reads ``ctx.told`` right after the ``tell`` call; the new
private state goes back in ``Outcome.private`` under that seat. Every other
tool has no such state and sees only the commitment, so the public state must
not depend on the told value (tests/toygame3.py, ``tell``, shows it).

Every optional hook is a method of ``RulesModule`` with a documented default
(``result``, ``summary_view``, ``describe_event``, ``dice_in_event``,
``order_template``, ``legal_actions``, ``demo_script``, ``case_prestate``,
``case_check``, ``check_orders``, ``initial_reservations``, ``dice_estimate``): the engine calls
them directly and never looks a hook up by name, so mypy checks every
override's signature.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import InvalidInput, NotFound, OrderError

_ATOMS = (str, int, bytes, float, bool, type(None))


def copy_data(obj: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of scalars), as ``copy.deepcopy`` gives,
    at a third of its cost: states are copied several times per file (issue 11), by the engine
    and by games. Anything else (a set, an object) is handed to ``copy.deepcopy``. Shared
    references are copied apart, which plain data decoded from a file never has."""
    t = type(obj)
    if t is dict:
        return {k: copy_data(v) for k, v in obj.items()}
    if t is list:
        return [copy_data(v) for v in obj]
    if t in _ATOMS:
        return obj
    if t is tuple:
        return tuple(copy_data(v) for v in obj)
    import copy

    return copy.deepcopy(obj)


@dataclass(frozen=True)
class Scenario:
    """A scenario as the engine sees it: a name, a hash over its files, and the game's own data."""

    rules: str
    name: str
    title: str
    digest: bytes
    seats: tuple[str, ...]
    data: Any = None
    #: seat -> the sides (factions, powers) it plays; a seat left out plays one side named like it.
    sides: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    #: how many seats one player (one card) may hold in this scenario: 1 refuses a proposal giving
    #: a card two seats; more lets e.g. two players run three powers (docs/protocol.md §6a).
    seats_per_player: int = 1

    def __post_init__(self) -> None:
        # Seat, side and scenario names end up in file names and signed headers (pbem.formats.names).
        from pbem.formats.names import GRAMMAR, check_name

        hint = f"{GRAMMAR}; rename it in the scenario's files"
        check_name("scenario", self.name, where=f"rules {self.rules}", hint=hint)
        for seat in self.seats:
            check_name("seat", seat, where=f"scenario {self.name}", hint=hint)
        seen: set[str] = set()
        for seat, sides in self.sides.items():
            if seat not in self.seats or not sides:
                raise InvalidInput(f"scenario {self.name}: sides given for {seat!r}, not a seat, or none")
            for side in sides:
                check_name("side", side, where=f"scenario {self.name}", hint=hint)
                if side in seen:
                    raise InvalidInput(f"scenario {self.name}: side {side!r} is played by two seats")
                seen.add(side)
        if not 1 <= self.seats_per_player <= max(1, len(self.seats)):
            raise InvalidInput(f"scenario {self.name}: seats_per_player {self.seats_per_player} out of range")

    def sides_of(self, seat: str) -> tuple[str, ...]:
        """The sides ``seat`` plays (by default one, named like the seat)."""
        return self.sides.get(seat, (seat,))

    def side_map(self) -> dict[str, tuple[str, ...]]:
        """Every seat with the sides it plays."""
        return {s: self.sides_of(s) for s in self.seats}


def seat_of_side(sides: dict[str, tuple[str, ...]] | dict[str, list[str]], side: str) -> str:
    """The seat playing ``side``, from a seat -> sides map (``Scenario.side_map``, e.g. kept in the
    public state): for a rules module's ``pending``, which names the seat that must act.

    A name that is a seat and no other seat's side is its own side. Raises ``InvalidInput`` for
    a side no seat plays.
    """
    for seat, played in sides.items():
        if side in played:
            return seat
    if side in sides:
        return side
    raise InvalidInput(f"no seat plays side {side!r}", hint=f"seats and sides: {sides}")


@dataclass(frozen=True)
class Pending:
    """Who must act next and what is wanted of them."""

    seat: str
    phase: str  # a short name, e.g. "1940-05 Axis Action Phase"
    wanted: str  # a sentence for the summary: what the seat must decide
    kind: str = "orders"  # "orders" for a phase's orders, or a decision kind ("will-commit", ...)
    options: tuple[str, ...] = ()
    # The game turn this decision belongs to (1, 2, ...), or None where the game has no turns:
    # the history groups files by it, so no tool parses it back out of ``phase``.
    turn: int | None = None


@dataclass(frozen=True)
class Arg:
    """One argument of an ``Action``, written after the verb in the order's text.

    ``kind`` names what the value is ("unit", "hex", "loc" (a hex or a Map Box),
    "country", "number", "word"); ``choices`` lists the values the module knows
    to fit (a "word" is one of them literally), or is None when listing them
    would cost a rules check: then any value of the kind parses. ``keyword`` is
    written before the value ("from" in ``attack HEX from UNIT``); an
    ``optional`` argument may be left out, a ``repeat`` one takes one or more
    values (a move's path).
    """

    name: str
    kind: str
    choices: tuple[str, ...] | None = None
    keyword: str = ""
    optional: bool = False
    repeat: bool = False


@dataclass(frozen=True)
class Action:
    """One thing a seat may do now: an order verb with its arguments (``RulesModule.legal_actions``)."""

    verb: str
    args: tuple[Arg, ...] = ()
    rule: str = ""  # the rule that allows it, e.g. "USE 5.3.2"
    summary: str = ""  # a short sentence for menus and templates
    # What the rules already know of its outcome, for templates and the board: e.g. the DRMs
    # that will apply ("attacker +1 tank; defender +1 terrain") or the odds ("3:1").
    note: str = ""
    # For an action with a ``repeat`` argument (a move's path): complete values of it that the
    # rules found legal, one per reachable destination (the last element). Empty: not listed.
    paths: tuple[tuple[str, ...], ...] = ()

    def line(self, values: dict[str, str] | None = None) -> str:
        """The order's text: each required argument from ``values``, else its first choice.

        Optional arguments are written only when ``values`` names them.
        Raises ``InvalidInput`` for a required argument with neither.
        """
        values = values or {}
        words = [self.verb]
        for a in self.args:
            v = values.get(a.name)
            if v is None and a.optional:
                continue
            if v is None:
                if not a.choices:
                    raise InvalidInput(f"{self.verb}: no value for {a.name} ({a.kind})",
                                       hint=f"give {a.name} a value: any {a.kind} the rules accept")
                v = a.choices[0]
            words += [a.keyword, v] if a.keyword else [v]
        return " ".join(words)

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``pbem orders actions --json`` (choices: a list, or null when not listed)."""
        return {"verb": self.verb, "rule": self.rule, "summary": self.summary,
                "args": [{"name": a.name, "kind": a.kind, "keyword": a.keyword, "optional": a.optional,
                          "repeat": a.repeat, "choices": None if a.choices is None else list(a.choices)}
                         for a in self.args],
                "note": self.note, "paths": [list(p) for p in self.paths]}


@dataclass(frozen=True)
class SecretRoll:
    ref: str
    values: list[int] | None  # None in replay mode


@dataclass
class Outcome:
    """The result of applying one file's orders."""

    public: Any
    private: dict[str, Any] = field(default_factory=dict)  # new private state per seat known here


class Context(Protocol):
    """What the engine offers a rules module while it applies orders."""

    game_id: bytes
    seat: str  # the author of the file being applied
    seq: int
    author_mode: bool

    def roll(self, sides: int, purpose: str, count: int = 1) -> list[int]:
        """Public roll: every tool recomputes the same values."""

    def secret_roll(self, sides: int, purpose: str, count: int = 1) -> SecretRoll:
        """Roll only the author sees now; revealed later with ``reveal_roll``."""

    def reveal_roll(self, ref: str) -> list[int]:
        """Reveal a secret roll this author made earlier."""

    @property
    def strict_dice(self) -> bool:
        """The game's dice mode (pbem.protocol.dicefiles, docs/protocol.md §11)."""

    def reserve_rolls(self, count: int, roller: str | None = None) -> None:
        """Announce ``count`` rolls ``roller`` (default: this file's author) makes in a later file.

        Strict dice mode: the seeds that decide them are released only in files
        signed after this one, and the roller must roll them in its very next
        file (unrolled ones are burnt). Window mode: a no-op.
        """

    def commit(self, label: str, value: Any, context: str = "") -> str:
        """Commit to a secret value; returns a reference ("seq.index")."""

    def open(self, ref: str) -> Any:
        """Open a commitment this author made earlier; returns the value in both modes."""

    def tell(self, seat: str, label: str, value: Any, context: str = "") -> str:
        """Tell ``seat`` (not the author) ``value``, for its eyes only; returns the commitment's reference.

        Author mode: the value is sealed in ``seat``'s private part of the file
        and committed to publicly (label ``tell:<label>``). Replay mode: pass
        whatever stands for the value (it is ignored, as with ``commit``); the
        tool holding ``seat`` checks what it was told against the commitment
        and lists it in ``told``. See "Effects on another seat's hidden units"
        in this module's docstring.
        """

    @property
    def told(self) -> list[tuple[str, Any]]:
        """Replay mode, in the tool holding the seat told: (label, value) of each ``tell`` so far
        in this file, in order. Empty in every other tool and in author mode."""

    def event(self, kind: str, **fields: Any) -> None:
        """Record a public event (summaries and histories are built from these)."""

    def private_event(self, kind: str, **fields: Any) -> None:
        """Record an event only the author sees."""


class RulesModule(abc.ABC):
    """Base class of a game's rules module."""

    #: the registry name, e.g. "use"
    name: str = ""
    #: bumped whenever a rule or table changes what a file means
    version: str = "0"
    title: str = ""
    #: the dice modes this module supports ("strict": no roll can be computed
    #: before the action using it is signed; "window": seeds released ahead).
    #: `game new` refuses any other.
    dice_modes: tuple[str, ...] = ("strict", "window")

    @abc.abstractmethod
    def rules_hash(self) -> bytes:
        """The rules hash recorded in every file: ``pbem.kit.digest.rules_digest`` over the game's
        code and data, the kit and the engine modules the rules run through (docs/kit.md)."""

    def releases_file(self) -> Path | None:
        """The game's ``releases.toml``: earlier releases of these rules and whether this copy still
        plays their games (pbem.protocol.releases). By default the file beside the module's code."""
        import sys

        module = sys.modules.get(type(self).__module__)
        where = getattr(module, "__file__", None)
        return Path(where).resolve().parent / "releases.toml" if where else None

    @abc.abstractmethod
    def scenarios(self) -> list[str]:
        """Names of the scenarios this module can load."""

    @abc.abstractmethod
    def load_scenario(self, name: str) -> Scenario:
        """Load and validate a scenario; raise InvalidInput listing every error."""

    def audit_final(self, public: Any, opened: dict[str, Any]) -> list[str]:
        """The full audit's last check, after every file was replayed with its author's secrets:
        ``public`` the final state, ``opened`` every commitment's opened value by reference.
        Each string names a violation the rules can only find then (a hidden piece's moves
        never revealed in play). Default: none."""
        return []

    def warm(self) -> None:
        """Load now what every command of this game will need (its scenarios; a module may add
        its boards or tables): a long-lived process (pbem.cli.warmserver) calls it once, and
        the commands it then runs start with it done."""
        for name in self.scenarios():
            self.load_scenario(name)

    @abc.abstractmethod
    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        """(public, private-by-seat) at the start of play. ``seats`` maps seat -> player name."""

    @abc.abstractmethod
    def pending(self, public: Any) -> Pending | None:
        """Who acts next, or None when the game is over."""

    @abc.abstractmethod
    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        """Parse an order text written by ``seat``; raise InvalidOrder/OrderErrors with line and column."""

    @abc.abstractmethod
    def public_orders(self, orders: Any) -> Any:
        """The canonical projection of the orders every seat may see."""

    def private_orders(self, orders: Any) -> Any:
        """The canonical full orders, sealed to the author (default: the public projection)."""
        return self.public_orders(orders)

    @abc.abstractmethod
    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        """Rebuild orders from their projections (``private`` is None in replay mode)."""

    @abc.abstractmethod
    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any,
              ctx: Context) -> Outcome:
        """Validate and apply ``orders`` by ``seat``; raise IllegalOrder (with the rule) if illegal.

        Must not mutate its inputs. ``private`` holds only the private states
        this tool knows (the author's in author mode; in replay mode none of
        the author's, but the private state of the seat this tool holds, so a
        ``ctx.tell`` to it can change it).
        """

    def initial_reservations(self, public: Any) -> dict[str, int]:
        """Strict dice: rolls each seat makes in its first file, reserved at genesis (e.g. weather)."""
        return {}

    def started_by(self, public: Any, version: str) -> Any:
        """The starting public state of a game that release ``version`` of these rules started
        (the proposal's ``rules_version``; genesis calls it on ``initial_state``'s result).

        How a later release changes a rule without changing what the earlier releases' games
        mean (docs/protocol.md §15): it marks the games started by releases that have the new
        rule (e.g. a key in the state) and leaves the others' state exactly as their release
        made it. Must not mutate its input; default: unchanged.
        """
        return public

    def dice_estimate(self, scenario: Scenario) -> int | None:
        """The most rolls one seat may make in a game of ``scenario`` (None: no estimate).

        Genesis sizes the players' seed trees from it when the proposer sets no
        ``dice_depth`` (pbem.protocol.genesis.depth_for); None keeps the default
        depth. A low estimate costs nothing but a new dice epoch in play.
        """
        return None

    def digest(self, public: Any) -> bytes:
        from pbem.formats import canonical
        from pbem.formats.hashing import lhash

        return lhash("pbem/v1/state", canonical.encode(public))

    def result(self, public: Any) -> str | None:
        """A sentence naming the winner once the game is over, else None."""
        return None

    def summary_view(self, public: Any, private: Any | None, seat: str | None) -> dict[str, Any]:
        """What the summary shows: {"map": picture or None, "tables": [...], "facts": [...]} (pbem.present.render)."""
        return {"map": None, "tables": [], "facts": []}

    def dice_in_event(self, event: dict[str, Any], author: str, public: Any
                      ) -> list[tuple[str, int, int]] | None:
        """[(seat, sides, value), ...] for the dice rolled in ``event``, for the history's dice statistics.

        ``author`` is the seat whose file recorded the event, ``public`` the
        public state after that file. The default, None, means *not answered*:
        the history then reads the usual field names (pbem.present.history.generic_dice).
        """
        return None

    def describe_event(self, event: dict[str, Any]) -> str:
        """One line of text for an event recorded with ``ctx.event``."""
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
        return f"{event.get('kind', '?')}: {fields}" if fields else str(event.get("kind", "?"))

    def order_template(self, public: Any, private: Any, seat: str) -> str:
        """A commented order file listing what ``seat`` may do now."""
        return "# no template for this game\n"

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        """What ``seat`` may do now, each action with its arguments (docs/orders.md, "Legal actions").

        The default returns ``[]``, which means *not answered*: a module that
        answers lists at least one action (e.g. ending its step) whenever
        ``pending(public)`` names ``seat``, and ``[]`` for any other seat, so
        an empty list for the pending seat tells a tool to fall back on
        ``order_template``. Every action listed, its arguments filled in from
        their choices, must pass ``parse_orders``; it may still be refused by
        ``apply`` where the check is a rules question (supply, stacking, range).
        """
        return []

    def demo_script(self, scenario: str) -> str | None:
        """A scripted game for `make demo`: blocks of `ORDERS <seat>` ... `END` (see pbem.cli.demo)."""
        return None

    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        """Build (public, private-by-seat) from a rules case's PRESTATE lines (see pbem.kit.cases)."""
        raise NotImplementedError(f"{self.name} has no rules cases")

    def case_check(self, public: Any, private: dict[str, Any],
                   lines: list[tuple[int, str]]) -> list[str]:
        """Check a case's POSTSTATE lines; return one message per line that does not hold."""
        raise NotImplementedError(f"{self.name} has no rules cases")

    def check_orders(self, text: str, seat: str, public: Any, private: Any,
                     ctx: Context | None = None) -> list[OrderError]:
        """All problems with an order text, without changing anything (default: parse only).

        ``ctx``, when given, is a throw-away author-mode context (real dice and
        the author's own openings) whose effects the engine discards.
        """
        try:
            self.parse_orders(text, seat, public, private)
        except OrderError as e:
            return [e]
        return []


_registry: dict[str, RulesModule] = {}
_broken: dict[str, str] = {}


def register(module: RulesModule) -> None:
    """Register a rules module by name (entry points do this for installed games)."""
    _registry[module.name] = module


def unregister(name: str) -> None:
    _registry.pop(name, None)


def _load_extra() -> None:
    """PBEM_RULES_MODULES="module:attr,...": rules modules in development, not installed.

    For game authors (and pbem's own subprocess tests); an installed game
    registers an entry point instead.
    """
    import importlib
    import os

    for spec in filter(None, os.environ.get("PBEM_RULES_MODULES", "").split(",")):
        mod, _, attr = spec.strip().partition(":")
        try:
            obj = getattr(importlib.import_module(mod), attr or "RULES")
        except Exception as exc:  # noqa: BLE001 - a broken game must not take the engine down
            _broken[spec] = f"{type(exc).__name__}: {exc}"
            continue
        module = obj() if isinstance(obj, type) else obj
        if isinstance(module, RulesModule):
            _registry.setdefault(module.name, module)


def _load_entry_points() -> None:
    from importlib.metadata import entry_points

    _load_extra()

    for ep in entry_points(group="pbem.rules"):
        if ep.name in _registry or ep.name in _broken:
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken game must not take the engine down
            _broken[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        module = obj() if isinstance(obj, type) else obj
        if isinstance(module, RulesModule):
            _registry[module.name or ep.name] = module


def get(name: str) -> RulesModule:
    if name not in _registry:
        _load_entry_points()
    if name not in _registry:
        if name in _broken:
            raise NotFound(f"rules module {name!r} failed to load: {_broken[name]}",
                           hint="reinstall pbem; if it persists, report it with this message")
        raise NotFound(
            f"no rules module named {name!r} is installed",
            hint=f"installed games: {', '.join(sorted(available())) or 'none'}",
        )
    return _registry[name]


def available() -> list[str]:
    _load_entry_points()
    return sorted(_registry)
