"""What every game shares (docs/kit.md); games may import it, and it imports no layer above protocol.

``hexgrid`` (hex geometry, both column conventions), ``records`` (line-oriented data files,
collect-all errors), ``hexmap`` (the generic part of a static hex map), ``orders`` (order lines,
verbs declared once in a ``VerbTable``), ``sequence`` (a turn as a list of steps), ``digest``
(the rules hash), ``cases`` (the DATC-style rules-case runner) and ``share`` (where an
installed pbem keeps its data files).
"""
