"""A small HTTP server on a loopback thread (the demo app, MiniWoB's pages, test pages)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def send_body(handler: BaseHTTPRequestHandler, status: int, body: bytes, content_type: str) -> None:
    """Write a whole uncached response; a client that hung up first (a page navigating away)
    is not an error of the server."""
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("Cache-Control", "no-store")
        handler.end_headers()
        handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass


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
