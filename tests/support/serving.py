"""A real ``stepwise serve`` for the tests that meet the server as a client does (HTTP on
127.0.0.1): an API key on its database, the process started, ready, and stopped after."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.integration.test_serving import _env, _free_port, _wait


@contextmanager
def running_server(db: Path, *, workers: int = 1, settings: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """``(base URL, API key)`` of a server on ``db`` with ``settings`` (environment variables)."""
    env = {**_env(db), **(settings or {})}
    key = subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", "create", "--tenant", "t1", "--user", "u1", "--name", "test"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", str(workers)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: httpx.get(f"{base}/readyz", timeout=1).status_code == 200)
        yield base, key
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
