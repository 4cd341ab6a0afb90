"""War in Europe, the three-player game (seed 003_a5d2870354bebb58.txt), on the kit: rules/wie/README.md."""

from .module import RULES, WarInEurope

__all__ = ["RULES", "WarInEurope"]
