"""The static hex map of a game, read from its map file, every problem reported at once.

A map file (read with pbem.kit.records) is a ``grid`` record then one ``hex``
record per hex::

    format eurofront-map 1
    grid cols=12 rows=9
    hex 0101 clear FRA mild coastal river=SE,S sea=CH

``hex XXYY TERRAIN WORD... [FLAG...] [key=value...]``: the game's
:class:`HexSchema` says which terrains exist, how many positional words follow
(country, weather zone, ...), which bare flags and which attributes a hex may
carry, and which attributes list hexside features by direction
(``river=SE,S``).  :func:`read_hex_map` checks what every game shares (hex ids,
terrain names, the grid's bounds, duplicates, holes, unknown flags and keys,
directions) and calls the game's ``check`` for the rest;
:func:`check_hexsides` then requires each listed hexside on both of its hexes.
Transport lines (``line "Name" HEX HEX ... [BOX]``: rail, roads) are read and
checked for continuity by :func:`read_transport_lines`.

What stays in the game (the split, as EuroFront or War in Europe would want it):
the typed map model its rules read (USE's ``GameMap``, ``HexInfo``), cities
and map boxes (their attributes -- capital, port, factories, friendly faction
-- are rules), sea zones and straits (naval rules differ between games), the
terrain chart and weather tables.  The kit gives the pieces those are read
with: :class:`HexRecord` for the generic fields of a hex, :func:`hex_or_none`
to resolve a hex named in a features file, :func:`disconnected` for
"these hexes form one region" checks, and :func:`graph_distance` for ranges
over sea zones or boxes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from pbem.kit.hexgrid import Direction, Grid, Hex, Hexside, parse_hex
from pbem.kit.records import Issues, Record, parse_int, split_list


@dataclass(frozen=True)
class HexSchema:
    """What a game's ``hex`` records hold (see the module docstring)."""

    terrains: tuple[str, ...]  # the first is the stand-in after a bad terrain name
    words: tuple[str, ...]  # names of the positional words after TERRAIN, for the usage message
    # word name -> (what it is, for messages; its allowed values), e.g. "WEATHER": ("weather zone", (...))
    choices: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()  # key=value keys the game reads itself
    sides: Mapping[str, str] = field(default_factory=dict)  # attribute key -> hexside kind
    water: frozenset[str] = frozenset({"water"})  # terrains with no listed hexside features


@dataclass
class HexRecord:
    """The generic part of one ``hex`` record; the game reads ``words`` and ``attrs``."""

    hex: Hex
    terrain: str  # the schema's first terrain if the name was wrong (and reported)
    words: tuple[str, ...]
    flags: frozenset[str]
    attrs: Mapping[str, str]
    sides: dict[str, set[Direction]]
    file: str
    line: int


HexCheck = Callable[[HexRecord, Record, Issues], None]
"""A game's checks of one hex record (its words and attributes); it reports to ``Issues``."""


def parse_hex_record(rec: Record, issues: Issues, schema: HexSchema,
                     check: HexCheck | None = None) -> HexRecord | None:
    """One ``hex`` record; None only if it names no hex (every other problem is reported and read on)."""
    need = 2 + len(schema.words)
    if len(rec.words) < need:
        issues.add(rec.file, rec.line, " ".join(("hex needs: hex XXYY TERRAIN", *schema.words, "[attributes]")))
        return None
    hid, terrain = rec.words[0], rec.words[1]
    words, flags = rec.words[2:need], rec.words[need:]
    try:
        h = parse_hex(hid)
    except ValueError as exc:
        issues.add(rec.file, rec.line, str(exc))
        return None
    if terrain not in schema.terrains:
        issues.add(rec.file, rec.line, f"hex {h}: unknown terrain {terrain!r} (known: {', '.join(schema.terrains)})")
        terrain_read = schema.terrains[0]
    else:
        terrain_read = terrain
    for word, value in zip(schema.words, words, strict=True):
        if word in schema.choices and value not in schema.choices[word][1]:
            issues.add(rec.file, rec.line, f"hex {h}: unknown {schema.choices[word][0]} {value!r}")
    hx = HexRecord(h, terrain_read, tuple(words), frozenset(flags), rec.attrs, {}, rec.file, rec.line)
    for flag in flags:
        if flag not in schema.flags:
            issues.add(rec.file, rec.line, f"hex {h}: unknown flag {flag!r} (known: {', '.join(schema.flags)})")
    for key in rec.attrs:
        if key not in (*schema.attrs, *schema.sides):
            issues.add(rec.file, rec.line, f"hex {h}: unknown attribute {key!r}")
    if check is not None:
        check(hx, rec, issues)
    for key, kind in schema.sides.items():
        for d in split_list(rec.attrs.get(key, "")):
            try:
                hx.sides.setdefault(kind, set()).add(Direction.parse(d))
            except ValueError as exc:
                issues.add(rec.file, rec.line, f"hex {h}: {key}: {exc}")
    return hx


@dataclass(frozen=True)
class HexMapRecords:
    """The hexes of a map file, as read: the grid's size and each hex's record."""

    cols: int
    rows: int
    hexes: dict[Hex, HexRecord]


def read_hex_map(records: Iterable[Record], issues: Issues, schema: HexSchema,
                 check: HexCheck | None = None) -> HexMapRecords:
    """The ``grid`` and ``hex`` records of a map file: bounds, duplicates and holes checked."""
    cols = rows = 0
    file = ""
    drafts: dict[Hex, HexRecord] = {}
    for rec in records:
        file = rec.file
        if rec.keyword == "grid":
            if cols:
                issues.add(rec.file, rec.line, "grid given twice")
            cols = parse_int(rec, "cols", issues, 0, 1, 99)
            rows = parse_int(rec, "rows", issues, 0, 1, 99)
        elif rec.keyword == "hex":
            if not cols:
                issues.add(rec.file, rec.line, "hex before the grid record")
                continue
            hx = parse_hex_record(rec, issues, schema, check)
            if hx is None:
                continue
            h = hx.hex
            if not (1 <= h.col <= cols and 1 <= h.row <= rows):
                issues.add(rec.file, rec.line, f"hex {h} is outside the {cols}x{rows} grid")
            elif h in drafts:
                issues.add(rec.file, rec.line, f"hex {h} defined twice (first at line {drafts[h].line})")
            else:
                drafts[h] = hx
        else:
            issues.add(rec.file, rec.line, f"unknown record {rec.keyword!r} (expected grid or hex)")
    if cols and rows:
        missing = [str(Hex(c, r)) for c in range(1, cols + 1) for r in range(1, rows + 1)
                   if Hex(c, r) not in drafts]
        if missing and len(missing) < cols * rows:
            issues.add(file, 0, f"{len(missing)} hexes of the grid are not defined: "
                       + " ".join(missing[:20]) + (" ..." if len(missing) > 20 else ""))
    return HexMapRecords(cols, rows, drafts)


def check_hexsides(hexes: Mapping[Hex, HexRecord], issues: Issues, grid: Grid,
                   water: frozenset[str] = frozenset({"water"})) -> dict[Hexside, frozenset[str]]:
    """The hexside features listed on both of their hexes, between two land hexes; the rest reported."""
    found: dict[Hexside, set[str]] = {}
    for h, hx in hexes.items():
        for kind, dirs in hx.sides.items():
            for d in sorted(dirs):
                n = grid.neighbour(h, d)
                other = hexes.get(n)
                where = f"hex {h}: {kind} on its {d.name} side"
                if other is None:
                    issues.add(hx.file, hx.line, f"{where} faces {n}, which is not on the map")
                elif hx.terrain in water or other.terrain in water:
                    issues.add(hx.file, hx.line, f"{where}: {kind} hexsides are listed only between two land hexes")
                elif d.opposite not in other.sides.get(kind, set()):
                    issues.add(hx.file, hx.line,
                               f"{where} is not listed on the {d.opposite.name} side of {n} "
                               f"(line {other.line}): hexsides must be symmetric")
                else:
                    found.setdefault(grid.hexside(h, n), set()).add(kind)
    return {side: frozenset(kinds) for side, kinds in found.items()}


def hex_or_none(rec: Record, text: str, issues: Issues, hexes: Mapping[Hex, object]) -> Hex | None:
    """The hex ``text`` names in ``rec`` if it is on the map; None (reported) otherwise."""
    try:
        h = parse_hex(text)
    except ValueError as exc:
        issues.add(rec.file, rec.line, str(exc))
        return None
    if h not in hexes:
        issues.add(rec.file, rec.line, f"unknown hex {h} (not on the map)")
        return None
    return h


def disconnected(hexes: set[Hex], grid: Grid) -> tuple[Hex, list[Hex]] | None:
    """None if ``hexes`` form one connected region; else the first hex and those it does not reach."""
    if not hexes:
        return None
    start = min(hexes)
    seen, todo = {start}, [start]
    while todo:
        for n in grid.neighbours(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return None if seen == hexes else (start, sorted(hexes - seen))


def graph_distance(a: str, b: str, neighbours: Callable[[str], Iterable[str]]) -> int:
    """Breadth-first steps from ``a`` to ``b`` (0 when equal), or -1 if unconnected (sea zones, boxes)."""
    seen, frontier, steps = {a}, [a], 0
    while frontier:
        if b in frontier:
            return steps
        nxt: list[str] = []
        for loc in frontier:
            for n in sorted(neighbours(loc)):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier, steps = nxt, steps + 1
    return -1


# --- transport lines ------------------------------------------------------------------------
@dataclass(frozen=True)
class TransportLine:
    name: str
    hexes: tuple[Hex, ...]
    start_box: str | None
    end_box: str | None
    line: int


@dataclass(frozen=True)
class LineRules:
    """What a game says about its transport lines (the kit checks continuity and box ends).

    ``boxes``: every map box id -> the edge hexes a line may enter it from, or None if no
    line may end in it; ``blocked(h)``: a line cannot run through ``h``; ``barrier(a, b)``: the
    name of a hexside feature a line cannot cross between adjacent ``a`` and ``b``, or None.
    """

    grid: Grid
    boxes: Mapping[str, frozenset[Hex] | None]
    blocked: Callable[[Hex], bool]
    barrier: Callable[[Hex, Hex], str | None]


def read_transport_lines(recs: Iterable[Record], issues: Issues, hexes: Mapping[Hex, object],
                         rules: LineRules) -> list[TransportLine]:
    """Transport lines; records with the same name continue the same chain."""
    chains: dict[str, tuple[list[tuple[str, int]], int, str]] = {}
    for rec in recs:
        if not rec.words:
            issues.add(rec.file, rec.line, 'line needs: line "Name" HEX HEX ... (a land box id may end it)')
            continue
        chain, _, _ = chains.setdefault(rec.words[0], ([], rec.line, rec.file))
        chain.extend((tok, rec.line) for tok in rec.words[1:])
    out: list[TransportLine] = []
    for name, (items, first, file) in chains.items():
        chain_hexes, ends = _chain(name, items, file, issues, hexes, rules)
        for end, h_end in ((ends[0], chain_hexes[0] if chain_hexes else None),
                           (ends[1], chain_hexes[-1] if chain_hexes else None)):
            if end is not None and h_end is not None and h_end not in (rules.boxes[end] or ()):
                issues.add(file, first, f"line {name}: {h_end} is not an edge hex of box {end}")
        if len(chain_hexes) >= 2 or (chain_hexes and any(ends)):
            out.append(TransportLine(name, tuple(chain_hexes), ends[0], ends[1], first))
        else:
            issues.add(file, first, f"line {name}: needs at least two hexes")
    return out


def _chain(name: str, items: list[tuple[str, int]], file: str, issues: Issues, hexes: Mapping[Hex, object],
           rules: LineRules) -> tuple[list[Hex], list[str | None]]:
    out: list[Hex] = []
    ends: list[str | None] = [None, None]
    for i, (tok, line) in enumerate(items):
        if tok in rules.boxes:
            if 0 < i < len(items) - 1 or rules.boxes[tok] is None:
                issues.add(file, line, f"line {name}: box {tok} must be a land box at an end")
                continue
            ends[0 if i == 0 else 1] = tok
            continue
        try:
            h = parse_hex(tok)
        except ValueError as exc:
            issues.add(file, line, f"line {name}: {exc}")
            continue
        if h not in hexes:
            issues.add(file, line, f"line {name}: unknown hex {h} (not on the map)")
            continue
        if rules.blocked(h):
            issues.add(file, line, f"line {name}: {h} is not a land hex a line can run through")
        if out and out[-1] == h:
            continue
        if out and not rules.grid.adjacent(out[-1], h):
            issues.add(file, line, f"line {name}: {out[-1]} and {h} are not adjacent "
                       "(transport lines must be continuous)")
        elif out and (what := rules.barrier(out[-1], h)) is not None:
            issues.add(file, line, f"line {name}: {out[-1]}-{h} crosses a {what} hexside")
        out.append(h)
    return out, ends
