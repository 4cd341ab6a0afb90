"""The command line: a thin front over pbem.play.game, pbem.protocol.identity and friends.

``pbem.cli:main`` is the console script; the commands live in the modules of
this package by topic and register on the one ``cli`` group when first used
(``pbem.cli.base.COMMANDS``), so that each command imports only what it needs.
"""

from __future__ import annotations

from pbem.cli.base import cli, main

__all__ = ["cli", "main"]
