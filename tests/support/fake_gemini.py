"""A local fake of the Gemini REST API (``generateContent``), for SDK contract tests.

It is a real HTTP server on 127.0.0.1 (ephemeral port, background thread) so the real
``google-genai`` client, pointed at it with ``HttpOptions(base_url=...)``, runs its whole
request/response path. Each test scripts the replies and inspects what the SDK sent::

    fake.enqueue(ok({"action": "click"}), http_error(429, retry_after="0"))
    ...
    fake.requests[0].body["systemInstruction"]
"""

from __future__ import annotations

from tests.support.loopback import LoopbackServer

import base64
import hashlib
import json
import math
import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

_GENERATE = re.compile(r"^/(v1|v1beta|v1alpha)/models/([^/:]+):(generateContent|batchEmbedContents)$")
_STATUS_TEXT = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


@dataclass(frozen=True)
class FakeReply:
    """One scripted reply. ``status`` 200 answers with a candidate (or a blocked prompt);
    anything else answers with Google's error body."""

    status: int = 200
    text: str | None = None
    finish_reason: str | None = "STOP"
    block_reason: str | None = None
    prompt_tokens: int = 120
    output_tokens: int | None = None
    thoughts_tokens: int | None = None
    cached_tokens: int | None = None
    image_tokens: int | None = None  # reported as promptTokensDetails (TEXT + IMAGE), as Gemini does
    model_version: str = "gemini-fake-001"
    error_message: str = "scripted error"
    error_status: str | None = None
    error_details: list[dict[str, Any]] | None = None
    retry_after: str | None = None
    delay_s: float = 0.0
    raw_body: bytes | None = None

    def body(self) -> bytes:
        if self.raw_body is not None:
            return self.raw_body
        if self.status != 200:
            error: dict[str, Any] = {
                "code": self.status,
                "message": self.error_message,
                "status": self.error_status or _STATUS_TEXT.get(self.status, "UNKNOWN"),
            }
            if self.error_details is not None:
                error["details"] = self.error_details
            return json.dumps({"error": error}).encode()
        output = self.output_tokens if self.output_tokens is not None else len(self.text or "") // 4
        usage: dict[str, Any] = {"promptTokenCount": self.prompt_tokens}
        if self.block_reason is None:
            usage["candidatesTokenCount"] = output
        if self.thoughts_tokens is not None:
            usage["thoughtsTokenCount"] = self.thoughts_tokens
        if self.cached_tokens is not None:
            usage["cachedContentTokenCount"] = self.cached_tokens
        usage["totalTokenCount"] = sum(
            v for k, v in usage.items() if k != "cachedContentTokenCount"
        )
        if self.image_tokens is not None:
            usage["promptTokensDetails"] = [
                {"modality": "TEXT", "tokenCount": self.prompt_tokens - self.image_tokens},
                {"modality": "IMAGE", "tokenCount": self.image_tokens},
            ]
        payload: dict[str, Any] = {"usageMetadata": usage, "modelVersion": self.model_version}
        if self.block_reason is not None:
            payload["promptFeedback"] = {"blockReason": self.block_reason}
        else:
            candidate: dict[str, Any] = {"index": 0}
            if self.text is not None:
                candidate["content"] = {"parts": [{"text": self.text}], "role": "model"}
            if self.finish_reason is not None:
                candidate["finishReason"] = self.finish_reason
            payload["candidates"] = [candidate]
        return json.dumps(payload).encode()


def ok(answer: str | dict[str, Any] | list[Any], **options: Any) -> FakeReply:
    """A 200 whose text is ``answer`` (a dict/list is JSON-encoded)."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return FakeReply(text=text, **options)


def embeddings(vectors: list[list[float]], **options: Any) -> FakeReply:
    """A 200 ``batchEmbedContents`` answer with these vectors, in order."""
    body = json.dumps({"embeddings": [{"values": v} for v in vectors]}).encode()
    return FakeReply(raw_body=body, **options)


def hashed_vector(text: str, dimension: int) -> list[float]:
    """A deterministic bag-of-words vector (unit length): texts sharing words are close."""
    vector = [0.0] * dimension
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        vector[int.from_bytes(digest[:4], "big") % dimension] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    if not any(vector):
        vector[0] = 1.0
        norm = 1.0
    return [v / norm for v in vector]


def embedding_responder(request: "RecordedRequest") -> FakeReply:
    """Answers any ``batchEmbedContents`` with hashed vectors of the requested dimension."""
    texts, dimension = request.embed_texts, request.embed_dimension or 768
    return embeddings([hashed_vector(t, dimension) for t in texts])


def http_error(status: int, **options: Any) -> FakeReply:
    return FakeReply(status=status, **options)


def blocked_prompt(reason: str = "SAFETY", **options: Any) -> FakeReply:
    return FakeReply(block_reason=reason, **options)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    model: str | None
    api_version: str | None
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None
    raw: bytes = field(repr=False)

    @property
    def system_text(self) -> str:
        parts = (self.body or {}).get("systemInstruction", {}).get("parts", [])
        return "".join(part.get("text", "") for part in parts)

    @property
    def user_text(self) -> str:
        contents = (self.body or {}).get("contents", [])
        return "".join(p.get("text", "") for c in contents for p in c.get("parts", []))

    @property
    def parts(self) -> list[dict[str, Any]]:
        """Every part of the user turn(s), in order."""
        return [p for c in (self.body or {}).get("contents", []) for p in c.get("parts", [])]

    @property
    def inline_images(self) -> list[tuple[str, bytes]]:
        """``(mimeType, decoded bytes)`` of each inline image part sent."""
        images = []
        for part in self.parts:
            blob = part.get("inlineData") or part.get("inline_data")
            if blob is not None:
                # the SDK sends bytes URL-safe base64 encoded; Google's API reads both alphabets
                data = str(blob.get("data", "")).replace("-", "+").replace("_", "/")
                images.append((blob.get("mimeType") or blob.get("mime_type") or "", base64.b64decode(data)))
        return images

    @property
    def is_embedding(self) -> bool:
        return self.path.split("?", 1)[0].endswith(":batchEmbedContents")

    @property
    def embed_texts(self) -> list[str]:
        return [
            "".join(p.get("text", "") for p in r.get("content", {}).get("parts", []))
            for r in (self.body or {}).get("requests", [])
        ]

    @property
    def embed_task_types(self) -> list[str | None]:
        return [r.get("taskType") for r in (self.body or {}).get("requests", [])]

    @property
    def embed_dimension(self) -> int | None:
        requests = (self.body or {}).get("requests", [])
        return requests[0].get("outputDimensionality") if requests else None

    @property
    def generation_config(self) -> dict[str, Any]:
        return dict((self.body or {}).get("generationConfig", {}))


class FakeGemini(LoopbackServer):
    """The server. Replies are popped from one queue in order; when the queue is empty,
    ``responder`` (if set) answers from the request itself; otherwise an unscripted request
    gets a 500 and is counted in ``unscripted`` so the test can fail clearly."""

    def __init__(self, *, api_key: str | None = None) -> None:
        self.expected_api_key = api_key
        self.requests: list[RecordedRequest] = []
        self.unscripted = 0
        self.responder: Callable[[RecordedRequest], FakeReply] | None = None
        self._replies: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self._serve(_handler_for(self), "fake-gemini")

    def enqueue(self, *replies: FakeReply | str | dict[str, Any]) -> None:
        with self._lock:
            for reply in replies:
                self._replies.append(reply if isinstance(reply, FakeReply) else ok(reply))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._replies)

    def _take(self, request: RecordedRequest) -> FakeReply:
        with self._lock:
            self.requests.append(request)
            if self.expected_api_key is not None and (
                request.headers.get("x-goog-api-key") != self.expected_api_key
            ):
                return http_error(
                    400, error_message="API key not valid. Please pass a valid API key."
                )
            if request.model is None:
                return http_error(404, error_message=f"unknown path {request.path}")
            if self._replies:
                return self._replies.popleft()
            if self.responder is not None:
                return self.responder(request)
            self.unscripted += 1
            return http_error(500, error_message="fake gemini: no scripted reply left")


def _handler_for(fake: FakeGemini) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except json.JSONDecodeError:
                body = None
            match = _GENERATE.match(self.path.split("?", 1)[0])
            reply = fake._take(
                RecordedRequest(
                    method="POST",
                    path=self.path,
                    model=match.group(2) if match else None,
                    api_version=match.group(1) if match else None,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    raw=raw,
                )
            )
            if reply.delay_s and fake._stopping.wait(reply.delay_s):
                return
            payload = reply.body()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(payload)))
                if reply.retry_after is not None:
                    self.send_header("Retry-After", reply.retry_after)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test); nothing left to answer

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler
