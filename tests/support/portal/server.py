"""The portal's HTTP server on 127.0.0.1: both layouts, the JSON API of layout B, the static files.

``url, stop = serve_portal(portal)`` starts it on a free port in a background thread. Pages
live under ``/a/...`` and ``/b/...``; ``/api/...`` is layout B's ``fetch`` API. Sessions are a
cookie (``portal_session``) naming a token the :class:`Portal` issued at login.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from client.serving import serve_in_thread
from tests.support.portal import layout_a, layout_b
from tests.support.portal.state import SETTINGS, Person, Portal

STATIC: Final[Path] = Path(__file__).parent / "static"
STATIC_TYPES: Final[dict[str, str]] = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
COOKIE: Final[str] = "portal_session"
INVALID_LOGIN: Final[str] = "Invalid username or password"
REPORT_DOWN: Final[str] = "Report service unavailable"

_PAGE = re.compile(r"^/(?P<layout>[ab])(?P<rest>/.*)?$")
_PERSON = re.compile(r"^/people/(?P<id>\d+)/(?P<verb>edit|deactivate|activate)$")
_PRODUCT = re.compile(r"^/product/(?P<id>\d+)$")
_API_PERSON = re.compile(r"^/api/people/(?P<id>\d+)(?:/(?P<verb>deactivate|activate))?$")

CHOOSER: Final[str] = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Portal</title>
<link rel="stylesheet" href="/static/portal.css"></head><body class="layout-a"><main>
<h1>Acme Portal</h1><ul><li><a href="/a/">Classic layout</a></li><li><a href="/b/">New layout</a></li></ul>
</main></body></html>"""


def _person_json(p: Person) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "email": p.email, "role": p.role, "active": p.active}


def _handler(portal: Portal) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "AcmePortal/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            return

        # -- plumbing ---------------------------------------------------------------------

        def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser went away (a context closed mid-request)

        def _html(self, text: str, status: int = 200) -> None:
            self._send(status, text.encode(), "text/html; charset=utf-8")

        def _json(self, data: Any, status: int = 200) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def _redirect(self, location: str, cookie: str | None = None) -> None:
            headers = {"Location": location}
            if cookie is not None:
                headers["Set-Cookie"] = cookie
            self._send(HTTPStatus.SEE_OTHER, b"", "text/plain", headers)

        def _token(self) -> str | None:
            jar = SimpleCookie(self.headers.get("Cookie") or "")
            morsel = jar.get(COOKIE)
            return morsel.value if morsel is not None else None

        def _user(self) -> str | None:
            return portal.session_user(self._token())

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _form(self) -> dict[str, str]:
            return {k: v[0] for k, v in parse_qs(self._body().decode(), keep_blank_values=True).items()}

        def _json_body(self) -> dict[str, Any]:
            try:
                data = json.loads(self._body() or b"{}")
            except ValueError:
                return {}
            return data if isinstance(data, dict) else {}

        # -- GET --------------------------------------------------------------------------

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            path = parts.path
            if path == "/":
                self._html(CHOOSER)
            elif path.startswith("/static/"):
                self._static(path.removeprefix("/static/"))
            elif path == "/api/search":
                self._json([{"id": p.id, "name": p.name, "price": p.price} for p in portal.search(query.get("q", ""))])
            elif (match := _PAGE.match(path)) is not None:
                self._page_get(match["layout"], (match["rest"] or "/").rstrip("/") or "/", query)
            else:
                self._html(layout_a.not_found(None), 404)

        def _static(self, name: str) -> None:
            target = STATIC / name
            suffix = target.suffix
            if "/" in name or suffix not in STATIC_TYPES or not target.is_file():
                self._send(404, b"not found", "text/plain")
                return
            self._send(200, target.read_bytes(), STATIC_TYPES[suffix])

        def _page_get(self, layout: str, rest: str, query: dict[str, str]) -> None:
            user = self._user()
            view = layout_a if layout == "a" else layout_b
            if rest == "/":
                self._html(view.index(user))
            elif rest == "/login":
                self._html(view.login(user))
            elif rest == "/logout":
                portal.logout(self._token())
                self._redirect(f"/{layout}/login", f"{COOKIE}=; Path=/; Max-Age=0")
            elif rest == "/home":
                if user is None:
                    self._redirect(f"/{layout}/login")
                else:
                    self._html(view.home(user))
            elif rest == "/search":
                if layout == "a":
                    q = query.get("q")
                    if q is not None:
                        portal.search(q)
                    self._html(layout_a.search(user, q))
                else:
                    self._html(layout_b.search(user))
            elif (match := _PRODUCT.match(rest)) is not None:
                product = portal.open_product(int(match["id"]))
                if product is None:
                    self._html(view.not_found(user), 404)
                else:
                    self._html(view.product(user, product))
            elif rest == "/settings":
                if layout == "a":
                    self._html(layout_a.settings(user, portal.settings(), saved=query.get("saved") == "1"))
                else:
                    self._html(layout_b.settings(user, portal.settings()))
            elif rest == "/people":
                if layout == "a":
                    updated = portal.person(int(query["updated"])) if query.get("updated", "").isdigit() else None
                    self._html(layout_a.people(user, portal.people(), updated=updated))
                else:
                    self._html(layout_b.people(user, portal.people()))
            elif (match := _PERSON.match(rest)) is not None and match["verb"] == "edit":
                person = portal.person(int(match["id"]))
                if person is None:
                    self._html(view.not_found(user), 404)
                else:
                    self._html(view.edit_person(user, person))
            elif rest == "/reports":
                self._html(view.reports(user))
            else:
                self._html(view.not_found(user), 404)

        # -- POST -------------------------------------------------------------------------

        def do_POST(self) -> None:
            path = urlsplit(self.path).path
            if path.startswith("/api/"):
                self._api_post(path)
            elif path in ("/a/login", "/b/login"):
                self._login(path[1])
            elif path == "/a/settings":
                form = self._form()
                portal.save_settings({key: form.get(key) == "on" for key, _, _ in SETTINGS})
                self._redirect("/a/settings?saved=1")
            elif path == "/a/reports/generate":
                portal.generate_report(self._form().get("period", ""))
                self._html(layout_a.reports(self._user(), error=REPORT_DOWN), HTTPStatus.SERVICE_UNAVAILABLE)
            elif path.startswith("/a/") and (match := _PERSON.match(path.removeprefix("/a"))) is not None:
                self._person_post(int(match["id"]), match["verb"])
            else:
                self._html(layout_a.not_found(self._user()), 404)

        def _login(self, layout: str) -> None:
            form = self._form()
            username = form.get("username", "")
            token = portal.login(username, form.get("password", ""))
            if token is None:
                view = layout_a if layout == "a" else layout_b
                self._html(view.login(self._user(), error=INVALID_LOGIN, username=username))
                return
            self._redirect(f"/{layout}/home", f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax")

        def _person_post(self, person_id: int, verb: str) -> None:
            if verb == "edit":
                person = portal.set_role(person_id, self._form().get("role", ""))
                target = f"/a/people?updated={person_id}"
            else:
                person = portal.set_active(person_id, verb == "activate")
                target = "/a/people"
            if person is None:
                self._html(layout_a.not_found(self._user()), 404)
            else:
                self._redirect(target)

        def _api_post(self, path: str) -> None:
            data = self._json_body()
            if path == "/api/settings":
                portal.save_settings({key: data.get(key) is True for key, _, _ in SETTINGS})
                self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")
            elif path == "/api/reports":
                portal.generate_report(str(data.get("period") or ""))
                self._json({"error": REPORT_DOWN}, HTTPStatus.SERVICE_UNAVAILABLE)
            elif (match := _API_PERSON.match(path)) is not None:
                person_id = int(match["id"])
                if match["verb"] is None:
                    person = portal.set_role(person_id, str(data.get("role") or ""))
                else:
                    person = portal.set_active(person_id, match["verb"] == "activate")
                if person is None:
                    self._json({"error": "not found or invalid"}, 404)
                else:
                    self._json(_person_json(person))
            else:
                self._json({"error": "not found"}, 404)

    return Handler


def serve_portal(portal: Portal, *, host: str = "127.0.0.1", port: int = 0) -> tuple[str, Callable[[], None]]:
    """Start the portal; returns its base URL (``http://127.0.0.1:PORT``) and a stop function."""
    return serve_in_thread(_handler(portal), name="test-portal", host=host, port=port)
