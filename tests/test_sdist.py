"""The source distribution: what a packager downloads must build, install and test.

The sdist is built from this checkout (setuptools' own build backend, as
``python -m build --sdist`` calls it), unpacked, installed into a fresh virtual
environment and tested there: the whole suite is collected without an error and
the engine's tests pass, against the package installed from the sdist (not this
checkout's ``src/``).  The fresh environment sees this one's packages (the build
tools, pytest, NumPy) through a ``.pth`` file, so nothing is downloaded; the
install compiles every kernel, which takes minutes on two cores: marked slow.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file() or not (ROOT / ".git").exists(),
                       reason="builds the sdist from a source checkout"),
    # CI runs the suite twice (release and bounds-checked kernels); the sdist's own
    # build is a release build, tested once.
    pytest.mark.skipif(os.environ.get("FASTMINE_DEBUG", "") not in ("", "0"),
                       reason="the release run tests the sdist"),
]

# Files the sdist must hold besides the package (each a path in the checkout).
MUST_HOLD = ["CHANGELOG.md", "LICENSE", "README.md", "MANIFEST.in", "app/main.py",
             "buildozer.spec", "docs/conf.py", "docs/index.md", "scripts/test.sh",
             "tests/conftest.py", "tests/app/conftest.py", "tests/reference.py"]


def _tracked(*folders: str) -> set[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--", *folders], cwd=ROOT, capture_output=True,
                         check=True).stdout.decode()
    return {p for p in out.split("\0") if p and (ROOT / p).is_file()}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("setuptools", reason="building the sdist needs setuptools")
    pytest.importorskip("Cython", reason="building the sdist needs Cython")
    out = tmp_path_factory.mktemp("sdist")
    name = subprocess.run(
        [sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                               "print(b.build_sdist(sys.argv[1]))", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300).stdout.split()[-1]
    return out / name


def _members(archive: Path) -> set[str]:
    with tarfile.open(archive) as tar:
        return {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile() and "/" in m.name}


@pytest.mark.slow
def test_the_sdist_holds_the_tests_docs_and_packaging(sdist: Path) -> None:
    members = _members(sdist)
    missing = [p for p in MUST_HOLD if p not in members]
    assert not missing, f"not in the sdist: {missing}"
    # Every tracked file of these folders: the suite with its helpers and data, the
    # docs, the benchmarks, the examples, the scripts, the Android recipe.
    tracked = _tracked("tests", "docs", "bench", "examples", "scripts", "recipes", "src")
    tracked -= {p for p in tracked if p.startswith("bench/results/") and "/full" not in p}
    missing = sorted(tracked - members)
    assert not missing, f"tracked but not in the sdist: {missing[:20]}"
    # Build artefacts never ship: the C is generated again from the .pyx sources.
    artefacts = sorted(p for p in members if p.endswith((".c", ".so", ".pyd", ".o", ".pyc")))
    assert not artefacts, artefacts


@pytest.mark.slow
def test_the_sdist_installs_and_its_tests_pass(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp_path, filter="data")
        else:                               # Python 3.10 before 3.10.12: our own archive
            tar.extractall(tmp_path)
    (src,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    env_dir = tmp_path / "venv"
    venv.create(env_dir)   # no pip or setuptools of its own: this environment's serve
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    purelib = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # This environment's packages (setuptools, Cython, NumPy, pytest, hypothesis, ...)
    # after the fresh environment's own: no download, and fastmine comes from the sdist.
    Path(purelib, "borrowed-tools.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FASTMINE_DEBUG")}
    # The release build, with the C compiler's optimiser off: what is checked here is
    # that the sdist builds and its tests run, and -O0 compiles the kernels about 6x
    # faster than Python's -O3 (the suite checks the optimised build everywhere else).
    env["CFLAGS"] = (env.get("CFLAGS", "") + " -O0").strip()
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                    "--no-build-isolation", "--disable-pip-version-check", str(src)],
                   cwd=tmp_path, env=env, check=True, timeout=1800)
    where = subprocess.run([py, "-c", "import fastmine; print(fastmine.__file__)"], cwd=src, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where
    env["MPLBACKEND"] = "Agg"
    collect = subprocess.run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only"],
                             cwd=src, env=env, capture_output=True, text=True, timeout=600)
    assert collect.returncode == 0, collect.stdout[-3000:] + collect.stderr[-2000:]
    run = subprocess.run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                          "tests/test_game_rules.py", "tests/test_board.py"],
                         cwd=src, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]


@pytest.mark.slow
def test_building_the_sdist_generates_no_c(tmp_path: Path) -> None:
    """A packager's ``python -m build --sdist`` on a clean checkout leaves it clean:
    setup.py once cythonized all twelve modules when it was read, for an sdist too,
    and left their C beside the sources."""
    pytest.importorskip("Cython", reason="reading setup.py needs Cython")
    import shutil

    tree = tmp_path / "checkout"
    for rel in _tracked("src") | {"setup.py", "pyproject.toml", "MANIFEST.in", "README.md",
                                   "LICENSE", "CHANGELOG.md"}:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tree / rel)
    subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                    "b.build_sdist(sys.argv[1])", str(tmp_path / "out")],
                   cwd=tree, capture_output=True, text=True, check=True, timeout=600)
    made = sorted(str(p.relative_to(tree)) for p in tree.rglob("*.c"))
    assert made == []
    assert not (tree / "build").exists() or not any((tree / "build").rglob("*.c"))
