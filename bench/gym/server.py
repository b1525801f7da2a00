"""A gym site served on 127.0.0.1: its ``www/`` folder as static files, and the site's own
event log (``POST /__events``), the ground truth of every goal.

``POST /api/<anything>`` answers ``{"ok": true}`` after a short delay (a save that takes
network time); a path without an extension that names no file gets ``index.html`` (history
routing). Nothing outside ``www/`` is ever served.
"""

from __future__ import annotations

import json
import mimetypes
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self
from urllib.parse import unquote, urlsplit

from bench.gym.spec import Event

API_DELAY_S: Final = 0.3
MAX_EVENT_BYTES: Final = 64_000


class GymServer:
    def __init__(self, www: Path) -> None:
        self.www = www.resolve()
        self._events: list[Event] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="gym-site", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def events(self) -> list[Event]:
        with self._lock:
            return list(self._events)

    def clear(self) -> None:
        with self._lock:
            self._events.clear()

    def record(self, event: Event) -> None:
        with self._lock:
            self._events.append(event)

    def file_for(self, path: str) -> Path | None:
        relative = unquote(urlsplit(path).path).lstrip("/")
        candidate = (self.www / relative).resolve()
        if not candidate.is_relative_to(self.www):
            return None
        if candidate.is_dir():
            candidate = candidate / "index.html"
        if candidate.is_file():
            return candidate
        if "." not in Path(relative).name and (self.www / "index.html").is_file():
            return self.www / "index.html"
        return None

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler(site: GymServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
            return None

        def do_GET(self) -> None:
            file = site.file_for(self.path)
            if file is None:
                self._send(404, b"not found", "text/plain")
                return
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
                kind += "; charset=utf-8"
            self._send(200, file.read_bytes(), kind)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(min(length, MAX_EVENT_BYTES)) if length else b""
            path = urlsplit(self.path).path
            if path == "/__events":
                try:
                    event = json.loads(body or b"null")
                except ValueError:
                    event = None
                if not isinstance(event, dict) or not isinstance(event.get("event"), str):
                    self._send(400, b'{"error": "an event is a JSON object with a string `event`"}', "application/json")
                    return
                site.record(event)
                self._send(204, b"", "application/json")
            elif path.startswith("/api/"):
                time.sleep(API_DELAY_S)
                self._send(200, b'{"ok": true}', "application/json")
            else:
                self.do_GET()

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Cache-Control", "no-store")
            if status != 204:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if status != 204:
                self.wfile.write(body)

    return Handler
