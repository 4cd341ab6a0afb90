"""EuroFront II with MedFront: the 1936 Spanish Civil War (seed 000_b0dcb9d275dc4eea.txt), on the kit."""

from .module import RULES, EuroFront

__all__ = ["RULES", "EuroFront"]
