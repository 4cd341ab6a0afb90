"""Association (69.x) and belligerency (71.x): state, the player-turn order, and what they allow.

Association rests on the agreement of both players and either may break it at any time (69.0):
``associate SIDE`` is a standing offer, in force once the other side offers it too;
``break-association SIDE`` acts at once. Peace between Axis and Allied is by mutual agreement
(71.0); a Soviet Limited War ends only when all three agree (71.0, 71.1). Only the Soviet player
initiates Limited War (71.0); the Allied player never attacks the Soviet Union at peace (71.2).
"""

from __future__ import annotations

from typing import Any, NoReturn

from pbem.kit.orders import illegal

from .data import SIDES
from .state import HOSTILE, associated, key, seat_of, status


def refuse(o: dict[str, Any] | None, message: str, rule: str) -> NoReturn:
    """``rule`` is "69.1" (the booklet) or "[WiE-base 5.3]" (the authored base rules)."""
    illegal("WIE", o, message, rule)


def play_order(state: Any) -> list[str]:
    """69.4: a player associated with the Axis follows the Axis player-turn; otherwise the
    formal order of 68.0 (Axis, Allied, Soviet), where Allied and Soviet are already adjacent
    so no enemy player-turn falls between two associates."""
    if associated(state, "axis", "soviet") and not associated(state, "axis", "allied"):
        return ["axis", "soviet", "allied"]
    return list(SIDES)


def one_seat(state: Any, a: str, b: str) -> bool:
    return seat_of(state, a) == seat_of(state, b)


def _proposed(state: Any, frm: str, to: str, what: str) -> bool:
    return [frm, to, what] in state["proposals"]


def _drop(state: Any, a: str, b: str, what: str) -> None:
    state["proposals"] = [p for p in state["proposals"] if not (p[2] == what and {p[0], p[1]} == {a, b})]


def associate(state: Any, me: str, other: str, o: dict[str, Any] | None, ctx: Any) -> None:
    if other == me or other not in SIDES:
        refuse(o, f"{me} cannot associate with {other}", "69.0")
    if associated(state, me, other):
        refuse(o, f"{me} and {other} are already associated", "69.0")
    if status(state, me, other) in HOSTILE:
        refuse(o, f"{me} is at {status(state, me, other)} with {other}: make peace first (associated "
               "forces are in an in-between state, neither Friendly nor hostile)", "69.0")
    if _proposed(state, other, me, "associate") or one_seat(state, me, other):
        _drop(state, me, other, "associate")
        # The order of play (69.4) follows at the next game-turn (housekeeping).
        state["associated"] = sorted({*state["associated"], key(me, other)})
        if ctx is not None:
            ctx.event("associated", sides=sorted((me, other)))
    elif not _proposed(state, me, other, "associate"):
        state["proposals"].append([me, other, "associate"])
        if ctx is not None:
            ctx.event("offer", side=me, to=other, what="associate")


def break_association(state: Any, me: str, other: str, o: dict[str, Any] | None, ctx: Any) -> None:
    if not associated(state, me, other):
        refuse(o, f"{me} is not associated with {other}", "69.0")
    if one_seat(state, me, other):
        refuse(o, f"one player holds {me} and {other}: they stay associated (no double-cross)", "71.32")
    state["associated"] = [p for p in state["associated"] if p != key(me, other)]
    # The new order of play (69.4) takes effect with the next game-turn; supply effects are
    # immediate (69.0 Example 2) but supply is not traced yet (README).
    if ctx is not None:
        ctx.event("association-broken", side=me, other=other)


def declare_war(state: Any, me: str, other: str, o: dict[str, Any] | None, ctx: Any) -> None:
    """An explicit declaration; attacks and entries precipitate the same (``engage``)."""
    if other == me or other not in SIDES:
        refuse(o, f"{me} cannot declare war on {other}", "71.0")
    st = status(state, me, other)
    if st in HOSTILE:
        refuse(o, f"{me} is already at {st} with {other}", "71.0")
    if associated(state, me, other):
        refuse(o, f"{me} is associated with {other}: break the association first", "69.0")
    new = _escalation(state, me, other, o)
    _set(state, me, other, new, ctx)


def _escalation(state: Any, me: str, other: str, o: dict[str, Any] | None) -> str:
    """The status a hostile act by ``me`` on ``other`` at peace brings (71.0, 71.1, 71.2)."""
    if me == "soviet":
        return "limited-war"  # 71.1: any such act precipitates a state of Limited War
    if other == "soviet":
        if me == "allied":
            refuse(o, "the Allied player can never attack the Soviet Union at peace", "71.2")
        return "total-war"  # 71.0: the Axis initiates Total War by attacking the Soviet Union at peace
    return "war"  # Axis and Allied: a peace they made by agreement, broken (authored reading of 71.0)


def _set(state: Any, a: str, b: str, new: str, ctx: Any) -> None:
    state["status"][key(a, b)] = new
    _drop(state, a, b, "peace")
    if ctx is not None:
        ctx.event("belligerency", sides=sorted((a, b)), status=new)


def engage(state: Any, me: str, other: str, o: dict[str, Any] | None, ctx: Any, act: str,
           dry: bool = False) -> None:
    """``me`` enters a hex held by ``other`` or attacks its units (``act`` "enter"/"attack"):
    refuse what association and peace forbid; let an act at peace precipitate war (71.0-71.2).
    ``dry``: refuse only, change nothing (a verb's check)."""
    if other == "neutral":
        refuse(o, "entering or attacking a neutral country is not implemented (control of neutrals)", "73.1")
    if other == me:
        return
    if associated(state, me, other):
        if act == "enter":
            refuse(o, f"a unit may not enter or move through a hex containing an associated ({other}) "
                   "unit", "69.1")
        refuse(o, f"{other} is associated with {me}: associated forces are not hostile; break the "
               "association first", "69.0")
    if status(state, me, other) in HOSTILE:
        return
    new = _escalation(state, me, other, o)
    if not dry:
        _set(state, me, other, new, ctx)


def propose_peace(state: Any, me: str, other: str, o: dict[str, Any] | None, ctx: Any) -> None:
    """A standing offer; peace comes when everyone 71.0 asks agrees (``_peace_agreed``)."""
    if other == me or other not in SIDES:
        refuse(o, f"{me} cannot make peace with {other}", "71.0")
    st = status(state, me, other)
    consent = other == "soviet" and any(status(state, s, "soviet") == "limited-war" for s in SIDES
                                        if s not in (me, "soviet"))
    if st == "peace" and not consent:
        refuse(o, f"{me} is already at peace with {other}", "71.0")
    if st == "total-war" and not consent:
        refuse(o, "Total War does not return to peace (the booklet gives no way back)", "71.1")
    if not _proposed(state, me, other, "peace"):
        state["proposals"].append([me, other, "peace"])
        if ctx is not None:
            ctx.event("offer", side=me, to=other, what="peace")
    for a, b in (("axis", "allied"), ("allied", "soviet"), ("axis", "soviet")):
        if status(state, a, b) in ("war", "limited-war") and _peace_agreed(state, a, b):
            _set(state, a, b, "peace", ctx)


def _peace_agreed(state: Any, a: str, b: str) -> bool:
    """71.0: Axis and Allied by mutual agreement; a Soviet Limited War ends only when both
    non-Soviet players agree, even if the Soviet fights only one of them (a non-Soviet player's
    offer of peace to the Soviet is his agreement)."""
    if "soviet" not in (a, b):
        return _proposed(state, a, b, "peace") and _proposed(state, b, a, "peace")
    x = a if b == "soviet" else b
    others = [s for s in SIDES if s != "soviet"]
    return _proposed(state, "soviet", x, "peace") and all(_proposed(state, s, "soviet", "peace") for s in others)


def attacked_by_associate(state: Any, me: str, units: list[str]) -> str | None:
    """69.3: the first of ``units`` attacked this game-turn by a player associated with ``me``."""
    for u in units:
        for side in state["attacked"].get(u, []):
            if side != me and associated(state, me, side):
                return u
    return None
