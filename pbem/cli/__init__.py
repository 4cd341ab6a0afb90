"""The command line: a thin front over pbem.play.game, pbem.protocol.identity and friends.

``pbem.cli:main`` is the console script; the commands live in the modules of
this package by topic and register on the one ``cli`` group.
"""

from __future__ import annotations

from pbem.cli import archive, games, keys, mailcmds  # noqa: F401 - importing registers the commands
from pbem.cli.base import cli, main

__all__ = ["cli", "main"]
