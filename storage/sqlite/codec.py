"""Records <-> SQLite rows. Columns are the model's fields, in the model's order."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Generic, TypeVar

import orjson

from storage._common import field_kinds, iso
from storage.models import (
    ApiKey,
    CorrectionRecord,
    IdempotencyRecord,
    MemorySettings,
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


def dump_json(value: Any) -> str | None:
    """JSON text for a column: orjson, or the standard library for what orjson refuses
    (integers beyond 64 bits, non-string keys)."""
    if value is None:
        return None
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def load_json(text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # written by the standard library (NaN, huge integers)
        return json.loads(text)


class Table(Generic[R]):
    """How one record type is laid out in one table."""

    def __init__(self, name: str, model: type[R]) -> None:
        self.name = name
        self.model = model
        self.kinds = field_kinds(model)
        self.columns: tuple[str, ...] = tuple(self.kinds)
        self.select = ", ".join(self.columns)
        self.insert_sql = (
            f"INSERT INTO {name} ({self.select}) VALUES ({', '.join('?' for _ in self.columns)})"
        )

    def value(self, column: str, value: Any) -> Any:
        """A Python value (as the model holds it, or JSON-safe) -> what the column stores."""
        kind = self.kinds[column]
        if value is None:
            return None
        if kind == "datetime":
            return iso(value)
        if kind == "json":
            return dump_json(value)
        if kind == "bool":
            return int(value)
        return value

    def to_row(self, record: R) -> tuple[Any, ...]:
        jsonable = record.model_dump(mode="json")
        out: list[Any] = []
        for column in self.columns:
            kind = self.kinds[column]
            if kind == "datetime":
                raw = getattr(record, column)
                out.append(None if raw is None else iso(raw))
            else:
                out.append(self.value(column, jsonable[column]))
        return tuple(out)

    def rows(self, records: Iterable[R]) -> list[tuple[Any, ...]]:
        return [self.to_row(r) for r in records]

    def from_row(self, row: sqlite3.Row) -> R:
        data: dict[str, Any] = {}
        for column in self.columns:
            value = row[column]
            if value is not None:
                kind = self.kinds[column]
                if kind == "json":
                    value = load_json(value)
                elif kind == "datetime":
                    value = datetime.fromisoformat(value)  # "...Z" -> aware, tzinfo=UTC
            data[column] = value
        return self.model.model_validate(data)

    def from_rows(self, rows: Iterable[sqlite3.Row]) -> list[R]:
        return [self.from_row(r) for r in rows]


API_KEYS = Table("api_keys", ApiKey)
SESSIONS = Table("sessions", Session)
MESSAGES = Table("messages", Message)
TASKS = Table("tasks", Task)
ACTIONS = Table("task_actions", TaskAction)
CORRECTIONS = Table("corrections", CorrectionRecord)
VERIFICATIONS = Table("verifications", VerificationRecordRow)
USAGE = Table("usage_logs", UsageLog)
SKILLS = Table("skills", Skill)
RECIPES = Table("recipes", Recipe)
DOCUMENTS = Table("knowledge_documents", KnowledgeDocument)
CHUNKS = Table("knowledge_chunks", KnowledgeChunk)
IDEMPOTENCY = Table("idempotency_keys", IdempotencyRecord)
CRAWL_JOBS = Table("crawl_jobs", CrawlJob)
MEMORY_SETTINGS = Table("memory_settings", MemorySettings)
