"""Unconditional Surrender! World War 2 in Europe (USE): the rules module for pbem.

The engine finds it through the ``pbem.rules`` entry point ``use = pbem_rules.use:RULES``.
"""

from __future__ import annotations

from .module import UseRules

RULES = UseRules()

__all__ = ["RULES", "UseRules"]
