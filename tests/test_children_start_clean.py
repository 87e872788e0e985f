"""No process fastmine starts imports from the folder it was started in.

A ``multiprocessing/`` package planted in the working folder was imported by
the resource tracker and both Dask workers of ``fastmine solve --scheduler
local`` (which still ended with exit 0), by spawn/forkserver pool workers and
by the benchmark's workers: Python puts the working folder first on the path
of every ``python -c`` child.  Every start now goes through
:mod:`fastmine.children` (``PYTHONSAFEPATH=1``).  Each run here is a real
process started in a folder holding the planted package, from a launcher
script elsewhere (so the parent itself does not have the folder on its path);
the planted package notes who imported it, then hands over to the real one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fastmine import children

ROOT = Path(__file__).resolve().parents[1]

PLANTED = """\
import os, sys
with open(os.environ["FASTMINE_TEST_MARKER"], "a") as f:
    f.write(f"{os.getpid()} {sys.argv[:2]}\\n")
_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
del sys.modules[__name__]
import multiprocessing  # noqa: E402,F401  (the real one, for whoever imported this)
"""

LAUNCHER = """\
import multiprocessing, sys
if __name__ == "__main__":
    if sys.argv[1] != "default":
        multiprocessing.set_start_method(sys.argv[1])
    {body}
"""


@pytest.fixture
def planted(tmp_path):
    """(working folder with a planted multiprocessing/, launcher folder, marker, env)."""
    work = tmp_path / "work"
    (work / "multiprocessing").mkdir(parents=True)
    (work / "multiprocessing" / "__init__.py").write_text(PLANTED)
    launch = tmp_path / "launch"
    launch.mkdir()
    marker = tmp_path / "imported-the-planted-package"
    env = dict(os.environ, FASTMINE_TEST_MARKER=str(marker),
               FASTMINE_DATA_DIR=str(tmp_path / "data"))
    env.pop("PYTHONSAFEPATH", None)
    import fastmine

    src = str(Path(fastmine.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, str(ROOT), env.get("PYTHONPATH")) if p)
    return work, launch, marker, env


def _run(planted, body: str, method: str = "default") -> subprocess.CompletedProcess[str]:
    work, launch, marker, env = planted
    script = launch / "run.py"
    script.write_text(LAUNCHER.format(body=body))
    proc = subprocess.run([sys.executable, str(script), method], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def _imported(marker: Path) -> str:
    return marker.read_text() if marker.exists() else ""


def test_the_planted_package_is_imported_by_a_plain_child(planted):
    """The check itself works: a child started without fastmine's care imports it."""
    _run(planted, "import subprocess; subprocess.run([sys.executable, '-c', "
                  "'import multiprocessing'], check=True)")
    assert _imported(planted[2])


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_solve_pool_workers_start_clean(planted, method):
    _run(planted, "from fastmine import cli; sys.exit(cli.main(['solve', '-d', 'beginner', "
                  "'-n', '8', '-j', '2', '-q']))", method)
    assert _imported(planted[2]) == ""


def test_solve_on_a_local_dask_cluster_starts_clean(planted):
    pytest.importorskip("dask.distributed", reason="needs the dist extra")
    _run(planted, "from fastmine import cli; sys.exit(cli.main(['solve', '-d', 'beginner', "
                  "'-n', '8', '-j', '2', '-q', '--scheduler', 'local']))")
    assert _imported(planted[2]) == ""


def test_bench_workers_start_clean(planted):
    if not (ROOT / "bench" / "worker.py").is_file():
        pytest.skip("bench/ is not here (tests run against an installed wheel)")
    _run(planted, "from bench.worker import Worker\n"
                  "    with Worker() as w:\n"
                  "        assert w.call('textwrap:dedent', {'text': '  x'}, timeout=60)['result'] == 'x'")
    assert _imported(planted[2]) == ""


def test_clean_children_sets_and_restores_the_environment(monkeypatch):
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    with children.clean_children():
        with children.clean_children():
            assert os.environ["PYTHONSAFEPATH"] == "1"
        assert os.environ["PYTHONSAFEPATH"] == "1"
    assert "PYTHONSAFEPATH" not in os.environ
    monkeypatch.setenv("PYTHONSAFEPATH", "")
    with children.clean_children():
        pass
    assert os.environ["PYTHONSAFEPATH"] == ""
    assert children.clean_env({"A": "b"}) == {"A": "b", "PYTHONSAFEPATH": "1"}


def test_every_process_start_goes_through_the_one_mechanism():
    """A new place that starts processes uses fastmine.children (this test reads the code)."""
    # (".get_context(": multiprocessing's; Kivy's graphics get_context() starts nothing)
    starts = ("ProcessPoolExecutor(", "LocalCluster(", ".Process(", ".get_context(",
              "subprocess.run([sys.executable", "subprocess.Popen([sys.executable")
    modules = list(Path(children.__file__).resolve().parent.rglob("*.py"))
    if (ROOT / "bench").is_dir():
        # the benchmark's committed modules (a file being written is not held to it yet)
        tracked = subprocess.run(["git", "ls-files", "bench"], cwd=ROOT, capture_output=True,
                                 text=True, check=False).stdout.split()
        modules += [ROOT / name for name in tracked if name.endswith(".py")]
    found = []
    for module in modules:
        text = module.read_text(encoding="utf-8")
        if any(s in text for s in starts):
            found.append(module.name)
            assert "clean_children" in text or "clean_env" in text, module
    assert {"runs.py", "cluster.py"} <= set(found)
