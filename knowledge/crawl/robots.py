"""robots.txt, fetched once per origin through the same SafeFetcher, read with protego.

Unavailable robots.txt is treated the way Google does: a 4xx (except 429) means there are
no rules (allow all); a 5xx, a 429, a network failure or a refused address means the site
cannot say what is allowed, so nothing is fetched from it (disallow all). The rules for
the "StepwiseBot" token apply (protego falls back to the ``*`` group). Crawl-delay is
handed to the politeness gate.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Final

import structlog
from ada_url import URL
from protego import Protego

from knowledge.crawl.politeness import HostGate
from knowledge.fetch import FetchFailed, FetchRefused, SafeFetcher

log = structlog.get_logger(__name__)

USER_AGENT_TOKEN: Final = "StepwiseBot"
ROBOTS_MAX_BYTES: Final = 500 * 1024  # Google reads the first 500 KiB


@dataclass(frozen=True)
class RobotsRules:
    parser: Protego | None  # None: the verdict below applies to every URL
    allow_all: bool = True
    reason: str | None = None  # why everything is disallowed, when it is not robots.txt itself

    def allowed(self, url: str) -> bool:
        if self.parser is None:
            return self.allow_all
        return bool(self.parser.can_fetch(url, USER_AGENT_TOKEN))

    @property
    def crawl_delay(self) -> float | None:
        if self.parser is None:
            return None
        delay = self.parser.crawl_delay(USER_AGENT_TOKEN)
        return float(delay) if delay is not None else None

    @property
    def sitemaps(self) -> tuple[str, ...]:
        return tuple(self.parser.sitemaps) if self.parser is not None else ()


ALLOW_ALL: Final = RobotsRules(None, allow_all=True)


def origin_and_host(url: str) -> tuple[str, str]:
    """("http://host:port", "host:port") of an http(s) URL; robots and politeness key on them."""
    parsed = URL(url)
    return parsed.origin, parsed.host


class RobotsCache:
    """One robots.txt fetch per origin for the whole crawl (concurrent callers share it)."""

    def __init__(self, fetcher: SafeFetcher, gate: HostGate) -> None:
        self._fetcher = fetcher
        self._gate = gate
        self._rules: dict[str, asyncio.Task[RobotsRules]] = {}

    async def rules_for(self, url: str) -> RobotsRules:
        origin, host = origin_and_host(url)
        task = self._rules.get(origin)
        if task is None:
            task = self._rules[origin] = asyncio.create_task(self._load(origin, host))
        return await asyncio.shield(task)

    async def allowed(self, url: str) -> bool:
        return (await self.rules_for(url)).allowed(url)

    async def aclose(self) -> None:
        """Cancel robots.txt fetches still running (a stopped crawl) and wait for them."""
        for task in self._rules.values():
            task.cancel()
        await asyncio.gather(*self._rules.values(), return_exceptions=True)

    async def _load(self, origin: str, host: str) -> RobotsRules:
        rules = await self._fetch_rules(f"{origin}/robots.txt", host)
        self._gate.set_crawl_delay(host, rules.crawl_delay)
        return rules

    async def _fetch_rules(self, robots_url: str, host: str) -> RobotsRules:
        try:
            async with self._gate.slot(host):
                result = await self._fetcher.fetch(robots_url, max_bytes=ROBOTS_MAX_BYTES)
        except FetchRefused as refused:
            # The site's own address is not allowed: say so as the page fetch would.
            return RobotsRules(None, allow_all=False, reason=str(refused))
        except FetchFailed as error:
            if error.status is not None and 400 <= error.status < 500 and error.status != 429:
                return ALLOW_ALL
            log.info("knowledge.robots.unavailable", url=robots_url, error=str(error))
            return RobotsRules(None, allow_all=False, reason=f"robots.txt unavailable ({error})")
        return RobotsRules(Protego.parse(result.body.decode("utf-8", errors="replace")))
