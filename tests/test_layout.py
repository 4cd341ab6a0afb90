"""The engine's layout stays readable: no import cycles, layers that import only downwards.

Imports inside functions count too: a lazy import that closes a cycle is
still a cycle for the reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "pbem"

# Which layer may import which (a layer may always import itself and the top-level
# errors/rulesapi modules). Listed from the bottom up.
LAYERS: dict[str, set[str]] = {
    "formats": set(),
    "crypto": {"formats"},
    "store": {"formats", "crypto"},
    "protocol": {"formats", "crypto", "store"},
    "kit": {"formats", "crypto", "protocol"},
    "play": {"formats", "crypto", "store", "protocol"},
    "present": {"formats", "crypto", "store", "protocol", "play", "kit"},
    "mail": {"formats", "crypto", "store", "protocol", "play", "present"},
    "cli": {"formats", "crypto", "store", "protocol", "play", "present", "mail", "kit"},
}
TOP = {"pbem", "pbem.errors", "pbem.rulesapi"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str, modules: set[str] | None = None) -> set[str]:
    """Modules ``path`` imports; ``from pkg import mod`` counts as ``pkg.mod`` only, not ``pkg``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = pkg.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            subs = {f"{base}.{a.name}" for a in node.names}
            if modules is not None and subs <= modules:
                out.update(subs)
            else:
                out.add(base)
                out.update(subs)
    return out


def _graph() -> dict[str, set[str]]:
    mods = {_module_name(p): p for p in PBEM.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps = {d for d in _imports(path, name, set(mods)) if d in mods and d != name}
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _layer(mod: str) -> str | None:
    parts = mod.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else None


def test_no_import_cycles_in_the_engine() -> None:
    assert _cycles(_graph()) == []


def test_layers_import_only_downwards() -> None:
    bad = []
    for mod, deps in _graph().items():
        layer = _layer(mod)
        if layer is None:
            continue
        allowed = LAYERS.get(layer, set()) | {layer}
        for d in deps:
            if d in TOP or d.startswith("pbem.rulesapi"):
                continue
            dl = _layer(d)
            if dl is not None and dl not in allowed:
                bad.append(f"{mod} -> {d}")
    assert bad == []


def test_engine_never_imports_a_game_and_games_use_only_the_interface() -> None:
    for p in PBEM.rglob("*.py"):
        for d in _imports(p, _module_name(p)):
            assert not d.startswith(("pbem_rules", "rules")), f"{p} imports a game: {d}"
    for p in (ROOT / "rules").rglob("*.py"):
        for d in _imports(p, "pbem_rules." + _module_name(p).partition(".")[2]):
            if d.startswith("pbem"):
                assert d.startswith(("pbem.errors", "pbem.rulesapi", "pbem.kit", "pbem_rules")) or d == "pbem", \
                    f"{p} reaches into the engine: {d}"


def test_no_import_cycles_in_the_games() -> None:
    """Each game's modules import each other in one direction only (lazy imports count)."""
    mods: dict[str, Path] = {}
    for p in (ROOT / "rules").rglob("*.py"):
        parts = list(p.relative_to(ROOT / "rules").with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(["pbem_rules", *parts])] = p
    graph = {name: {d for d in _imports(p, name, set(mods)) if d in mods and d != name} for name, p in mods.items()}
    assert _cycles(graph) == []
