"""pbem: a play-by-email turn processor for strategic board wargames."""

__version__ = "0.3.0"
