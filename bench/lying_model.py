"""A local fake of the Gemini REST API that is a *broken model*, for the benchmarks.

``LyingGemini`` is a real HTTP server on 127.0.0.1 (ephemeral port, daemon thread, context
manager) that answers ``POST /{v1|v1beta}/models/{model}:generateContent`` exactly as
Google does (200, one candidate, ``finishReason: STOP``, ``usageMetadata``,
``modelVersion``). What it answers depends on ``mode``:

* ``"lying"`` — a schema-valid instance of the request's ``responseJsonSchema`` that claims
  success everywhere (``task_completed: true``, confidence 0.97, action ``finish()``…),
  see :func:`bench.schema_instance.lying_instance`;
* ``"nonsense"`` — a schema-valid instance that means nothing (random words, actions on ids
  no page has), see :func:`bench.schema_instance.nonsense_instance`;
* ``"invalid"`` — text that is not JSON.

Point Stepwise at it with ``GEMINI_API_KEY=<any non-placeholder>`` and
``GEMINI_BASE_URL=<base_url>``::

    with LyingGemini() as fake:
        env = {"GEMINI_API_KEY": FAKE_API_KEY, "GEMINI_BASE_URL": fake.base_url}
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final, Literal, Self, get_args

from bench.schema_instance import lying_instance, nonsense_instance

Mode = Literal["lying", "nonsense", "invalid"]
MODES: Final[tuple[Mode, ...]] = get_args(Mode)

FAKE_API_KEY: Final = "fake-key-for-lying-model"
NO_SCHEMA_ANSWER: Final = '{"task_completed": true}'
INVALID_ANSWER: Final = "Done! The task is complete, I clicked everything. {task_completed: yes"

_GENERATE = re.compile(r"^/(v1|v1beta|v1alpha)/models/([^/:]+):generateContent$")
_SCHEMA_KEYS = ("responseJsonSchema", "response_json_schema", "responseSchema", "response_schema")

ANSWER_KINDS: Final[tuple[tuple[str, str], ...]] = (
    ("task_completed", "VERIFICATION"),
    ("step_done", "ACTION_GENERATION"),
    ("minor_modifications_only", "REPLANNING"),
    ("steps", "PLANNING"),
    ("required_sources", "CONTEXT_ANALYSIS"),
    ("solved", "SEARCH_EVALUATION"),
    ("approved", "CRITIC"),
    ("url_should_change", "OUTCOME_PREDICTION"),
    ("strategy", "SELF_CORRECTION"),
)
"""A top-level field that tells which Stepwise engine asked (the request names no purpose);
the first match wins. Other schemas are counted by their field names."""


def answer_kind(schema: Mapping[str, Any] | None) -> str:
    """The purpose a request most likely serves, from its response schema."""
    if schema is None:
        return "no schema"
    properties = schema.get("properties", {})
    for field, kind in ANSWER_KINDS:
        if field in properties:
            return kind
    return "schema(" + ",".join(sorted(properties)) + ")"


def answer_text(mode: Mode, schema: Mapping[str, Any] | None, rng: random.Random) -> str:
    """The candidate text the fake answers with."""
    if mode == "invalid":
        return INVALID_ANSWER
    if schema is None:
        return NO_SCHEMA_ANSWER
    instance = lying_instance(schema) if mode == "lying" else nonsense_instance(schema, rng)
    return json.dumps(instance)


def generate_content_body(text: str, *, prompt_tokens: int, model_version: str) -> dict[str, Any]:
    """A 200 ``generateContent`` response body, shaped like Google's."""
    output_tokens = max(1, len(text) // 4)
    return {
        "candidates": [
            {
                "content": {"parts": [{"text": text}], "role": "model"},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": output_tokens,
            "totalTokenCount": prompt_tokens + output_tokens,
        },
        "modelVersion": model_version,
    }


def error_body(status: int, code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": status, "message": message, "status": code}}


class LyingGemini:
    """The server. ``requests`` counts answered ``generateContent`` calls by the purpose
    they most likely serve (:func:`answer_kind`); it is safe to read from any thread."""

    def __init__(
        self, mode: Mode = "lying", *, seed: int = 0, model_version: str = "gemini-lying-001"
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode: Mode = mode
        self.model_version = model_version
        self._rng = random.Random(seed)
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            args=(0.05,),
            name=f"lying-gemini-{mode}",
            daemon=True,
        )
        self._started = False

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def requests(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    @property
    def total_requests(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def env(self, api_key: str = FAKE_API_KEY) -> dict[str, str]:
        """The environment that points a Stepwise server at this fake."""
        return {"GEMINI_API_KEY": api_key, "GEMINI_BASE_URL": self.base_url}

    def start(self) -> Self:
        self._thread.start()
        self._started = True
        return self

    def stop(self) -> None:
        if self._started:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._started = False
        self._server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def answer(self, body: Mapping[str, Any], prompt_bytes: int) -> dict[str, Any]:
        """The response body for one ``generateContent`` request body."""
        config = body.get("generationConfig") or body.get("generation_config") or {}
        schema = next((config[k] for k in _SCHEMA_KEYS if isinstance(config.get(k), dict)), None)
        with self._lock:
            self._counts[answer_kind(schema)] += 1
            text = answer_text(self.mode, schema, self._rng)
        return generate_content_body(
            text, prompt_tokens=max(1, prompt_bytes // 4), model_version=self.model_version
        )


def _handler_for(fake: LyingGemini) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):  # HTTP/1.0: one request per connection
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            if _GENERATE.match(self.path.split("?", 1)[0]) is None:
                self._send(404, error_body(404, "NOT_FOUND", f"unknown path {self.path}"))
                return
            try:
                body = json.loads(raw) if raw else {}
            except (json.JSONDecodeError, UnicodeDecodeError):
                body = None
            if not isinstance(body, dict):
                error = error_body(400, "INVALID_ARGUMENT", "the body is not a JSON object")
                self._send(400, error)
                return
            self._send(200, fake.answer(body, len(raw)))

        def do_GET(self) -> None:
            self._send(404, error_body(404, "NOT_FOUND", f"unknown path {self.path}"))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up; nothing left to answer

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler
