"""The package's shape: no import circles, imports point down the layers, only the app
imports Kivy (see docs/architecture.md).

Every ``import`` and ``from ... import`` statement of every module is read with
:mod:`ast`, including the ones inside functions (a lazy import only moves a
circle to run time).  Imports under ``if TYPE_CHECKING:`` are left out: they never
run, so they cannot form a circle, and they are how a helper module names the
type of the object its caller hands it (``takeback`` and ``gameformat`` take a
``Game``).
"""

from __future__ import annotations

import ast
import importlib.machinery
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import fastmine

PACKAGE = Path(fastmine.__file__).resolve().parent

# Lowest first; a module may import from its own layer and the ones below it.
# The first matching prefix decides (a module name, or a package name and ".").
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("fastmine._kernels", "fastmine._validate", "fastmine._frozen", "fastmine._blas", "fastmine._unbuilt", "fastmine.extras",
              "fastmine.children", "fastmine.errors", "fastmine.limits", "fastmine.viewcodes",
              "fastmine.difficulty", "fastmine.movelog", "fastmine.board", "fastmine.game",
              "fastmine.gameplay",
              "fastmine.gameformat", "fastmine.takeback", "fastmine.timedmoves",
              "fastmine.metrics", "fastmine._metrics",
              "fastmine.gamecode", "fastmine.files.storage", "fastmine.files.folders",
              "fastmine.files.owned", "fastmine.files.writing", "fastmine.files.reading",
              "fastmine.files.kinds")),
    ("solver", ("fastmine.solver",)),
    ("features", ("fastmine.coach", "fastmine.replay", "fastmine.records", "fastmine.files",
                  "fastmine.env", "fastmine.videos")),
    ("front ends", ("fastmine.cli", "fastmine.app", "fastmine.__main__")),
]
# The package's own __init__ gathers the public names and imports the solver's
# no-guess generator, which registers itself with Board.generate.
PACKAGE_INIT_MAY_IMPORT = {"fastmine.solver.no_guess"}


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module under ``root`` (the folder of ``package``): dotted name -> file."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    for path in sorted(root.rglob("*.pyx")):   # the kernels, imported by name
        out[".".join((package, *path.relative_to(root).with_suffix("").parts))] = path
    # an installed package has no .pyx (the wheel ships the compiled modules only)
    seen: set[Path] = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:   # the longest first
        for path in sorted(root.rglob(f"*{suffix}")):
            if path in seen:
                continue
            seen.add(path)
            rel = path.relative_to(root)
            name = ".".join((package, *rel.parent.parts, path.name[: -len(suffix)]))
            out.setdefault(name, path)
    return out


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:  # no recursion
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: dict[str, Path], *, type_checking: bool = False) -> set[str]:
    """The modules of ``known`` that module ``name`` (file ``path``) imports.

    ``from pkg import x`` counts as importing the module ``pkg.x`` when there is
    one, else ``pkg`` itself; other imports count the longest known prefix.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = ast.walk(tree) if type_checking else _runtime_nodes(tree)
    found: set[str] = set()

    def longest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in nodes:
        if isinstance(node, ast.Import):
            targets = [longest(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            targets = [f"{full}.{a.name}" if f"{full}.{a.name}" in known else longest(full)
                       for a in node.names]
        else:
            continue
        found.update(t for t in targets if t is not None and t != name)
    return found


def graph(root: Path, package: str) -> dict[str, set[str]]:
    known = modules(root, package)
    return {name: imports(name, path, known) for name, path in known.items() if path.suffix == ".py"}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``edges``: each strongly connected set of two or more
    modules, as one path around it (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        members.append(m)
                        if m == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def describe(edges: dict[str, set[str]], members: list[str]) -> str:
    inside = set(members)
    return "; ".join(f"{m} -> {', '.join(sorted(edges[m] & inside))}" for m in members)


def layer(name: str) -> int:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return rank
    raise AssertionError(f"{name} is in no layer of docs/architecture.md (add it to LAYERS)")


def test_no_import_circles_among_fastmines_modules():
    edges = graph(PACKAGE, "fastmine")
    assert len(edges) > 60   # the walk found the package
    found = circles(edges)
    assert found == [], "import circles: " + " | ".join(describe(edges, c) for c in found)


def test_the_circle_finder_sees_a_lazy_import_and_ignores_type_checking(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text(textwrap.dedent("""
        def f():
            from ..c import g   # lazy: still a circle
            return g
    """))
    (pkg / "c.py").write_text("import pkg.a\n")
    (pkg / "d.py").write_text(textwrap.dedent("""
        from typing import TYPE_CHECKING
        from . import a
        if TYPE_CHECKING:
            from .e import E
    """))
    (pkg / "e.py").write_text("from .d import a\n")
    edges = graph(pkg, "pkg")
    assert edges["pkg.sub.b"] == {"pkg.c"} and edges["pkg.d"] == {"pkg.a"}
    assert circles(edges) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_imports_point_down_the_layers():
    edges = graph(PACKAGE, "fastmine")
    upward = []
    for name, targets in sorted(edges.items()):
        if name == "fastmine":
            upward += [f"fastmine -> {t}" for t in sorted(targets)
                       if layer(t) > 0 and t not in PACKAGE_INIT_MAY_IMPORT]
            continue
        upward += [f"{name} ({LAYERS[layer(name)][0]}) -> {t} ({LAYERS[layer(t)][0]})"
                   for t in sorted(targets) if t != "fastmine" and layer(t) > layer(name)]
    assert upward == []


def test_front_ends_do_not_import_each_other():
    edges = graph(PACKAGE, "fastmine")
    crossing = [f"{n} -> {t}" for n, ts in edges.items() for t in ts
                if (n.startswith("fastmine.cli") and t.startswith("fastmine.app"))
                or (n.startswith("fastmine.app") and t.startswith("fastmine.cli"))
                or (not n.startswith("fastmine.app") and t.startswith("fastmine.app"))]
    assert crossing == []


def test_nothing_outside_the_app_imports_kivy():
    known = modules(PACKAGE, "fastmine")
    offenders = []
    for name, path in known.items():
        if path.suffix != ".py" or name == "fastmine.app" or name.startswith("fastmine.app."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):   # TYPE_CHECKING imports included: not even for types
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                    else [])
            offenders += [f"{name}:{node.lineno} imports {m}" for m in mods
                          if m.split(".")[0] in ("kivy", "plyer")]
    assert offenders == []


def test_importing_the_package_and_its_command_line_loads_no_kivy():
    code = ("import sys, fastmine, fastmine.cli, fastmine.app, fastmine.records, fastmine.replay\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('kivy', 'plyer')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", sorted(n for n in modules(PACKAGE, "fastmine")
                                        if n != "fastmine" and not n.startswith("fastmine.app")))
def test_every_module_is_in_a_layer(name):
    layer(name)


def test_every_module_outside_the_app_is_named_in_the_architecture_page():
    """docs/architecture.md tells a newcomer where each thing is: every module of the
    package (the app's folder excepted, which its own page maps) is named there."""
    page = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
    if not page.is_file():
        pytest.skip("docs/ is not beside the tests (a run against an installed wheel)")
    text = page.read_text(encoding="utf-8")
    missing = sorted(name for name, path in modules(PACKAGE, "fastmine").items()
                     if not name.startswith("fastmine.app") and name.count(".") >= 1
                     and path.name != "__init__.py"
                     and f"`{name.rsplit('.', 1)[1]}" not in text
                     and f" {name.rsplit('.', 1)[1]}," not in text
                     and f" {name.rsplit('.', 1)[1]} " not in text)
    assert missing == []


def _app_map() -> str:
    """The module map of the app's page (docs/app.md, *How it is built*)."""
    page = Path(__file__).resolve().parents[1] / "docs" / "app.md"
    if not page.is_file():
        pytest.skip("docs/ is not beside the tests (a run against an installed wheel)")
    text = page.read_text(encoding="utf-8")
    start = text.index("## How it is built")
    return text[start: text.index("\n## ", start + 1)]


def test_every_app_module_is_named_in_the_apps_module_map():
    """docs/app.md maps the app's folder: every module by its path in the folder
    (``board/gestures.py``), so a newcomer finds the one file to open."""
    app = PACKAGE / "app"
    text = _app_map()
    missing = sorted(rel for rel in (p.relative_to(app).as_posix() for p in app.rglob("*.py"))
                     if not rel.endswith("__init__.py") and f"`{rel}`" not in text)
    assert missing == []


def test_the_app_is_in_sub_packages_each_named_in_the_architecture_page():
    """The app's folder shows its parts: a few modules the whole app shares at its
    top, every other module in a sub-package that docs/architecture.md names."""
    page = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
    if not page.is_file():
        pytest.skip("docs/ is not beside the tests (a run against an installed wheel)")
    app = PACKAGE / "app"
    subpackages = sorted(p.parent.name for p in app.glob("*/__init__.py"))
    assert len(subpackages) >= 5
    text = page.read_text(encoding="utf-8")
    assert [s for s in subpackages if f"`{s}/`" not in text] == []
    top = sorted(p.stem for p in app.glob("*.py") if p.stem != "__init__")
    assert len(top) <= 12, top


def test_each_screen_module_lies_beside_its_kv_file_and_shares_its_name():
    """Each screen of ``screenloader.SCREENS`` (read from the source: no Kivy) is a
    module beside its kv file, both named for the screen or its sub-package
    (``screens/progress.py`` + ``screens/progress.kv``; the replay player and the
    Replays list share ``replays/replays.kv``)."""
    app = PACKAGE / "app"
    tree = ast.parse(next(app.rglob("screenloader.py")).read_text(encoding="utf-8"))
    table = next(node.value for node in tree.body if isinstance(node, ast.AnnAssign)
                 and getattr(node.target, "id", None) == "SCREENS")
    screens = ast.literal_eval(table)
    assert len(screens) >= 8
    wrong = []
    for name, (module, _cls, kv_files) in screens.items():
        path = app.joinpath(*module.split(".")).with_suffix(".py")
        assert path.is_file(), f"{name}: no {path}"
        for kv in kv_files:
            kv_path = app.joinpath(*kv.split("/"))
            assert kv_path.is_file(), f"{name}: no {kv_path}"
            if kv_path.parent != path.parent or kv_path.stem not in (path.stem, path.parent.name):
                wrong.append(f"{name}: {module} and {kv}")
    assert wrong == []
