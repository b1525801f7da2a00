"""kill -9 cycles: clients step form tasks while the server is killed and restarted; every
acknowledged step must be stored, and no re-sent request may advance a task twice."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

from bench.audit.client import TaskRun, step_until_answered, stored_steps
from bench.audit.servers import UNLIMITED, Deployment, free_port


def kill_cycles(cycles: int = 50, clients: int = 4, workers: int = 2, up_s: float = 1.0) -> dict[str, Any]:
    port = free_port()
    runs: list[TaskRun] = []
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[str] = []
    with Deployment(settings=UNLIMITED) as deployment:
        key = deployment.key("tenant-a")
        base = deployment.serve(workers=workers, port=port)

        def client_loop() -> None:
            with httpx.Client() as client:
                while not stop.is_set():
                    run = TaskRun()
                    with lock:
                        runs.append(run)
                    while run.status == "active" and not stop.is_set():
                        try:
                            response = step_until_answered(client, base, key, run)
                        except httpx.TransportError as error:
                            errors.append(f"gave up: {error!r}")
                            return
                        if response.status_code != 200:
                            errors.append(f"{response.status_code}: {response.text[:200]}")
                            run.status = f"http {response.status_code}"
                            break
                        run.take(response.json())

        threads = [threading.Thread(target=client_loop) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for _ in range(cycles):
            time.sleep(up_s)
            deployment.kill(base)
            deployment.serve(workers=workers, port=port)
        time.sleep(up_s)
        stop.set()
        for thread in threads:
            thread.join(timeout=150)
        lost, extra, orphans = 0, 0, 0
        with httpx.Client() as client:
            for run in runs:
                if run.task_id is None:
                    continue
                stored = stored_steps(client, base, key, run.task_id)
                acknowledged = dict(run.acknowledged)
                lost += sum(1 for index, action in acknowledged.items() if (index, action) not in stored)
                extra += sum(1 for index, _ in stored if index not in acknowledged)
            orphans = _orphan_tasks(client, base, key, {run.task_id for run in runs})
    steps = sum(len(run.acknowledged) for run in runs)
    return {"cycles": cycles, "clients": clients, "workers": workers, "tasks": len(runs),
            "acknowledged_steps": steps, "lost_acknowledged_steps": lost,
            "stored_steps_never_acknowledged": extra, "answers_replayed_after_a_kill": sum(r.replayed for r in runs),
            "tasks_no_client_knows": orphans, "client_errors": len(errors), "examples": errors[:5]}  # fmt: skip


def _orphan_tasks(client: httpx.Client, base: str, key: str, known: set[str | None]) -> int:
    """Tasks stored that no client received an answer for (a first request committed, its answer lost,
    and the re-send made another task)."""
    orphans, seen, cursor = 0, set(), None
    while True:
        params: dict[str, str | int] = {"limit": 100}
        if cursor:
            params["cursor"] = cursor
        page = client.get(f"{base}/api/tasks", params=params, headers={"Authorization": f"Bearer {key}"}).json()
        fresh = [task["taskId"] for task in page["tasks"] if task["taskId"] not in seen]
        seen.update(fresh)
        orphans += sum(1 for task_id in fresh if task_id not in known)
        cursor = page.get("nextCursor")
        if not cursor or not fresh:
            return orphans
