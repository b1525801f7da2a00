"""Web search (Tavily): the client, domain filtering, query refinement, and
``manage_search`` (up to three refined attempts). See docs/engines.md."""

from agent.search.client import (
    SearchClient,
    SearchDepth,
    SearchHit,
    SearchUnavailable,
    TavilySearch,
    UnavailableKind,
    search_client_from_settings,
)
from agent.search.domains import (
    allowed_domains_for,
    host_allowed,
    host_of,
    registrable_domain,
    site_name,
)
from agent.search.manage import (
    SEARCH_EVALUATION_INSTRUCTIONS,
    SearchEvaluation,
    SearchOutcome,
    manage_search,
    search_blocks,
)
from agent.search.query import keywords, query_ladder, refine_query

__all__ = [
    "SEARCH_EVALUATION_INSTRUCTIONS",
    "SearchClient",
    "SearchDepth",
    "SearchEvaluation",
    "SearchHit",
    "SearchOutcome",
    "SearchUnavailable",
    "TavilySearch",
    "UnavailableKind",
    "allowed_domains_for",
    "host_allowed",
    "host_of",
    "keywords",
    "manage_search",
    "query_ladder",
    "refine_query",
    "registrable_domain",
    "search_blocks",
    "search_client_from_settings",
    "site_name",
]
