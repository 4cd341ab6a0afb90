"""Every USE event as a sentence a player reads (summaries, ``pbem show``, histories).

One entry of ``SENTENCES`` per event kind the rules record; tests/test_messages.py
checks that every kind appended to an event list anywhere in this package has one,
so a new event cannot reach a player as a ``key=value`` dump. The sentences never
print a Python value as such: lists are joined, a missing value reads "none".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .diplowords import SENTENCES as DIPLO_SENTENCES
from .seawords import SENTENCES as SEA_SENTENCES
from .words import _side, _t

Event = dict[str, Any]


SOURCES = {"uss": "an Unlimited Supply Source", "lss": "a Limited Supply Source"}  # USE 7.3
def _signed(v: Any) -> str:
    return f"{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else _t(v)


def _roll(e: Event, who: str) -> str:
    """'die 3, DRM +1, final 4', with the DRM the final and the die imply when none is recorded."""
    die, final, drm = e.get(f"{who}_die"), e.get(f"{who}_final"), e.get(f"{who}_drm")
    if drm is None and isinstance(die, int) and isinstance(final, int):
        drm = final - die
    parts = e.get(f"{who}_parts")
    why = f" ({', '.join(f'{k} {_signed(v)}' for k, v in parts.items())})" if isinstance(parts, dict) and parts else ""
    return f"die {_t(die)}, DRM {_signed(drm)}{why}, final {_t(final)}"


def _combat(e: Event) -> str:
    g = e.get
    attackers = _t(g("attackers"))
    if not isinstance(g("att_die"), int):
        return f"Combat at {_t(g('target'))}: {_t(g('result'))} [USE 5.1]"
    commit = [f"{_side(g(f'{w}_side'))} Will Commit {_t(g(f'{w}_commit'))}" for w in ("att", "def")
              if g(f"{w}_commit") is not None]
    iso = "; defender isolated" if g("isolated") else ""
    return (f"Combat at {_t(g('target'))} ({_t(g('mode'))}): {attackers} ({_side(g('att_side'))}: {_roll(e, 'att')}) "
            f"vs {_t(g('defender'))} ({_side(g('def_side'))}: {_roll(e, 'def')}){iso}"
            f"{'; ' + ', '.join(commit) if commit else ''}: result {_t(g('result'))} [USE 5.1]")


def _winner(e: Event, att: str, dfn: str) -> str:
    w = e.get("winner")
    if w in ("att", "def"):
        return f"{att if w == 'att' else dfn} wins"
    if w is None or w == "tie":
        return "a tie"
    return f"{_side(w)} wins"


def _air_combat(e: Event) -> str:
    g = e.get
    att, dfn = _t(g("attacker")), _t(g("defender"))
    return (f"Air combat: {att} ({_roll(e, 'att')}) vs {dfn} ({_roll(e, 'def')}): "
            f"{_winner(e, att, dfn)} [USE 5.2]")


def _strategic_combat(e: Event) -> str:
    g = e.get
    att, dfn = _side(g("att_side")), _side(g("def_side"))
    return (f"Strategic Warfare against {_t(g('country'))}: {att} {_roll(e, 'att')}; {dfn} {_roll(e, 'def')}: "
            f"{_winner(e, att, dfn)}; Fac Lost {_t(g('fac_lost_from'))} → {_t(g('fac_lost_to'))} [USE 9.2]")


def _declare_war(e: Event) -> str:
    g = e.get
    if g("joins"):
        die = f" (die {_t(g('die'))})" if g("die") is not None else ""
        what = f"; {_t(g('on'))} joins the {_side(g('joins'))} faction{die}"
    elif g("ends"):
        what = f"; this ends the {_t(g('ends'))} policy"
    else:
        what = ""
    return f"{_side(g('by'))} declares war on {_t(g('on'))}{what} [USE 10.1]"


def _will_commit(e: Event) -> str:
    g = e.get
    c = g("commit")
    choice = "yes" if c else ("no" if c is not None else "sealed")
    how = " (standing order)" if g("standing") else ""
    return f"{_side(g('side'))} Will Commit for combat {_t(g('combat'))}: {choice}{how} [USE 5.1]"


def _control(e: Event) -> str:
    g = e.get
    where = f"{_t(g('city'))} ({_t(g('hex'))})" if g("city") else f"Hex {_t(g('hex'))}"
    why = f" ({_t(g('why'))})" if g("why") else ""
    return f"{where} passes from {_side(g('from'))} to {_side(g('to'))} control{why}"


def _arrival(e: Event) -> str:
    g = e.get
    to = g("to")
    if to == "mobilization":
        blocked = f" (its hex {_t(g('blocked'))} is blocked)" if g("blocked") else ""
        return f"{_t(g('unit'))} arrives in the Mobilization box{blocked}"
    if to in ("removed", "inactive"):
        return f"{_t(g('unit'))} does not arrive: its country is {'conquered' if to == 'removed' else 'inactive'}"
    return f"{_t(g('unit'))} arrives at {_t(to)}"


def _extra_factories(e: Event) -> str:
    g = e.get
    change = f"{_t(g('from'))} → {_t(g('to'))}" if g("from") is not None else f"now {_t(g('to'))}"
    why = f" ({_t(g('why'))})" if g("why") else ""
    return f"{_t(g('country'))} extra factories: {change}{why}"


def _marker_return(e: Event) -> str:
    g = e.get
    back = g("back")
    when = "removed from the game" if back == "removed" else f"back on turn {_t(back)}"
    if g("die") is None:  # Jets, Tanks: placed on the next turn (3.1, 14.7, 14.18)
        return f"{_side(g('faction'))} {_t(g('marker'))} marker: {when} [USE 3.1]"
    return f"{_side(g('faction'))} {_t(g('marker'))} marker: return die {_t(g('die'))}, {when} [USE 6.1]"


def _naval_move(e: Event) -> str:
    g = e.get
    via = f" via {_t(g('via'))}" if g("via") else ""
    esc = f", escorted by {_t(g('escorts'))}" if g("escorts") else ""
    return f"{_t(g('unit'))} sails {_t(g('from'))} → {_t(g('to'))}{via} ({_t(g('mp'))} MP){esc} [USE 4.2.4]"


def _interception(e: Event) -> str:
    g = e.get
    zone = f" in {_t(g('zone'))}" if g("zone") else ""
    what = f" ({_t(g('what'))})" if g("what") else ""
    return f"{_t(g('unit'))} intercepts {_t(g('target'))}{zone}{what}"


def _interdicted(e: Event) -> str:
    g = e.get
    zone = f" in {_t(g('zone'))}" if g("zone") else ""
    return f"{_t(g('unit'))} is interdicted by {_t(g('by'))}{zone} [USE 6.2.5]"


def _sea_supply(e: Event) -> str:
    g = e.get
    return (f"{_t(g('unit'))} traces supply by sea through port {_t(g('port'))}: {_t(g('carrier'))} "
            f"carries it across {_t(g('path'))} from {SOURCES.get(_t(g('source')), _t(g('source')))} [USE 7.4]")


def _strategic_move(e: Event) -> str:
    path = e.get("path")
    path = path if isinstance(path, list) else [path] if path else []
    n = len(path)
    end = _t(path[-1]) if path else "?"
    return f"{_t(e.get('unit'))} moves strategically to {end} ({n} hex{'' if n == 1 else 'es'}) [USE 4.1]"


def _attack(e: Event) -> str:
    g = e.get
    att = g("attackers")
    verb = "attack" if isinstance(att, list) and len(att) > 1 else "attacks"
    return (f"{_t(att)} {verb} {_t(g('defender'))} in {_t(g('target'))} ({_t(g('mode'))}); "
            "Will Commit choices sealed [USE 5.1]")


def _standing(e: Event) -> str:
    g = e.get
    return f"{_side(g('seat'))} standing order: {_t(g('what'))} {_t(g('value'))}"


def _pro_marker(e: Event) -> str:
    g = e.get
    was = f" (was pro-{_t(g('was'))})" if g("was") else ""
    return f"{_t(g('country'))} gets a pro-{_t(g('faction'))} marker{was} [USE 13.2.2]"


def _conditional_unit(e: Event) -> str:
    to = e.get("to")
    where = "is eliminated" if to == "eliminated" else f"goes to the {_t(to)} box"
    return f"Conditional unit {_t(e.get('unit'))} {where}"


SENTENCES: dict[str, Callable[[Event], str]] = {
    "weather": lambda e: (f"Weather in the {_t(e.get('zone'))} zone: {_t(e.get('weather'))} "
                          f"({_t(e.get('why')) if e.get('why') else 'die ' + _t(e.get('die'))}) [USE 11.0]"),
    "declare-war": _declare_war,
    "move": lambda e: (f"{_t(e.get('unit'))} moves {_t(e.get('from'))} → {_t(e.get('to'))} "
                       f"({_t(e.get('mp_left'))} MP left)"),
    "strategic-move": _strategic_move,
    "air-move": lambda e: f"{_t(e.get('unit'))} flies {_t(e.get('from'))} → {_t(e.get('to'))} [USE 6.2.1]",
    "naval-move": _naval_move,
    "naval-move-interdicted": lambda e: (f"{_t(e.get('unit'))} is turned back at {_t(e.get('at'))}: "
                                         f"interdicted in {_t(e.get('zone'))} [USE 6.2.5]"),
    "naval-transport": lambda e: (f"{_t(e.get('unit'))} is carried {_t(e.get('from'))} → {_t(e.get('to'))} "
                                  f"by {_t(e.get('by'))} [USE 6.4.4]"),
    "displaced": lambda e: f"{_t(e.get('unit'))} is displaced {_t(e.get('from'))} → {_t(e.get('to'))} [USE 4.2.3.7]",
    "attack": _attack,
    "assault-designated": lambda e: f"{_t(e.get('unit'))} designated to assault {_t(e.get('target'))} [USE 5.3.3]",
    "will-commit": _will_commit,
    "air-declared": lambda e: (f"{_side(e.get('side'))} declares "
                               f"{'air unit ' + _t(e.get('air')) if e.get('air') else 'no air unit'} "
                               f"for combat {_t(e.get('combat'))} at {_t(e.get('target'))} [USE 5.1]"),
    "combat": _combat,
    "combat-void": lambda e: f"The combat at {_t(e.get('target'))} does not take place: its units are gone [USE 5.1]",
    "air-combat": _air_combat,
    "escort-held": lambda e: f"Escort {_t(e.get('escort'))} holds: {_t(e.get('target'))} is not reached [USE 5.2]",
    "strategic-combat": _strategic_combat,
    "eliminated": lambda e: f"{_t(e.get('unit'))} eliminated ({_t(e.get('cause'))})",
    "reduced": lambda e: f"{_t(e.get('unit'))} reduced ({_t(e.get('cause'))})",
    "retreat": lambda e: f"{_t(e.get('unit'))} retreats {_t(e.get('from'))} → {_t(e.get('to'))} [USE 5.3.5]",
    "advance": lambda e: f"{_t(e.get('unit'))} advances {_t(e.get('from'))} → {_t(e.get('to'))} [USE 5.3.7]",
    "control": _control,
    "supply": lambda e: f"{_t(e.get('unit'))}: supply {_t(e.get('from'))} → {_t(e.get('to'))} [USE 7.2]",
    "sea-supply": _sea_supply,
    "attrition": lambda e: f"{_t(e.get('unit'))} out of supply: {_t(e.get('result'))} by attrition [USE 7.5.1]",
    "disband-ordered": lambda e: f"{_t(e.get('unit'))} is to disband at the end of the turn [USE 7.5.2]",
    "disband-void": lambda e: f"{_t(e.get('unit'))} no longer disbands: it is back in supply [USE 7.5.2]",
    "production": lambda e: f"{_t(e.get('country'))} production: {_t(e.get('pp'))} PP [USE 9.1]",
    "extra-factories": _extra_factories,
    "transfer": lambda e: f"{_t(e.get('pp'))} PP transferred from {_t(e.get('from'))} to {_t(e.get('to'))}",
    "replacement": lambda e: f"{_t(e.get('unit'))} is replaced [USE 8.1]",
    "upgrade": lambda e: f"{_t(e.get('unit'))} is upgraded to {_t(e.get('by'))} [USE 8.2]",
    "mobilize": lambda e: (f"{_t(e.get('unit'))} mobilizes at {_t(e.get('hex'))}"
                           + (f" ({_t(e['why'])})" if e.get("why") else " [USE 8.3]")),
    "will": lambda e: (f"{_t(e.get('country'))} National Will {_t(e.get('from'))} → {_t(e.get('to'))} "
                       f"({_t(e.get('why'))})"),
    "collapse": lambda e: f"{_t(e.get('country'))} collapses (collapse {_t(e.get('times'))}) [USE 13.2]",
    "conquered": lambda e: f"{_t(e.get('country'))} is conquered by the {_side(e.get('by'))} [USE 13.2.2]",
    "ceded": lambda e: f"{_t(e.get('area'))} is ceded to {_t(e.get('to'))} [USE 13.2.2]",
    "country-created": lambda e: f"{_t(e.get('country'))} is created, National Will {_t(e.get('will'))} [USE 16.0]",
    "diplomacy-cup": lambda e: f"A {_t(e.get('marker'))} marker goes into the Diplomacy cup ({_t(e.get('why'))})",
    "pro-marker": _pro_marker,
    "conditional-unit": _conditional_unit,
    "conditional-event": lambda e: f"Conditional event: {_t(e.get('name'))} (at {_t(e.get('hex'))}) [USE 13.8]",
    "activation": lambda e: (f"{_t(e.get('country'))} activates and joins the {_side(e.get('faction'))} "
                             "faction [USE 13.1]"),
    "activate": lambda e: f"{_t(e.get('unit'))} activated ({_t(e.get('pp'))} PP) [USE 6.0]",
    "activation-end": lambda e: f"{_t(e.get('unit'))}: activation ends",
    "fort": lambda e: f"{_t(e.get('unit'))} occupies the fort at {_t(e.get('hex'))} [USE 15.12]",
    "fort-placed": lambda e: f"{_t(e.get('country'))} fort placed at {_t(e.get('hex'))} [USE 13.1]",
    "fort-removed": lambda e: f"The fort at {_t(e.get('hex'))} is removed",
    "bombing-run": lambda e: f"{_t(e.get('unit'))} flies a Bombing Run against {_t(e.get('target'))}",
    "interception": _interception,
    "interdicted": _interdicted,
    "bombed": lambda e: f"{_t(e.get('city'))} ({_t(e.get('hex'))}) is bombed: a Bombed marker is placed",
    "bombed-removed": lambda e: "The Bombed markers are removed [USE 9.2]",
    "marker-placed": lambda e: f"{_t(e.get('marker'))} marker placed for {_t(e.get('country'))}",
    "airdrop": lambda e: f"{_side(e.get('faction'))} Airdrop at {_t(e.get('hex'))}",
    "airdrop-city": lambda e: (f"{_side(e.get('faction'))} Airdrop on the city at {_t(e.get('hex'))}: "
                               f"die {_t(e.get('die'))} [USE 6.1.1]"),
    "partisans": lambda e: f"{_side(e.get('faction'))} Partisans at {_t(e.get('hex'))}",
    "marker-ready": lambda e: (f"{_side(e.get('faction'))} readies its {_t(e.get('marker'))} marker "
                               "for its next combat [USE 14.0]"),
    "marker-played": lambda e: (f"{_side(e.get('faction'))} plays its {_t(e.get('marker'))} marker "
                                f"({_t(e.get('where'))}) [USE 14.0]"),
    "guards-delayed": lambda e: f"{_t(e.get('unit'))} (Guards) is delayed to turn {_t(e.get('turn'))} [USE 13.2]",
    "marker-return": _marker_return,
    "marker-back": lambda e: f"{_side(e.get('faction'))} {_t(e.get('marker'))} marker is available again [USE 6.1]",
    "repatriated": lambda e: (f"{_t(e.get('unit'))} returns home to defend {_t(e.get('country'))}: "
                              f"{_t(e.get('from'))} → {_t(e.get('to'))} [USE 10.4]"),
    "home-defense-short": lambda e: (f"{_t(e.get('country'))} is short of its Home Defense by "
                                     f"{_t(e.get('missing'))} [USE 10.3.1]"),
    "arrival": _arrival,
    "standing": _standing,
    "dice-wait": lambda e: (f"{_side(e.get('faction'))}'s '{_t(e.get('verb'))}' waits for its dice: it finishes "
                            "in its next file (strict dice)"),
    "phase": lambda e: (f"— {_side(e.get('faction'))}: {_t(e.get('phase'))} phase"
                        + (f", the {_t(e['seat'])} seat's part —" if e.get("seat") else " —")),
    "phase-skipped": lambda e: f"({_side(e.get('faction'))} {_t(e.get('phase'))} phase: nothing to do)",
    "turn": lambda e: f"=== Turn {_t(e.get('turn'))}: {_t(e.get('date'))} ===",
    "game-over": lambda e: f"Game over: {_t(e.get('result'))}",
    **SEA_SENTENCES,  # rules/use/seawords.py
    **DIPLO_SENTENCES,  # rules/use/diplowords.py
}


def describe(e: Event) -> str:
    """The sentence for one event; a kind this version does not know still reads as words."""
    kind = str(e.get("kind", "?"))
    say = SENTENCES.get(kind)
    if say is not None:
        return say(e)
    # An event from a newer version of the rules: name its facts without Python's notation.
    facts = "; ".join(f"{k.replace('_', ' ')} {_t(v)}" for k, v in e.items() if k != "kind")
    return f"{kind.replace('-', ' ').capitalize()}{': ' + facts if facts else ''}"
