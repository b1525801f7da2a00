"""A Stepwise server on this machine, for ``stepwise run`` without ``--server``, the demo,
the MiniWoB bench and the end-to-end tests.

It runs ``python -m app.cli serve`` on a free loopback port with the embedded defaults
(SQLite, no model key unless the environment has one), waits for ``/readyz`` and creates an
API key with ``python -m app.cli keys create --tenant local --user local``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx

READY_TIMEOUT_S: Final[float] = 30.0
# A local server serves one person (or one benchmark): the per-user interact limit of a shared
# deployment (10/min) would only make the client sleep on 429s.
LOCAL_RATE_LIMIT: Final[str] = "100000"


class LocalServerError(RuntimeError):
    """The local server did not start."""


@dataclass(frozen=True)
class LocalServer:
    url: str
    api_key: str
    database_url: str
    process: subprocess.Popen[bytes]
    log_path: Path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


@contextlib.contextmanager
def local_server(
    *,
    database_url: str | None = None,
    env: Mapping[str, str] | None = None,
    port: int | None = None,
    cwd: str | os.PathLike[str] | None = None,
    ready_timeout_s: float = READY_TIMEOUT_S,
) -> Iterator[LocalServer]:
    """Start a server; stop it on exit. ``database_url=None``: a database in a temporary
    folder that goes away with the server. ``ready_timeout_s``: how long it may take to
    answer ``/readyz`` (a long benchmark on a loaded machine gives it more)."""
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="stepwise-local-")))
        db_url = database_url or sqlite_url(tmp / "stepwise.db")
        environment = {**os.environ, "STEPWISE_DATABASE_URL": db_url, "STEPWISE_RATE_LIMIT_PER_MINUTE": LOCAL_RATE_LIMIT}
        environment.update(env or {})
        key = _create_key(environment, cwd)
        port = port or free_port()
        log_path = tmp / "server.log"
        log_file = stack.enter_context(open(log_path, "wb"))
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=environment,
            cwd=cwd,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        stack.callback(_stop, process)
        url = f"http://127.0.0.1:{port}"
        _wait_ready(url, process, log_path, ready_timeout_s)
        yield LocalServer(url=url, api_key=key, database_url=db_url, process=process, log_path=log_path)


def _create_key(environment: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", "create", "--tenant", "local", "--user", "local", "--name", "reference client"],
        env=dict(environment),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        raise LocalServerError(f"`stepwise keys create` failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return lines[0]


def _wait_ready(url: str, process: subprocess.Popen[bytes], log_path: Path, timeout_s: float = READY_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LocalServerError(f"the server exited with {process.returncode}: {_tail(log_path)}")
        try:
            if httpx.get(f"{url}/readyz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise LocalServerError(f"the server did not become ready within {timeout_s:.0f} s: {_tail(log_path)}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _tail(path: Path, chars: int = 1500) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"
