"""Smoke tests of the benchmark suite (bench/): it runs, writes what it should, and
survives a crashing peer.  No timing is asserted anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if not (ROOT / "bench" / "__main__.py").is_file():
    pytest.skip("bench/ is not here (tests run against an installed wheel)",
                allow_module_level=True)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import analysis  # noqa: E402
from bench.kernels import KERNELS, make_case, make_pool, pool_size, size  # noqa: E402
from bench.peers import PEERS, unavailable  # noqa: E402
from bench.timing import Sampler  # noqa: E402
from bench.worker import Worker  # noqa: E402


def _env() -> dict[str, str]:
    """The child runs the fastmine under test: the installed one in CI (the source
    tree there has no compiled kernels), the source tree when that is ours."""
    import fastmine

    src = ROOT / "src"
    ours = Path(fastmine.__file__).resolve().parent.parent == src.resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(src) if ours else None, str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def test_tiny_run_writes_json_markdown_and_rows(tmp_path):
    cmd = [sys.executable, "-m", "bench", "--sizes", "9x9,12x12/20",
           "--fastmine-only-sizes", "30x30", "--repeats", "1", "--min-time", "0.0005",
           "--timeout", "120", "--no-memory", "--no-solver", "--no-app", "--no-env",
           "--no-videos", "--no-plots", "--out", str(tmp_path), "--name", "smoke"]
    proc = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # Into a pipe (a log), not a terminal: no progress bar, whose \r frames made the
    # quick run's log one line of 10 kB.
    assert "\r" not in proc.stdout + proc.stderr
    doc = json.loads((tmp_path / "smoke.json").read_text())
    md = (tmp_path / "smoke.md").read_text()

    got = {(r["kernel"], r["peer"], r["size"]): r for r in doc["rows"]}
    expected = {(k, p, s) for k in KERNELS for p in PEERS for s in ("9x9", "12x12")}
    expected |= {(k, "fastmine", "30x30") for k in KERNELS}
    assert set(got) == expected
    for (_, peer, _), row in got.items():
        if unavailable(peer):
            assert row["status"] == "skipped"
        else:
            assert row["status"] == "ok", row
            assert row["us_per_call"] > 0 and row["repeats"] >= 1
    # Every available peer computed the same thing.
    assert analysis.disagreements(doc["rows"]) == []
    assert got[("bbbv", "fastmine", "12x12")]["mines"] == 20
    assert got[("reveal_empty", "fastmine", "9x9")]["check"] == 80
    # Calls rotate through a pool of boards (the same for every peer); generation needs none.
    fm = got[("reveal_opening", "fastmine", "12x12")]
    assert fm["boards"] == pool_size("reveal_opening", 12, 12) > 1 and "check_boards" in fm
    assert got[("gen_cell", "fastmine", "9x9")]["boards"] == 1
    for title in ("## Headline", "## Speed targets", "## Scaling", "## All figures",
                  "## Solver", "## App", "## Recorded games"):
        assert title in md
    assert "generate (opening)" in md and "vs pure Python" in md
    assert doc["breakdown"] and "_kernels.bbbv_openings (kernel)" in doc["breakdown"][0]

    # Re-rendering an earlier run measures nothing and gives the same report.
    (tmp_path / "smoke.md").unlink()
    proc = subprocess.run([sys.executable, "-m", "bench", "--from-json", str(tmp_path / "smoke.json"),
                           "--no-plots", "--out", str(tmp_path)], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "smoke.md").read_text() == md


def test_plots_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    from bench import plots

    rows = [{"kernel": "bbbv", "peer": p, "size": f"{n}x{n}", "cells": n * n, "status": "ok",
             "us_per_call": t * n * n} for p, t in (("fastmine", 0.01), ("pure_python", 1.0))
            for n in (10, 60, 100)]
    doc = {"name": "t", "rows": rows, "kernels": {"bbbv": {"title": "3BV"}},
           "peers": {"fastmine": {"label": "fastmine"}, "pure_python": {"label": "pure Python"}}}
    made = plots.write_all(doc, tmp_path, "t")
    for name in made.values():
        assert (tmp_path / name).stat().st_size > 1000


def test_worker_records_a_crash_and_a_timeout_then_goes_on():
    with Worker() as w:
        crash = w.call("os:abort", {}, timeout=60)
        assert crash["status"] == "crash" and "SIGABRT" in crash["error"]
        ok = w.call("json:dumps", {"obj": [1, 2]}, timeout=60)
        assert ok["status"] == "ok" and ok["result"] == "[1, 2]"
        late = w.call("subprocess:run", {"args": ["sleep", "30"]}, timeout=0.5)
        assert late["status"] == "timeout"
        err = w.call("json:loads", {"s": "{"}, timeout=60)
        assert err["status"] == "error" and "JSONDecodeError" in err["error"]
        assert w.restarts == 2


def test_cases_are_shared_and_sensible():
    a = make_case("bbbv", 16, 30, 99, seed=3)
    b = make_case("bbbv", 16, 30, 99, seed=3)
    assert (a.mask == b.mask).all() and a.mask.sum() == 99
    r, c = a.click
    assert not a.mask[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].any()
    e = make_case("reveal_empty", 9, 9, 10, seed=3)
    assert e.mask.sum() == 1 and e.click == (0, 0)
    o = make_case("reveal_opening", 50, 50, 500, seed=3)
    assert not o.mask[o.click]
    assert size("16x30") == size("16x30/99") and size("200x200").mines == 8000


def test_timed_calls_rotate_through_the_pool():
    pool = make_pool("reveal_opening", 30, 30, 180, seed=3)
    assert len(pool) == pool_size("reveal_opening", 30, 30) == 64
    assert len({p.mask.tobytes() for p in pool}) == 64       # different boards
    assert (pool[0].mask == make_case("reveal_opening", 30, 30, 180, seed=3).mask).all()
    assert pool_size("count", 1000, 1000) == 8 and pool_size("bbbv", 5000, 5000) == 2
    assert pool_size("gen_opening", 200, 200) == 1

    seen: list[int] = []
    calls = [lambda i=i: seen.append(i) for i in range(3)]
    s = Sampler(calls, min_time=1e-5, max_batch=10)
    s.calibrate()
    s.sample()
    s.sample()
    assert seen == [i % 3 for i in range(len(seen))] and s.result()["boards"] == 3

    seen.clear()
    s = Sampler([lambda st: seen.append(st) for _ in range(4)],
                [lambda i=i: i for i in range(4)], min_time=1e-5, max_batch=3)
    s.calibrate()
    s.sample()
    s.sample()
    assert seen == [i % 4 for i in range(len(seen))] and len(seen) > 4


def test_analysis_ratios_slopes_targets():
    rows = []
    for n in (50, 100, 200):
        cells = n * n
        rows.append({"kernel": "bbbv", "peer": "fastmine", "size": f"{n}x{n}", "cells": cells,
                     "status": "ok", "us_per_call": 0.01 * cells, "check": 7})
        rows.append({"kernel": "bbbv", "peer": "pure_python", "size": f"{n}x{n}",
                     "cells": cells, "status": "ok", "us_per_call": 2.0 * cells, "check": 7})
        rows.append({"kernel": "bbbv", "peer": "ms_toollib", "size": f"{n}x{n}", "cells": cells,
                     "status": "crash" if n == 200 else "ok", "us_per_call": 0.005 * cells,
                     "check": 7})
    rat = analysis.ratios([r for r in rows if r["status"] == "ok"] + [rows[-1]])
    assert analysis.ratio_of(rat, "bbbv", "pure_python", "100x100") == pytest.approx(200)
    assert analysis.ratio_of(rat, "bbbv", "ms_toollib", "200x200") is None
    assert analysis.slopes(rows)["bbbv"]["fastmine"]["slope"] == pytest.approx(1.0)
    t = {(r["peer"], r["size"]): r["ok"] for r in analysis.targets(rows)}
    assert t[("pure_python", "50x50")] is True
    assert t[("ms_toollib", "50x50")] is False
    assert t[("ms_toollib", "200x200")] is None
    rows[0]["check"] = 8
    assert analysis.disagreements(rows)[0]["size"] == "50x50"
    rows[0]["check"] = 7
    assert analysis.disagreements(rows) == []
    for r in rows[:2]:                        # the same first board, another pool sum
        r["boards"], r["check_boards"] = 2, 14 if r["peer"] == "fastmine" else 15
    assert analysis.disagreements(rows)[0]["size"] == "50x50"


def test_fastmine_bench_command_wires_the_suite(monkeypatch, capsys):
    from fastmine.cli import bench as bench_command

    assert bench_command.find_root() == ROOT
    with pytest.raises(SystemExit) as exc:       # the suite's own options
        bench_command.main(["--help"])
    assert exc.value.code == 0 and "--quick" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        bench_command.main(["--sizes", "nonsense"])
    assert exc.value.code == 2 and "ROWSxCOLS" in capsys.readouterr().err

    monkeypatch.setattr(bench_command, "find_root", lambda: None)
    assert bench_command.main(["--quick"]) == 2
    assert "source checkout" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        bench_command.main(["--help"])
    assert exc.value.code == 0 and "source checkout" in capsys.readouterr().out


def test_probability_scaling_case_reports_each_size():
    from bench.solver_bench import scaling_task

    res = scaling_task([30, 300], density=0.3, revealed=0.5, seed=1)
    small, big = res["rows"]
    assert small["side"] == 30 and small["status"] == "ok" and small["blocks"] >= 1
    assert big["status"] == "refused" and "max_entries" in big["reason"]
    assert all(r["seconds"] >= 0 and r["peak_mb"] >= 0 for r in res["rows"])
