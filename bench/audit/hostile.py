"""Pages and connections built to hurt: deep nesting while /healthz is polled, and silent clients."""

from __future__ import annotations

import socket
import statistics
import threading
import time
from typing import Any

import httpx

from bench.audit.servers import Deployment


def _nested(depth: int, closed: bool) -> str:
    return "<html><body>" + "<div>" * depth + "x" + ("</div>" * depth if closed else "") + "</body></html>"


# (depth, closed): 200 000 unclosed <div> (1 MB, as a browser accepts it), 180 000 and 80 000 closed
# (1.98 MB and 880 KB) - all under the 2 MB `dom` limit, so the parser is what they meet.
NESTINGS = ((200_000, False), (180_000, True), (80_000, True))


def deep_nesting(nestings: tuple[tuple[int, bool], ...] = NESTINGS) -> list[dict[str, Any]]:
    pages = [(f"nested {depth} {'closed' if closed else 'unclosed'}", _nested(depth, closed)) for depth, closed in nestings]
    return _healthz_while_sent(pages)


def _rows(count: int) -> str:
    row = (
        '<tr><td><a href="/p/{i}">Item {i}</a></td><td><input name="q{i}" value="1"></td>'
        "<td><button>Remove {i}</button></td><td>Ordered on day {i} of the year</td></tr>"
    )
    return "<html><body><table>" + "".join(row.format(i=i) for i in range(count)) + "</table></body></html>"


def heavy_pages() -> list[dict[str, Any]]:
    """Pages a real site could send, at the 2 MB limit: a table of 12 000 rows, 45 000 buttons."""
    buttons = "<html><body>" + "".join(f'<button id="b{i}">Button number {i}</button>' for i in range(45_000)) + "</body></html>"
    return _healthz_while_sent([("table of 12000 rows", _rows(12_000)), ("45000 buttons", buttons[:1_990_000])])


def _healthz_while_sent(pages: list[tuple[str, str]]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    with Deployment() as deployment:
        key = deployment.key("tenant-a")
        base = deployment.serve()
        for name, dom in pages:
            answer: dict[str, Any] = {}

            def send(dom: str = dom, answer: dict[str, Any] = answer) -> None:
                started = time.monotonic()
                response = httpx.post(
                    f"{base}/api/agent/interact",
                    json={"url": "https://a.example/", "query": "Click Save", "dom": dom},
                    headers={"Authorization": f"Bearer {key}"}, timeout=120,
                )  # fmt: skip
                answer.update(status=response.status_code, ms=(time.monotonic() - started) * 1000,
                              code=response.json().get("error", {}).get("code"))  # fmt: skip

            latencies: list[float] = []
            thread = threading.Thread(target=send)
            thread.start()
            with httpx.Client() as client:
                while thread.is_alive():
                    started = time.monotonic()
                    client.get(f"{base}/healthz", timeout=30)
                    latencies.append((time.monotonic() - started) * 1000)
                    time.sleep(0.005)
            thread.join()
            results.append({"page": name, "bytes": len(dom), "status": answer["status"], "code": answer["code"],
                            "answer_ms": round(answer["ms"], 1), "healthz_polls": len(latencies),
                            "healthz_median_ms": round(statistics.median(latencies), 2) if latencies else None,
                            "healthz_max_ms": round(max(latencies), 2) if latencies else None})  # fmt: skip
    return results


def silent_clients(count: int = 300, header_timeout_s: float = 5.0) -> dict[str, Any]:
    """``count`` connections that send nothing (half) or one header byte a second (half, slowloris)."""
    settings = {"STEPWISE_HEADER_TIMEOUT_S": str(header_timeout_s)}
    with Deployment(settings=settings) as deployment:
        base = deployment.serve()
        host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
        sockets = [socket.create_connection((host, port)) for _ in range(count)]
        slow = sockets[count // 2 :]
        for s in slow:
            s.sendall(b"GET /healthz HTTP/1.1\r\n")
        served_during = httpx.get(f"{base}/healthz", timeout=10).status_code
        deadline = time.monotonic() + header_timeout_s + 3
        while time.monotonic() < deadline:
            for s in slow:
                try:
                    s.sendall(b"X")
                except OSError:
                    pass
            time.sleep(1)
        still_open = sum(1 for s in sockets if _open(s))
        served_after = httpx.get(f"{base}/healthz", timeout=10).status_code
        for s in sockets:
            s.close()
    return {"connections": count, "header_timeout_s": header_timeout_s, "open_after_timeout": still_open,
            "healthz_while_held": served_during, "healthz_after": served_after}  # fmt: skip


def _open(sock: socket.socket) -> bool:
    """Whether the server still holds the connection (an error answer it sent before closing is read away)."""
    sock.settimeout(0.05)
    try:
        while sock.recv(4096):
            pass
    except (TimeoutError, BlockingIOError):
        return True
    except OSError:
        return False
    return False
