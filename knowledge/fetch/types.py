"""What a fetch is allowed to do, what it returns and how it fails."""

from __future__ import annotations

from dataclasses import dataclass


class FetchRefused(Exception):
    """The URL (or a redirect hop) has a scheme or an address Stepwise does not fetch.

    The message is deliberately opaque: it reaches the tenant, and saying *why* an address
    was refused would help map the private network. The reason is logged at debug level.
    """

    def __init__(self) -> None:
        super().__init__("URL not allowed")


class FetchFailed(Exception):
    """The fetch was allowed but did not give a page: network error, timeout, HTTP error
    status, too many redirects or a body over the byte cap."""

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class FetchPolicy:
    # host names or IPs a fetch may reach although they are not global (tests, on-premise)
    allow_private_hosts: frozenset[str] = frozenset()
    max_bytes: int = 10_000_000
    timeout_s: float = 15.0
    max_redirects: int = 5
    user_agent: str = "StepwiseBot/0.1 (+https://stepwise.dev/bot)"


@dataclass(frozen=True)
class FetchResult:
    url: str  # final URL after redirects
    status: int  # 200 (any 2xx) or 304
    media_type: str | None  # from Content-Type, lower-case, no params
    body: bytes  # b"" when 304
    etag: str | None
    last_modified: str | None

    @property
    def not_modified(self) -> bool:
        return self.status == 304
