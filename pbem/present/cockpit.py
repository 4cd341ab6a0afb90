"""The order template of every game: the module's own template, what the start of the file will
resolve ("Before your orders"), and the legal actions of the moment as comments.

Built from ``RulesModule.legal_actions`` alone, so a game gets it by answering that query:
each action is written as an order where its arguments' choices fill it (``Action.line``),
with its rule, its ``note`` (the DRMs or odds the rules foresee) and, for an action with
``paths``, where the unit may end and one way to get there. The player deletes or keeps the
comments; an order copied out of them parses.
"""

from __future__ import annotations

import textwrap

from pbem.rulesapi import Action

WIDTH = 110


def _order(a: Action) -> str:
    """The order's words: a required argument with one choice written out, any other named
    (``HEX``, ``[air AIR]``), a repeated one as ``PATH...``."""
    words = [a.verb]
    for arg in a.args:
        one = arg.choices[0] if arg.choices and len(arg.choices) == 1 and not arg.optional else None
        if one is None and arg.optional and arg.kind == "word" and arg.choices:
            one = "|".join(arg.choices)  # [will-commit|no-commit]
        w = one or arg.name.upper() + ("..." if arg.repeat else "")
        w = f"{arg.keyword} {w}" if arg.keyword else w
        words.append(f"[{w}]" if arg.optional else w)
    return " ".join(words)


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                         break_on_hyphens=False)


def action_lines(actions: list[Action]) -> list[str]:
    """Comment lines for ``actions``: one block per action, in the order the rules gave them."""
    out: list[str] = []
    told: set[str] = set()
    for a in actions:
        head = _order(a)
        # The rule and summary once per verb: a unit-by-unit listing repeats the verb.
        why = "" if a.verb in told else f"{a.rule}: {a.summary}" if a.rule else a.summary
        told.add(a.verb)
        out += _wrapped(f"{head}    # {why}" if why else head, "#   ")
        if a.note:
            out += _wrapped(a.note, "#       ")
        for arg in a.args:
            if arg.choices and len(arg.choices) > 1 and not arg.optional:
                more = f" ... ({len(arg.choices)} in all)" if len(arg.choices) > 12 else ""
                out += _wrapped(f"{arg.name.upper()}: {' '.join(arg.choices[:12])}{more}", "#       ")
        if a.paths:
            longest = max(a.paths, key=len)
            out += _wrapped(f"e.g. {a.line({arg.name: ' '.join(longest) for arg in a.args if arg.repeat})}",
                            "#       ")
    return out


def template(module_text: str, before: list[str], actions: list[Action], game_ref: str) -> str:
    """The module's template with the file's start above it and the legal actions after its comments.

    The actions go before the template's first order line (e.g. its ``end-phase``), so orders
    the player adds above that line are played before it.
    """
    lines = module_text.rstrip("\n").split("\n")
    head = [f"# {s}" for s in before]
    if not actions:
        return "\n".join([*head, *lines]) + "\n"
    block = ["#", f"# what you may do now ('pbem orders actions {game_ref}' lists the same), "
             "each a line you may copy without its '# ':", *action_lines(actions), "#"]
    at = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")),
              len(lines))
    return "\n".join([*head, *lines[:at], *block, *lines[at:]]) + "\n"
