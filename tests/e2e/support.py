"""Helpers of the end-to-end tests: a loopback server for the test pages, Chromium set-up."""

from __future__ import annotations

from client.serving import send_body, serve_in_thread

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

PAGES = Path(__file__).parent / "pages"
CHROMIUM = "/usr/bin/chromium"


def ensure_chromium() -> str | None:
    """None when /usr/bin/chromium is there (installing Debian's package if needed and
    possible); otherwise why it is not."""
    if Path(CHROMIUM).exists():
        return None
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"{CHROMIUM} is absent and this user cannot install Debian's chromium package"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900, check=False)
        if done.returncode != 0:
            return f"{CHROMIUM} is absent and `{' '.join(command)}` failed: {done.stderr.strip()[-300:]}"
    return None if Path(CHROMIUM).exists() else f"{CHROMIUM} is absent after installing chromium"


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path == "/delay":
            ms = int(parse_qs(parts.query).get("ms", ["500"])[0])
            time.sleep(ms / 1000)
            self._send(200, b'{"ok": true}', "application/json")
            return
        name = parts.path.removeprefix("/pages/")
        target = PAGES / name
        if "/" in name or not target.is_file():
            self._send(404, b"not found", "text/plain")
            return
        self._send(200, target.read_bytes(), "text/html; charset=utf-8")

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        send_body(self, status, body, content_type)


def serve_test_pages() -> tuple[str, Callable[[], None]]:
    return serve_in_thread(_Handler, name="test-pages")
