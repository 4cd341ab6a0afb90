"""Random-play bots: players that choose random legal orders through ``RulesModule.legal_actions``.

A bot writes one file at a time for the seat that must act. It asks the rules
what the seat may do (docs/orders.md, "Legal actions"), picks an action weighted
by verb (so it moves, attacks and produces as players do instead of passing),
fills the arguments from their choices (a hex near the unit for a path the rules
do not list), and tries the file so far exactly as ``pbem play`` would apply it
(author mode, the real dice of the next file): an order the rules refuse is
dropped and counted, and the bot tries another. A file ends after a few orders,
after the step's end verb, or when the seat no longer acts.

It lives in tools/, not pbem/kit: it needs pbem.play (the kit may not import it),
and every pbem/kit/*.py is hashed into each game's rules hash (pbem.kit.digest),
so a bot there would change every turn file's contents.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import PbemError
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW, ODD_COLUMNS_LOW, Grid, parse_hex
from pbem.play import game
from pbem.protocol.context import EngineContext, clone
from pbem.rulesapi import Action, Arg

# What players do most: fight, move, produce; ending a step and standing orders are rarer.
WEIGHTS: dict[str, float] = {
    # USE
    "attack": 10, "assault": 6, "resolve": 12, "move": 10, "strategic-move": 4, "air-strike": 4,
    "rebase": 2, "declare-war": 1.5, "replace": 5, "upgrade": 4, "mobilize": 5, "fort": 1,
    "will-commit": 10, "end": 3, "end-phase": 2.5, "standing": 0.3,
    # Duel and Trio
    "roll": 6, "seal": 2, "open": 3, "secret": 2, "reveal": 3, "declare": 2, "again": 0.4,
    "pass": 0.6, "tell": 1, "reserve-other": 0.4,
    # EuroFront (its own verbs only: "move", "mobilize", "seal" and "end-phase" weigh as above)
    "activate": 8, "battle": 12, "rail": 3, "retreat": 2, "airstrike": 4, "losses": 0.5, "attrition": 10,
    "withdraw": 10, "build": 5, "arrive": 8, "garrison": 1, "place": 5, "recognition": 2,
}
END_VERBS = ("end-phase", "pass", "end")
MAX_REFUSALS = 10  # refused tries in one file before the bot settles for what it has


@dataclass
class Stats:
    """What the bots did: orders written, refused by the rules after being listed, files."""

    orders: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    refusal_kinds: Counter[str] = field(default_factory=Counter)
    #: a few refusal messages per verb, for the report
    samples: dict[str, list[str]] = field(default_factory=dict)
    files: int = 0

    def refuse(self, verb: str, e: Exception) -> None:
        self.refused[verb] += 1
        self.refusal_kinds[type(e).__name__] += 1
        seen = self.samples.setdefault(verb, [])
        if len(seen) < 3 and str(e) not in seen:
            seen.append(str(e))

    def add(self, other: Stats) -> None:
        self.orders.update(other.orders)
        self.refused.update(other.refused)
        self.refusal_kinds.update(other.refusal_kinds)
        for verb, msgs in other.samples.items():
            self.samples.setdefault(verb, msgs)
        self.files += other.files


@dataclass(frozen=True)
class Places:
    """Where a game's units stand, for arguments the rules leave unlisted (a move's path)."""

    grid: Grid | None = None
    #: hexes a seat may name as a destination it does not list (USE: the cities it controls)
    friendly: Callable[[Any, str], list[str]] | None = None
    #: the hexes of the seat's enemies: paths lean towards them, so that units meet and fight
    enemies: Callable[[Any, str], list[str]] | None = None
    #: the public state's table of pieces, each with its "hex" (EuroFront keeps "blocks")
    pieces: str = "units"
    #: a move's path is one of the complete paths the rules list (``Action.paths``), not a walk
    listed_paths: bool = False
    #: how many orders a file tries to hold (EuroFront: a file's end ends the step, so one order a file
    #: would move one block a Movement Phase)
    file_sizes: tuple[int, ...] = (1, 1, 2, 2, 3, 4, 6)
    #: the file's end ends the step (EuroFront): a trial's state is already the next step's, so the
    #: orders are listed from the state the file starts from, each piece given one order a file
    file_ends_step: bool = False
    #: this game's own weights for verbs it shares with others (EuroFront: mobilizing costs an HQ a step)
    weights: tuple[tuple[str, float], ...] = ()
    #: a factor on an action's weight from the seat's private state (EuroFront: rebuild the HQs,
    #: without which nothing moves)
    prefer: Callable[[Action, Any], float] | None = None

    def near(self, h: str, rnd: random.Random, steps: int, towards: Sequence[str] = ()) -> list[str]:
        """A random walk of ``steps`` hexes from ``h``, each step closing on ``towards`` more often than not."""
        if self.grid is None:
            return []
        try:
            here = parse_hex(h)
            goals = [parse_hex(x) for x in towards]
        except ValueError:
            return []
        path = []
        for _ in range(steps):
            options = self.grid.neighbours(here)
            if goals and rnd.random() < 0.6:
                grid = self.grid
                here = min(options, key=lambda n: (min(grid.distance(n, g) for g in goals), rnd.random()))
            else:
                here = rnd.choice(options)
            path.append(str(here))
        return path


def _use_enemies(public: Any, seat: str) -> list[str]:
    countries = public.get("countries", {})
    return sorted({u["hex"] for u in public.get("units", {}).values()
                   if u.get("box") is None and isinstance(u.get("hex"), str)
                   and countries.get(u.get("country"), {}).get("faction") not in (seat, None)})


def _side_enemies(public: Any, seat: str) -> list[str]:
    return sorted(u["hex"] for u in public.get("units", {}).values() if u.get("side") not in (seat, None))


def _wie_enemies(public: Any, seat: str) -> list[str]:
    mine = public.get("seats", {}).get(seat, [seat])  # 71.32: one seat may hold two sides
    return sorted({u["hex"] for u in public.get("units", {}).values() if u.get("hex") and u.get("side") not in mine})


def _block_enemies(public: Any, seat: str) -> list[str]:
    return sorted({b["hex"] for b in public.get("blocks", {}).values()
                   if b.get("side") not in (seat, None) and isinstance(b.get("hex"), str)})


def _eurofront_prefer(a: Action, private: Any) -> float:
    if a.verb != "build" or not a.args or not a.args[0].choices:
        return 1.0
    ident = (private or {}).get("blocks", {}).get(a.args[0].choices[0], {})
    return 6.0 if ident.get("type") in ("HQ", "THQ") else 1.0


def use_places() -> Places:
    def friendly(public: Any, seat: str) -> list[str]:
        return sorted(h for h, f in public.get("control", {}).items() if f == seat)

    return Places(EVEN_COLUMNS_LOW, friendly, _use_enemies)


PLACES: dict[str, Places] = {
    "use": use_places(),
    "skirmish": Places(ODD_COLUMNS_LOW, enemies=_side_enemies),
    "eurofront": Places(EVEN_COLUMNS_LOW, enemies=_block_enemies, pieces="blocks", listed_paths=True,
                        file_sizes=(3, 5, 8, 12), file_ends_step=True,
                        weights=(("mobilize", 0.5), ("end-phase", 1.5), ("activate", 4), ("disband", 0.02)),
                        prefer=_eurofront_prefer),
    # War in Europe: a file's end ends the phase; rail is offered unit by unit, with its paths;
    # politics is rare (a random peace would stop the war)
    "wie": Places(EVEN_COLUMNS_LOW, enemies=_wie_enemies, listed_paths=True, file_sizes=(2, 4, 6, 8),
                  weights=(("rail", 0.3), ("propose-peace", 0.1), ("associate", 0.1), ("declare-war", 0.2),
                           ("break-association", 0.1), ("air", 6), ("advance", 6), ("interdict", 2),
                           ("sail", 1), ("land", 1), ("drop", 1), ("ap", 4), ("deploy", 6), ("siberia", 4),
                           ("winter-war", 2))),
}


def trial(d: game.Derived, seat: str, text: str, rng: Callable[[int], bytes]) -> tuple[Any, Any]:
    """The file ``text`` applied as ``pbem play`` would (author mode, this file's dice), nothing kept.

    Returns (public, private) after it; raises the rules' or the engine's ``PbemError`` when refused.
    """
    rules = d.rules
    orders = rules.parse_orders(text, seat, d.public, d.private)
    ctx = EngineContext(d.params, clone(d.est), seat, d.seq + 1, author_mode=True, tree=d.tree(),
                        secrets=clone(d.secrets), rng=rng)
    out = rules.apply(clone(d.public), {seat: clone(d.private)}, seat, orders, ctx)
    ctx.finish()
    return out.public, out.private.get(seat, d.private)


class Bot:
    """One seat's random player. ``rnd`` decides everything, so a seed replays the game."""

    def __init__(self, rules_name: str, rnd: random.Random) -> None:
        self.rnd = rnd
        self.places = PLACES.get(rules_name, Places())

    # --- arguments -------------------------------------------------------------------
    def _value(self, arg: Arg, public: Any, seat: str, unit_hex: str | None) -> list[str] | None:
        rnd = self.rnd
        n = rnd.choice([1, 1, 2, 2, 3]) if arg.repeat else 1
        if arg.kind in ("hex", "loc") and unit_hex is not None and (arg.repeat or arg.choices is None):
            foes = self.places.enemies(public, seat) if self.places.enemies is not None else []
            path = self.places.near(unit_hex, rnd, n, foes)
            if arg.choices is not None:
                path = [h for h in path if h in arg.choices][:n] or [rnd.choice(arg.choices)]
            if path and (arg.choices is not None or rnd.random() < 0.8):
                return path
        if arg.choices:
            return [rnd.choice(arg.choices) for _ in range(n)]
        if arg.choices is not None:
            return None  # an empty list: nothing fits
        if arg.kind in ("hex", "loc") and self.places.friendly is not None:
            spots = self.places.friendly(public, seat)
            if spots:
                return [rnd.choice(spots)]
        if arg.kind == "number":
            return [str(rnd.randint(1, 6))]
        if arg.kind in ("hex", "loc"):
            units = [u.get("hex") for u in public.get(self.places.pieces, {}).values() if isinstance(u, dict)]
            hexes = [h for h in units if isinstance(h, str)]
            if hexes:
                return self.places.near(rnd.choice(hexes), rnd, 1) or [rnd.choice(hexes)]
        return None

    def _listed_path(self, paths: tuple[tuple[str, ...], ...], public: Any, seat: str) -> list[str]:
        """One of the rules' own paths: most often the one ending nearest an enemy, so that units meet."""
        foes = self.places.enemies(public, seat) if self.places.enemies is not None else []
        grid = self.places.grid
        if foes and grid is not None and self.rnd.random() < 0.6:
            goals = [parse_hex(h) for h in foes]

            def closeness(p: tuple[str, ...]) -> tuple[int, float]:
                return min(grid.distance(parse_hex(p[-1]), g) for g in goals), self.rnd.random()

            return list(min((closeness(p), p) for p in paths)[1])
        return list(self.rnd.choice(paths))

    def fill(self, a: Action, public: Any, seat: str) -> str | None:
        """The action's text with random values, or None when a required argument has none."""
        words = [a.verb]
        unit_hex: str | None = None
        for arg in a.args:
            if arg.optional and self.rnd.random() < (0.7 if arg.choices else 0.9):
                continue
            if arg.repeat and a.paths and self.places.listed_paths:
                vals: list[str] | None = self._listed_path(a.paths, public, seat)
            else:
                vals = self._value(arg, public, seat, unit_hex)
            if vals is None:
                if arg.optional:
                    continue
                return None
            if arg.kind == "unit":
                u = public.get(self.places.pieces, {}).get(vals[0]) if isinstance(public, dict) else None
                if isinstance(u, dict) and isinstance(u.get("hex"), str):
                    unit_hex = u["hex"]
            words += ([arg.keyword] if arg.keyword else []) + vals
        return " ".join(words)

    def pick(self, acts: list[Action], private: Any = None) -> Action:
        own = dict(self.places.weights)
        weights = [own.get(a.verb, WEIGHTS.get(a.verb, 1.0)) for a in acts]
        if self.places.prefer is not None:
            weights = [w * self.places.prefer(a, private) for w, a in zip(weights, acts, strict=True)]
        return self.rnd.choices(acts, weights)[0]

    # --- a file ----------------------------------------------------------------------
    def write(self, d: game.Derived, seat: str, rng: Callable[[int], bytes], stats: Stats) -> str:
        """The text of this seat's next file. Raises ``DeadEnd`` when nothing listed is accepted."""
        rules = d.rules
        public, private = d.public, d.private
        lines: list[str] = []
        want = self.rnd.choice(self.places.file_sizes)
        refused = 0
        given: set[tuple[str, ...]] = set()  # (verb, piece) of each order so far (file_ends_step)
        start = rules.pending(public)
        while len(lines) < want and refused < MAX_REFUSALS:
            pend = rules.pending(public)
            # A file whose orders moved the game to another step ends: what the rules list there
            # may belong to a step this file's next order would not reach (Skirmish: one file, one step).
            if pend is None or pend.seat != seat or (lines and start is not None and pend.phase != start.phase):
                break
            acts = rules.legal_actions(public, private, seat)
            if not acts:
                if not lines:
                    raise DeadEnd(f"{seat} must act ({pend.phase}) but no action is listed")
                break
            a = self.pick(acts, private)
            line = self.fill(a, public, seat)
            if line is None:
                refused += 1
                stats.refused[f"{a.verb} (unfillable)"] += 1
                continue
            if self.places.file_ends_step and tuple(line.split()[:2]) in given:
                refused += 1
                continue
            try:
                after = trial(d, seat, "\n".join([*lines, line]) + "\n", rng)
            except PbemError as e:
                refused += 1
                stats.refuse(a.verb, e)
                continue
            if self.places.file_ends_step:
                given.add(tuple(line.split()[:2]))
            else:
                public, private = after
            lines.append(line)
            stats.orders[a.verb] += 1
            if a.verb in END_VERBS:
                break
        if not lines:
            lines = self._fallback(d, seat, rng, stats)
        return "\n".join(lines) + "\n"

    def _fallback(self, d: game.Derived, seat: str, rng: Callable[[int], bytes], stats: Stats) -> list[str]:
        """Every listed action in turn (end verbs first) until one is accepted: none is a dead end."""
        acts = d.rules.legal_actions(d.public, d.private, seat)
        acts.sort(key=lambda a: a.verb not in END_VERBS)
        for a in acts:
            for _ in range(3):
                line = self.fill(a, d.public, seat)
                if line is None:
                    continue
                try:
                    trial(d, seat, line + "\n", rng)
                except PbemError as e:
                    stats.refuse(a.verb, e)
                    continue
                stats.orders[a.verb] += 1
                return [line]
        for a in acts:
            # A file may need several orders at once (EuroFront 7.15: every new battle declared
            # before the file ends): the action once with each listed value.
            if len(a.args) == 1 and a.args[0].choices and len(a.args[0].choices) > 1 and not a.args[0].repeat:
                lines = [f"{a.verb} {v}" for v in a.args[0].choices]
                try:
                    trial(d, seat, "\n".join(lines) + "\n", rng)
                except PbemError as e:
                    stats.refuse(a.verb, e)
                    continue
                stats.orders[a.verb] += len(lines)
                return lines
        raise DeadEnd(f"{seat} must act but none of {len(acts)} listed actions is accepted: "
                      + ", ".join(sorted({a.verb for a in acts})))


class DeadEnd(Exception):
    """A seat must act and no listed action is accepted (an invariant the soak checks)."""
