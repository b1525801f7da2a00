"""Repository protocols: one per aggregate, implemented by SQLite and MongoDB.

Every method that reads or changes tenant data takes ``tenant_id`` first; a record of
another tenant is simply not found. Lists are newest-last unless stated otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from storage.models import (
    ApiKey,
    CorrectionRecord,
    FinalizeBatch,
    IdempotencyCompletion,
    IdempotencyRecord,
    MemorySettings,
    Message,
    RateDecision,
    Recipe,
    RecipeStatus,
    Session,
    Skill,
    SkillStatus,
    Task,
    TaskAction,
    UsageLog,
    UsageTotals,
    VerificationRecordRow,
    VisionSettings,
)
from storage.knowledge_models import (
    ChunkHit,
    ChunkVector,
    CrawlJob,
    KnowledgeChunk,
    KnowledgeDocument,
)

UsageGroupBy = Literal["day", "model", "actionType", "task"]


class ApiKeyRepository(Protocol):
    async def create(self, key: ApiKey) -> None: ...
    async def get_by_hash(self, key_hash: str) -> ApiKey | None:
        """Not tenant-scoped: this is how a request finds its tenant. Revoked keys are returned too."""
    async def list(self, tenant_id: str) -> list[ApiKey]: ...
    async def revoke(self, tenant_id: str, key_id: str, at: datetime) -> bool: ...


class SessionRepository(Protocol):
    async def create(self, session: Session) -> None: ...
    async def get(self, tenant_id: str, session_id: str) -> Session | None: ...
    async def list(self, tenant_id: str, user_id: str, limit: int = 50) -> list[Session]:
        """Newest first."""


class MessageRepository(Protocol):
    async def add(self, message: Message) -> None: ...
    async def list(self, tenant_id: str, session_id: str, limit: int = 200) -> list[Message]:
        """Oldest first; the last ``limit`` messages."""
    async def update_last_action_status(
        self,
        tenant_id: str,
        session_id: str,
        status: Literal["success", "failure", "pending"],
        error: str | None,
    ) -> bool:
        """Set the outcome the client reported on the session's last assistant message."""


class TaskRepository(Protocol):
    async def get(self, tenant_id: str, task_id: str) -> Task | None: ...
    async def find_active(
        self, tenant_id: str, session_id: str, url: str | None = None
    ) -> Task | None:
        """The most recently updated ``active`` task of the session (optionally on that URL)."""
    async def expire_stale(self, tenant_id: str, session_id: str, older_than: datetime) -> int:
        """Mark ``active`` tasks not updated since ``older_than`` as ``interrupted``; returns how many."""
    async def list(
        self,
        tenant_id: str,
        session_id: str | None = None,
        limit: int = 50,
        *,
        status: str | None = None,
        after: str | None = None,
    ) -> list[Task]:
        """Newest first; optionally of one status, and only those after the task ``after`` in
        that order (the next page; nothing when it names no task of the tenant)."""
    async def fail(
        self, tenant_id: str, task_id: str, expected_version: int, code: str, reason: str
    ) -> Task:
        """Mark a task failed under the version guard (``TaskConflict`` if it moved)."""


class TaskActionRepository(Protocol):
    async def list(self, tenant_id: str, task_id: str) -> list[TaskAction]:
        """Every step of the task, by step_index."""
    async def last(self, tenant_id: str, task_id: str) -> TaskAction | None: ...
    async def recent(self, tenant_id: str, task_id: str, limit: int) -> list[TaskAction]:
        """The last ``limit`` steps, by step_index. Only the newest carries its
        ``before_state`` (the page the next verification compares with); older steps come
        without it, so a request on a long task does not read every page it has seen."""


class CorrectionRepository(Protocol):
    async def list(self, tenant_id: str, task_id: str) -> list[CorrectionRecord]: ...


class VerificationRepository(Protocol):
    async def list(self, tenant_id: str, task_id: str) -> list[VerificationRecordRow]: ...
    async def list_since(self, tenant_id: str, since: datetime) -> list[VerificationRecordRow]: ...


class UsageRepository(Protocol):
    async def add(self, log: UsageLog) -> None:
        """Usage written outside a finalize (e.g. a request that failed after a model call)."""
    async def list_for_task(self, tenant_id: str, task_id: str) -> list[UsageLog]: ...
    async def totals(
        self,
        tenant_id: str,
        start: datetime,
        end: datetime,
        group_by: UsageGroupBy,
    ) -> list[UsageTotals]:
        """Calls, tokens and cost per group in [start, end). ``cost_usd`` is None when any
        row of the group has an unknown price."""


class SkillRepository(Protocol):
    """Learned corrections. Every method but the TTL sweep is tenant-scoped; a skill of
    another tenant is not found (and its id cannot be taken: ``DuplicateKey``)."""

    async def learn(self, skill: Skill, task_id: str, at: datetime) -> Skill:
        """Count one verified success of ``skill`` from task ``task_id``, atomically: insert
        it (``success_count=1``, ``evidence=[task_id]``, ``status`` as given) or, when the
        task is not in its evidence yet, ``success_count += 1`` and append the task (the
        last ``EVIDENCE_LIMIT`` kept). ``last_used = at`` either way. Idempotent per
        (skill, task); the other fields of a stored skill are kept. Returns the stored
        skill. An id of another tenant -> ``DuplicateKey`` and nothing changes."""
    async def upsert(self, skill: Skill) -> None:
        """Insert or replace every field but ``created_at`` (tests and seeding)."""
    async def set_status(self, tenant_id: str, skill_id: str, status: SkillStatus) -> None: ...
    async def record_outcome(self, tenant_id: str, skill_id: str, success: bool, at: datetime) -> None:
        """One use: ``success_count`` or ``failure_count`` += 1, ``last_used = at``."""
    async def for_domain(self, tenant_id: str, domain: str, limit: int = 500) -> list[Skill]:
        """The domain's skills, most recently used first."""
    async def get(self, tenant_id: str, skill_id: str) -> Skill | None: ...
    async def list(
        self, tenant_id: str, domain: str | None = None, limit: int = 100, offset: int = 0,
        *, status: SkillStatus | None = None,
    ) -> list[Skill]:
        """Most recently used first; optionally of one domain / status."""
    async def total(
        self, tenant_id: str, domain: str | None = None, *, status: SkillStatus | None = None
    ) -> int:
        """How many :meth:`list` would return without limit/offset."""
    async def delete(self, tenant_id: str, skill_id: str) -> bool: ...
    async def delete_all(self, tenant_id: str, domain: str | None = None) -> int: ...
    async def count(self, tenant_id: str) -> int: ...
    async def evict(self, tenant_id: str, ids: Sequence[str]) -> int:
        """Delete those of ``ids`` that are the tenant's; returns how many."""
    async def delete_unused_since(self, before: datetime) -> int:
        """TTL sweep, every tenant (MongoDB also has a TTL index; SQLite sweeps on demand)."""


class RecipeRepository(Protocol):
    """Replayable verified runs; tenant-scoped like skills."""

    async def record_run(self, recipe: Recipe, task_id: str, at: datetime) -> Recipe:
        """Count one verified run from task ``task_id``, atomically: insert it
        (``verified_runs=1``, ``evidence=[task_id]``) or, when the task is new to it,
        ``verified_runs += 1`` and append the task (last ``EVIDENCE_LIMIT``).
        ``last_used = at`` either way; other stored fields are kept. Idempotent per
        (recipe, task). An id of another tenant -> ``DuplicateKey``."""
    async def upsert(self, recipe: Recipe) -> None:
        """Insert or replace every field but ``created_at`` (tests and seeding)."""
    async def set_status(self, tenant_id: str, recipe_id: str, status: RecipeStatus) -> None: ...
    async def record_replay(self, tenant_id: str, recipe_id: str, success: bool, at: datetime) -> None:
        """One replayed episode: ``replays += 1``, ``last_used = at``; a failure also counts
        ``failed_runs += 1``, demotes the recipe and starts its ``verified_runs`` again from 0
        (the runs that may promote it again are those after the failure)."""
    async def find(self, tenant_id: str, domain: str, limit: int = 50) -> list[Recipe]:
        """The domain's recipes of every status, most recently used first (only promoted ones
        are served; a candidate or a demoted one says why a goal was not replayed)."""
    async def get(self, tenant_id: str, recipe_id: str) -> Recipe | None: ...
    async def list(
        self, tenant_id: str, domain: str | None = None, limit: int = 100, offset: int = 0,
        *, status: RecipeStatus | None = None,
    ) -> list[Recipe]:
        """Most recently used first; optionally of one domain / status."""
    async def total(
        self, tenant_id: str, domain: str | None = None, *, status: RecipeStatus | None = None
    ) -> int: ...
    async def delete(self, tenant_id: str, recipe_id: str) -> bool: ...
    async def delete_all(self, tenant_id: str, domain: str | None = None) -> int: ...
    async def count(self, tenant_id: str) -> int: ...
    async def evict(self, tenant_id: str, ids: Sequence[str]) -> int: ...
    async def delete_unused_since(self, before: datetime) -> int: ...


class MemorySettingsRepository(Protocol):
    async def get(self, tenant_id: str) -> MemorySettings | None:
        """None when the tenant never set them (both switches on)."""
    async def put(self, settings: MemorySettings) -> None:
        """Insert or replace the tenant's settings."""


class VisionSettingsRepository(Protocol):
    async def get(self, tenant_id: str) -> VisionSettings | None:
        """None when the tenant never set them (screenshots off)."""
    async def put(self, settings: VisionSettings) -> None:
        """Insert or replace the tenant's settings."""


class KnowledgeRepository(Protocol):
    """Knowledge documents, their chunks and chunk vectors. Every query is tenant-scoped.

    Domain rule (search and vector_search): ``domains=None`` → all the tenant's chunks;
    ``domains=[...]`` → chunks whose domains intersect them OR tenant-wide chunks
    (``domains == []``). Superseded chunks are never searched.
    """

    async def upsert_document(
        self, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
    ) -> None:
        """Replace the document with the same identity (tenant, source, phase,
        trigger_action) and all its chunks and their vectors, atomically."""
    async def find_document(
        self, tenant_id: str, source: str, *, phase: int = 1, trigger_action: str = ""
    ) -> KnowledgeDocument | None: ...
    async def get_document(self, tenant_id: str, document_id: str) -> KnowledgeDocument | None: ...
    async def list_documents(
        self, tenant_id: str, *, domain: str | None = None, limit: int = 100, after: str | None = None
    ) -> list[KnowledgeDocument]:
        """Oldest first (created_at, then insertion order); only those after the document
        ``after`` (the next page; nothing when it names no document of the tenant)."""
    async def delete_document(self, tenant_id: str, document_id: str) -> bool:
        """Its chunks and their vectors go with it."""
    async def list_chunks(
        self, tenant_id: str, *, source: str, phase: int | None = None
    ) -> list[KnowledgeChunk]:
        """Every chunk of the source's documents (superseded ones too), by phase then ordinal."""
    async def supersede(self, tenant_id: str, pairs: Mapping[str, str]) -> int:
        """Mark each old chunk id as superseded by the new chunk id; returns how many changed."""
    async def search(
        self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 20
    ) -> list[ChunkHit]:
        """Lexical BM25, best first (higher score = better)."""
    async def put_vectors(self, tenant_id: str, vectors: Sequence[ChunkVector]) -> None:
        """Store (or replace) vectors of the tenant's chunks; a chunk id that is not the
        tenant's is refused (ValueError)."""
    async def vector_search(
        self,
        tenant_id: str,
        *,
        model: str,
        dimension: int,
        query: Sequence[float],
        domains: Sequence[str] | None,
        limit: int = 20,
    ) -> list[ChunkHit]:
        """Cosine similarity over vectors of exactly that model and dimension, best first."""
    async def version(self, tenant_id: str) -> int:
        """The tenant's knowledge version: every write of its knowledge (documents, chunks,
        vectors, supersede marks) raises it, in the same transaction. Equal versions mean
        equal knowledge, so what was computed from it may be reused."""
    async def count_chunks(self, tenant_id: str) -> int: ...


class CrawlJobRepository(Protocol):
    async def create(self, job: CrawlJob) -> None: ...
    async def get(self, tenant_id: str, job_id: str) -> CrawlJob | None: ...
    async def update(self, tenant_id: str, job_id: str, /, **fields: Any) -> CrawlJob | None:
        """Set the given fields (validated against ``CrawlJob``); the stored job, or None."""
    async def request_cancel(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        """Ask the worker to stop: a queued job is cancelled at once, a running one gets
        ``cancel_requested``; a finished job is returned unchanged."""
    async def list(self, tenant_id: str, limit: int = 50) -> list[CrawlJob]:
        """Newest first."""
    async def fail_abandoned(self, stale_before: datetime) -> int:
        """Queued/running jobs (any tenant) whose heartbeat is older → failed; returns how many."""


class RateLimitRepository(Protocol):
    async def hit(self, key: str, limit: int, window_seconds: int, now: datetime) -> RateDecision:
        """Count one request and decide on a sliding window (this fixed window's count plus the
        previous one's, weighted by its overlap with the last ``window_seconds``); shared by
        every replica."""


class IdempotencyRepository(Protocol):
    """``Idempotency-Key`` records, one per (tenant_id, user_id, key). A claim is completed
    by the ``finalize`` that writes its step (``FinalizeBatch.idempotency``), or by
    :meth:`complete` when no step holds the answer."""

    async def claim(self, record: IdempotencyRecord, now: datetime) -> IdempotencyRecord | None:
        """Store ``record`` (in flight) and return None when its key is free: absent, expired,
        or an abandoned in-flight claim of the same fingerprint (its lease ended). Otherwise
        write nothing and return the record that holds the key. Atomic: of two concurrent
        claims of one key exactly one gets None."""
    async def get(self, tenant_id: str, user_id: str, key: str) -> IdempotencyRecord | None: ...
    async def complete(self, done: IdempotencyCompletion) -> bool:
        """Complete the claim ``done.token`` holds; False when it holds none (taken over)."""
    async def release(self, tenant_id: str, user_id: str, key: str, token: str) -> bool:
        """Delete the in-flight claim ``token`` holds (its request ended without an answer to
        keep): the key is free again. False when it holds none."""


class Store(Protocol):
    """One database. Created once at start-up (lifespan) and closed at shutdown."""

    backend: Literal["sqlite", "mongodb"]
    api_keys: ApiKeyRepository
    sessions: SessionRepository
    messages: MessageRepository
    tasks: TaskRepository
    actions: TaskActionRepository
    corrections: CorrectionRepository
    verifications: VerificationRepository
    usage: UsageRepository
    skills: SkillRepository
    recipes: RecipeRepository
    memory_settings: MemorySettingsRepository
    vision_settings: VisionSettingsRepository
    knowledge: KnowledgeRepository
    crawl_jobs: CrawlJobRepository
    rate_limits: RateLimitRepository
    idempotency: IdempotencyRepository

    async def init(self) -> None:
        """Create tables / collections and indexes. Idempotent."""

    async def ping(self) -> bool:
        """True when the database answers (readiness)."""

    async def finalize(self, batch: FinalizeBatch) -> Task:
        """Write the batch atomically under the task's version guard; return the stored task.

        Raises ``TaskConflict`` (and writes nothing) when the task's version is not
        ``batch.expected_version`` or, for a new task, when the id already exists, and
        ``IdempotencyConflict`` (writes nothing) when ``batch.idempotency`` names a claim the
        request no longer holds.
        """

    async def close(self) -> None: ...
