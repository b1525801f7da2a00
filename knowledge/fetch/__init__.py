"""SSRF-safe fetching: only public addresses, every redirect re-vetted, bodies capped."""

from knowledge.fetch.addresses import refusal_reason, vet_address
from knowledge.fetch.client import Resolver, SafeFetcher, parse_retry_after, system_resolver
from knowledge.fetch.types import FetchFailed, FetchPolicy, FetchRefused, FetchResult

__all__ = [
    "FetchFailed",
    "FetchPolicy",
    "FetchRefused",
    "FetchResult",
    "Resolver",
    "SafeFetcher",
    "parse_retry_after",
    "refusal_reason",
    "system_resolver",
    "vet_address",
]
