"""The command line: a thin front over pbem.play.game, pbem.protocol.identity and friends.

``pbem.cli:main`` is the console script; the commands live in the modules of
this package by topic and register on the one ``cli`` group when first used
(``pbem.cli.base.COMMANDS``), so that each command imports only what it needs.
`pbem --help` and `pbem status` are answered without click when they can be
(pbem.cli.quick): importing click alone takes longer than issue 11 allows them.
"""

from __future__ import annotations

import io
import sys

# Not typing.TYPE_CHECKING: importing typing costs `pbem --help` a tenth of its time (mypy reads
# any constant of this name so).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pbem.cli.base import cli

__all__ = ["cli", "main"]


def main(argv: list[str] | None = None) -> None:
    run(list(sys.argv[1:] if argv is None else argv))


def run(args: list[str], warm: bool = True) -> None:
    """Run one command line: a fast path, the home's warm worker, or click (pbem.cli.base)."""
    from pbem.cli import quick

    for stream in (sys.stdout, sys.stderr):  # as pbem.cli.base.main does
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if quick.run(args):
        return
    if warm:
        from pbem.cli import warm as worker

        code = worker.run(args)
        if code is not None:
            sys.exit(code)
    from pbem.cli import base

    base.main(args)


def __getattr__(name: str) -> object:
    if name == "cli":
        from pbem.cli import base

        return base.cli
    raise AttributeError(f"module 'pbem.cli' has no attribute {name!r}")
