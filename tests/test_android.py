"""The way onto Android: buildozer.spec and the python-for-android recipe.

The APK itself needs the Android SDK and NDK, which this test suite does not
download (docs/android.md).  What can be checked without them is checked
here: the spec as buildozer itself reads it, what buildozer would copy into
the APK, that every module the app imports is a requirement, and that the
recipe's build steps build a kernel that plays a game (for the host, with
the same commands the recipe runs for the device).
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "buildozer.spec"
RECIPES = ROOT / "recipes"

pytestmark = pytest.mark.skipif(not SPEC.is_file(),
                                reason="needs the source checkout (buildozer.spec, app/, recipes/)")

ARCHS = {"arm64-v8a", "armeabi-v7a", "x86", "x86_64"}

# import name -> python-for-android requirement; stdlib modules that need a
# recipe of their own on Android (the rest of the stdlib comes with python3)
REQUIREMENT_OF = {"kivy": "kivy", "numpy": "numpy", "platformdirs": "platformdirs",
                  "plyer": "plyer", "jnius": "pyjnius", "android": "android",
                  "PIL": "pillow", "fastmine": "fastmine", "babel": "babel"}
STDLIB_RECIPES = {"sqlite3": "sqlite3", "ssl": "openssl", "ctypes": "libffi",
                  "lzma": "liblzma", "bz2": "libbz2"}
NOT_ON_ANDROID = {"curses", "tkinter", "readline", "termios"}


def _buildozer(monkeypatch):
    pytest.importorskip("buildozer", reason="buildozer is in the android extra: pip install -e '.[android]'")
    from buildozer import Buildozer

    for key in list(os.environ):  # buildozer lets APP_* / BUILDOZER_* variables override the spec
        if key.startswith(("APP_", "BUILDOZER_")):
            monkeypatch.delenv(key)
    monkeypatch.chdir(ROOT)  # buildozer reads source.dir and p4a.local_recipes from here
    return Buildozer(filename=str(SPEC))


def _steps():
    spec = importlib.util.spec_from_file_location("fastmine_p4a_steps", RECIPES / "fastmine" / "steps.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _requirements(config) -> dict[str, str]:
    """Requirement name -> the entry as written (``kivy==2.3.1``)."""
    return {r.split("==")[0].split(">")[0].split("<")[0].strip().lower(): r
            for r in config.getlist("app", "requirements", [])}


# ------------------------------------------------------------------ the spec


def test_spec_parses_with_buildozers_own_parser(monkeypatch, capsys):
    b = _buildozer(monkeypatch)  # runs buildozer's own token checks; exits on an error
    get = b.config.getdefault
    assert get("app", "title", "") == "fastmine"
    assert get("app", "package.name", "") == "fastmine"
    assert get("app", "package.domain", "") == "org.fastmine"
    assert get("app", "source.dir", "") == "app" and (ROOT / "app" / "main.py").is_file()
    assert get("app", "version", "") == _steps().project_version(ROOT)
    orientation = b.config.getlist("app", "orientation", [])
    assert {"portrait", "landscape"} <= set(orientation)
    api, minapi = int(get("app", "android.api", "0")), int(get("app", "android.minapi", "0"))
    assert api >= 30 and 24 <= minapi <= api  # p4a's lowest target API; p4a's numpy needs 24
    assert int(get("app", "android.ndk_api", "0")) == minapi
    archs = b.config.getlist("app", "android.archs", [])
    assert archs and set(archs) <= ARCHS
    assert "android.permission.VIBRATE" in b.config.getlist("app", "android.permissions", [])
    local = (ROOT / get("app", "p4a.local_recipes", "")).resolve()
    assert local == RECIPES.resolve() and (local / "fastmine" / "__init__.py").is_file()
    assert "fastmine" in _requirements(b.config)
    assert "error" not in capsys.readouterr().out.lower()


def test_apk_gets_the_launcher_and_nothing_else(monkeypatch, tmp_path):
    """What buildozer copies as the app's source (its own copy routine): app/main.py
    only; the app itself ships in the fastmine package the recipe builds (below)."""
    b = _buildozer(monkeypatch)
    b.config.set("buildozer", "build_dir", str(tmp_path))
    b.targetname = "android"
    Path(b.app_dir).mkdir(parents=True)
    b._copy_application_sources()
    shipped = sorted(str(p.relative_to(b.app_dir)) for p in Path(b.app_dir).rglob("*") if p.is_file())
    assert shipped == ["main.py"]


def _app_kv_files() -> tuple[str, ...]:
    """``application.KV_FILES``, read from the source (no Kivy needed)."""
    tree = ast.parse((ROOT / "src" / "fastmine" / "app" / "application.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "KV_FILES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("application.py names no KV_FILES")


# ------------------------------------------------------------------ requirements


def _imports(path: Path, module: str) -> list[tuple[str, int]]:
    """Every import in a file (module level and inside functions), as dotted names."""
    out = []
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                parts = parts if is_pkg else parts[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            out.append((base, node.lineno))
            out += [(f"{base}.{a.name}", node.lineno) for a in node.names]
    return out


def _source_of(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != "fastmine":
        return None
    p = (ROOT / "src").joinpath(*parts)
    for cand in (p / "__init__.py", p.with_suffix(".py")):
        if cand.is_file():
            return cand
    return None


def app_imports() -> dict[str, set[str]]:
    """Top-level names of every module the app can import, with where (file:line).

    From app/main.py and every module of fastmine.app, following imports through
    the fastmine package, lazy imports inside functions included (a lazy
    import still runs on the phone).  The Cython kernels' own imports are
    NumPy's (a requirement anyway).
    """
    todo = [(ROOT / "app" / "main.py", "main")]
    app = ROOT / "src" / "fastmine" / "app"
    for p in sorted(app.rglob("*.py")):
        parts = ("fastmine", "app", *p.relative_to(app).with_suffix("").parts)
        todo.append((p, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)))
    seen: set[Path] = set()
    found: dict[str, set[str]] = {}
    while todo:
        path, module = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name, line in _imports(path, module):
            top = name.split(".")[0]
            if top in ("fastmine", "main"):
                src = _source_of(name)
                if src is not None:
                    todo.append((src, name))
                if top != "fastmine":
                    continue
            if top == "__future__" or (top in sys.stdlib_module_names
                                       and top not in STDLIB_RECIPES and top not in NOT_ON_ANDROID):
                continue
            found.setdefault(top, set()).add(f"{path.relative_to(ROOT)}:{line}")
    return found


def test_every_module_the_app_imports_is_a_requirement(monkeypatch):
    b = _buildozer(monkeypatch)
    required = _requirements(b.config)
    found = app_imports()
    assert {"kivy", "numpy", "fastmine", "platformdirs"} <= set(found)  # the scan sees the app
    missing = []
    for top, where in sorted(found.items()):
        assert top not in NOT_ON_ANDROID, f"{top} does not exist on Android: {sorted(where)}"
        need = STDLIB_RECIPES.get(top) or REQUIREMENT_OF.get(top)
        assert need is not None, f"no python-for-android name known for {top!r} ({sorted(where)})"
        if need not in required:
            missing.append(f"{need} (import {top}: {', '.join(sorted(where)[:3])})")
    assert not missing, "add to requirements in buildozer.spec: " + "; ".join(missing)


def test_the_scan_follows_lazy_and_relative_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from . import a\nfrom .b import c\ndef f():\n    import plyer\n"
                 "    from ..x import y\n")
    names = {n for n, _ in _imports(f, "fastmine.app.sub.m")}
    assert {"fastmine.app.sub.a", "fastmine.app.sub.b.c", "plyer", "fastmine.app.x.y"} <= names


# ------------------------------------------------------------------ the recipe's build


_PLAY = """
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import fastmine
from fastmine import Game
g = Game(9, 9, 10, seed=7)
g.reveal(4, 4)
mines = np.asarray(g.board.mines).reshape(9, 9)
for r in range(9):
    for c in range(9):
        if not g.state.is_over and not mines[r, c] and g.view[r, c] == fastmine.HIDDEN:
            g.reveal(r, c)
print(json.dumps({"file": fastmine.__file__, "version": fastmine.__version__,
                  "state": g.state.name, "kernels": fastmine.game._kernels.__file__}))
"""


KERNELS_TO_PLAY = ["fastmine._kernels", "fastmine._metrics", "fastmine.solver._logic"]
"""What ``import fastmine`` loads (the game's metrics kernel too; the solver's strategies
load on first use)."""


@pytest.mark.slow  # compiles kernels with -O3: started first under pytest-xdist
def test_recipe_steps_build_a_kernel_that_plays(tmp_path):
    """The recipe's own steps (copy the sources, setup.py build_ext, stage the
    package) run for the host on the kernels ``import fastmine`` needs (the engine's,
    and the solver's logic behind rule="no_guess"); the staged package then plays."""
    pytest.importorskip("Cython", reason="building the kernels needs Cython (the android extra)")
    steps = _steps()
    assert "fastmine._kernels" in steps.extension_modules(ROOT)
    src = steps.copy_sources(ROOT, tmp_path / "src", KERNELS_TO_PLAY)
    assert not list(src.rglob("*.c")) and not list(src.rglob("*.so"))
    assert sorted(p.name for p in src.rglob("*.pyx")) == ["_kernels.pyx", "_logic.pyx", "_metrics.pyx"]
    import numpy

    # the recipe's environment rules on the host's compiler (p4a's env has CC and CFLAGS)
    cc = sysconfig.get_config_var("CC") or "cc"
    env = steps.cross_env({**os.environ, "CC": cc, "CFLAGS": "-fPIC"}, numpy.get_include())
    package = steps.build(src, tmp_path / "stage", env=env, jobs=2)
    assert steps.built_kernels(package) == KERNELS_TO_PLAY
    # the app ships in the package: its modules and every kv file it loads
    assert (package / "app" / "__main__.py").is_file()
    assert {p.relative_to(package / "app").as_posix() for p in (package / "app").rglob("*.kv")} >= set(
        _app_kv_files()) | {"replays/replays.kv", "screens/progress.kv"}
    res = subprocess.run([sys.executable, "-c", _PLAY, str(tmp_path / "stage")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).is_relative_to(tmp_path / "stage")
    assert Path(out["kernels"]).is_relative_to(tmp_path / "stage")
    assert out["version"] == steps.project_version(ROOT)  # the staged .dist-info is found
    assert out["state"] == "WON"


def test_cross_env_puts_back_optimisation_and_target_numpy():
    """p4a's CFLAGS replace the build Python's (and its -O3): the recipe adds it back,
    and the target NumPy's headers come before anything else."""
    steps = _steps()
    p4a = {"CC": "clang -target aarch64-linux-android24 -fomit-frame-pointer -march=armv8-a -fPIC",
           "CFLAGS": "-target aarch64-linux-android24 -fomit-frame-pointer -march=armv8-a -fPIC"}
    env = steps.cross_env(p4a, "/t/site-packages/numpy/_core/include")
    assert env["CFLAGS"].startswith("-I/t/site-packages/numpy/_core/include ")
    assert "-O3" in env["CFLAGS"].split() and "-march=armv8-a" in env["CFLAGS"]
    assert env["LDSHARED"] == p4a["CC"] + " -shared"
    assert p4a["CFLAGS"].startswith("-target")  # the caller's mapping is left as it was


def test_recipe_rebuilds_when_a_source_changes(tmp_path):
    steps = _steps()
    src = steps.copy_sources(ROOT, tmp_path / "a")
    before = steps.source_digest(src)
    assert before == steps.source_digest(ROOT)  # generated files do not count
    (src / "src" / "fastmine" / "viewcodes.py").write_text("# changed\n", encoding="utf-8")
    assert steps.source_digest(src) != before
    with pytest.raises(ValueError, match="no such kernel"):
        steps.copy_sources(ROOT, tmp_path / "b", ["fastmine._nope"])


def test_p4a_resolves_the_requirements_with_the_local_recipe():
    """python-for-android's own dependency graph, with this project's recipe
    (runs only where python-for-android is installed, e.g. buildozer's venv)."""
    pytest.importorskip("pythonforandroid", reason="python-for-android is not installed")
    from pythonforandroid.bootstrap import Bootstrap
    from pythonforandroid.build import Context
    from pythonforandroid.graph import get_recipe_order_and_bootstrap
    from pythonforandroid.recipe import Recipe

    spec = configparser.ConfigParser()
    spec.read(SPEC)
    ctx = Context()
    ctx.local_recipes = str(RECIPES)
    ctx.ndk_api = int(spec["app"]["android.ndk_api"])
    reqs = [r.strip().split("==")[0] for r in spec["app"]["requirements"].split(",")]
    bs = Bootstrap.get_bootstrap(spec["app"]["p4a.bootstrap"], ctx)
    order, pure_python, _bs = get_recipe_order_and_bootstrap(ctx, reqs, bs)
    assert order.index("numpy") < order.index("fastmine")
    assert {"platformdirs", "plyer"} <= set(pure_python)
    recipe = Recipe.get_recipe("fastmine", ctx)
    assert recipe.version == _steps().project_version(ROOT) and recipe.url is None


def test_p4a_recipe_builds_and_installs_for_the_host(tmp_path, monkeypatch):
    """The recipe class itself under python-for-android, its build_arch run to the
    end: only what needs the Android SDK is replaced (the NDK's compiler by the
    host's, p4a's NumPy by the host's, p4a's build Python by this one), and one
    kernel is built (runs only where python-for-android is installed)."""
    pytest.importorskip("pythonforandroid", reason="python-for-android is not installed")
    pytest.importorskip("Cython", reason="building the kernels needs Cython")
    import numpy
    from pythonforandroid.util import load_source

    mod = load_source("pythonforandroid.recipes.fastmine", str(RECIPES / "fastmine" / "__init__.py"))
    copy = mod.steps.copy_sources
    monkeypatch.setattr(mod.steps, "copy_sources",
                        lambda root, dest, modules=None: copy(root, dest, ["fastmine._kernels"]))
    cc = sysconfig.get_config_var("CC") or "cc"
    monkeypatch.setattr(mod.PythonRecipe, "get_recipe_env", lambda self, arch=None, with_flags_in_cc=True:
                        {**os.environ, "CC": cc, "CFLAGS": "-fPIC", "STRIP": "strip"})

    class HostNumpy:
        def get_include(self, arch):
            return numpy.get_include()

    monkeypatch.setattr(mod.Recipe, "get_recipe", classmethod(lambda cls, name, ctx: HostNumpy()))

    class Arch:
        arch = "x86_64"

    class Ctx:
        with_debug_symbols = False

        def get_python_install_dir(self, arch):
            return str(tmp_path / "site" / arch)

    class HostRecipe(mod.FastmineRecipe):
        real_hostpython_location = sys.executable

        def install_hostpython_prerequisites(self, *a, **k):
            pass

        def get_build_dir(self, arch):
            return str(tmp_path / "build" / getattr(arch, "arch", arch) / "fastmine")

    recipe, arch = HostRecipe(), Arch()
    recipe.ctx = Ctx()
    recipe.prepare_build_dir(arch.arch)
    assert recipe.should_build(arch)
    recipe.build_arch(arch)
    assert not recipe.should_build(arch)  # built from these sources: nothing to redo
    site = tmp_path / "site" / "x86_64"
    res = subprocess.run([sys.executable, "-c", _PLAY, str(site)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout.strip().splitlines()[-1])["state"] == "WON"
