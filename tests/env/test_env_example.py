"""examples/train_agent.py runs (a few iterations; its plot too, with matplotlib)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_agent.py"
pytestmark = pytest.mark.skipif(not EXAMPLE.is_file(), reason="examples/ is not here")


def test_training_example_runs_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    main = runpy.run_path(str(EXAMPLE))["main"]
    out = tmp_path / "curve.png"
    result = main(["--iterations", "4", "--envs", "4", "--eval-every", "2",
                   "--eval-games", "8", "--updates", "1", "--batch", "64", "--out", str(out)])
    its = [it for it, _ in result["curve"]]
    assert its == [0, 2, 4]
    assert all(0.0 <= rate <= 1.0 for _, rate in result["curve"])
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("argv, words", [
    (["--eval-every", "0"], "--eval-every: expected a whole number of at least 1, got '0'"),
    (["--envs", "-3"], "--envs: expected a whole number of at least 1, got '-3'"),
    (["--iterations", "lots"], "--iterations: expected a whole number of at least 1, got 'lots'"),
    (["--envs", "9" * 5000],
     "--envs: expected a whole number of at least 1, got '99999999999999999999'... (5,000 characters)"),
])
def test_training_example_refuses_bad_numbers_before_training(argv, words, capsys):
    main = runpy.run_path(str(EXAMPLE))["main"]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and words in capsys.readouterr().err


def test_training_example_needs_matplotlib_for_its_plot_before_training(tmp_path, monkeypatch,
                                                                        capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)      # as if not installed
    main = runpy.run_path(str(EXAMPLE))["main"]
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "c.png")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--out needs matplotlib: pip install '" in err and "[plot]'" in err
    assert not (tmp_path / "c.png").exists()


def test_training_example_runs_numpy_on_one_blas_thread():
    """The example asks OpenBLAS for one thread before NumPy loads (unless the
    user chose): with several, a matrix product's sums come in another order
    and the documented curve is not reproduced (38.8/45.8/56.8% instead of
    39.8/52.2/58.2%)."""
    import os
    import subprocess
    import sys

    code = ("import runpy, os, sys; runpy.run_path(sys.argv[1]); "
            "print(os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split()[-1] == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"           # a user's own choice stands
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split()[-1] == "2"
