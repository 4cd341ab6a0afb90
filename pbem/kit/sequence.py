"""A sequence of play as a fixed list of steps, walked from one step that needs a player to the next.

A game turn is a list of steps ``(phase, seat)``; ``seat`` is None for a step that
is nobody's (an Economy Phase, an End of Turn). The state records the current
step as two fields, the phase and the active seat; the active seat keeps its
last value through nobody's steps, so a nobody's step is found by its phase
alone. The game supplies the list (it may depend on the state, e.g. the seats
still playing) and one callback, ``visit``, run on entering each step: it does
the step's work and says whether the step now waits for a player's file.

The stepper owns only the walking: which step is current, which comes next
(the list wraps round to a new turn), the phase label, and stopping when the
game is over. What each step does, whether a seat has anything to do in it,
and who must act first (pending combats, dice due) stay in the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Step = tuple[str, str | None]
#: ``visit(phase, seat)``, run on entering a step: True when the step waits for a file
Visit = Callable[[str, str | None], bool]


def phase_name(phase: str, seat: str | None = None) -> str:
    """``"declare-war", "axis"`` -> ``"Axis Declare War Phase"``; without a seat, ``"Declare War Phase"``."""
    name = phase.replace("-", " ").title()
    return f"{seat.title()} {name} Phase" if seat else f"{name} Phase"


class Sequence:
    """The stepper for one game: ``steps(state)`` lists the turn, ``phase``/``active``/``over`` name
    the state's fields for the current phase, the active seat and the result (truthy once over)."""

    def __init__(self, steps: Callable[[Any], list[Step]], *, phase: str = "phase", active: str = "active",
                 over: str = "over") -> None:
        self.steps = steps
        self.phase_key, self.active_key, self.over_key = phase, active, over

    def current(self, state: Any) -> Step:
        """The current step: ``(phase, None)`` for a nobody's step, else ``(phase, active seat)``."""
        return self._current(state, self.steps(state))

    def _current(self, state: Any, steps: list[Step]) -> Step:
        phase = state[self.phase_key]
        return (phase, None) if (phase, None) in steps else (phase, state[self.active_key])

    def index(self, state: Any) -> int:
        """Position of the current step in ``steps(state)`` (ValueError if the state is off the list)."""
        st = self.steps(state)
        return st.index(self._current(state, st))

    def label(self, state: Any) -> str:
        """The current step as a phase name: ``"Axis Declare War Phase"``, ``"Economy Phase"``."""
        return phase_name(*self.current(state))

    def advance(self, state: Any, visit: Visit) -> None:
        """Move past the current step, then on through the list until ``visit`` says a step waits
        for a file or the game is over. The phase and active seat are set before ``visit`` runs."""
        st = self.steps(state)
        i = st.index(self._current(state, st))
        while True:
            i = (i + 1) % len(st)
            phase, seat = st[i]
            state[self.phase_key] = phase
            state[self.active_key] = seat or state[self.active_key]
            if state[self.over_key] or visit(phase, seat):
                return
