"""The web-search client: Tavily through ``tavily-python``'s ``AsyncTavilyClient``.

Switched on by ``TAVILY_API_KEY`` (``search_client_from_settings`` returns ``None``
without one — the SDK would otherwise fall back to its rate-limited keyless mode). Every
failure of the SDK or the transport becomes one typed :class:`SearchUnavailable`; the
caller takes its degraded path. There is no retry here: a search is an optional extra on
the latency path of an interact request.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Final, Literal, Protocol

import httpx
from pydantic import BaseModel, ConfigDict, Field
from tavily import AsyncTavilyClient
from tavily.errors import (
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)
from tavily.errors import TimeoutError as TavilyTimeout

from observability import redact_text

SearchDepth = Literal["basic", "advanced"]
UnavailableKind = Literal[
    "auth",
    "rate_limited",
    "forbidden",
    "bad_request",
    "server_error",
    "timeout",
    "connection",
    "bad_response",
]
CONTENT_LIMIT: Final = 1_500  # characters of a result kept for prompts


class SearchHit(BaseModel):
    """One web result. Every field is untrusted text from the web."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str = Field(description="Result title as the site gives it")
    url: str = Field(description="Result URL")
    content: str = Field(description="Relevant extract of the page (trimmed)")
    score: float = Field(description="Search engine relevance, 0..1")


class SearchUnavailable(Exception):
    """The search provider could not answer. ``kind`` says why; the message never holds
    the API key or result text."""

    def __init__(
        self, message: str, *, kind: UnavailableKind, status_code: int | None = None
    ) -> None:
        super().__init__(message)
        self.kind: UnavailableKind = kind
        self.status_code = status_code


class SearchClient(Protocol):
    async def search(
        self,
        query: str,
        *,
        include_domains: Sequence[str] | None,
        max_results: int,
        search_depth: SearchDepth,
    ) -> list[SearchHit]:
        """Results for ``query`` or :class:`SearchUnavailable`."""
        ...

    async def aclose(self) -> None: ...


def _hits(body: Any) -> list[SearchHit]:
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        raise SearchUnavailable("search response has no 'results' list", kind="bad_response")
    hits: list[SearchHit] = []
    for item in body["results"]:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            continue
        score = item.get("score")
        hits.append(
            SearchHit(
                title=str(item.get("title") or ""),
                url=item["url"],
                content=str(item.get("content") or "")[:CONTENT_LIMIT],
                score=float(score)
                if isinstance(score, (int, float)) and not isinstance(score, bool)
                else 0.0,
            )
        )
    return hits


class TavilySearch:
    """:class:`SearchClient` over ``AsyncTavilyClient`` (``api_base_url`` points it at a
    local fake in tests)."""

    def __init__(
        self, api_key: str, *, base_url: str | None = None, timeout_s: float = 10.0
    ) -> None:
        self._client = AsyncTavilyClient(
            api_key=api_key, api_base_url=base_url or None, client_source="stepwise"
        )
        self._timeout_s = timeout_s

    async def search(
        self,
        query: str,
        *,
        include_domains: Sequence[str] | None = None,
        max_results: int = 5,
        search_depth: SearchDepth = "basic",
    ) -> list[SearchHit]:
        try:
            async with asyncio.timeout(self._timeout_s + 2.0):  # guard against a trickling server
                body = await self._client.search(
                    redact_text(query),  # a task's secret never goes to a search engine
                    search_depth=search_depth,
                    max_results=max_results,
                    include_domains=list(include_domains) if include_domains else None,
                    timeout=self._timeout_s,
                )
        except InvalidAPIKeyError:
            raise SearchUnavailable(
                "search API key rejected (401)", kind="auth", status_code=401
            ) from None
        except UsageLimitExceededError:
            raise SearchUnavailable(
                "search rate or usage limit reached (429)", kind="rate_limited", status_code=429
            ) from None
        except ForbiddenError:
            raise SearchUnavailable(
                "search request forbidden (403/432/433)", kind="forbidden"
            ) from None
        except BadRequestError:
            raise SearchUnavailable(
                "search request rejected as invalid (400)", kind="bad_request", status_code=400
            ) from None
        except httpx.HTTPStatusError as exc:
            status = exc.response.status_code
            raise SearchUnavailable(
                f"search provider error ({status})", kind="server_error", status_code=status
            ) from None
        except (TavilyTimeout, TimeoutError, httpx.TimeoutException):
            raise SearchUnavailable(
                f"search timed out after {self._timeout_s}s", kind="timeout"
            ) from None
        except httpx.TransportError as exc:
            raise SearchUnavailable(
                f"search provider unreachable ({type(exc).__name__})", kind="connection"
            ) from None
        except json.JSONDecodeError:
            raise SearchUnavailable("search response is not JSON", kind="bad_response") from None
        except (AttributeError, TypeError):
            # the SDK reads the body with dict methods: JSON that is not an object fails inside it
            raise SearchUnavailable(
                "search response is not a JSON object", kind="bad_response"
            ) from None
        return _hits(body)

    async def aclose(self) -> None:
        await self._client.close()


def search_client_from_settings(
    api_key: str | None, base_url: str | None = None, *, timeout_s: float = 10.0
) -> TavilySearch | None:
    """A Tavily client, or ``None`` when no key is configured (web search then degrades)."""
    if api_key is None or not api_key.strip():
        return None
    return TavilySearch(api_key.strip(), base_url=base_url, timeout_s=timeout_s)
