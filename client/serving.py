"""A small HTTP server on a loopback thread (the demo app, MiniWoB's pages, test pages)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve_in_thread(
    handler: Callable[..., BaseHTTPRequestHandler], *, name: str, host: str = "127.0.0.1", port: int = 0
) -> tuple[str, Callable[[], None]]:
    """Start serving; returns the base URL (``http://host:port``) and a stop function."""
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return f"http://{host}:{server.server_address[1]}", stop
