"""Tasks survive a hard kill of the server process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.pages import save_form

URL = "https://clinic.example/patients/new"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STEPWISE_", "GEMINI", "TAVILY", "LANGFUSE", "SENTRY", "MONGODB"))}
    env["STEPWISE_DATABASE_URL"] = f"sqlite:///{db}"
    env["STEPWISE_ENV"] = "test"
    return env


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=_env(db),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not become ready")


def test_task_and_steps_survive_kill_9_and_continue(tmp_path: Path) -> None:
    db = tmp_path / "stepwise.db"
    key = subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", "create", "--tenant", "t1", "--user", "u1"],
        env=_env(db), check=True, capture_output=True, text=True,
    ).stdout.strip()
    headers = {"Authorization": f"Bearer {key}"}
    port = _free_port()

    proc = _start(db, port)
    try:
        first = httpx.post(
            f"http://127.0.0.1:{port}/api/agent/interact",
            json={"url": URL, "query": "click the Save button", "dom": save_form()},
            headers=headers, timeout=10,
        )
        assert first.status_code == 200, first.text
        task_id = first.json()["taskId"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    proc = _start(db, port)
    try:
        detail = httpx.get(f"http://127.0.0.1:{port}/api/tasks/{task_id}", headers=headers, timeout=10)
        assert detail.status_code == 200
        assert [s["action"] for s in detail.json()["steps"]] == ['click("4")']
        done = httpx.post(
            f"http://127.0.0.1:{port}/api/agent/interact",
            json={"url": URL, "taskId": task_id, "dom": save_form(toast="Saved")},
            headers=headers, timeout=10,
        )
        assert done.status_code == 200, done.text
        assert done.json()["status"] == "completed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
