"""A local fake of Tavily's ``/search`` API, for SDK contract tests.

A real HTTP server on 127.0.0.1 (ephemeral port, background thread), so the real
``tavily-python`` ``AsyncTavilyClient`` pointed at it with ``api_base_url`` runs its whole
request/response path. It speaks Tavily's protocol: ``POST /search`` with a JSON body
(``query``, ``include_domains``, ``max_results``, ``search_depth`` …; the key as
``Authorization: Bearer …`` — current SDKs — or as ``api_key`` in the body — older ones),
answered with ``{query, results: [{title, url, content, score}], response_time}`` or an
error ``{"detail": {"error": "…"}}``.

Each test scripts replies in order; with none left the fake answers from its
``corpus`` filtered by ``include_domains`` and the query's words.
"""

from __future__ import annotations

from tests.support.loopback import LoopbackServer

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

TEST_API_KEY = "tvly-test-key"


@dataclass(frozen=True)
class TavilyReply:
    status: int = 200
    results: tuple[dict[str, Any], ...] = ()
    error: str = "scripted error"
    delay_s: float = 0.0
    raw_body: bytes | None = None

    def body(self, query: str) -> bytes:
        if self.raw_body is not None:
            return self.raw_body
        if self.status != 200:
            return json.dumps({"detail": {"error": self.error}}).encode()
        return json.dumps(
            {
                "query": query,
                "follow_up_questions": None,
                "answer": None,
                "images": [],
                "results": list(self.results),
                "response_time": 0.01,
            }
        ).encode()


def hit(title: str, url: str, content: str, score: float = 0.8) -> dict[str, Any]:
    return {"title": title, "url": url, "content": content, "score": score, "raw_content": None}


def results(*hits: dict[str, Any]) -> TavilyReply:
    return TavilyReply(results=tuple(hits))


def http_error(status: int, error: str = "scripted error", **options: Any) -> TavilyReply:
    return TavilyReply(status=status, error=error, **options)


@dataclass(frozen=True)
class RecordedSearch:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any
    raw: bytes = field(repr=False)

    @property
    def api_key(self) -> str | None:
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:]
        return (self.body or {}).get("api_key") if isinstance(self.body, dict) else None


class FakeTavily(LoopbackServer):
    def __init__(
        self, *, api_key: str | None = TEST_API_KEY, corpus: list[dict[str, Any]] | None = None
    ) -> None:
        self.expected_api_key = api_key
        self.corpus = list(corpus or [])
        self.requests: list[RecordedSearch] = []
        self._replies: deque[TavilyReply] = deque()
        self._lock = threading.Lock()
        self._serve(_handler_for(self), "fake-tavily")

    def enqueue(self, *replies: TavilyReply) -> None:
        with self._lock:
            self._replies.extend(replies)

    def _from_corpus(self, body: dict[str, Any]) -> TavilyReply:
        domains = [d.lower() for d in body.get("include_domains") or []]
        words = [w for w in str(body.get("query", "")).lower().split() if len(w) > 2]
        found = []
        for item in self.corpus:
            host = (urlsplit(item["url"]).hostname or "").lower()
            if domains and not any(host == d or host.endswith("." + d) for d in domains):
                continue
            text = f"{item['title']} {item['content']}".lower()
            if all(w in text for w in words):
                found.append(item)
        return results(*found[: int(body.get("max_results") or 5)])

    def _take(self, request: RecordedSearch) -> TavilyReply:
        with self._lock:
            self.requests.append(request)
            if request.path.split("?", 1)[0] != "/search":
                return http_error(404, f"unknown path {request.path}")
            if self.expected_api_key is not None and request.api_key != self.expected_api_key:
                return http_error(401, "Unauthorized: missing or invalid API key.")
            if not isinstance(request.body, dict) or not request.body.get("query"):
                return http_error(400, "query is required")
            if self._replies:
                return self._replies.popleft()
            return self._from_corpus(request.body)


def _handler_for(fake: FakeTavily) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except json.JSONDecodeError:
                body = None
            request = RecordedSearch(
                self.path, {k.lower(): v for k, v in self.headers.items()}, body, raw
            )
            reply = fake._take(request)
            if reply.delay_s and fake._stopping.wait(reply.delay_s):
                return
            query = body.get("query", "") if isinstance(body, dict) else ""
            payload = reply.body(query)
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler
