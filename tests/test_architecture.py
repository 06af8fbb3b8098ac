"""The house's shape (docs/architecture.md): the floors and independences of
pyproject.toml's import-linter contracts are kept (`lint-imports`, which also says that
`versions` never imports `comparator` and that no engine module imports an era); no import
circle among the modules of `versions` and `comparator`, counting every import (module
level, under TYPE_CHECKING and inside functions: import-linter counts packages' circles,
not modules'); every game has the same folders; every package of `comparator` says its job."""

import ast
import shutil
import subprocess
import sys
import tomllib
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


def test_the_import_contracts_are_kept():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    kinds = sorted(c["type"] for c in contracts["contracts"])
    assert kinds == ["acyclic_siblings", "forbidden", "forbidden", "forbidden",
                     "independence", "independence", "layers"], kinds
    layers = next(c for c in contracts["contracts"] if c["type"] == "layers")["layers"]
    assert layers[0] == "comparator.cli" and layers[-1] == "versions"
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    done = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert f"Contracts: {len(kinds)} kept, 0 broken." in done.stdout, done.stdout[-2000:]


def test_every_comparator_package_says_its_job():
    for init in sorted((ROOT / "comparator").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc.split()) >= 12, f"{init.relative_to(ROOT)} says no job"


def test_the_comparator_folder_lists_packages_and_a_handful_of_modules():
    modules = sorted(p.name for p in (ROOT / "comparator").glob("*.py"))
    assert modules == ["__init__.py", "__main__.py"], modules


def test_every_game_has_the_same_shape():
    assert set(GAMES) == set(PACKAGES)
    for package in PACKAGES.values():
        game = ROOT / "versions" / package
        for part in ("scenario.py", "rules.py", "play.py", "engine", "eras"):
            assert (game / part).exists(), (package, part)
        assert (ROOT / "comparator" / "games" / package / "__init__.py").exists(), package
