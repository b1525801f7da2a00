"""A local fake of the LangFuse ingestion endpoints, for SDK contract tests.

A real HTTP server on 127.0.0.1 (ephemeral port, background thread). The real ``langfuse``
SDK, pointed at it with ``base_url``, sends what it sends to LangFuse Cloud:

- ``POST /api/public/otel/v1/traces`` — OTLP/HTTP, protobuf (gzip by default) or JSON;
  decoded with ``opentelemetry-proto`` into ``FakeSpan``s (name, ids, parent, attributes);
- ``POST /api/public/scores`` — a JSON list of scores (answered 202);
- ``POST /api/public/ingestion`` — the legacy event batch (answered 207).

::

    with FakeLangfuse() as fake:
        tracer = LangfuseTracer.connect(public_key=fake.public_key, secret_key="sk", host=fake.url)
        ...
        tracer.flush()
        root = fake.root("interact-request-t1")
        fake.children(root)
"""

from __future__ import annotations

from tests.support.loopback import LoopbackServer

import gzip
import json
import threading
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

OTEL_PATH = "/api/public/otel/v1/traces"
SCORES_PATH = "/api/public/scores"
INGESTION_PATH = "/api/public/ingestion"


@dataclass(frozen=True)
class FakeSpan:
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str | None
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    scope: str
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """OTel span events (name, attributes), e.g. an ``exception`` event."""
    status_code: int = 0

    @property
    def observation_type(self) -> str | None:
        value = self.attributes.get("langfuse.observation.type")
        return value if isinstance(value, str) else None

    def json_attr(self, key: str) -> Any:
        """An attribute the SDK JSON-encodes (input, output, metadata, usage, cost)."""
        value = self.attributes.get(key)
        return json.loads(value) if isinstance(value, str) else value

    def metadata(self, key: str) -> Any:
        return self.json_attr(f"langfuse.observation.metadata.{key}")

    @property
    def duration_ms(self) -> float:
        return (self.end_ns - self.start_ns) / 1_000_000


@dataclass(frozen=True)
class ReceivedRequest:
    """``headers`` keys are lower-case."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class _State:
    spans: list[FakeSpan] = field(default_factory=list)
    scores: list[dict[str, Any]] = field(default_factory=list)
    ingestion_events: list[dict[str, Any]] = field(default_factory=list)
    requests: list[ReceivedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _any_value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_any_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _any_value(kv.value) for kv in value.kvlist_value.values}
    return getattr(value, kind)


def decode_otlp(body: bytes, content_type: str) -> list[FakeSpan]:
    request = ExportTraceServiceRequest()
    if "json" in content_type:
        json_format.Parse(body.decode(), request)
    else:
        request.ParseFromString(body)
    spans: list[FakeSpan] = []
    for resource_spans in request.resource_spans:
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                spans.append(
                    FakeSpan(
                        name=span.name,
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_span_id=span.parent_span_id.hex() or None,
                        start_ns=span.start_time_unix_nano,
                        end_ns=span.end_time_unix_nano,
                        attributes={kv.key: _any_value(kv.value) for kv in span.attributes},
                        scope=scope_spans.scope.name,
                        events=[
                            (event.name, {kv.key: _any_value(kv.value) for kv in event.attributes})
                            for event in span.events
                        ],
                        status_code=span.status.code,
                    )
                )
    return spans


def _decompress(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    return body


class FakeLangfuse(LoopbackServer):
    def __init__(self) -> None:
        self.public_key = f"pk-lf-test-{uuid.uuid4().hex[:12]}"
        self._state = _State()
        self._serve(self._handler_class(), "fake-langfuse")

    @property
    def url(self) -> str:
        return self.base_url

    # --- lifecycle -------------------------------------------------------------------

    # --- what was received -----------------------------------------------------------

    @property
    def spans(self) -> list[FakeSpan]:
        with self._state.lock:
            return list(self._state.spans)

    @property
    def scores(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.scores)

    @property
    def requests(self) -> list[ReceivedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    def wait_for(self, predicate: Callable[[FakeLangfuse], bool], timeout_s: float = 5.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not predicate(self):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"fake LangFuse: condition not met in {timeout_s}s; spans={self.names()}"
                )
            time.sleep(0.01)

    def names(self) -> list[str]:
        return [s.name for s in self.spans]

    def named(self, name: str) -> list[FakeSpan]:
        return [s for s in self.spans if s.name == name]

    def one(self, name: str) -> FakeSpan:
        found = self.named(name)
        assert len(found) == 1, f"expected one span {name!r}, got {len(found)}: {self.names()}"
        return found[0]

    def root(self, name: str) -> FakeSpan:
        span = self.one(name)
        assert span.parent_span_id is None, f"{name!r} has a parent"
        return span

    def children(self, parent: FakeSpan) -> list[FakeSpan]:
        """Direct children, in start order."""
        kids = [
            s
            for s in self.spans
            if s.parent_span_id == parent.span_id and s.trace_id == parent.trace_id
        ]
        return sorted(kids, key=lambda s: s.start_ns)

    def trace(self, trace_id: str) -> list[FakeSpan]:
        return [s for s in self.spans if s.trace_id == trace_id]

    # --- the server ------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        state = self._state

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                body = _decompress(raw, (self.headers.get("Content-Encoding") or "").lower())
                path = self.path.split("?", 1)[0]
                content_type = (self.headers.get("Content-Type") or "").lower()
                with state.lock:
                    state.requests.append(
                        ReceivedRequest(
                            "POST", path, {k.lower(): v for k, v in self.headers.items()}, body
                        )
                    )
                if path == OTEL_PATH:
                    spans = decode_otlp(body, content_type)
                    with state.lock:
                        state.spans.extend(spans)
                    if "json" in content_type:
                        self._reply(200, b"{}", "application/json")
                    else:
                        self._reply(
                            200,
                            ExportTraceServiceResponse().SerializeToString(),
                            "application/x-protobuf",
                        )
                elif path == SCORES_PATH:
                    scores = json.loads(body)
                    with state.lock:
                        state.scores.extend(scores if isinstance(scores, list) else [scores])
                    self._reply(202, b'{"message": "Accepted"}', "application/json")
                elif path == INGESTION_PATH:
                    batch = json.loads(body).get("batch", [])
                    with state.lock:
                        state.ingestion_events.extend(batch)
                    successes = [{"id": event.get("id"), "status": 201} for event in batch]
                    self._reply(
                        207,
                        json.dumps({"successes": successes, "errors": []}).encode(),
                        "application/json",
                    )
                else:
                    self._reply(404, b'{"message": "not found"}', "application/json")

            def do_GET(self) -> None:
                with state.lock:
                    state.requests.append(
                        ReceivedRequest(
                            "GET", self.path, {k.lower(): v for k, v in self.headers.items()}, b""
                        )
                    )
                if self.path.startswith("/api/public/projects"):
                    self._reply(
                        200,
                        b'{"data": [{"id": "fake-project", "name": "fake"}]}',
                        "application/json",
                    )
                else:
                    self._reply(404, b'{"message": "not found"}', "application/json")

            def _reply(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler
