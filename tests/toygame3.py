"""A tiny three-seat game that exists only to exercise the protocol among three.

"Trio": seats a, b and c move in turn (a, b, c, then the next round). Each
file's orders may reserve rolls for a later file of the same seat (``declare
N``: strict dice), roll a public die, seal a hidden bid and later open it, make
a secret roll and later reveal it, take a second move in a row (``again``,
which makes the engine ask the other two seats for dice-release files first),
or tell one other seat a number no one else learns (``tell b 7``: the pattern
for an effect on another seat's hidden units, pbem.rulesapi: the recipient's
tool records it in its private state; the public state only counts tells).
The score target or a round limit ends the game. Like toygame's Duel, it is
registered only by the tests.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.errors import IllegalOrder, InvalidOrder
from pbem.formats.hashing import lhash
from pbem.rulesapi import Action, Arg, Context, Outcome, Pending, RulesModule, Scenario

SEATS = ("a", "b", "c")
VERBS = {"roll", "seal", "open", "secret", "reveal", "pass", "declare", "again", "tell"}
# name: (score target, round limit or 0 for none)
SCENARIOS = {"standard": (30, 0), "short": (8, 0), "endless": (10**9, 0), "four-rounds": (10**9, 4),
             "shared": (10**9, 3)}
# "shared": one player may hold two of the three seats (docs/protocol.md §6a), and seat a plays two sides.
SHARED = {"sides": {"a": ("north", "west")}, "seats_per_player": 2}


def _next_seat(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % len(SEATS)]


class Trio(RulesModule):
    name = "trio"
    version = "1"
    title = "Trio (three-seat test game)"

    def rules_hash(self) -> bytes:
        return lhash("toy3/rules", self.name, self.version)

    def scenarios(self) -> list[str]:
        return list(SCENARIOS)

    def load_scenario(self, name: str) -> Scenario:
        if name not in SCENARIOS:
            raise InvalidOrder(f"no scenario {name}")
        target, rounds = SCENARIOS[name]
        extra: dict[str, Any] = SHARED if name == "shared" else {}
        return Scenario("trio", name, f"Trio to {target}", lhash("toy3/scenario", name),
                        SEATS, {"target": target, "rounds": rounds}, **extra)

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        public = {"turn": 1, "to_move": "a", "target": scenario.data["target"],
                  "rounds": scenario.data["rounds"], "scores": {s: 0 for s in SEATS},
                  "sealed": {s: None for s in SEATS}, "secret": {s: None for s in SEATS}}
        private = {s: {"bid": None, "secret": None} for s in SEATS}
        return public, private

    def describe_event(self, event: dict[str, Any]) -> str:
        return describe_trio_event(event)

    def pending(self, public: Any) -> Pending | None:
        if self.result(public):
            return None
        seat = public["to_move"]
        return Pending(seat, f"turn {public['turn']} {seat}",
                       "declare N, roll, seal N, open, secret, reveal, again or pass", turn=public["turn"])

    def result(self, public: Any) -> str | None:
        for s, v in sorted(public["scores"].items()):
            if v >= public["target"]:
                return f"{s} wins with {v}"
        if public["rounds"] and public["turn"] > public["rounds"]:
            return f"over after {public['rounds']} rounds"
        return None

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        out: list[list[Any]] = []
        for no, line in enumerate(text.splitlines(), start=1):
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] not in VERBS:
                raise InvalidOrder(f"unknown order {words[0]!r}", line=no, column=1)
            if words[0] in ("seal", "declare"):
                lo, hi = (1, 3) if words[0] == "seal" else (1, 6)
                if len(words) != 2 or not words[1].isdigit() or not lo <= int(words[1]) <= hi:
                    raise InvalidOrder(f"{words[0]} takes a number from {lo} to {hi}", line=no,
                                       column=len(words[0]) + 2)
                out.append([words[0], int(words[1])])
            elif words[0] == "tell":
                if len(words) != 3 or words[1] not in SEATS or words[1] == seat or not words[2].isdigit():
                    raise InvalidOrder("tell takes another seat and a number: tell b 7", line=no, column=6)
                out.append(["tell", words[1], int(words[2])])
            else:
                out.append([words[0]])
        return out

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        if self.result(public) or public["to_move"] != seat:
            return []
        out = [Action("declare", (Arg("rolls", "number", tuple(str(n) for n in range(1, 7))),), "Trio 5",
                      "fix rolls for a later file (strict dice)"),
               Action("roll", (), "Trio 1", "roll a die and score it"),
               Action("again", (), "Trio 1", "move again after this file"),
               Action("pass", (), "Trio 1", "do nothing"),
               Action("tell", (Arg("seat", "word", tuple(s for s in SEATS if s != seat)),
                               Arg("number", "number", tuple(str(n) for n in range(1, 10)))), "Trio 6",
                      "tell another seat a number only it learns")]
        if public["sealed"][seat] is None:
            out.append(Action("seal", (Arg("bid", "number", ("1", "2", "3")),), "Trio 2", "seal a hidden bid"))
        else:
            out.append(Action("open", (), "Trio 3", "open your sealed bid and score it"))
        if public["secret"][seat] is None:
            out.append(Action("secret", (), "Trio 4", "make a secret roll"))
        else:
            out.append(Action("reveal", (), "Trio 4", "reveal your secret roll and score it"))
        return out

    def public_orders(self, orders: Any) -> Any:
        # The bid and the told number are the secrets: the public projection shows only that
        # a bid was sealed, or that a number was told, and to whom.
        return [["seal"] if o[0] == "seal" else o[:2] if o[0] == "tell" else o for o in orders]

    def private_orders(self, orders: Any) -> Any:
        return orders

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        return private if private is not None else public

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any,
              ctx: Context) -> Outcome:
        pub = copy.deepcopy(public)
        # The author's private state (author mode), or the state of the seat this tool holds (replay).
        privs = copy.deepcopy(private)
        priv = privs.get(seat)
        for o in orders:
            if o[0] == "tell":
                _tell(pub, privs, seat, o, ctx)
            else:
                _ORDERS[o[0]](pub, priv, seat, o, ctx)
        if not any(o[0] == "again" for o in orders):
            pub["to_move"] = _next_seat(seat)
            if seat == SEATS[-1]:
                pub["turn"] += 1
        return Outcome(pub, {s: v for s, v in privs.items() if v is not None})


# One function per verb; each gets (public, own private state or None in replay, seat, order, ctx).

def _declare(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    # Strict dice: the rolls are fixed now and computable only after both others' next files.
    ctx.reserve_rolls(int(o[1]))
    ctx.event("declared", seat=seat, rolls=int(o[1]))


def _roll(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    (v,) = ctx.roll(6, f"{seat} scores")
    pub["scores"][seat] += v
    ctx.event("roll", seat=seat, value=v)


def _seal(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    if pub["sealed"][seat] is not None:
        raise IllegalOrder("you already have a sealed bid", rule="Trio 2")
    value = o[1] if len(o) > 1 else None
    pub["sealed"][seat] = ctx.commit("bid", value, "bid")
    if priv is not None:
        priv["bid"] = value
    ctx.event("sealed", seat=seat)


def _open(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    ref = pub["sealed"][seat]
    if ref is None:
        raise IllegalOrder("you have no sealed bid to open", rule="Trio 3")
    v = ctx.open(ref)
    pub["scores"][seat] += v
    pub["sealed"][seat] = None
    if priv is not None:
        priv["bid"] = None
    ctx.event("opened", seat=seat, value=v)


def _secret(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    if pub["secret"][seat] is not None:
        raise IllegalOrder("one secret roll at a time", rule="Trio 4")
    r = ctx.secret_roll(6, f"{seat} secret")
    pub["secret"][seat] = r.ref
    if priv is not None:
        priv["secret"] = r.values
        ctx.private_event("secret", values=r.values)
    ctx.event("secret-roll", seat=seat)


def _reveal(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    ref = pub["secret"][seat]
    if ref is None:
        raise IllegalOrder("no secret roll to reveal", rule="Trio 4")
    (v,) = ctx.reveal_roll(ref)
    pub["scores"][seat] += v
    pub["secret"][seat] = None
    if priv is not None:
        priv["secret"] = None
    ctx.event("revealed", seat=seat, value=v)


def _tell(pub: Any, privs: dict[str, Any], seat: str, o: list[Any], ctx: Context) -> None:
    to = o[1]
    if to == seat or to not in SEATS:
        raise IllegalOrder("tell another seat", rule="Trio 6")
    # Replay mode has only ["tell", to]: the value handed over is then ignored.
    ctx.tell(to, "number", o[2] if len(o) > 2 else None)
    mine = privs.get(to)  # only in the tool holding the seat told
    if mine is not None and ctx.told:
        mine.setdefault("told", []).append(ctx.told[-1][1])
    # Public: that a number was told, and to whom; never the number.
    pub.setdefault("tells", 0)
    pub["tells"] += 1
    ctx.event("told", seat=seat, to=to)


def _nothing(pub: Any, priv: Any, seat: str, o: list[Any], ctx: Context) -> None:
    return None


_ORDERS = {"declare": _declare, "roll": _roll, "seal": _seal, "open": _open, "secret": _secret,
           "reveal": _reveal, "pass": _nothing, "again": _nothing}

def describe_trio_event(e: dict[str, Any]) -> str:
    """Trio's events as sentences: never a key=value dump."""
    who, v = str(e.get("seat", "?")).title(), e.get("value")
    to = e.get("to")
    say = {
        "roll": f"{who} rolled {v}",
        "declared": f"{who} declares {e.get('rolls') or 'its'} roll(s) for its next file",
        "sealed": f"{who} sealed a bid",
        "opened": f"{who} opened its bid: {v}",
        "secret-roll": f"{who} rolled in secret",
        "secret": "your secret roll: " + ", ".join(str(x) for x in e.get("values") or []),
        "revealed": f"{who} revealed its secret roll: {v}",
        "told": f"{who} tells " + (", ".join(str(x).title() for x in to) if isinstance(to, list)
                                   else str(to).title()),
    }
    return say.get(str(e.get("kind")), f"{who}: {e.get('kind')}")


TRIO = Trio()
