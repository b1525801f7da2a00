"""The demo clinic app on 127.0.0.1: static pages plus a tiny JSON API for patients.

``url, stop = serve_demo_site(0)`` starts it on a free port in a background thread. Saving a
patient answers after ``save_delay_s`` (0.6 s by default) and the list loads after
``list_delay_s``, so a client that does not wait for the page to settle sees a half-done page.

Run it alone with ``python -m client.demo_site.server --port 8765``.
"""

from __future__ import annotations

from client.serving import send_body, serve_in_thread

import argparse
import importlib.resources
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Final

STATIC = importlib.resources.files("client.demo_site")
ROUTES: Final[dict[str, str]] = {
    "/": "index.html",
    "/index.html": "index.html",
    "/patients": "patients.html",
    "/patients/new": "new-patient.html",
    "/appointments": "appointments.html",
    "/settings": "settings.html",
}
TYPES: Final[dict[str, str]] = {".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript"}
SEED: Final[tuple[tuple[str, str, str], ...]] = (
    ("Maria Lopez", "1984-03-12", "Allergic to penicillin"),
    ("Tom Becker", "1979-11-02", ""),
)


@dataclass
class DemoSite:
    """The app's state (patients) and timing knobs; one per server."""

    save_delay_s: float = 0.6
    list_delay_s: float = 0.15
    patients: list[dict[str, Any]] = field(default_factory=list)
    next_id: int = 1
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if not self.patients:
            for name, dob, notes in SEED:
                self.add(name, dob, notes)

    def add(self, name: str, dob: str | None, notes: str) -> dict[str, Any]:
        with self.lock:
            patient = {"id": self.next_id, "name": name, "dob": dob, "notes": notes}
            self.next_id += 1
            self.patients.append(patient)
            return patient

    def delete(self, patient_id: int) -> bool:
        with self.lock:
            before = len(self.patients)
            self.patients = [p for p in self.patients if p["id"] != patient_id]
            return len(self.patients) != before

    def names(self) -> list[str]:
        with self.lock:
            return [p["name"] for p in self.patients]


def _resource_name(path: str) -> str | None:
    """The file a URL path serves: a page route, or /static/<name>.css|js; None otherwise."""
    routed = ROUTES.get(path.rstrip("/") or "/")
    if routed is not None:
        return routed
    name = path.removeprefix("/static/")
    if path.startswith("/static/") and "/" not in name and name.rsplit(".", 1)[-1] in ("css", "js"):
        return name
    return None


def _handler(site: DemoSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "SunriseClinic/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            send_body(self, status, body, content_type)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/api/patients":
                time.sleep(site.list_delay_s)
                with site.lock:
                    self._json(200, list(site.patients))
                return
            name = _resource_name(path)
            resource = STATIC.joinpath(name) if name is not None else None
            if name is None or resource is None or not resource.is_file():
                self._send(404, b"<h1>Not found</h1>", TYPES[".html"])
                return
            suffix = "." + name.rsplit(".", 1)[-1]
            self._send(200, resource.read_bytes(), TYPES.get(suffix, "application/octet-stream"))

        def do_POST(self) -> None:
            if self.path != "/api/patients":
                self._json(404, {"error": "not found"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                data = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json(400, {"error": "invalid JSON"})
                return
            time.sleep(site.save_delay_s)
            name = str(data.get("name") or "").strip()
            if not name:
                self._json(400, {"error": "Name is required"})
                return
            self._json(201, site.add(name, data.get("dob") or None, str(data.get("notes") or "")))

        def do_DELETE(self) -> None:
            prefix = "/api/patients/"
            if not self.path.startswith(prefix) or not self.path[len(prefix):].isdigit():
                self._json(404, {"error": "not found"})
                return
            deleted = site.delete(int(self.path[len(prefix):]))
            self._send(HTTPStatus.NO_CONTENT if deleted else HTTPStatus.NOT_FOUND, b"", "text/plain")

    return Handler


def serve_demo_site(port: int = 0, *, site: DemoSite | None = None, host: str = "127.0.0.1") -> tuple[str, Callable[[], None]]:
    """Start the clinic app; returns its base URL (``http://127.0.0.1:PORT``) and a stop function."""
    return serve_in_thread(_handler(site or DemoSite()), name="demo-site", host=host, port=port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Sunrise Clinic demo app")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    url, stop = serve_demo_site(args.port)
    print(f"Sunrise Clinic on {url}/  (Ctrl-C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
