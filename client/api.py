"""Async HTTP client for the Stepwise API (the calls the extension makes).

Every non-2xx answer becomes a :class:`StepwiseAPIError` carrying the server's error shape
``{"error": {"code", "message", "details"}}``. A 429 is retried once after its
``Retry-After``; a second 429 is raised.

Each interact request carries an ``Idempotency-Key`` (a new UUID per request): when its
answer is lost (the connection dropped, the read timed out) it is sent once more with the
same key, and the server answers with the stored answer instead of starting a second task or
step; while the first is still being answered (409 IDEMPOTENCY_KEY_IN_FLIGHT) the client
waits its ``Retry-After`` and asks again, a few times.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import httpx

DEFAULT_TIMEOUT: Final[httpx.Timeout] = httpx.Timeout(60.0, connect=5.0)
MAX_RETRY_AFTER_S: Final[float] = 60.0
IDEMPOTENCY_HEADER: Final = "Idempotency-Key"
RESENDS_AFTER_LOST_ANSWER: Final = 1
WAITS_WHILE_IN_FLIGHT: Final = 5


class StepwiseAPIError(RuntimeError):
    """An error answer of the API (``status`` 0: the server could not be reached)."""

    def __init__(self, status: int, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    @property
    def ends_task(self) -> bool:
        """4xx: the request was refused for good (409 TASK_FINISHED, 400 MAX_STEPS_EXCEEDED, 422…)."""
        return 400 <= self.status < 500


@dataclass(frozen=True)
class InteractAnswer:
    """The fields of an interact answer the client acts on; ``raw`` keeps the whole body."""

    raw: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)

    @property
    def action(self) -> str:
        return str(self.raw.get("action") or "")

    @property
    def actions(self) -> list[dict[str, Any]]:
        return list(self.raw.get("actions") or [])

    @property
    def thought(self) -> str:
        return str(self.raw.get("thought") or "")

    @property
    def task_id(self) -> str | None:
        return self.raw.get("taskId")

    @property
    def session_id(self) -> str | None:
        return self.raw.get("sessionId")

    @property
    def status(self) -> str:
        return str(self.raw.get("status") or "active")

    @property
    def needs_full_dom(self) -> bool:
        return bool(self.raw.get("needsFullDom"))

    @property
    def needs_screenshot(self) -> bool:
        return bool(self.raw.get("needsScreenshot"))

    @property
    def verification(self) -> dict[str, Any] | None:
        return self.raw.get("verification")

    @property
    def usage(self) -> dict[str, Any]:
        return dict(self.raw.get("usage") or {})

    @property
    def server_ms(self) -> float | None:
        metrics = self.raw.get("metrics") or {}
        value = metrics.get("serverMs")
        return float(value) if isinstance(value, (int, float)) else None


class StepwiseClient:
    """``async with StepwiseClient(base_url, api_key) as api: await api.interact(body)``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        headers = {"Accept": "application/json", "User-Agent": "stepwise-reference-client/0.1"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.base_url = base_url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)

    async def __aenter__(self) -> StepwiseClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def interact(self, body: Mapping[str, Any]) -> InteractAnswer:
        key = str(uuid.uuid4())  # one per request, the same on its re-sends
        headers = {IDEMPOTENCY_HEADER: key}
        return InteractAnswer(await self._request("POST", "/api/agent/interact", json=dict(body), headers=headers, resend=True))

    async def active_task(self, session_id: str, url: str) -> dict[str, Any] | None:
        """``GET /api/session/{id}/task/active?url=``; None when the session has no active task."""
        try:
            return await self._request("GET", f"/api/session/{session_id}/task/active", params={"url": url})
        except StepwiseAPIError as exc:
            if exc.status == 404:
                return None
            raise

    async def task(self, task_id: str) -> dict[str, Any]:
        return await self._request("GET", f"/api/tasks/{task_id}")

    async def ready(self) -> bool:
        try:
            response = await self._http.get("/readyz")
        except httpx.HTTPError:
            return False
        return response.status_code == 200

    async def _request(self, method: str, path: str, *, resend: bool = False, **kwargs: Any) -> dict[str, Any]:
        """``resend``: the request carries an Idempotency-Key, so sending it again is safe."""
        rate_limited = 0
        lost = 0
        in_flight = 0
        while True:
            try:
                response = await self._http.request(method, path, **kwargs)
            except httpx.HTTPError as exc:
                if resend and lost < RESENDS_AFTER_LOST_ANSWER and not isinstance(exc, httpx.ConnectTimeout):
                    lost += 1  # the answer may have been decided and lost: the key gets it back
                    continue
                if isinstance(exc, httpx.TimeoutException):
                    raise StepwiseAPIError(0, "TIMEOUT", f"{method} {path} timed out: {exc!r}") from exc
                raise StepwiseAPIError(0, "UNREACHABLE", f"{method} {path} failed: {exc!r}") from exc
            if response.status_code == 429 and rate_limited == 0:
                rate_limited += 1
                await asyncio.sleep(_retry_after(response))
                continue
            if response.is_success:
                try:
                    body = response.json()
                except ValueError as exc:
                    raise StepwiseAPIError(response.status_code, "INVALID_RESPONSE", f"{method} {path}: not JSON") from exc
                return body if isinstance(body, dict) else {"items": body}
            error = _error(response)
            if resend and error.code == "IDEMPOTENCY_KEY_IN_FLIGHT" and in_flight < WAITS_WHILE_IN_FLIGHT:
                in_flight += 1  # the first send is still being answered: its answer comes back after it
                await asyncio.sleep(_retry_after(response))
                continue
            raise error


def _retry_after(response: httpx.Response) -> float:
    try:
        seconds = float(response.headers.get("Retry-After", "1"))
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def _error(response: httpx.Response) -> StepwiseAPIError:
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return StepwiseAPIError(
            response.status_code,
            str(error.get("code") or "HTTP_ERROR"),
            str(error.get("message") or response.reason_phrase),
            error.get("details") if isinstance(error.get("details"), dict) else None,
        )
    return StepwiseAPIError(response.status_code, "HTTP_ERROR", response.text[:300] or response.reason_phrase)
