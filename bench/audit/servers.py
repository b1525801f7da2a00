"""Real ``stepwise serve`` processes for the audit: a temp database, API keys, start, kill -9."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import httpx

_CLEARED = ("STEPWISE_", "GEMINI", "TAVILY", "LANGFUSE", "SENTRY", "MONGODB")
# For audits whose clients step faster than a person: the rate limit is not what they measure.
UNLIMITED = {"STEPWISE_RATE_LIMIT_PER_MINUTE": "1000000", "STEPWISE_API_RATE_LIMIT_PER_MINUTE": "1000000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Deployment:
    """One database and the servers on it; removed with everything it started on exit."""

    settings: dict[str, str] = field(default_factory=dict)
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="stepwise-audit-")))
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(_CLEARED)}
        env.update(
            STEPWISE_DATABASE_URL=f"sqlite:///{self.root / 'stepwise.db'}",
            STEPWISE_ENV="test",
            PROMETHEUS_MULTIPROC_DIR=str(self.root / "metrics"),
            # The fuzzer would otherwise start crawls of the random URLs it sends to index-link
            STEPWISE_KNOWLEDGE_CRAWL_ENABLED="false",
        )
        env.update(self.settings)
        return env

    def key(self, tenant: str, user: str = "u1") -> str:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "keys", "create", "--tenant", tenant, "--user", user, "--name", "audit"],
            env=self.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout.strip()

    def serve(self, workers: int = 1, port: int | None = None) -> str:
        port = port or free_port()
        (self.root / "metrics").mkdir(exist_ok=True)
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", str(workers)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.processes.append(proc)
        base = f"http://127.0.0.1:{port}"
        wait_ready(base)
        return base

    def kill(self, base: str) -> None:
        """SIGKILL the server answering on ``base`` (its workers die with it) and wait until the port is free."""
        port = int(base.rsplit(":", 1)[1])
        for proc in list(self.processes):
            if proc.poll() is None and _listens(proc.pid, port):
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                self.processes.remove(proc)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            except OSError:
                return
            time.sleep(0.05)
        raise RuntimeError(f"port {port} still answers after SIGKILL")

    def __enter__(self) -> Deployment:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def _listens(pid: int, port: int) -> bool:
    """Whether ``pid`` or one of its children is the server on ``port`` (the one we started on it)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return str(port).encode() in cmdline


def wait_ready(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not become ready in {timeout:.0f} s")
