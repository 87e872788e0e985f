"""The installed package: metadata, public names, the command line, the build mode."""

import subprocess
import sys
from pathlib import Path

import pytest

import fastmine
from fastmine import cli


@pytest.mark.skipif(fastmine.__version__ == "0+unknown", reason="running from an uninstalled source tree")
def test_version_comes_from_metadata():
    from importlib.metadata import version

    assert fastmine.__version__ == version("fastmine")


def test_public_contract_names():
    for name in ["Board", "Game", "GameState", "DIFFICULTIES", "HIDDEN", "FLAG", "QUESTION",
                 "MINE", "EXPLODED", "WRONG_FLAG"]:
        assert hasattr(fastmine, name), name
    codes = {fastmine.HIDDEN, fastmine.FLAG, fastmine.QUESTION, fastmine.MINE,
             fastmine.EXPLODED, fastmine.WRONG_FLAG}
    assert len(codes) == 6 and codes.isdisjoint(range(9))


def test_typing_files_are_shipped():
    """py.typed, and a .pyi stub beside every compiled module."""
    import importlib.machinery
    from pathlib import Path

    pkg = Path(fastmine.__file__).parent
    assert (pkg / "py.typed").exists()
    compiled = [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
                for p in pkg.rglob(f"*{suffix}")]
    assert len(compiled) >= 7, compiled      # _kernels and the solver's kernels
    for ext in compiled:
        name = ext.name.split(".")[0]
        assert (ext.parent / f"{name}.pyi").exists(), f"no stub for {ext.parent.name}/{name}"


def test_cli_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out


def test_python_dash_m_fastmine_version():
    out = subprocess.run([sys.executable, "-m", "fastmine", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert fastmine.__version__ in out


def test_namespace_is_the_public_api():
    """``dir(fastmine)`` lists the public API; helper imports do not leak."""
    assert dir(fastmine) == sorted(fastmine.__all__)
    for name in fastmine.__all__:
        assert hasattr(fastmine, name), name
    for leaked in ("version", "PackageNotFoundError", "_installed_version"):
        assert not hasattr(fastmine, leaked), leaked
    assert isinstance(fastmine.__version__, str)


TYPED_SCRIPT = Path(__file__).parent / "data" / "typed_user_script.py"


def _mypy_strict(tmp_path: Path, script: Path) -> subprocess.CompletedProcess[str]:
    """mypy --strict on ``script`` as a user would run it: the installed fastmine, no
    project configuration."""
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(tmp_path / "mypy.ini"),
         "--cache-dir", str(tmp_path / "cache"), str(script)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600)


def test_user_script_passes_mypy_strict(tmp_path):
    pytest.importorskip("mypy", reason="mypy comes with the lint extra")
    proc = _mypy_strict(tmp_path, TYPED_SCRIPT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = subprocess.run([sys.executable, str(TYPED_SCRIPT)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr


def test_misspelt_rule_and_strategy_fail_mypy(tmp_path):
    pytest.importorskip("mypy", reason="mypy comes with the lint extra")
    script = tmp_path / "misspelt.py"
    script.write_text("import fastmine\nfrom fastmine import solver\n\n"
                      "game = fastmine.Game(9, 9, 10, rule='openning')\n"
                      "solver.play(game, 'bets')\n")
    proc = _mypy_strict(tmp_path, script)
    assert proc.returncode == 1
    assert "misspelt.py:4: error" in proc.stdout and "openning" in proc.stdout
    assert "misspelt.py:5: error" in proc.stdout and "bets" in proc.stdout


def test_help_texts_name_features_not_sources(capsys):
    """What a user reads (every command's --help, plain mode's help) says what a
    feature is, not which design document it came from ("seed 002")."""
    import re

    from fastmine.cli.tui.plain import HELP

    texts = [HELP]
    for argv in [["--help"], *([name, "--help"] for name in cli.COMMANDS)]:
        with pytest.raises(SystemExit):
            cli.main(argv)
        texts.append(capsys.readouterr().out)
    for text in texts:
        assert not re.search(r"\bseeds? ?0\d\d", text, re.I), text


def _metadata():
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        return metadata("fastmine")
    except PackageNotFoundError:
        pytest.skip("fastmine is not installed (running from a source tree)")


def test_metadata_names_the_licence_versions_and_audience():
    md = _metadata()
    assert md["License-Expression"] == "MIT"
    classifiers = set(md.get_all("Classifier") or [])
    for minor in range(10, 15):    # the versions cibuildwheel builds (cp310 to cp314)
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    for audience in ("Developers", "Science/Research", "End Users/Desktop"):
        assert f"Intended Audience :: {audience}" in classifiers
    assert md["Requires-Python"] == ">=3.10"


def test_the_versions_classified_are_the_versions_built():
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        pytest.skip("needs pyproject.toml (a source checkout)")
    import re

    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    built = set(re.findall(r"cp3(\d+)-\*", text.split("[tool.cibuildwheel]", 1)[1]))
    classified = set(re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', text))
    assert built == classified == {"10", "11", "12", "13", "14"}


def test_extras_keep_the_tools_apart():
    """``test`` is the suite's own needs; lint, docs and Android tooling are extras of their
    own (buildozer brings a dependency tree the suite does not need)."""
    import re

    md = _metadata()
    extras: dict[str, set[str]] = {}
    for req in md.get_all("Requires-Dist") or []:
        m = re.match(r"([A-Za-z0-9_.\-]+).*extra == \"([a-z\-]+)\"", req)
        if m:
            extras.setdefault(m.group(2), set()).add(m.group(1).lower())
    assert extras["test"] == {"pytest", "hypothesis", "pyte", "pytest-xdist", "pytest-timeout",
                              "colorspacious"}
    assert extras["lint"] == {"ruff", "mypy"}
    assert extras["docs"] == {"sphinx", "numpydoc", "myst-parser"}
    assert "buildozer" in extras["android"]
    assert all("buildozer" not in names for extra, names in extras.items() if extra != "android")


def test_numpy_lower_bound_is_the_oldest_that_runs_the_wheels():
    md = _metadata()
    numpy = [r for r in md.get_all("Requires-Dist") or [] if r.startswith("numpy") and "extra" not in r]
    assert numpy == ["numpy>=1.25"]


def test_pip_show_prints_the_licence():
    """``pip show fastmine`` shows MIT (pip 25 and later print the PEP 639 licence
    expression; older ones print an empty License, which is why bootstrap.sh installs
    pip 25 or later)."""
    _metadata()
    from importlib.metadata import PackageNotFoundError, version

    try:
        pip_major = int(version("pip").split(".")[0])
    except PackageNotFoundError:
        pytest.skip("pip is not installed here")
    if pip_major < 25:
        pytest.skip(f"pip {version('pip')} does not print licence expressions (pip 25 does)")
    out = subprocess.run([sys.executable, "-m", "pip", "show", "fastmine"], capture_output=True,
                         text=True, check=True, timeout=120).stdout
    assert "License-Expression: MIT" in out.splitlines()


def test_the_installed_package_holds_no_source_nothing_imports():
    """The wheel ships what runs: no Cython sources (.pyx/.pxd/.pxi), no generated C,
    no translators' catalogs (.po/.pot: the app reads the compiled .mo). They are in
    the sdist (tests/test_sdist.py checks every tracked file is)."""
    from importlib.metadata import PackageNotFoundError, files

    try:
        shipped = files("fastmine")
    except PackageNotFoundError:
        pytest.skip("fastmine is not installed (a source tree on the path)")
    assert shipped, "the installed fastmine lists no files"
    names = [str(p) for p in shipped if str(p).startswith("fastmine/")]
    sources = sorted(n for n in names if n.endswith((".pyx", ".pxd", ".pxi", ".c", ".po", ".pot")))
    assert sources == []
    assert any(n.endswith(".mo") for n in names) and any(n.endswith(".pyi") for n in names)


def test_every_file_the_app_reads_is_package_data():
    """The app's kv files, fonts and compiled catalogs lie in its sub-packages
    (``screens/game.kv``, ``text/fonts/``, ``text/locale/``): each is matched by a
    package-data pattern of pyproject.toml, expanded as setuptools expands them
    (``glob`` in the package's folder, ``**`` recursive), so the wheel ships it."""
    import glob

    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        pytest.skip("pyproject.toml is not beside the tests (a run against an installed wheel)")
    with (root / "pyproject.toml").open("rb") as f:
        patterns = tomllib.load(f)["tool"]["setuptools"]["package-data"]["fastmine.app"]
    app = root / "src" / "fastmine" / "app"
    matched = {Path(p).resolve() for pattern in patterns
               for p in glob.glob(str(app / pattern), recursive=True)}
    needed = {p.resolve() for p in app.rglob("*")
              if p.suffix in (".kv", ".otf", ".ttf", ".mo") or p.name == "OFL.txt"}
    assert len([p for p in needed if p.suffix == ".kv"]) >= 10
    assert {p.parent.name for p in needed if p.suffix == ".kv"} >= {"screens", "replays", "dialogs"}
    assert sorted(str(p.relative_to(app.resolve())) for p in needed - matched) == []
