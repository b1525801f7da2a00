"""A small records application for the sub-task bench and tests: search → open a record →
edit its fields → save, on 127.0.0.1 (ephemeral port, daemon thread, context manager).

* ``/`` — a search form ("Search records", button "Search");
* ``/search?q=…`` — every record sharing a word with the query, as a list or a table
  (``layout``), each name a link to its record;
* ``/records/<id>`` — the record's edit form (Email, Phone, City, Role, Notes) and Save;
* ``POST /records/<id>`` — stores the form and redirects to ``/records/<id>/saved``: a
  "Record saved" status and the stored values as text.

``drop`` names a field the server silently does not store (the variant where one part's
effect never shows on the page). ``saved`` is the site's own truth: what was really stored.
Every page shares the same header and footer links, so pages differ mainly in their work.
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final, Literal, Self
from urllib.parse import parse_qs, urlsplit

Layout = Literal["list", "table"]
FIELDS: Final = ("email", "phone", "city", "role", "notes")
ROLES: Final = ("Viewer", "Editor", "Manager", "Admin")


@dataclass
class Record:
    id: int
    name: str
    values: dict[str, str]


def seed() -> dict[int, Record]:
    people = [
        (17, "Ana Silva", "ana@old.example", "555-0100", "Lisbon", "Viewer", "New customer"),
        (18, "Ana Sousa", "sousa@example.org", "555-0111", "Porto", "Editor", ""),
        (21, "Bruno Costa", "bruno@example.org", "555-0122", "Braga", "Viewer", ""),
        (24, "Carla Ana Dias", "carla@example.org", "555-0133", "Faro", "Admin", ""),
        (30, "Rui Silva", "rui@example.org", "555-0144", "Lisbon", "Viewer", ""),
    ]
    return {
        pid: Record(pid, name, dict(zip(FIELDS, (email, phone, city, role, notes), strict=True)))
        for pid, name, email, phone, city, role, notes in people
    }


@dataclass
class RecordsSite:
    """The server. ``saved`` lists (record id, stored values) per save, in order."""

    layout: Layout = "list"
    drop: str | None = None
    records: dict[int, Record] = field(default_factory=seed)
    saved: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    searches: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="records-site", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/"

    def record_of(self, name: str) -> Record:
        return next(r for r in self.records.values() if r.name == name)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)
        self._server.server_close()

    # ---- pages ---------------------------------------------------------------------------

    def search_form(self, query: str = "") -> str:
        return (
            '<form action="/search" method="get" role="search"><label for="q">Search records</label> '
            f'<input id="q" name="q" type="search" value="{html.escape(query)}"> <button type="submit">Search</button></form>'
        )

    def home(self) -> str:
        return _page("Records", "<h1>Records</h1>" + self.search_form())

    def results(self, query: str) -> str:
        with self._lock:
            self.searches.append(query)
        words = {w for w in query.lower().split() if w}
        found = [r for r in self.records.values() if words & set(r.name.lower().split())]
        if self.layout == "table":
            rows = "".join(
                f'<tr><td><a href="/records/{r.id}">{html.escape(r.name)}</a></td><td>{html.escape(r.values["city"])}</td></tr>' for r in found
            )
            listing = f"<table><thead><tr><th>Name</th><th>City</th></tr></thead><tbody>{rows}</tbody></table>"
        else:
            items = "".join(f'<li><a href="/records/{r.id}">{html.escape(r.name)}</a> — {html.escape(r.values["city"])}</li>' for r in found)
            listing = f"<ul class=results>{items}</ul>"
        body = f"<h1>Search results</h1>{self.search_form(query)}<p>{len(found)} records found.</p>{listing}"
        return _page("Search results", body)

    def form(self, record: Record) -> str:
        v = {k: html.escape(x) for k, x in record.values.items()}
        options = "".join(f"<option{' selected' if role == record.values['role'] else ''}>{role}</option>" for role in ROLES)
        body = (
            f"<h1>{html.escape(record.name)}</h1>"
            f'<form method="post" action="/records/{record.id}">'
            f'<p><label for="email">Email</label> <input id="email" name="email" type="email" value="{v["email"]}"></p>'
            f'<p><label for="phone">Phone</label> <input id="phone" name="phone" type="tel" value="{v["phone"]}"></p>'
            f'<p><label for="city">City</label> <input id="city" name="city" value="{v["city"]}"></p>'
            f'<p><label for="role">Role</label> <select id="role" name="role">{options}</select></p>'
            f'<p><label for="notes">Notes</label> <textarea id="notes" name="notes">{v["notes"]}</textarea></p>'
            '<p><button type="submit">Save</button></p></form>'
        )
        return _page(record.name, body)

    def saved_view(self, record: Record) -> str:
        rows = "".join(f"<dt>{name.title()}</dt><dd>{html.escape(record.values[name])}</dd>" for name in FIELDS)
        body = (
            f"<h1>{html.escape(record.name)}</h1><p role=status>Record saved.</p><dl>{rows}</dl>"
            f'<p><a href="/records/{record.id}">Edit again</a></p>'
        )
        return _page(f"{record.name} saved", body)

    def save(self, record_id: int, form: dict[str, str]) -> None:
        with self._lock:
            record = self.records[record_id]
            for name in FIELDS:
                if name in form and name != self.drop:
                    record.values[name] = form[name]
            self.saved.append((record_id, dict(record.values)))


def _page(title: str, main: str) -> str:
    header = '<header><nav><a href="/">Home</a> <a href="/search?q=">All records</a> <a href="/help">Help</a></nav></header>'
    footer = '<footer><a href="/privacy">Privacy</a> <a href="/contact">Contact</a></footer>'
    return f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)}</title></head><body>{header}<main>{main}</main>{footer}</body></html>"


def _handler_for(site: RecordsSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            segments = [s for s in parts.path.split("/") if s]
            if not segments:
                self._send(200, site.home())
            elif segments == ["search"]:
                self._send(200, site.results(parse_qs(parts.query).get("q", [""])[0]))
            elif len(segments) >= 2 and segments[0] == "records" and segments[1].isdigit() and int(segments[1]) in site.records:
                record = site.records[int(segments[1])]
                self._send(200, site.saved_view(record) if segments[2:] == ["saved"] else site.form(record))
            else:
                self._send(200, _page("Not here", "<h1>Nothing here</h1>"))

        def do_POST(self) -> None:
            segments = [s for s in urlsplit(self.path).path.split("/") if s]
            raw = self.rfile.read(int(self.headers.get("content-length") or 0)).decode()
            if len(segments) == 2 and segments[0] == "records" and segments[1].isdigit() and int(segments[1]) in site.records:
                site.save(int(segments[1]), {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()})
                self.send_response(303)
                self.send_header("Location", f"/records/{segments[1]}/saved")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self._send(404, _page("Not found", "<h1>Not found</h1>"))

        def _send(self, status: int, text: str) -> None:
            body = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler
