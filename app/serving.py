"""``stepwise serve``: one uvicorn process, or several workers that each own a listening socket.

With ``--workers N`` uvicorn's own supervisor shares one listening socket between the
workers, and whichever worker wakes first accepts every connection waiting in the queue: a
burst of keep-alive connections (an extension fleet reconnecting, a load test) can land on
one worker and leave the others idle for the life of those connections. Here every worker
binds its own socket with ``SO_REUSEPORT`` and the kernel spreads new connections across
them by a hash of the connection's addresses.

The supervisor restarts a worker that dies after it started serving, stops everything when
a worker fails during start-up (a bad setting fails the same way on every restart), and
forwards SIGINT/SIGTERM as a graceful shutdown.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any, Final

import uvicorn

from app.connections import head_deadline_protocol

APP: Final = "app.main:create_app"
STARTUP_FAILURE: Final = 3  # uvicorn's exit code for a worker that could not start
SHUTDOWN_GRACE_S: Final = 30.0
_RESTART_BACKOFF_S: Final = 1.0
_PR_SET_PDEATHSIG: Final = 1  # linux/prctl.h
GC_GEN0_THRESHOLD: Final = 50_000

log = logging.getLogger("stepwise.serve")


class ServeError(RuntimeError):
    """The server could not start (address in use, bad address)."""


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    log_level: str = "warning"
    header_timeout_s: float = 10.0  # a request head (line + headers) must arrive within this
    keep_alive_s: float = 5.0  # an idle keep-alive connection is closed after this
    max_connections: int | None = None  # per worker; more get a 503 (None: from the fd limit)

    def uvicorn_config(self, **extra: Any) -> uvicorn.Config:
        """uvicorn's configuration with Stepwise's connection limits (app/connections.py)."""
        return uvicorn.Config(
            APP,
            factory=True,
            log_level=self.log_level,
            http=head_deadline_protocol(self.header_timeout_s),
            timeout_keep_alive=max(1, round(self.keep_alive_s)),
            limit_concurrency=self.max_connections or default_max_connections(),
            **extra,
        )


def default_max_connections() -> int:
    """Connections one worker serves at once: what its descriptor limit leaves after the
    database, logs and outgoing clients (64 kept back), at most 1 000."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1000
    return max(16, min(1000, soft - 64))


def serve(options: ServeOptions, *, workers: int = 1, reload: bool = False) -> int:
    """Run until SIGINT/SIGTERM; the exit status of the server."""
    if reload or (workers > 1 and not hasattr(socket, "SO_REUSEPORT")):
        # Development reloads, or a platform without SO_REUSEPORT: uvicorn's own supervisor.
        uvicorn.run(
            APP,
            factory=True,
            host=options.host,
            port=options.port,
            reload=reload,
            workers=workers,
            log_level=options.log_level,
        )
        return 0
    if workers <= 1:
        _Server(options.uvicorn_config(host=options.host, port=options.port)).run()
        return 0
    _check_port_free(options)
    return _Supervisor(options, workers).run()


def tune_gc() -> None:
    """Once the app has started: move everything alive (imported modules, compiled graph,
    schemas — some 200 000 objects) out of the collector's reach, and collect the young
    generation less often. A request allocates tens of thousands of short-lived containers;
    with the defaults every few hundred allocations start a collection and the frequent
    full ones walk the whole heap — a third of a worker's CPU under load."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_GEN0_THRESHOLD, 20, 20)


class _Server(uvicorn.Server):
    """uvicorn's server, with the collector tuned once start-up is done."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        tune_gc()


def _check_port_free(options: ServeOptions) -> None:
    """Fail now, with the reason, rather than in every worker: a socket without
    SO_REUSEPORT on the port (another program) makes every worker's bind fail."""
    family = socket.AF_INET6 if ":" in options.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((options.host, options.port))
        except OSError as exc:
            raise ServeError(
                f"cannot listen on {options.host}:{options.port}: {exc.strerror}"
            ) from exc


def worker_socket(options: ServeOptions) -> socket.socket:
    """A socket bound to the port the other workers share, not yet listening.

    The kernel hands each new connection to one of the port's *listening* sockets. A worker
    that listened before its app had started (imports, the database, the graph: seconds on a
    loaded machine) would be handed connections it cannot answer yet, and they would wait —
    or time out — while the other workers idle. uvicorn starts the app first and only then
    gives the socket to asyncio, which calls ``listen()``: a worker joins the rotation when
    it is ready, a restarted one included. A taken port still fails here, at ``bind``."""
    family = socket.AF_INET6 if ":" in options.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((options.host, options.port))
    return sock


def _die_with(parent: int) -> None:
    """A worker outlives no supervisor: the kernel sends it SIGTERM when the supervisor dies
    however it dies (kill -9 included), so no orphan keeps serving on the port. Linux has the
    parent-death signal; elsewhere a thread watches for the parent to change."""
    libc_name = ctypes.util.find_library("c")
    libc = ctypes.CDLL(libc_name, use_errno=True) if libc_name else None
    if sys.platform.startswith("linux") and libc is not None and libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM) == 0:
        if os.getppid() != parent:  # it died before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="stepwise-parent-watch", daemon=True).start()


def _worker(options: ServeOptions, parent: int) -> None:  # runs in the child process
    # Out of the terminal's process group: Ctrl-C reaches the supervisor only, which then
    # sends one SIGTERM (a second signal would make uvicorn drop in-flight requests).
    os.setpgrp()
    _die_with(parent)

    _Server(options.uvicorn_config()).run(sockets=[worker_socket(options)])


class _Supervisor:
    def __init__(self, options: ServeOptions, workers: int) -> None:
        self._options = options
        self._count = workers
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[BaseProcess] = []
        self._stop = threading.Event()
        self._failed = False

    def run(self) -> int:
        logging.basicConfig(
            level=self._options.log_level.upper(), format="%(levelname)s: %(message)s"
        )
        previous = {
            sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        metrics_dir = self._metrics_dir()
        try:
            self._workers = [self._start() for _ in range(self._count)]
            log.info(
                "serving on %s:%d with %d workers",
                self._options.host,
                self._options.port,
                self._count,
            )
            while not self._stop.wait(0.5):
                self._replace_dead()
        finally:
            self._shutdown()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            if metrics_dir is not None:
                shutil.rmtree(metrics_dir, ignore_errors=True)
        return 1 if self._failed else 0

    @staticmethod
    def _metrics_dir() -> str | None:
        """Workers write their Prometheus values to files in one directory, so that a scrape
        of ``/metrics`` (which reaches one worker) sums them all. A directory the operator
        set is used as is; otherwise a fresh one, removed when the server stops."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            return None
        created = tempfile.mkdtemp(prefix="stepwise-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = created  # inherited by the spawned workers
        return created

    def _on_signal(self, signum: int, _frame: object) -> None:
        self._stop.set()

    def _start(self) -> BaseProcess:
        process = self._context.Process(
            target=_worker, args=(self._options, os.getpid()), name="stepwise-worker"
        )
        process.start()
        return process

    def _replace_dead(self) -> None:
        for index, process in enumerate(self._workers):
            if process.is_alive():
                continue
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                log.error(
                    "worker %s failed to start (exit %s); stopping", process.pid, process.exitcode
                )
                self._failed = True
                self._stop.set()
                return
            log.warning("worker %s died (exit %s); starting another", process.pid, process.exitcode)
            time.sleep(_RESTART_BACKOFF_S)
            self._workers[index] = self._start()

    def _shutdown(self) -> None:
        for process in self._workers:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()  # SIGTERM: uvicorn finishes in-flight requests
        deadline = time.monotonic() + SHUTDOWN_GRACE_S
        for process in self._workers:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning(
                    "worker %s did not stop in %.0f s; killing it", process.pid, SHUTDOWN_GRACE_S
                )
                process.kill()
                process.join()
