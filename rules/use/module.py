"""``UseRules``: the USE rules module as the engine sees it (pbem.rulesapi.RulesModule)."""

from __future__ import annotations

import functools
from typing import Any

from pbem.errors import InvalidInput, OrderError, OrderErrors
from pbem.kit.cases import ScriptedContext  # dry: dice cycle, earlier openings unknown
from pbem.kit.orders import rollback
from pbem.kit.sequence import phase_name
from pbem.rulesapi import Action, Outcome, Pending, RulesModule, Scenario

from . import actions, activation, geo, landgate, orders, partners, seating, sequence, strictdice, verbs
from .refusals import illegal
from .state import State, clone
from .verbs import TABLE, Turn

Order = dict[str, Any]
Events = list[dict[str, Any]]
# 0.10: 7.2's automatic Full Supply only in the Map Boxes in play (not the Turn Track,
# Conditional, Upgrade or Removed boxes); the games of 0.9 (pbem 0.1.0) replay unchanged
# (rules/use/releases.toml). 0.9: 5.1 step 2 as written, sealed air an option.
# 0.11 (pbem 0.3.0): the rules France 1940 never reaches made whole (issue 17: Occupied USSR,
# four players, the rulebook audits' fixes); the games of 0.9 and 0.10 replay unchanged.
VERSION = "0.11"
NO_AIR_COMMIT_DRM = ("0.9", "0.10")  # releases whose games play air combat without Will Commit's +1
# 0.8: 7.3 each Limited Source feeds two units; 8.3 USSR infantry full; 13.2 Map Boxes
# 0.7: strict dice (strictdice.py): combats and due orders resolve in a later file
# 0.6: Straits (4.2.4, 6.4.3; the Strait of Dover)
# 0.5: Strategic Warfare (9.2, authored table), Pact/Appeasement end-outside-home
# 0.4: naval interception/escort/transport, escorted air strikes, conquest effects, Vichy
# 0.3: collapse fights on, West Invaded effects, land Map Boxes, arrivals, naval moves
# 0.2: Home Defense, sea supply lines, interception, Bombing Run, 7.5.2


@functools.cache
def _code_digest() -> bytes:
    """Hash over this package's code and tables, the kit and the rule-relevant engine modules.

    Tables alone are not enough: a changed rule in code (a different retreat
    choice, a fixed bug) changes what a file means, so every player's pbem must
    run identical rules (pbem.kit.digest says what is covered, and why). Any
    edit, even a comment, changes the hash; releases are the unit of
    compatibility.
    """
    from pathlib import Path

    from pbem.kit.digest import rules_digest

    return rules_digest("use", VERSION, Path(__file__).resolve().parent)


class UseRules(RulesModule):
    name = "use"
    version = VERSION
    title = "Unconditional Surrender! World War 2 in Europe"
    dice_modes = ("strict", "window")  # strict: strictdice.py

    # --- tables and scenarios ------------------------------------------------
    def rules_hash(self) -> bytes:
        return _code_digest()

    def scenarios(self) -> list[str]:
        from . import scenario as scen

        return list(scen.list_scenarios()) + sorted(seating.variants())

    def load_scenario(self, name: str) -> Scenario:
        from . import scenario as scen

        base, sides = seating.resolve(name)  # a seating variant: one seat, several factions (§6a)
        sc = scen.load_scenario(base)
        seats = tuple(f.lower() for f, spec in sorted(sc.factions.items(), key=lambda kv: kv[1].order)
                      if spec.played)
        if sides:
            held = seating.seats_for(seats, sides)
            return Scenario(rules=self.name, name=name, title=f"{sc.title} ({len(held)} players)", digest=sc.hash,
                            seats=held, data=sc, sides=seating.whole(sides))
        return Scenario(rules=self.name, name=sc.name, title=sc.title, digest=sc.hash, seats=seats, data=sc)

    def warm(self) -> None:
        # The board (adjacency, supply sources) is what every apply asks for first.
        from . import geo
        from .initial import state_from_scenario

        for name in self.scenarios():
            geo.board(state_from_scenario(self.load_scenario(name).data))

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        from .initial import state_from_scenario

        public = state_from_scenario(scenario.data)
        # Game options of the proposal, accepted by every player at join (`pbem game join`).
        mode = options.get(actions.AIR_OPTION, actions.AIR_MODES[0])
        if mode not in actions.AIR_MODES:
            raise InvalidInput(f"game option {actions.AIR_OPTION}={mode!r} is not one of "
                               f"{', '.join(actions.AIR_MODES)}",
                               hint=f"USE 5.1 step 2: --option {actions.AIR_OPTION}=as-written (the default) "
                                    "or =sealed (the air unit sealed with the Will choice: fewer emails)")
        if mode == "sealed":
            public["will_commit_air"] = mode  # absent: as written, so older states read the same
        if scenario.sides:  # absent when every faction is a seat, so other states read the same
            public["seats"] = {s: list(f) for s, f in scenario.sides.items()}
        partners.install(public, seating.partners(seating.resolve(scenario.name)[1]))
        return public, {s: None for s in seats}

    def started_by(self, public: Any, version: str) -> Any:
        """Games of these rules' releases 0.11 and later have Will Commit's authored +1 in air
        combat too (``air_commit_drm``, combat.resolve_air_strike); those of 0.9 and 0.10 (pbem
        0.1.0, 0.2.0) keep it out, as they were played (their states unchanged)."""
        if version in NO_AIR_COMMIT_DRM:
            return public
        return {**public, "air_commit_drm": True}

    def initial_reservations(self, public: Any) -> dict[str, int]:
        """Strict dice: the Axis's first file rolls the Weather (11.0), reserved at genesis."""
        if public.get("over") or public.get("phase") != "weather":
            return {}
        return {seating.seat_of(public, "axis"): sequence.turn_start_dice(public)}

    # --- flow ----------------------------------------------------------------
    def pending(self, public: Any) -> Pending | None:
        p = sequence.pending(public)
        if p is None:
            return None
        _, kind, wanted = p
        options: tuple[str, ...] = ("yes", "no") if kind == "will-commit" else ()
        return Pending(seat=partners.seat_for(public, p), phase=sequence.phase_label(public), wanted=wanted,
                       kind=kind, options=options, turn=int(public["turn"]))

    def result(self, public: Any) -> str | None:
        r: str | None = public.get("over")
        return r

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        return {"orders": verbs.parse(text, public)}

    def public_orders(self, parsed: Any) -> Any:
        return {"orders": orders.public_projection(parsed["orders"])}

    def private_orders(self, parsed: Any) -> Any:
        return {"orders": [dict(o) for o in parsed["orders"]]}

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        from .wire import check

        # Another seat's tool wrote these: their shape is checked before the rules read them.
        return check(private if private is not None else public)

    def apply(self, public: Any, private: dict[str, Any], seat: str, parsed: Any, ctx: Any) -> Outcome:
        s = clone(public)
        events: Events = []
        run_file(s, seating.acting(public, seat), parsed["orders"], ctx, events, None, by=seat)
        for e in events:
            kind = e.pop("kind")
            ctx.event(kind, **e)
        return Outcome(public=s)

    def check_orders(self, text: str, seat: str, public: Any, private: Any,
                     ctx: Any | None = None) -> list[OrderError]:
        try:
            parsed = verbs.parse(text, public)
        except OrderErrors as e:
            return list(e.errors)
        except OrderError as e:
            return [e]
        errors: list[OrderError] = []
        s = clone(public)
        try:
            run_file(s, seating.acting(public, seat), parsed, ctx if ctx is not None else ScriptedContext(seat, seq=0),
                     [], errors, by=seat)
        except OrderError as e:
            errors.append(e)
        return errors

    def order_template(self, public: Any, private: Any, seat: str) -> str:
        from .template import template

        return template(public, seating.acting(public, seat), seat)

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        if partners.split(public) and (p := sequence.pending(public)) and partners.seat_for(public, p) != seat:
            return []  # the other part of a split faction's step (partners.py)
        faction = seating.acting(public, seat)
        return partners.offers(public, seat, faction, verbs.legal_actions(public, faction))

    def summary_view(self, public: Any, private: Any | None, seat: str | None) -> dict[str, Any]:
        from .view import summary_view

        return summary_view(public)

    def describe_event(self, event: dict[str, Any]) -> str:
        from .events import describe

        return describe(event)

    def dice_in_event(self, event: dict[str, Any], author: str, public: Any) -> list[tuple[str, int, int]]:
        """Every die rolled in a USE event as (seat, sides, value); all USE dice are d6.

        Ground combat (5.1 step 5) and air/naval combat (5.2): ``att_die`` is the attacking
        faction's, ``def_die`` the defending faction's; the Weather Phase die (11.0) is the
        Axis's; the activation die (13.1), the Airdrop city die (6.1.1) and the marker-return
        dice (6.1) belong to the faction that rolled them."""
        kind = event.get("kind")
        if kind in ("combat", "air-combat", "strategic-combat"):
            att_unit = event.get("attackers") if kind == "combat" else event.get("attacker")
            out = []
            for die_key, seat in (("att_die", event.get("att_side") or _unit_faction(public, att_unit)),
                                  ("def_die", event.get("def_side") or _unit_faction(public, event.get("defender")))):
                die = event.get(die_key)
                if isinstance(die, int) and not isinstance(die, bool):
                    out.append((partners.dice_seat(public, str(seat or author), author), 6, die))
            return out
        die = event.get("die")
        if not isinstance(die, int) or isinstance(die, bool):
            return []
        if kind == "weather":
            return [(seating.seat_of(public, "axis"), 6, die)]
        seat = event.get("faction") or event.get("by") or author
        return [(partners.dice_seat(public, str(seat), author), 6, die)]

    def demo_script(self, scenario: str) -> str | None:
        from .scenario import scenario_dir

        base, sides = seating.resolve(scenario)  # a seating variant plays demo/<variant>.txt
        path = scenario_dir(base) / "demo" / (f"{scenario}.txt" if sides else "orders.txt")
        return path.read_text(encoding="utf-8") if path.is_file() else None

    # --- rules cases ---------------------------------------------------------
    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        from .cases import prestate

        return prestate(lines)

    def case_check(self, public: Any, private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
        from .cases import check

        return check(public, lines)


def _unit_faction(public: Any, ref: Any) -> str | None:
    """The faction owning a unit named in an event (a list names the primary unit first)."""
    if isinstance(ref, list):
        ref = ref[0] if ref else None
    if not isinstance(ref, str) or not isinstance(public, dict):
        return None
    unit = public.get("units", {}).get(ref)
    if unit is None:
        return None
    f: str | None = public.get("countries", {}).get(unit["country"], {}).get("faction")
    return f


# --- applying a file ----------------------------------------------------------------


def run_file(s: State, seat: str, parsed: list[Order], ctx: Any, events: Events,
             errors: list[OrderError] | None, by: str | None = None) -> None:
    """Apply one file's orders to ``s`` (a private copy). ``errors``: collect instead of raising.
    ``seat``: the faction the file acts for; ``by``: the seat that sent it (partners.py)."""
    b = geo.board(s)
    if s["over"]:
        illegal(None, f"the game is over: {s['over']}", "12.1")
    p = sequence.pending(s)
    if p is None or p[0] != seat:
        who = p[0] if p else "nobody"
        illegal(None, f"it is {who}'s turn to act, not {seat}'s", "1.2",
                "run 'pbem status' to see whose move it is")
    partners.check_seat(s, by, sequence.pending)
    # Steps that need this seat's dice or openings but no choice come first, so that no roll
    # is known while a choice is open (strict dice burns what a file leaves unrolled): orders
    # that waited for their dice, the turn's first rolls (11.0) and the resolution of combats
    # whose Will Commit answers are in (5.1).
    while s.get("due") and s["due"][0]["roller"] == seat:
        d = s["due"].pop(0)
        if not s["due"]:
            del s["due"]
        run_order(s, geo.board(s), seat, d["order"], strictdice.Resuming(ctx), events, False)
        b = geo.board(s)
    if s["phase"] == "weather" and seat == "axis" and not s["combats"] and not s.get("due"):
        sequence.roll_turn_start(s, b, ctx, events)
        sequence.advance(s, b, events, ctx)
    actions.resolve_ready(s, b, seat, ctx, events)
    resolving = False
    for o in parsed:
        b = geo.board(s)  # an order may cede an area or create a country (13.2.2, 16.0)
        if errors is None:
            resolving = run_order(s, b, seat, o, ctx, events, resolving, by)
            continue
        try:
            # Checking a file: a refused order leaves no trace and the next one is checked too.
            with rollback(s, clone):
                resolving = run_order(s, b, seat, o, ctx, events, resolving, by)
        except OrderError as e:
            errors.append(e)


def run_order(s: State, b: geo.Board, seat: str, o: Order, ctx: Any, events: Events, resolving: bool,
              by: str | None = None) -> bool:
    """Apply one order; in strict dice mode an order that needs dice waits for the author's
    next file (strictdice.py)."""
    partners.check_order(s, seat, by, o, sequence.pending)
    t = Turn(s, b, seat, ctx, events, resolving)
    if not strictdice.strict(ctx):
        _run_order(t, o)
        return t.resolving
    if o["verb"] != "standing":
        _stop_for_dice(s, seat, o, resolving)
    n = len(events)
    try:
        with rollback(s, clone, strictdice.NeedDice):
            _run_order(t, o)
    except strictdice.NeedDice as nd:
        del events[n:]
        ctx.reserve_rolls(nd.count)
        s.setdefault("due", []).append({"roller": seat, "order": orders.public_projection([o])[0]})
        events.append({"kind": "dice-wait", "faction": seat, "verb": o["verb"], "dice": nd.count})
    return t.resolving


def _stop_for_dice(s: State, seat: str, o: Order, resolving: bool) -> None:
    """Strict dice: once a file has fixed an action whose dice come in a later file, it ends
    (only further Assault resolutions may join the batch)."""
    if s.get("due"):
        illegal(o, f"the file must stop here: your '{s['due'][0]['order']['verb']}' order waits for "
                "its dice (strict dice)", "1.2", "send this file; the order finishes in your next one")
    waiting = [c for c in s["combats"] if c["attacker"] == seat and c["status"] == "await-resolve"]
    if waiting and not (resolving and o["verb"] == "resolve"):
        illegal(o, f"the file must stop here: the combat at {waiting[0]['target']} resolves in your next "
                "file, once its dice are released (strict dice)", "5.1",
                "send this file; continue in your next one")


def _run_order(t: Turn, o: Order) -> None:
    """Whose turn and which step it is, then the verb's own check and effect (verbs.TABLE).
    Standing orders may be given at any time."""
    verb = o["verb"]
    if verb != "standing":
        _check_turn(t, o)
        landgate.gate(t.s, o, t.seat)  # USE 6.3.2.4: the landed invader's Assault comes first
        want = TABLE.phase(verb)
        if want and want != t.s["phase"]:
            goto_phase(t.s, t.b, t.seat, o, want, t.ctx, t.events)
    TABLE.run(t, o)


def _check_turn(t: Turn, o: Order) -> None:
    """Refuse an order the seat may not give at this point of the Sequence of Play."""
    s, seat, verb = t.s, t.seat, o["verb"]
    p = sequence.pending(s)
    if p is None:
        illegal(o, "the game is over", "12.1")
    if verb == "will-commit":
        if p[:2] != (seat, "will-commit"):
            illegal(o, "no combat waits for your Will Commit", "5.1")
        return
    if p[1] == "will-commit" and p[0] == seat:
        illegal(o, "answer the pending Will Commit first ('will-commit HEX yes|no')", "5.1")
    if p[1] == "political" and p[0] == seat and verb != "political":
        illegal(o, f"first {p[2]}", "10.2")
    if t.resolving and verb != "resolve":
        illegal(o, "after 'resolve' orders only further 'resolve' orders may follow in this file", "5.3.3",
                "the Assaults resolve when the defenders have answered; continue in your next file")
    if p[0] != seat and not (t.resolving and verb == "resolve"):
        illegal(o, f"the file must stop here: {p[0]} must act next ({p[2]})", "5.1" if s["combats"] else "1.2",
                "send this file; continue in your next one")
    if verb == "strategic-move" and seat in s["done_turn"]["sm"]:
        illegal(o, f"{seat} has already made its Strategic Move this turn", "4.1.1")


def goto_phase(s: State, b: geo.Board, seat: str, o: Order, want: str, ctx: Any, events: Events) -> None:
    """An order of a later phase ends the seat's current phase(s), as 'end-phase' would, as long
    as nobody else has to act in between. It changes the state before the order's own check:
    that check needs the phase the order belongs to; a refusal is undone by the rollback.
    A refusal names the phase the player is in, taken before the state moved on."""
    now = sequence.phase_label(s)
    for _ in range(len(sequence.steps(s)) + 1):
        if s["phase"] == want and s["active"] == seat:
            return
        p = sequence.pending(s)
        if p is None or p[0] != seat or p[1] != "orders":
            break
        if s["phase"] == "actions":
            activation.end_activation(s, events)
        part = s.get("part")
        sequence.advance(s, b, events, ctx)
        if s.get("part") != part:
            break  # the other seat of a split faction plays next (partners.py)
        p = sequence.pending(s)
        if p is None or p[0] != seat:
            break
    if not (s["phase"] == want and s["active"] == seat):
        illegal(o, f"'{o['verb']}' belongs to the {phase_name(want)}; it is now the {now}",
                "1.2", "end the file here; the order can go in a later file")
