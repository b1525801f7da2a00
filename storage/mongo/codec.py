"""Records <-> MongoDB documents.

``_id`` is the record id. Timestamps are BSON dates (UTC, millisecond precision); what
comes back is made tz-aware UTC whatever the client's ``tz_aware`` setting. JSON fields
are stored as their JSON-mode dump, so both backends return the same shapes. ``seq`` is a
per-process monotonic number that breaks ties between records of the same millisecond.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Generic, TypeVar

from storage._common import field_kinds, to_utc
from storage.models import (
    ApiKey,
    CorrectionRecord,
    IdempotencyRecord,
    Message,
    Recipe,
    Record,
    Session,
    Skill,
    Task,
    TaskAction,
    UsageLog,
    VerificationRecordRow,
)
from storage.knowledge_models import CrawlJob, KnowledgeChunk, KnowledgeDocument

R = TypeVar("R", bound=Record)

#: Fields the store adds to documents; never part of a record.
INTERNAL_FIELDS = ("seq", "score", "heading_text", "domain_keys")

_seq_lock = threading.Lock()
_seq_last = 0


def next_seq() -> int:
    """Nanosecond clock, forced strictly increasing within the process."""
    global _seq_last
    with _seq_lock:
        _seq_last = max(_seq_last + 1, time.time_ns())
        return _seq_last


def db_value(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind == "datetime":
        return to_utc(value)
    return value


class Collection(Generic[R]):
    """How one record type is laid out in one collection."""

    def __init__(self, name: str, model: type[R]) -> None:
        self.name = name
        self.model = model
        self.kinds = field_kinds(model)
        self._json = {f for f, k in self.kinds.items() if k == "json"}
        self._datetimes = tuple(f for f, k in self.kinds.items() if k == "datetime")

    def to_doc(self, record: R) -> dict[str, Any]:
        doc = record.model_dump(exclude=self._json)
        if self._json:
            doc.update(record.model_dump(mode="json", include=self._json))
        for name in self._datetimes:
            doc[name] = db_value("datetime", doc[name])
        doc["_id"] = doc.pop("id")
        doc["seq"] = next_seq()
        return doc

    def docs(self, records: Iterable[R]) -> list[dict[str, Any]]:
        return [self.to_doc(r) for r in records]

    def fields(self, record: R, names: Iterable[str]) -> dict[str, Any]:
        """Selected fields of ``record`` as they are stored (for ``$set``)."""
        names = list(names)
        jsonable = record.model_dump(mode="json", include=set(names))
        out: dict[str, Any] = {}
        for n in names:
            is_time = self.kinds[n] == "datetime"
            out[n] = db_value("datetime", getattr(record, n)) if is_time else jsonable[n]
        return out

    def from_doc(self, doc: Mapping[str, Any]) -> R:
        data = {k: v for k, v in doc.items() if k not in INTERNAL_FIELDS}
        data["id"] = data.pop("_id")
        for name in self._datetimes:
            value = data.get(name)
            if isinstance(value, datetime):
                data[name] = to_utc(value)
        return self.model.model_validate(data)

    def from_docs(self, docs: Iterable[Mapping[str, Any]]) -> list[R]:
        return [self.from_doc(d) for d in docs]


API_KEYS = Collection("api_keys", ApiKey)
SESSIONS = Collection("sessions", Session)
MESSAGES = Collection("messages", Message)
TASKS = Collection("tasks", Task)
ACTIONS = Collection("task_actions", TaskAction)
CORRECTIONS = Collection("corrections", CorrectionRecord)
VERIFICATIONS = Collection("verifications", VerificationRecordRow)
USAGE = Collection("usage_logs", UsageLog)
SKILLS = Collection("skills", Skill)
RECIPES = Collection("recipes", Recipe)
DOCUMENTS = Collection("knowledge_documents", KnowledgeDocument)
CHUNKS = Collection("knowledge_chunks", KnowledgeChunk)
IDEMPOTENCY = Collection("idempotency_keys", IdempotencyRecord)
CRAWL_JOBS = Collection("crawl_jobs", CrawlJob)
#: One document per tenant, ``_id`` = tenant_id (the record has no id of its own).
MEMORY_SETTINGS = "memory_settings"
RATE_COUNTERS = "rate_counters"
#: Chunk vectors (float32 bytes) and the per-tenant knowledge version counter.
VECTORS = "knowledge_vectors"
VERSIONS = "knowledge_versions"
