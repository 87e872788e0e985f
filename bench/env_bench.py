"""Environment section: steps per second of fastmine's Gymnasium environments and their peers.

Every loop plays random valid reveals and starts a new episode when one ends,
as an agent's data collection does; the figure is environment steps per
second (a batched step of B games counts B, less the games that spend it on
an auto-reset).  Each peer chooses its random
valid reveal the cheapest way it offers:

* fastmine, one game: ``MinesweeperEnv.step(env.random_reveal())``, ``reset()``
  when an episode ends (the class itself, no ``gymnasium.make`` wrappers).
* fastmine, batched: ``MinesweeperVectorEnv.step(envs.random_reveals())`` with
  B = 1024 games and Gymnasium's next-step auto-reset, the kernel writing into
  its preallocated arrays (``copy=False``); also with ``copy=True`` (the
  default: new observation, reward and mask arrays every step, which the
  kernel writes game by game as it steps them).
* gym-minesweeper 0.0.1 (old gym API): a random hidden cell by rejection in
  Python, ``reset()`` when done.  Its ``step`` refuses a column index at or
  above the row count, so Expert runs as its transpose, 30 rows of 16.
* Jumanji (JAX): ``VmapAutoResetWrapper`` over B = 8192 games, a whole
  ``lax.scan`` of steps compiled with ``jax.jit``, actions drawn from the
  action mask with ``jax.random.categorical``; compile time not counted.

Two more tables, their rows taking turns the same way: the batch size (the
batched environment at Expert, ``copy=True``, B from 64 to 8192, beside the
one-game loop), and exact labels (``labels=True``, one game and a batch of 64,
16x16/40).

The runs of one size take turns (every row's first run, then every row's
second, ...), so a change in the machine's load hits them alike and the
ratios between them hold; Jumanji's runs stay together in their own process.
Every measurement runs pinned to one CPU core (``os.sched_setaffinity``;
Jumanji in a fresh process whose XLA is told to use one thread), so "steps per
second on one core" is literal.  The rules differ (see ``RULES``); the
fastmine rows are given for the default rule (``opening``) and for ``none``
(the first reveal may lose, as in both peers).
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import tempfile
import time
from pathlib import Path

SIZES = ("10x10/10", "16x16/40", "16x30/99")
QUICK_SIZES = ("10x10/10",)
BATCH = 1024
JAX_BATCH = 8192
SWEEP_SIZE = "16x30/99"
SWEEP_BATCHES = (64, 256, 1024, 4096, 8192)
QUICK_SWEEP_BATCHES = (64, 1024)
LABELS_SIZE = "16x16/40"
LABELS_BATCH = 64

PEERS = {
    "fastmine_single": "fastmine, one game",
    "fastmine_batch": f"fastmine, batched (B={BATCH})",
    "gym_minesweeper": "gym-minesweeper 0.0.1",
    "jumanji": f"Jumanji (JAX, vmap + scan, B={JAX_BATCH})",
    "jumanji_tuned": f"Jumanji, tuned (its boards drawn as top-k of uniform noise, B={JAX_BATCH})",
}

RULES = {
    "fastmine_single": "every rule, flood fill; flags and chords optional",
    "fastmine_batch": "every rule, flood fill; flags and chords optional",
    "gym_minesweeper": "flood fill (recursive), no flags, first click not safe; old 4-value step",
    "jumanji": "reveals only the clicked cell (no flood fill), no flags, first click not safe",
    "jumanji_tuned": "as Jumanji",
}


_now = time.perf_counter


def _use_clock(name: str) -> None:
    """``"wall"``: perf_counter; ``"cpu"``: this process's CPU time (steadier on a
    shared machine; every loop here runs on one thread)."""
    global _now
    _now = time.process_time if name == "cpu" else time.perf_counter


@contextlib.contextmanager
def one_core():
    """Pin this process to one CPU core for the block (where the OS allows it)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


def _fastmine_single(rows, cols, mines, rule, seconds, seed, num_envs, copy, labels=False):
    from fastmine.env import MinesweeperEnv

    env = MinesweeperEnv(rows, cols, mines, rule, **({"labels": True} if labels else {}))
    env.reset(seed=seed)
    step, sample, reset = env.step, env.random_reveal, env.reset
    steps = episodes = 0
    t0 = _now()
    while True:
        for _ in range(512):
            _, _, terminated, truncated, _ = step(sample())
            if terminated or truncated:
                reset()
                episodes += 1
        steps += 512
        if _now() - t0 >= seconds:
            return steps, episodes, _now() - t0


def _fastmine_batch(rows, cols, mines, rule, seconds, seed, num_envs, copy, labels=False):
    from fastmine.env import MinesweeperVectorEnv

    envs = MinesweeperVectorEnv(num_envs, copy=copy, rows=rows, cols=cols, mines=mines, rule=rule,
                                **({"labels": True} if labels else {}))
    envs.reset(seed=seed)
    step, sample = envs.step, envs.random_reveals
    # Only steps that play an action count: a game whose episode ended spends its
    # next step on the auto-reset (its action ignored), which a one-game loop does
    # in reset(), outside its steps.
    steps = episodes = resetting = 0
    t0 = _now()
    while True:
        for _ in range(8):
            _, _, terminated, truncated, _ = step(sample())
            steps += num_envs - resetting
            resetting = int((terminated | truncated).sum())
            episodes += resetting
        if _now() - t0 >= seconds:
            return steps, episodes, _now() - t0


def _gym_minesweeper(rows, cols, mines, rule, seconds, seed, num_envs, copy, labels=False):
    import random
    import warnings

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")     # (gym's notice that it is unmaintained)
        from gym_minesweeper.envs.minesweeper import MinesweeperEnv
    if cols > rows:         # its step checks the column against the row count too
        rows, cols = cols, rows
    random.seed(seed)       # it lays mines with the random module and ignores reset(seed)
    env = MinesweeperEnv(height=rows, width=cols, num_mines=mines)
    state = env.reset()
    rand = random.randrange
    steps = episodes = 0
    t0 = _now()
    while True:
        for _ in range(256):
            x, y = rand(rows), rand(cols)
            while state[x, y] != -1:
                x, y = rand(rows), rand(cols)
            state, _, done, _ = env.step((x, y))
            if done:
                state = env.reset()
                episodes += 1
        steps += 256
        if _now() - t0 >= seconds:
            return steps, episodes, _now() - t0


LOOPS = {"fastmine_single": _fastmine_single, "fastmine_batch": _fastmine_batch,
         "gym_minesweeper": _gym_minesweeper}


def steps_task(peer: str, rows: int, cols: int, mines: int, rule: str, seconds: float,
               repeats: int, seed: int, num_envs: int = BATCH, clock: str = "wall",
               copy: bool = False, labels: bool = False) -> dict:
    """Steps per second of one peer's loop (median of ``repeats`` runs of
    ``seconds`` each, on one core); ``labels``: with exact labels (fastmine only)."""
    _use_clock(clock)
    if peer.startswith("jumanji"):
        return jumanji_task(rows, cols, mines, seconds, repeats, seed, clock=clock,
                            tuned=peer == "jumanji_tuned")
    loop = LOOPS[peer]
    rates, eps = [], []
    with one_core() as core:
        loop(rows, cols, mines, rule, min(seconds, 0.05), seed, num_envs, copy, labels)  # warm up
        for r in range(repeats):
            steps, episodes, secs = loop(rows, cols, mines, rule, seconds, seed + r, num_envs,
                                         copy, labels)
            rates.append(steps / secs)
            eps.append(steps / max(episodes, 1))
    return {"steps_per_s": statistics.median(rates), "samples": rates,
            "steps_per_episode": statistics.median(eps), "core": core}


def jumanji_task(rows: int, cols: int, mines: int, seconds: float, repeats: int,
                 seed: int, num_envs: int = JAX_BATCH, clock: str = "wall",
                 tuned: bool = False) -> dict:
    """Jumanji's Minesweeper, compiled vmap + scan with auto-reset (run it in a
    fresh process: XLA's threads are set before JAX is imported).

    ``tuned``: the best setup we could write for it, a mine generator taking the
    top ``mines`` cells of uniform noise (the same distribution of boards as its
    stock generator's draw without replacement, which costs most of its reset).
    """
    _use_clock(clock)
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                               + " --xla_cpu_multi_thread_eigen=false"
                               + " intra_op_parallelism_threads=1").strip()
    with one_core() as core:
        import jax
        import jax.numpy as jnp
        from jumanji.environments import Minesweeper
        from jumanji.environments.logic.minesweeper.generator import UniformSamplingGenerator
        from jumanji.wrappers import VmapAutoResetWrapper

        generator = UniformSamplingGenerator(rows, cols, mines)
        if tuned:
            class TopK(UniformSamplingGenerator):
                def generate_flat_mine_locations(self, key):
                    noise = jax.random.uniform(key, (self.num_rows * self.num_cols,))
                    return jax.lax.top_k(noise, self.num_mines)[1].astype(jnp.int32)

            generator = TopK(rows, cols, mines)
        env = VmapAutoResetWrapper(Minesweeper(generator=generator))
        length = 64

        def body(carry, _):
            state, ts, key = carry
            key, sub = jax.random.split(key)
            logits = jnp.where(ts.observation.action_mask.reshape(num_envs, -1), 0.0, -jnp.inf)
            flat = jax.random.categorical(sub, logits)
            state, ts = env.step(state, jnp.stack([flat // cols, flat % cols], axis=-1))
            return (state, ts, key), ts.last().sum()

        run = jax.jit(lambda carry: jax.lax.scan(body, carry, None, length=length))
        key = jax.random.PRNGKey(seed)
        state, ts = jax.jit(env.reset)(jax.random.split(key, num_envs))
        t_compile = _now()
        carry, ends = run((state, ts, key))
        jax.block_until_ready(carry)
        compile_s = _now() - t_compile
        rates, eps = [], []
        for _ in range(repeats):
            steps = episodes = 0
            t0 = _now()
            while _now() - t0 < seconds:
                carry, ends = run(carry)
                episodes += int(ends.sum())         # (synchronises)
                steps += length * num_envs
            secs = _now() - t0
            rates.append(steps / secs)
            eps.append(steps / max(episodes, 1))
    return {"steps_per_s": statistics.median(rates), "samples": rates,
            "steps_per_episode": statistics.median(eps), "core": core,
            "compile_s": compile_s, "jax": jax.__version__, "tuned": tuned}


def dataset_task(rows: int, cols: int, mines: int, positions: int, seed: int,
                 clock: str = "wall") -> dict:
    """Positions per second written by ``fastmine.env.dataset`` (labels included)."""
    from fastmine.env import dataset

    _use_clock(clock)
    with one_core(), tempfile.TemporaryDirectory() as tmp:
        t0 = _now()
        dataset(Path(tmp) / "d.npz", positions, rows=rows, cols=cols, mines=mines, seed=seed,
                progress=False)
        secs = _now() - t0
    return {"positions": positions, "seconds": secs, "positions_per_s": positions / secs}


def _args(row: dict, cfg, seconds: float, repeats: int) -> dict:
    """The arguments of :func:`steps_task` for one row of the plan."""
    args = {"peer": row["peer"], "rows": row["rows"], "cols": row["cols"], "mines": row["mines"],
            "rule": row["rule"], "seconds": seconds, "repeats": repeats, "seed": cfg.seed,
            "clock": cfg.clock, "copy": row["copy"]}
    for key in ("num_envs", "labels"):          # the sweep's and the labels' rows
        if key in row:
            args[key] = row[key]
    return args


def _take_turns(rows: list[dict], cfg, worker, progress, seconds: float, repeats: int,
                what) -> None:
    """Run ``rows`` one run each, repeat after repeat (a change of load hits them
    alike), and write each row's median into it.  ``what``: the progress bar's words,
    a string or a function of the row."""
    runs: dict[int, list[dict]] = {id(r): [] for r in rows}
    for k in range(repeats):
        for row in rows:
            if row.get("status") not in (None, "ok"):
                continue
            words = what(row) if callable(what) else what
            progress.set_postfix_str(f"env {words} ({k + 1}/{repeats})", refresh=False)
            res = worker.call("bench.env_bench:steps_task",
                              _args(row, cfg, seconds, 1) | {"seed": cfg.seed + k},
                              timeout=cfg.timeout + 30 * seconds)
            row["status"] = res["status"]
            if res["status"] == "ok":
                runs[id(row)].append(res["result"])
            else:
                row["error"] = res.get("error")
    for row in rows:
        done = runs[id(row)]
        if row["status"] == "ok":
            row.update(steps_per_s=statistics.median(d["steps_per_s"] for d in done),
                       samples=[d["steps_per_s"] for d in done],
                       steps_per_episode=statistics.median(d["steps_per_episode"] for d in done),
                       core=done[0]["core"])
        progress.update()


def _extra_rows(cfg, size_of) -> tuple[list[dict], list[dict]]:
    """The batch-size sweep's rows and the labels' rows (not yet measured)."""
    lab = QUICK_SIZES[0] if cfg.quick else SWEEP_SIZE
    s = size_of(lab)
    base = {"size": lab, "rows": s.rows, "cols": s.cols, "mines": s.mines, "rule": "opening"}
    sweep = [base | {"peer": "fastmine_single", "copy": False, "num_envs": 1}]
    sweep += [base | {"peer": "fastmine_batch", "copy": True, "num_envs": b}
              for b in (QUICK_SWEEP_BATCHES if cfg.quick else SWEEP_BATCHES)]
    lab = QUICK_SIZES[0] if cfg.quick else LABELS_SIZE
    s = size_of(lab)
    base = {"size": lab, "rows": s.rows, "cols": s.cols, "mines": s.mines, "rule": "opening",
            "copy": True, "labels": True}
    labelled = [base | {"peer": "fastmine_single", "num_envs": 1},
                base | {"peer": "fastmine_batch", "num_envs": LABELS_BATCH}]
    return sweep, labelled


def unavailable(peer: str) -> str | None:
    """Why a peer cannot run here (its package is missing), or None."""
    import importlib.util

    module = {"gym_minesweeper": "gym_minesweeper", "jumanji": "jumanji",
              "jumanji_tuned": "jumanji"}.get(peer)
    if module and importlib.util.find_spec(module) is None:
        extra = "bench-env" if peer == "gym_minesweeper" else "bench-jax"
        return f"{module} is not installed (pip install '.[{extra}]' in fastmine's checkout)"
    if module is None and importlib.util.find_spec("gymnasium") is None:
        return "gymnasium is not installed (pip install '.[env]' in fastmine's checkout)"
    return None


def labels_only(cfg, worker, progress) -> list[dict]:
    """Only the labels' rows (one game and a batch, labelled, taking turns)."""
    from .kernels import size

    _, labelled = _extra_rows(cfg, size)
    progress.total += len(labelled)
    _take_turns(labelled, cfg, worker, progress, max(10 * cfg.min_time, 0.05),
                min(cfg.repeats, 3), "labels")
    return labelled


def run(cfg, worker, progress) -> dict:
    """The environment section of the results document."""
    from .kernels import size
    from .worker import run_isolated

    labels = QUICK_SIZES if cfg.quick else SIZES
    # Ten times the suite's shortest loop (1 s by default, 0.1 s quick), at most 3 repeats.
    seconds = max(10 * cfg.min_time, 0.05)
    repeats = min(cfg.repeats, 3)
    peers = (["fastmine_single", "fastmine_batch", "gym_minesweeper"]
             + ([] if cfg.quick else ["jumanji", "jumanji_tuned"]))
    skipped = {p: why for p in peers if (why := unavailable(p))}
    out: dict = {"batch": BATCH, "jax_batch": JAX_BATCH, "seconds": seconds, "repeats": repeats,
                 "clock": cfg.clock,
                 "peers": {p: {"label": PEERS[p], "rules": RULES[p], "skipped": skipped.get(p)}
                           for p in peers}, "rows": []}
    plan = []
    for lab in labels:
        for p in peers:
            if p.startswith("fastmine"):
                plan += [(lab, p, "opening", False), (lab, p, "none", False)]
                if p == "fastmine_batch":
                    plan.append((lab, p, "opening", True))
            else:
                plan.append((lab, p, "none", False))
    progress.total += len(plan) + 1
    rows = []
    for lab, peer, rule, copy in plan:
        s = size(lab)
        row = {"size": lab, "rows": s.rows, "cols": s.cols, "mines": s.mines, "peer": peer,
               "rule": rule, "copy": copy}
        if peer in skipped:
            row.update(status="skipped", error=skipped[peer])
            progress.update()
        rows.append(row)
    for lab in labels:
        here = [r for r in rows if r["size"] == lab and "status" not in r]
        # Jumanji compiles for up to a minute of CPU a size: all its runs in one process.
        for row in [r for r in here if r["peer"].startswith("jumanji")]:
            progress.set_postfix_str(f"env jumanji {lab}", refresh=False)
            res = run_isolated("bench.env_bench:steps_task", _args(row, cfg, seconds, repeats),
                               timeout=3 * cfg.timeout + 30 * repeats * seconds)
            row["status"] = res["status"]
            row.update(res["result"] if res["status"] == "ok" else {"error": res.get("error")})
            progress.update()
        # The others take turns, one run each, repeat after repeat, so a change in the
        # machine's load hits every row of a size alike (the ratios between them hold).
        turns = [r for r in here if not r["peer"].startswith("jumanji")]
        _take_turns(turns, cfg, worker, progress, seconds, repeats,
                    lambda row, lab=lab: f"{row['peer']} {lab} {row['rule']}")
    out["rows"] = rows
    if "fastmine_batch" not in skipped:
        sweep, labelled = _extra_rows(cfg, size)
        progress.total += len(sweep) + len(labelled)
        _take_turns(sweep, cfg, worker, progress, seconds, repeats, "batch sizes")
        _take_turns(labelled, cfg, worker, progress, seconds, repeats, "labels")
        out["sweep"], out["labels"] = sweep, labelled
    progress.set_postfix_str("env dataset", refresh=False)
    n = 50 if cfg.quick else 2000
    res = worker.call("bench.env_bench:dataset_task", {"rows": 16, "cols": 16, "mines": 40,
                      "positions": n, "seed": cfg.seed, "clock": cfg.clock}, timeout=cfg.timeout)
    out["dataset"] = dict(res["result"] if res["status"] == "ok" else {"error": res.get("error")},
                          status=res["status"], size="16x16/40")
    progress.update()
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.env_bench --into RESULTS.json``: measure this section alone
    and write it into an earlier run's results (``python -m bench --from-json
    RESULTS.json --docs`` then renders it), recording when, where and how."""
    import argparse
    import datetime as dt
    import json
    import shlex
    import sys

    from tqdm.auto import tqdm

    from fastmine.files.storage import atomic_write_text

    from . import cli, suite
    from .worker import Worker

    parser = argparse.ArgumentParser(prog="python -m bench.env_bench", description=main.__doc__)
    parser.add_argument("--into", type=Path, required=True, metavar="RESULTS.json")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--only", choices=("labels",), default=None,
                        help="measure only the labels' rows (written into the section "
                             "as 'labels', beside the other rows already there)")
    args = parser.parse_args(argv)
    doc = json.loads(args.into.read_text(encoding="utf-8"))
    suite_args = argparse.ArgumentParser()
    cli.add_arguments(suite_args)
    cfg = cli.config(suite_args.parse_args(
        (["--quick"] if args.quick else []) + ["--clock", args.clock, "--seed", str(args.seed)]),
        [])
    with tqdm(total=0, desc="env", unit="task", disable=None) as progress, Worker() as worker:
        if args.only:
            rows = labels_only(cfg, worker, progress)
        else:
            env = run(cfg, worker, progress)
    measured = {
        "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["python -m bench.env_bench", *map(shlex.quote,
                                                                sys.argv[1:] if argv is None else argv)]),
        "machine": suite.machine()}
    if args.only:
        env = doc.setdefault("env", {})
        env["labels"] = rows
        env["labels_measured"] = measured
        for row in rows:
            print(f"bench: {row['peer']} (B={row['num_envs']}) {row['size']}, labels: "
                  f"{row.get('steps_per_s', 0):,.0f} steps/s "
                  f"(runs {', '.join(f'{x:,.0f}' for x in row.get('samples', []))})")
    else:
        env["measured"] = measured
        doc["env"] = env
    atomic_write_text(args.into, json.dumps(doc, indent=1, default=str) + "\n")
    print(f"bench: wrote the environment section into {args.into}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
