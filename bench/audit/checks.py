"""Tenant isolation, the continuation race and the shared rate limit, against real servers."""

from __future__ import annotations

import concurrent.futures
import time
from collections import Counter
from datetime import datetime, timezone
from typing import Any

import httpx

from bench.audit.client import TaskRun, post, stored_steps
from bench.audit.servers import UNLIMITED, Deployment


def isolation(tries: int = 12) -> dict[str, Any]:
    """Tenant B, holding tenant A's task and session ids, tries to read, continue and cancel them."""
    leaks: list[str] = []
    with Deployment() as deployment, httpx.Client() as client:
        key_a, key_b = deployment.key("tenant-a"), deployment.key("tenant-b")
        base = deployment.serve()
        auth_b = {"Authorization": f"Bearer {key_b}"}
        for attempt in range(tries):
            run = TaskRun()
            run.take(post(client, base, key_a, run.next_body()).json())
            before = stored_steps(client, base, key_a, run.task_id or "")
            probes: list[tuple[str, httpx.Response]] = [
                ("read task", client.get(f"{base}/api/tasks/{run.task_id}", headers=auth_b)),
                ("continue task", post(client, base, key_b, run.next_body())),
                ("cancel task", client.post(f"{base}/api/tasks/{run.task_id}/cancel", headers=auth_b)),
                ("read session", client.get(f"{base}/api/session/{run.session_id}", headers=auth_b)),
                ("read messages", client.get(f"{base}/api/session/{run.session_id}/messages", headers=auth_b)),
                ("recover active task", client.get(f"{base}/api/session/{run.session_id}/task/active", headers=auth_b)),
            ]
            for name, response in probes:
                if response.status_code < 400:
                    leaks.append(f"try {attempt}: {name} answered {response.status_code}")
            listed = client.get(f"{base}/api/tasks", headers=auth_b).json()
            if run.task_id in str(listed):
                leaks.append(f"try {attempt}: tenant B's task list shows tenant A's task")
            if stored_steps(client, base, key_a, run.task_id or "") != before:
                leaks.append(f"try {attempt}: tenant A's task changed")
            status = client.get(f"{base}/api/tasks/{run.task_id}", headers={"Authorization": f"Bearer {key_a}"}).json()
            if status["status"] != "active":
                leaks.append(f"try {attempt}: tenant A's task is {status['status']}")
    return {"tries": tries, "probes_per_try": 7, "leaks": len(leaks), "examples": leaks[:5]}


def race(workers: int, tasks: int = 20, concurrent: int = 20) -> dict[str, Any]:
    """``concurrent`` identical continuations of each of ``tasks`` tasks at once: one step each."""
    violations: list[str] = []
    statuses: Counter[str] = Counter()
    with Deployment(settings=UNLIMITED) as deployment, httpx.Client(limits=httpx.Limits(max_connections=concurrent)) as client:
        key = deployment.key("tenant-a")
        base = deployment.serve(workers=workers)
        for number in range(tasks):
            run = TaskRun()
            run.take(post(client, base, key, run.next_body()).json())
            body = run.next_body()
            with concurrent_pool(concurrent) as pool:
                answers = list(pool.map(lambda _: post(client, base, key, body), range(concurrent)))
            fresh = [a.json() for a in answers if a.status_code == 200 and not a.json()["replayed"]]
            replays = [a.json() for a in answers if a.status_code == 200 and a.json()["replayed"]]
            statuses.update("200 new" if a.status_code == 200 and not a.json()["replayed"] else
                            "200 replayed" if a.status_code == 200 else str(a.status_code) for a in answers)  # fmt: skip
            if len(fresh) != 1:
                violations.append(f"task {number}: {len(fresh)} new steps from one continuation")
            if any(r["action"] != fresh[0]["action"] or r["stepIndex"] != fresh[0]["stepIndex"] for r in replays if fresh):
                violations.append(f"task {number}: a replay differs from the answer")
            if any(a.status_code not in (200, 409) for a in answers):
                violations.append(f"task {number}: statuses {sorted({a.status_code for a in answers})}")
            steps = stored_steps(client, base, key, run.task_id or "")
            if len(steps) != 2:
                violations.append(f"task {number}: {len(steps)} stored steps, expected 2")
    return {"workers": workers, "tasks": tasks, "concurrent": concurrent, "answers": dict(statuses),
            "violations": len(violations), "examples": violations[:5]}  # fmt: skip


def concurrent_pool(size: int) -> concurrent.futures.ThreadPoolExecutor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=size)


def shared_rate_limit(limit: int = 10, requests: int = 40) -> dict[str, Any]:
    """Two separate servers on one store, one user, a burst that straddles a minute boundary."""
    with Deployment(settings={"STEPWISE_RATE_LIMIT_PER_MINUTE": str(limit)}) as deployment, httpx.Client() as client:
        key = deployment.key("tenant-a")
        bases = [deployment.serve(), deployment.serve()]
        second = datetime.now(timezone.utc).second + datetime.now(timezone.utc).microsecond / 1e6
        time.sleep((58.0 - second) % 60)  # start 2 s before the minute turns
        started = time.monotonic()
        accepted: list[float] = []
        codes: Counter[int] = Counter()
        for number in range(requests):
            response = post(client, bases[number % 2], key, TaskRun().next_body())
            codes[response.status_code] += 1
            if response.status_code == 200:
                accepted.append(time.monotonic() - started)
            time.sleep(4.0 / requests)
        most_in_window = max((sum(1 for t in accepted if s <= t < s + 60) for s in accepted), default=0)
    return {"limit_per_minute": limit, "servers": 2, "requests": requests, "seconds": 4.0,
            "accepted": len(accepted), "statuses": dict(codes), "most_accepted_in_any_minute": most_in_window,
            "holds": most_in_window <= limit}  # fmt: skip
