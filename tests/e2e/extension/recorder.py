"""A stand-in Stepwise on a loopback thread that records every interact request and ends the
task at once (``fail(...)``, status failed) — so the FIRST request each client builds for a
page can be compared whole: the extension's (its worker's capture() of the tab and its body)
and the Python reference client's (``client.run_task``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from client.serving import serve_in_thread
from tests.e2e.fake_api import answer

ANSWER = answer('fail("recorded")', status="failed", thought="recorded")


@dataclass
class Recorder:
    """The interact bodies received, in order."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> list[dict[str, Any]]:
        with self.lock:
            taken, self.bodies = self.bodies, []
            return taken


def _handler(recorder: Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_OPTIONS(self) -> None:
            self._send(204, b"")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.split("?", 1)[0] != "/api/agent/interact":
                self._send(404, b'{"error": {"code": "NOT_FOUND", "message": "not found"}}')
                return
            with recorder.lock:
                recorder.bodies.append(json.loads(raw))
            self._send(200, json.dumps(ANSWER).encode())

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Headers", "*")
            self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
            self.end_headers()
            self.wfile.write(body)

    return Handler


def serve_recorder(recorder: Recorder) -> tuple[str, Callable[[], None]]:
    return serve_in_thread(_handler(recorder), name="stepwise-recorder")
