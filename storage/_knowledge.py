"""Knowledge rules both backends share: search words, scope tokens, the in-memory vector index.

Nothing here touches a database. The vector index is a per-store cache of one tenant's
vectors of one model+dimension as a normalised float32 matrix; a cache entry is valid for
one value of the tenant's knowledge version counter, which every write bumps in the
database, so a store never serves a matrix another process has made stale.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import numpy as np
from pydantic import TypeAdapter

from storage._common import search_terms, to_utc
from storage.knowledge_models import ChunkVector, CrawlJob, KnowledgeChunk, KnowledgeDocument

#: English function words dropped from a lexical query: BM25 gives them next to no weight,
#: but they match nearly every chunk and would make the engine score the whole tenant.
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves""".split()
)
#: The scope token of chunks that belong to no domain (tenant-wide).
TENANT_WIDE = "*"
#: Ids read per statement when a list of ids is looked up.
ID_BATCH = 500


def lexical_terms(query: str) -> list[str]:
    """The words a lexical search looks for: search_terms without stop words (all of them
    when the query has nothing else, e.g. "who are you")."""
    terms = search_terms(query)
    content = [t for t in terms if t not in STOP_WORDS]
    return content or terms


def _token(kind: str, *parts: str) -> str:
    """A tokenizer-proof token: a letter and digits (no stemmer touches it)."""
    digest = hashlib.blake2b("\x00".join(parts).encode(), digest_size=8).digest()
    return f"{kind}{int.from_bytes(digest, 'big')}"


def norm_domain(domain: str) -> str:
    return domain.strip().lower().rstrip(".")


def tenant_token(tenant_id: str) -> str:
    return _token("t", tenant_id)


def domain_token(tenant_id: str, domain: str) -> str:
    """Scope token of (tenant, domain); ``TENANT_WIDE`` for chunks of no domain."""
    return _token("d", tenant_id, domain if domain == TENANT_WIDE else norm_domain(domain))


def chunk_scope(chunk: KnowledgeChunk) -> str:
    """What a chunk's scope column holds: its tenant and its domains (or tenant-wide).
    A superseded chunk has an empty scope, so no search can match it."""
    if chunk.superseded_by is not None:
        return ""
    domains = [norm_domain(d) for d in chunk.domains] or [TENANT_WIDE]
    tenant = chunk.tenant_id
    return " ".join([tenant_token(tenant), *(domain_token(tenant, d) for d in dict.fromkeys(domains))])


def scope_tokens(tenant_id: str, domains: Sequence[str] | None) -> list[str]:
    """Tokens of which a matching chunk carries at least one (domain rule of ``search``)."""
    if domains is None:
        return [tenant_token(tenant_id)]
    wanted = dict.fromkeys([*(norm_domain(d) for d in domains), TENANT_WIDE])
    return [domain_token(tenant_id, d) for d in wanted]


def heading_text(chunk: KnowledgeChunk) -> str:
    return " / ".join(chunk.heading_path)


def check_chunks(document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]) -> None:
    for chunk in chunks:
        if chunk.tenant_id != document.tenant_id or chunk.document_id != document.id:
            raise ValueError(f"chunk {chunk.id!r} is not a chunk of document {document.id!r}")


def check_vectors(tenant_id: str, vectors: Sequence[ChunkVector]) -> None:
    for v in vectors:
        if v.tenant_id != tenant_id:
            raise ValueError(f"vector of chunk {v.chunk_id!r} belongs to another tenant")
        if v.dimension < 1 or len(v.vector) != v.dimension:
            raise ValueError(
                f"vector of chunk {v.chunk_id!r} has {len(v.vector)} values, dimension says {v.dimension}"
            )


def check_query_vector(dimension: int, query: Sequence[float]) -> None:
    if len(query) != dimension:
        raise ValueError(f"query vector has {len(query)} values, dimension is {dimension}")


def as_blob(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


@dataclass
class VectorMatrix:
    """One tenant's live vectors of one model+dimension, rows L2-normalised.

    Rows are grouped by their chunk's set of domains, each group a contiguous block, so a
    domain-filtered search multiplies views of the allowed blocks (no copy of the matrix:
    at 50k x 768 a copy costs more than the product itself).
    """

    version: int
    keys: list[str]  # chunk key per row (seq or id, as the backend finds chunks)
    matrix: np.ndarray
    groups: dict[frozenset[str], tuple[int, int]] = field(default_factory=dict)  # domains -> rows [start, end)

    @classmethod
    def build(
        cls, version: int, rows: Iterable[tuple[str, Sequence[str], np.ndarray]], dimension: int
    ) -> VectorMatrix:
        by_group: dict[frozenset[str], list[tuple[str, np.ndarray]]] = {}
        for key, chunk_domains, vector in rows:
            group = frozenset(norm_domain(d) for d in chunk_domains)
            by_group.setdefault(group, []).append((key, vector))
        keys: list[str] = []
        vectors: list[np.ndarray] = []
        groups: dict[frozenset[str], tuple[int, int]] = {}
        for group, members in by_group.items():
            groups[group] = (len(keys), len(keys) + len(members))
            keys.extend(k for k, _ in members)
            vectors.extend(v for _, v in members)
        matrix = np.vstack(vectors).astype(np.float32) if vectors else np.zeros((0, dimension), np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(norms == 0, 1.0, norms)
        return cls(version=version, keys=keys, matrix=matrix, groups=groups)

    def _blocks(self, domains: Sequence[str] | None) -> list[tuple[int, int]]:
        if domains is None:
            return [(0, len(self.keys))]
        wanted = {norm_domain(d) for d in domains}
        return [span for group, span in self.groups.items() if not group or group & wanted]

    def top(self, query: Sequence[float], domains: Sequence[str] | None, limit: int) -> list[tuple[str, float]]:
        """(key, cosine) of the best ``limit`` rows allowed by the domain rule, best first."""
        q = np.asarray(query, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        blocks = [(s, e) for s, e in self._blocks(domains) if e > s]
        if limit <= 0 or norm == 0 or not blocks:
            return []
        q /= norm
        scores = np.concatenate([self.matrix[s:e] @ q for s, e in blocks])
        offsets = np.concatenate([np.arange(s, e) for s, e in blocks]) if len(blocks) > 1 else None
        k = min(limit, scores.shape[0])
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        rows = best + blocks[0][0] if offsets is None else offsets[best]
        return [(self.keys[int(r)], float(scores[int(b)])) for r, b in zip(rows, best, strict=True)]


class VectorCache:
    """Matrices by (tenant, model, dimension), each valid for one knowledge version.

    Bounded by bytes (50k chunks x 768 floats is ~150 MB): the least recently used
    matrices are dropped first; one matrix larger than the budget is still kept alone.
    """

    def __init__(self, max_bytes: int = 768 * 1024 * 1024) -> None:
        self._entries: dict[tuple[str, str, int], VectorMatrix] = {}
        self._max_bytes = max_bytes

    def get(self, tenant_id: str, model: str, dimension: int, version: int) -> VectorMatrix | None:
        key = (tenant_id, model, dimension)
        entry = self._entries.get(key)
        if entry is None or entry.version != version:
            return None
        self._entries[key] = self._entries.pop(key)  # most recently used last
        return entry

    def put(self, tenant_id: str, model: str, dimension: int, matrix: VectorMatrix) -> None:
        key = (tenant_id, model, dimension)
        self._entries.pop(key, None)
        used = sum(m.matrix.nbytes for m in self._entries.values()) + matrix.matrix.nbytes
        while self._entries and used > self._max_bytes:
            used -= self._entries.pop(next(iter(self._entries))).matrix.nbytes
        self._entries[key] = matrix


#: Fields of a crawl job fixed at creation; ``update`` may set any other.
CRAWL_JOB_FIXED_FIELDS = frozenset({"id", "tenant_id", "user_id", "created_at"})
#: Why ``fail_abandoned`` failed a job.
ABANDONED_ERROR = "the worker running this job stopped"
MAX_JOB_ERRORS = 50


def clean_job_update(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``update`` fields against ``CrawlJob``: known, mutable, well-typed. Values
    come back as the model holds them (datetimes aware UTC); ``errors`` capped at 50."""
    unknown = set(fields) - set(CrawlJob.model_fields)
    fixed = set(fields) & CRAWL_JOB_FIXED_FIELDS
    if unknown or fixed:
        raise ValueError(f"crawl job update may not set {sorted(unknown | fixed)!r}")
    out: dict[str, Any] = {}
    for name, value in fields.items():
        clean = _job_adapter(name).validate_python(value)
        if name == "errors":
            clean = clean[:MAX_JOB_ERRORS]
        if isinstance(clean, datetime):
            clean = to_utc(clean)
        out[name] = clean
    return out


@cache
def _job_adapter(name: str) -> TypeAdapter[Any]:
    return TypeAdapter(CrawlJob.model_fields[name].annotation)
