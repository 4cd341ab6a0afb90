"""The command table and the global options: what `pbem --help` and the fast paths need, without click.

pbem.cli.base builds the click group from this; pbem.cli.quick answers `pbem --help` and
`pbem status` from it without importing click when it can (issue 11).
"""

from __future__ import annotations

# Every command: (the module that registers it, the first paragraph of its help). The module is
# imported only when the command runs; `pbem --help` lists the commands from here
# (tests/test_speed_structure.py checks this table against the commands themselves).
COMMANDS: dict[str, tuple[str, str]] = {
    "agent": ("pbem.cli.agent", "Keep your identity unlocked for a while, in one background process."),
    "archive": ("pbem.cli.archive", "Export a whole game to one file, or import one (observers, recovery)."),
    "board": ("pbem.cli.board", "Give your orders on a local web page: click a unit, pick an order, play the phase."),
    "check-proof": ("pbem.cli.archive", "Check a dispute bundle (no identity or game needed)."),
    "game": ("pbem.cli.games", "Propose and join games."),
    "games": ("pbem.cli.games", "List the games (rules modules) this pbem can play."),
    "inspect": ("pbem.cli.archive",
                "Show a pbem file's envelope (no key needed), or extract one encrypted part."),
    "lock": ("pbem.cli.agent", "Lock your identity now: the key agent forgets it and stops."),
    "key": ("pbem.cli.keys", "Your identity: signing and encryption keys, and your player card."),
    "orders": ("pbem.cli.games", "Check order files, or list what you may order now."),
    "play": ("pbem.cli.games",
             "Apply your orders for the current phase, write the next turn file and mail it."),
    "receive": ("pbem.cli.mailcmds",
                "Take game files into their games: .pbem files, .eml mails, a Maildir or IMAP."),
    "recover": ("pbem.cli.archive", "Rebuild lost game folders from their files (mail attachments, .pbem or "
                ".eml) and your identity."),
    "resend": ("pbem.cli.mailcmds", "Send your mails again: those still queued, else your last file of GAME "
               "(an opponent lost it)."),
    "show": ("pbem.cli.games", "Show the game as you may see it: your private view unless --public."),
    "status": ("pbem.cli.games", "List this home's games and whose move it is."),
    "verify": ("pbem.cli.archive", "Re-check a game from its files: chain, signatures, dice, commitments, rules."),
}


GLOBAL_OPTIONS = ("--home", "--passphrase-file")


def hoist_global_options(args: list[str]) -> list[str]:
    """``pbem status --home X`` read as ``pbem --home X status``: the global options may follow
    the command, where a player naturally adds them; they are moved in front of it (up to ``--``)."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i:])
            break
        if a in GLOBAL_OPTIONS and i + 1 < len(args):
            front.extend(args[i:i + 2])
            i += 2
            continue
        (front if a.split("=", 1)[0] in GLOBAL_OPTIONS else rest).append(a)
        i += 1
    return front + rest
