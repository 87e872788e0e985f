"""Running ``fastmine solve`` on Dask: connect, wait for workers, check them, report.

A run on a cluster must fail loudly, not hang: the scheduler must answer and
at least one worker must join within ``timeout`` seconds, and every worker
must have this very fastmine (same version, solver importable) before a single
task is submitted; otherwise :class:`ClusterError` says which worker lacks
what.  What every worker needs is in docs/solver.md ("Dask").

>>> ClusterError("no worker").args
('no worker',)
"""

from __future__ import annotations

from typing import Any

from ..children import SAFE_PATH, clean_children
from .workers import plan

DEFAULT_TIMEOUT = 60.0
"""Seconds to wait for the scheduler to answer and for the first worker to join."""


class ClusterError(RuntimeError):
    """The Dask cluster cannot run fastmine: unreachable, no workers, or workers that differ."""


def no_dask() -> str:
    """The message for ``--scheduler`` without Dask, with the install command."""
    from ..extras import install_hint

    return f"--scheduler needs Dask: {install_hint('dist')}"
"""What a run with ``--scheduler`` says when Dask is not installed."""


def have_dask() -> bool:
    """Whether ``dask.distributed`` can be imported (checked before a run starts)."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def check_address(address: str) -> None:
    """Refuse an address no Dask scheduler can have, before anything starts.

    Parameters
    ----------
    address
        ``"local"``, or a scheduler's address: ``tcp://HOST:PORT`` (the
        protocol may be left out), ``tls://``, ``ws://``, ``wss://``, ``ucx://``,
        ``inproc://``.

    Raises
    ------
    ValueError
        Dask is missing, or the address has an unknown protocol, no host or a
        bad port; the message says what a good one looks like.
    """
    if address == "local":
        return
    try:
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
    except ImportError:
        raise ValueError(no_dask()) from None
    try:
        protocol, location = parse_address(address)
        get_backend(protocol)
        if protocol in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host:
                raise ValueError("no host")
            if not 0 < int(port) < 65536:
                raise ValueError(f"port {port} is not 1 to 65535")
    except (ValueError, TypeError) as exc:
        raise ValueError(f"--scheduler {address}: not a Dask scheduler address ({exc}); give "
                         "tcp://HOST:PORT (a running scheduler) or 'local'") from None


def connect(address: str, jobs: int | None = None,
            timeout: float = DEFAULT_TIMEOUT) -> tuple[Any, Any]:
    """``(client, cluster)``: a client of the scheduler at ``address`` with a worker ready.

    ``address="local"`` starts a ``LocalCluster`` of ``jobs`` single-threaded
    worker processes on this machine (at most one a core:
    :func:`fastmine.solver.workers.plan`; loopback only, no dashboard) and returns
    it as ``cluster`` (else None); close both when done.
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(no_dask()) from None
    cluster = None
    try:
        if address == "local":
            # dashboard_address=None alone still serves HTTP on 8787 (a warning when
            # that port is taken): no dashboard, and any free loopback port.
            # Workers (and a nanny's restarts of them, later) start without the
            # working folder on their import path: the nanny sets its
            # pre-spawn environment before each start.
            import dask

            with clean_children(), dask.config.set(
                    {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in SAFE_PATH.items()}):
                cluster = LocalCluster(n_workers=plan(jobs).workers, threads_per_worker=1,
                                       processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0",
                                       scheduler_kwargs={"dashboard": False})
            client = Client(cluster, timeout=f"{timeout}s")
        else:
            client = Client(address, timeout=f"{timeout}s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                           f"({exc})") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as exc:
        client.close()
        if cluster is not None:
            cluster.close()
        raise ClusterError(
            f"no worker joined the Dask scheduler at {address} within {timeout:g} s "
            f"({type(exc).__name__}); start some with 'dask worker {address}' on machines "
            "that have this fastmine installed (see docs/solver.md)") from None
    return client, cluster


def check_workers(client: Any) -> list[str]:
    """Check every worker has this fastmine; returns notes for the run output.

    Raises :class:`ClusterError` naming each worker that lacks fastmine, has
    another version, or cannot import the solver.  The note says when workers
    have played before (a warm cluster): their guess books remember positions
    of earlier runs, so a run that repeats those games is faster than a fresh
    start and its speed figures are not comparable (``--fresh-workers``).
    """
    import cloudpickle

    from .. import __version__
    from . import _probe

    # By value: a worker without fastmine could not import the probe by name.
    cloudpickle.register_pickle_by_value(_probe)
    try:
        reports = client.run(_probe.worker_report, on_error="return")
    finally:
        cloudpickle.unregister_pickle_by_value(_probe)
    problems, warm = [], []
    for worker, report in sorted(reports.items()):
        if isinstance(report, BaseException):
            problems.append(f"{worker}: could not be checked ({type(report).__name__}: "
                            f"{report})")
        elif report.get("fastmine") is None:
            problems.append(f"{worker}: cannot import fastmine ({report.get('error')})")
        elif report["fastmine"] != __version__:
            problems.append(f"{worker}: has fastmine {report['fastmine']}, this is {__version__}")
        elif report.get("chunks_played"):
            warm.append(worker)
    if not reports:
        raise ClusterError("the Dask cluster has no workers left")
    if problems:
        raise ClusterError(
            f"{len(problems)} of {len(reports)} Dask workers cannot play these games (every "
            f"worker needs fastmine {__version__}, see docs/solver.md):\n  "
            + "\n  ".join(problems))
    notes = []
    if warm:
        notes.append(
            f"{len(warm)} of {len(reports)} workers played games before this run (a warm "
            "cluster): their guess books remember earlier positions, so games repeated from "
            "an earlier run go faster and the speed figures are not those of a fresh start "
            "(--fresh-workers restarts the workers first)")
    return notes


def restart(client: Any, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Restart every worker process (empty guess books) and wait for them to come back."""
    n = len(client.scheduler_info().get("workers", {}))
    try:
        client.restart(timeout=timeout, wait_for_workers=True)
        client.wait_for_workers(max(1, n), timeout=timeout)
    except (TimeoutError, OSError) as exc:
        raise ClusterError(f"the Dask workers did not come back after a restart within "
                           f"{timeout:g} s ({type(exc).__name__}: {exc}); workers started "
                           "without a nanny cannot be restarted") from None
