"""The worker processes of a many-game run: how many, and that they die with the run.

One place bounds the number of processes a run starts (:func:`plan`): never
more than the cores this process may use, nor more than the run has chunks
of work for, and never an absurd number asked for (``-j 1048577`` once started
2,220 processes on two cores).  The command line says on standard error when
it caps what was asked.

And a worker never outlives its run (:func:`start_worker`, the pool's
initializer): on Linux the kernel kills it when the process that started it
dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), even by ``kill -9``; everywhere a
watchdog thread notices that its parent is gone within a second and exits.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_JOBS", "Plan", "check_jobs", "die_with_parent", "plan", "start_worker",
           "stop_pool", "usable_cores"]

MAX_JOBS = 4096
"""Most worker processes a run may be asked for; more is refused (ValueError).
Anything between the cores and this is capped at the cores."""

DEFAULT_CHUNK_MAX = 250
"""Largest default chunk (games per task)."""

_PR_SET_PDEATHSIG = 1          # from <linux/prctl.h>
_WATCH_SECONDS = 1.0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Plan:
    """How a run uses the machine: ``workers`` processes, ``chunk`` games a task,
    ``tasks`` tasks in all, and ``note``: why fewer workers than asked for (or None)."""

    workers: int
    chunk: int
    tasks: int
    note: str | None = None


def check_jobs(jobs: object) -> int | None:
    """``jobs`` as an int from 1 to :data:`MAX_JOBS`, or None (all cores).

    Raises
    ------
    TypeError
        Not a whole number.
    ValueError
        Below 1 or above :data:`MAX_JOBS`.
    """
    if jobs is None:
        return None
    if isinstance(jobs, bool) or not hasattr(jobs, "__index__"):
        raise TypeError(f"the number of workers must be a whole number, got {jobs!r:.40}")
    n = int(jobs)
    if not 1 <= n <= MAX_JOBS:
        raise ValueError(f"the number of workers must be 1 to {MAX_JOBS} (more is capped at "
                         f"the {usable_cores()} cores anyway), got {n}")
    return n


def plan(jobs: int | None, configs: int = 1, games: int | None = None,
         chunk: int | None = None) -> Plan:
    """The workers and chunks of a run of ``games`` games of ``configs`` configurations.

    Parameters
    ----------
    jobs
        Workers asked for (None: one a core).  Capped at :func:`usable_cores`
        and at the number of tasks; above :data:`MAX_JOBS` refused.
    configs, games
        The run's size (positive); ``games`` None: not known (a Dask
        ``LocalCluster`` started before the run), only the cores bound the workers.
    chunk
        Games a task (None: about ``games / (4 * workers)``, at most 250).

    Returns
    -------
    Plan
        The workers, chunk and tasks, and a note when fewer workers than
        ``jobs`` will run.

    Raises
    ------
    ValueError, TypeError
        ``jobs`` is not a whole number from 1 to :data:`MAX_JOBS`.
    """
    asked = check_jobs(jobs)
    cores = usable_cores()
    workers = min(asked or cores, cores)
    if games is None:           # no run yet: room for every worker
        configs, games = 1, DEFAULT_CHUNK_MAX * 4 * workers
    if chunk is None:
        chunk = max(1, min(DEFAULT_CHUNK_MAX, games // (4 * workers) or 1))
    tasks = configs * -(-games // chunk)
    why = []
    if asked is not None and asked > cores:
        why.append(f"this process may use {_n(cores, 'core')}")
    if tasks < workers:
        why.append(f"the run has {_n(tasks, 'task')} (of at most {_n(chunk, 'game')})")
        workers = max(1, tasks)
    note = None
    if asked is not None and workers < asked:
        note = f"using {_n(workers, 'worker process')}, not {asked}: {' and '.join(why)}"
    return Plan(workers, chunk, tasks, note)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "es" if noun.endswith("s") else "s")


def start_worker(parent: int) -> None:
    """The initializer of a run's worker processes: they leave Ctrl-C to the run
    and die with it.

    Parameters
    ----------
    parent
        The process id of the run (``os.getpid()`` there).
    """
    # Pool workers leave Ctrl-C to the parent, which stops them itself: a
    # KeyboardInterrupt in each worker would only print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    # The run may have died before the line above (the kernel then never tells).
    if not _alive(parent):
        os._exit(1)
    started_under = os.getppid()        # the run, or the start method's server process
    threading.Thread(target=_watch, args=(parent, started_under), daemon=True,
                     name="fastmine-parent-watch").start()


def die_with_parent() -> bool:
    """Have the kernel kill this process (SIGKILL) when the thread that started
    it dies, even by ``kill -9``: Linux's ``prctl(PR_SET_PDEATHSIG)``.

    It outlives ``exec``, so a process that calls this and then execs another
    program ties that program to its parent too.  The parent may have died
    before the call (the kernel then never tells): check ``os.getppid()`` after.

    Returns
    -------
    bool
        True when the kernel took it (Linux), False elsewhere or if it failed.
    """
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(OSError, AttributeError, TypeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:              # exists, another user's: not ours, but alive
        return True
    return True


def _watch(parent: int, started_under: int) -> None:
    """Exit once the run is gone: reparented, or its process no longer there."""
    while True:
        time.sleep(_WATCH_SECONDS)
        if os.getppid() != started_under or not _alive(parent):
            os._exit(1)


def stop_pool(pool: Any) -> None:
    """Kill a :class:`concurrent.futures.ProcessPoolExecutor`'s workers now
    (Ctrl-C: not after the tasks they are running).

    Parameters
    ----------
    pool : concurrent.futures.ProcessPoolExecutor
        The pool; shut it down afterwards.
    """
    terminate = getattr(pool, "terminate_workers", None)     # Python 3.14
    if terminate is not None:
        terminate()
        return
    # Older Pythons have no public way to stop a running task; the pool keeps
    # its processes here, and copes with them dying (BrokenProcessPool).
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            proc.kill()
