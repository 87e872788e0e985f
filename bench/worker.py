"""Run measurements in a worker process, so a peer that aborts cannot end the run.

ms-toollib kills its process outright on some inputs (a stack overflow in a
recursive flood fill is a SIGSEGV, not a Python exception).  Every
measurement therefore runs in a worker started with the ``spawn`` method; when
the worker dies, the call returns a ``crash`` result carrying the signal, the
worker is replaced, and the run goes on.  A call that exceeds its time limit
is stopped the same way and returns ``timeout``.

A task names its function as ``"module:function"`` and passes keyword
arguments, so anything importable can run isolated (the smoke test uses
``os:abort`` to check the crash path).
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing as mp
import signal
import time
import traceback
from typing import Any

from fastmine.children import clean_children


def _resolve(func: str):
    module, _, name = func.partition(":")
    return getattr(importlib.import_module(module), name)


def _serve(conn) -> None:
    # Ctrl-C is the parent's business: it stops this worker itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        func, kwargs = msg
        try:
            result = _resolve(func)(**kwargs)
            conn.send(("ok", result))
        except BaseException as exc:  # a Rust panic surfaces as a BaseException
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            conn.send(("error", tb))


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "worker vanished"
    if code < 0:
        try:
            return f"worker killed by {signal.Signals(-code).name} (exit code {code})"
        except ValueError:
            return f"worker killed by signal {-code}"
    return f"worker exited with code {code}"


class Worker:
    """A restartable worker process.  Use as a context manager or call close().

    >>> with Worker() as w:                               # doctest: +SKIP
    ...     w.call("math:factorial", {"n": 5}, timeout=10)
    {'status': 'ok', 'result': 120, 'seconds': ...}
    """

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")
        self._proc = None
        self._conn = None
        self.restarts = 0

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_serve, args=(child,), daemon=True,
                                 name="fastmine-bench-worker")
        with clean_children():      # never imports from the working folder
            proc.start()
        child.close()
        self._proc, self._conn = proc, parent

    def _kill(self) -> int | None:
        proc, self._proc = self._proc, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if proc is None:
            return None
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        return proc.exitcode

    def call(self, func: str, kwargs: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Run ``func(**kwargs)`` in the worker.

        Returns ``{"status": "ok", "result": ...}``, or ``status`` ``"error"``
        (an exception, with ``error``), ``"crash"`` (the worker died) or
        ``"timeout"``; each with ``seconds`` of wall time.
        """
        if self._proc is None or not self._proc.is_alive():
            if self._proc is not None:
                self._kill()
                self.restarts += 1
            self._start()
        t0 = time.perf_counter()
        try:
            self._conn.send((func, kwargs))
            ready = self._conn.poll(timeout)
            if ready:
                status, payload = self._conn.recv()
                out = {"status": status}
                out["result" if status == "ok" else "error"] = payload
                out["seconds"] = time.perf_counter() - t0
                return out
        except (EOFError, BrokenPipeError, ConnectionResetError):
            pass
        else:
            self._kill()
            self.restarts += 1
            return {"status": "timeout", "error": f"no result within {timeout:g} s; worker stopped",
                    "seconds": time.perf_counter() - t0}
        code = self._kill()
        self.restarts += 1
        return {"status": "crash", "error": _describe_exit(code),
                "seconds": time.perf_counter() - t0}

    def close(self) -> None:
        """Stop the worker."""
        if self._conn is not None and self._proc is not None and self._proc.is_alive():
            with contextlib.suppress(BrokenPipeError, OSError):
                self._conn.send(None)
            self._proc.join(5)
        self._kill()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def run_isolated(func: str, kwargs: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run one call in a fresh worker (for measurements that need a clean process)."""
    with Worker() as w:
        return w.call(func, kwargs, timeout)
