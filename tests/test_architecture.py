"""The house's shape (docs/architecture.md): no import circle among the modules of
`versions` and `comparator`, counting every import (module level, under TYPE_CHECKING and
inside functions); `versions` never imports `comparator`; no engine module imports an era;
every game has the same folders."""

import ast
from pathlib import Path

from versions import GAMES, PACKAGES

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("versions", "comparator"):
        for f in (ROOT / top).rglob("*.py"):
            rel = f.relative_to(ROOT).with_suffix("")
            found[".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)] = f
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                parts = parts if path.name == "__init__.py" else parts[:-1]
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            while n and n not in modules:
                n = n.rpartition(".")[0]
            if n and n != name:
                out.add(n)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, f, modules) for m, f in modules.items()}


def test_no_import_circle():
    graph = _graph()
    # Tarjan's strongly connected components, iteratively.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    assert not circles, circles


def test_versions_never_imports_comparator_nor_the_engine_an_era():
    for module, imported in _graph().items():
        if module.startswith("versions"):
            assert not any(i.startswith("comparator") for i in imported), module
        if ".engine" in module:
            assert not any(".eras" in i for i in imported), (module, imported)


def test_every_game_has_the_same_shape():
    assert set(GAMES) == set(PACKAGES)
    for package in PACKAGES.values():
        game = ROOT / "versions" / package
        for part in ("scenario.py", "rules.py", "play.py", "engine", "eras"):
            assert (game / part).exists(), (package, part)
        assert (ROOT / "comparator" / "games" / package / "__init__.py").exists(), package
