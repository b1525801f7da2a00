"""The extension's fixture sites, served from ``pages/`` on a loopback thread, with a server
that records what really happened (the truth the tests and the bench read).

Two sites in different layouts and phrasings, beside the demo clinic:

* **prefs** (``/prefs.html``) — a one-page settings form: a language ``<select>``, two
  checkboxes, "Save preferences" posts with ``fetch`` and a toast (role=status) says
  "Preferences saved". Truth: :meth:`FixtureState.prefs` and the count of saves.
* **people** (``/people.html`` → ``/person.html?id=N``) — a directory of cards with a search
  form (a GET navigation) and an "Edit" link per card (a real navigation to the record's
  form); Save posts and navigates back to the list with "Changes to <name> saved".
  Truth: :meth:`FixtureState.person` and :attr:`FixtureState.events`.

``frames.html`` (a same-origin iframe and an open shadow root) is for the parity test only.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Final

from client.serving import send_body, serve_in_thread

PAGES: Final[Path] = Path(__file__).parent / "pages"
INITIAL_PREFS: Final[dict[str, Any]] = {"language": "en", "summary": False, "sounds": True}
INITIAL_PEOPLE: Final[tuple[dict[str, Any], ...]] = (
    {"id": 1, "name": "Ada Lovelace", "phone": "555-0100", "team": "Engineering"},
    {"id": 2, "name": "Grace Hopper", "phone": "555-0111", "team": "Support"},
    {"id": 3, "name": "Alan Turing", "phone": "555-0122", "team": "Finance"},
    {"id": 4, "name": "Katherine Johnson", "phone": "555-0133", "team": "Sales"},
)


@dataclass
class FixtureState:
    """What the fixture sites hold and every change made to them, in order."""

    prefs: dict[str, Any] = field(default_factory=lambda: dict(INITIAL_PREFS))
    people: list[dict[str, Any]] = field(default_factory=lambda: copy.deepcopy(list(INITIAL_PEOPLE)))
    events: list[tuple[str, Any]] = field(default_factory=list)
    save_delay_s: float = 0.0  # how long a save's POST takes to answer (a slow backend)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.save_delay_s = 0.0
            self.prefs = dict(INITIAL_PREFS)
            self.people = copy.deepcopy(list(INITIAL_PEOPLE))
            self.events.clear()

    def person(self, name: str) -> dict[str, Any] | None:
        with self.lock:
            return next((dict(p) for p in self.people if p["name"] == name), None)

    def saves(self, kind: str) -> list[Any]:
        """The payloads of every change of this kind ("prefs_saved", "person_saved")."""
        with self.lock:
            return [payload for event, payload in self.events if event == kind]


def _handler(state: FixtureState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/api/prefs":
                with state.lock:
                    self._json(200, dict(state.prefs))
            elif path == "/api/people":
                with state.lock:
                    self._json(200, copy.deepcopy(state.people))
            elif path.startswith("/api/people/"):
                person = self._person(path)
                self._json(200, person) if person is not None else self._json(404, {"error": "no such person"})
            else:
                target = PAGES / path.lstrip("/")
                if "/" in path.lstrip("/") or not target.is_file():
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, target.read_bytes(), "text/html; charset=utf-8")

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0]
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._json(400, {"error": "bad json"})
                return
            time.sleep(state.save_delay_s)
            if path == "/api/prefs":
                with state.lock:
                    state.prefs = {key: body.get(key, value) for key, value in state.prefs.items()}
                    state.events.append(("prefs_saved", dict(state.prefs)))
                self._json(200, {"ok": True})
            elif path.startswith("/api/people/") and self._person(path) is not None:
                with state.lock:
                    person = next(p for p in state.people if p["id"] == self._person_id(path))
                    person.update({key: body[key] for key in ("name", "phone", "team") if key in body})
                    state.events.append(("person_saved", dict(person)))
                self._json(200, {"ok": True})
            else:
                self._json(404, {"error": "not found"})

        def _person_id(self, path: str) -> int:
            tail = path.removeprefix("/api/people/")
            return int(tail) if tail.isdigit() else -1

        def _person(self, path: str) -> dict[str, Any] | None:
            wanted = self._person_id(path)
            with state.lock:
                return next((dict(p) for p in state.people if p["id"] == wanted), None)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            send_body(self, status, body, content_type)

    return Handler


def serve_fixture_sites(state: FixtureState) -> tuple[str, Callable[[], None]]:
    """Serve the fixture pages and their API; returns the base URL and a stop function."""
    return serve_in_thread(_handler(state), name="extension-fixtures")
