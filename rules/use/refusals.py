"""Raising order errors with the order's line, column and the USE rule number."""

from __future__ import annotations

from typing import Any, NoReturn

from pbem.kit import orders as kit

RULEBOOK = "USE"


def illegal(order: dict[str, Any] | None, message: str, rule: str, hint: str | None = None) -> NoReturn:
    """Refuse ``order``: ``rule`` is a bare rule number ("4.2.3"); it is reported as "USE 4.2.3"."""
    kit.illegal(RULEBOOK, order, message, rule, hint)
