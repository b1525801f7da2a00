"""``stepwise serve --workers N``: one listening socket per worker, a supervisor that
replaces a dead worker, a clean stop on SIGTERM, a clear failure when the port is taken."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.serving import ServeError, ServeOptions, worker_socket, serve


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(db: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("STEPWISE_", "GEMINI", "TAVILY", "LANGFUSE", "SENTRY", "MONGODB"))
    }
    env["STEPWISE_DATABASE_URL"] = f"sqlite:///{db}"
    env["STEPWISE_ENV"] = "test"
    return env


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid``, from each process's own stat line (the kernel's
    ``/proc/<pid>/task/<tid>/children`` list is documented as unreliable while tasks run)."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after "(comm)": state, ppid, …
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _socket_inodes(port: int, state: str) -> set[str]:
    """Inodes of the server-side sockets on ``port`` in a /proc/net/tcp state (0A LISTEN, 01 ESTABLISHED)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, st, inode = fields[1], fields[3], fields[9]
        if st == state and int(local.split(":")[1], 16) == port:
            inodes.add(inode)
    return inodes


def _listening_inodes(port: int) -> set[str]:
    return _socket_inodes(port, "0A")


def _listeners(pid: int, port: int, state: str = "0A") -> int:
    """How many sockets on ``port`` (listening by default) the process holds."""
    inodes = _socket_inodes(port, state)
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            count += 1
    return count


def _workers(pid: int, port: int) -> list[int]:
    return [child for child in _children(pid) if _listeners(child, port) == 1]


def _both_workers(pid: int, port: int) -> list[int]:
    """The two workers, once a reading of /proc sees both (one reading is a snapshot of
    files the kernel rewrites while we read them; a loaded machine can miss an entry)."""
    seen: list[int] = []

    def both() -> bool:
        seen[:] = _workers(pid, port)
        return len(seen) == 2

    _wait(both, timeout=10)
    return list(seen)


def _wait(condition, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.1)
    raise AssertionError("timed out")


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"],
        env=_env(tmp_path / "stepwise.db"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(
            lambda: (
                len(_workers(proc.pid, port)) == 2
                and httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200
            )
        )
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.terminate()  # the supervisor stops its workers and removes its metrics directory
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_each_worker_listens_on_its_own_socket_and_both_answer(
    two_workers: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = two_workers
    workers = _both_workers(proc.pid, port)
    assert _listeners(proc.pid, port) == 0  # the supervisor holds no socket: the kernel balances
    assert len(_listening_inodes(port)) == 2
    # 40 connections opened at once (a fleet reconnecting): the kernel spreads them over
    # both workers' sockets. All 40 on one worker has a probability of 2^-39.
    connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    try:
        for conn in connections:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        for conn in connections:
            assert conn.recv(4096).startswith(b"HTTP/1.1 200")
        held = [_listeners(worker, port, state="01") for worker in workers]
        assert sum(held) == 40
        assert min(held) > 0
    finally:
        for conn in connections:
            conn.close()


def test_metrics_sum_every_worker(two_workers: tuple[subprocess.Popen[bytes], int]) -> None:
    """A scrape reaches one worker but counts the requests all of them served."""
    proc, port = two_workers
    connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    try:
        for conn in connections:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        for conn in connections:
            assert conn.recv(4096).startswith(b"HTTP/1.1 200")
        assert (
            min(_listeners(worker, port, state="01") for worker in _both_workers(proc.pid, port)) > 0
        )  # both served some
    finally:
        for conn in connections:
            conn.close()
    # A worker records a request right after sending its answer: poll briefly.
    _wait(lambda: _healthz_count(port) >= 30, timeout=5)  # the fixture's probes hit /readyz


def _healthz_count(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    counts = [
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("stepwise_http_request_duration_seconds_count{") and 'route="/healthz"' in line
    ]
    return sum(counts)


def test_a_dead_worker_is_replaced_and_sigterm_stops_everything(
    two_workers: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = two_workers
    first, second = _both_workers(proc.pid, port)
    os.kill(first, signal.SIGKILL)
    _wait(lambda: len(_workers(proc.pid, port)) == 2 and first not in _workers(proc.pid, port))
    assert second in _both_workers(proc.pid, port)
    assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200

    workers = _both_workers(proc.pid, port)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    for pid in workers:
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        )


def _gone(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "zombie" in status.read_text()
    except OSError:
        return True


def test_workers_die_with_their_supervisor_even_when_it_is_killed(
    two_workers: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = two_workers
    workers = _both_workers(proc.pid, port)
    environ = Path(f"/proc/{workers[0]}/environ").read_bytes().split(b"\0")
    metrics = next(v.split(b"=", 1)[1].decode() for v in environ if v.startswith(b"PROMETHEUS_MULTIPROC_DIR="))
    proc.kill()  # SIGKILL: the supervisor cannot stop its workers itself (nor remove its metrics directory)
    proc.wait(timeout=10)
    try:
        _wait(lambda: all(_gone(pid) for pid in workers), timeout=20)
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
    finally:
        shutil.rmtree(metrics, ignore_errors=True)  # what a killed supervisor leaves: the test cleans it up


def test_a_taken_port_fails_before_any_worker_starts(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{port}"):
            serve(ServeOptions(host="127.0.0.1", port=port), workers=2)
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"],
            check=False,
            env=_env(tmp_path / "stepwise.db"),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


def test_worker_sockets_share_a_port_and_listen_only_once_the_app_is_up() -> None:
    options = ServeOptions(host="127.0.0.1", port=_free_port())
    first, second = worker_socket(options), worker_socket(options)
    try:
        assert first.getsockname() == second.getsockname()
        # bound, not listening: the kernel routes no connection to a worker still starting
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", options.port), timeout=2).close()
        first.listen()
        socket.create_connection(("127.0.0.1", options.port), timeout=2).close()
    finally:
        first.close()
        second.close()


def test_tune_gc_freezes_the_started_heap_and_raises_the_young_threshold() -> None:
    script = (
        "import gc, app.main; from app.serving import tune_gc, GC_GEN0_THRESHOLD as T; tune_gc(); "
        "print(gc.get_freeze_count() > 100_000 and len(gc.get_objects()) < 1000, gc.get_threshold()[0] == T)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["True", "True"]
