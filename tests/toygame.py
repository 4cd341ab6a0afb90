"""A tiny two-seat game that exists only to exercise the rules interface.

"Duel": seats red and blue take turns; each turn's orders may roll a public
die, seal a hidden bid (a commitment), open it, make a secret roll and later
reveal it. First to the target score wins. It is not a product: it is never
registered outside the tests and never appears in the CLI's help.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.errors import IllegalOrder, InvalidOrder
from pbem.formats.hashing import lhash
from pbem.rulesapi import Action, Arg, Context, Outcome, Pending, RulesModule, Scenario

VERBS = {"roll", "seal", "open", "secret", "reveal", "pass", "declare", "again", "reserve-other"}


class Duel(RulesModule):
    name = "duel"
    version = "1"
    title = "Duel (test game)"

    def rules_hash(self) -> bytes:
        return lhash("toy/rules", self.name, self.version)

    def scenarios(self) -> list[str]:
        return ["standard", "short", "endless"]

    def load_scenario(self, name: str) -> Scenario:
        if name not in self.scenarios():
            raise InvalidOrder(f"no scenario {name}")
        target = {"standard": 30, "short": 8, "endless": 10**9}[name]
        return Scenario("duel", name, f"Duel to {target}", lhash("toy/scenario", name),
                        ("blue", "red"), {"target": target})

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        public = {"turn": 1, "to_move": "red", "target": scenario.data["target"],
                  "scores": {"red": 0, "blue": 0}, "sealed": {"red": None, "blue": None},
                  "secret": {"red": None, "blue": None}}
        private = {s: {"bid": None, "secret": None} for s in ("red", "blue")}
        return public, private

    def pending(self, public: Any) -> Pending | None:
        if self.result(public):
            return None
        seat = public["to_move"]
        return Pending(seat, f"turn {public['turn']} {seat}", "roll, seal, open, secret, reveal or pass",
                       turn=public["turn"])

    def result(self, public: Any) -> str | None:
        for s, v in public["scores"].items():
            if v >= public["target"]:
                return f"{s} wins with {v}"
        return None

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        out: list[list[Any]] = []
        for no, line in enumerate(text.splitlines(), start=1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] not in VERBS:
                raise InvalidOrder(f"unknown order {words[0]!r}", line=no, column=1)
            if words[0] == "seal":
                if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= 3:
                    raise InvalidOrder("seal takes a bid of 1 to 3", line=no, column=6)
                out.append(["seal", int(words[1])])
            else:
                out.append([words[0]])
        return out

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        if self.result(public) or public["to_move"] != seat:
            return []
        out = [Action("roll", (), "Duel 1", "roll a die and score it"),
               Action("pass", (), "Duel 1", "do nothing"),
               Action("declare", (), "Duel 5", "fix a roll for your next file (strict dice)"),
               Action("again", (), "Duel 1", "move again after this file"),
               Action("reserve-other", (), "Duel 5", "fix a roll your opponent makes next")]
        if public["sealed"][seat] is None:
            out.append(Action("seal", (Arg("bid", "number", ("1", "2", "3")),), "Duel 2", "seal a hidden bid"))
        else:
            out.append(Action("open", (), "Duel 3", "open your sealed bid and score it"))
        if public["secret"][seat] is None:
            out.append(Action("secret", (), "Duel 4", "make a secret roll"))
        else:
            out.append(Action("reveal", (), "Duel 4", "reveal your secret roll and score it"))
        return out

    def public_orders(self, orders: Any) -> Any:
        # The bid itself is the secret: the public projection shows only that a bid was sealed.
        return [["seal"] if o[0] == "seal" else o for o in orders]

    def private_orders(self, orders: Any) -> Any:
        return orders

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        return private if private is not None else public

    def describe_event(self, event: dict[str, Any]) -> str:
        return describe_toy_event(event)

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any,
              ctx: Context) -> Outcome:
        pub = copy.deepcopy(public)
        priv = copy.deepcopy(private.get(seat)) if private.get(seat) is not None else None
        for o in orders:
            verb = o[0]
            if verb == "roll":
                (v,) = ctx.roll(6, f"{seat} scores")
                pub["scores"][seat] += v
                ctx.event("roll", seat=seat, value=v)
            elif verb == "declare":
                # strict dice: the next turn's roll is fixed now, computed later
                ctx.reserve_rolls(1)
                ctx.event("declared", seat=seat)
            elif verb == "reserve-other":
                # strict dice: a roll the *other* seat makes in its next file
                ctx.reserve_rolls(1, "blue" if seat == "red" else "red")
            elif verb == "seal":
                if pub["sealed"][seat] is not None:
                    raise IllegalOrder("you already have a sealed bid", rule="Duel 2")
                value = o[1] if len(o) > 1 else None
                pub["sealed"][seat] = ctx.commit("bid", value, "bid")
                if priv is not None:
                    priv["bid"] = value
                ctx.event("sealed", seat=seat)
            elif verb == "open":
                ref = pub["sealed"][seat]
                if ref is None:
                    raise IllegalOrder("you have no sealed bid to open", rule="Duel 3")
                v = ctx.open(ref)
                pub["scores"][seat] += v
                pub["sealed"][seat] = None
                if priv is not None:
                    priv["bid"] = None
                ctx.event("opened", seat=seat, value=v)
            elif verb == "secret":
                if pub["secret"][seat] is not None:
                    raise IllegalOrder("one secret roll at a time", rule="Duel 4")
                r = ctx.secret_roll(6, f"{seat} secret")
                pub["secret"][seat] = r.ref
                if priv is not None:
                    priv["secret"] = r.values
                    ctx.private_event("secret", values=r.values)
                ctx.event("secret-roll", seat=seat)
            elif verb == "reveal":
                ref = pub["secret"][seat]
                if ref is None:
                    raise IllegalOrder("no secret roll to reveal", rule="Duel 4")
                (v,) = ctx.reveal_roll(ref)
                pub["scores"][seat] += v
                pub["secret"][seat] = None
                if priv is not None:
                    priv["secret"] = None
                ctx.event("revealed", seat=seat, value=v)
        if not any(o[0] == "again" for o in orders):
            pub["to_move"] = "blue" if seat == "red" else "red"
        if seat == "blue":
            pub["turn"] += 1
        return Outcome(pub, {seat: priv} if priv is not None else {})


def describe_toy_event(e: dict[str, Any]) -> str:
    """The toy game's events as sentences: never a key=value dump."""
    who, v = str(e.get("seat", "?")).title(), e.get("value")
    say = {
        "roll": f"{who} rolled {v}",
        "declared": f"{who} declared its next roll",
        "sealed": f"{who} sealed a bid",
        "opened": f"{who} opened its bid: {v}",
        "secret-roll": f"{who} rolled in secret",
        "secret": "your secret roll: " + ", ".join(str(x) for x in e.get("values") or []),
        "revealed": f"{who} revealed its secret roll: {v}",
    }
    return say.get(str(e.get("kind")), f"{who}: {e.get('kind')}")


DUEL = Duel()
