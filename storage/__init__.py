"""The persistence boundary: repository protocols, records, errors and the two backends.

Other packages import from here only::

    from storage import FinalizeBatch, Store, TaskConflict, open_store
"""

from storage.base import (
    ApiKeyRepository,
    CorrectionRepository,
    KnowledgeRepository,
    MessageRepository,
    RateLimitRepository,
    SessionRepository,
    SkillRepository,
    Store,
    TaskActionRepository,
    TaskRepository,
    UsageGroupBy,
    UsageRepository,
    VerificationRepository,
)
from storage.errors import DuplicateKey, StorageError, StoreUnavailable, TaskConflict
from storage.factory import DEFAULT_DATABASE_URL, open_store
from storage.keys import hash_api_key
from storage.models import (
    TERMINAL_TASK_STATUSES,
    ApiKey,
    ChunkHit,
    CorrectionRecord,
    FinalizeBatch,
    KnowledgeChunk,
    KnowledgeDocument,
    Message,
    MessageRole,
    RateDecision,
    Record,
    Session,
    SessionStatus,
    Skill,
    Task,
    TaskAction,
    TaskStatus,
    UsageLog,
    UsageTotals,
    VerificationRecordRow,
    new_id,
    utcnow,
)
from storage.mongo import MongoStore
from storage.sqlite import SqliteStore, path_from_url

__all__ = [
    "path_from_url",
    "DEFAULT_DATABASE_URL",
    "TERMINAL_TASK_STATUSES",
    "ApiKey",
    "ApiKeyRepository",
    "ChunkHit",
    "CorrectionRecord",
    "CorrectionRepository",
    "DuplicateKey",
    "FinalizeBatch",
    "KnowledgeChunk",
    "KnowledgeDocument",
    "KnowledgeRepository",
    "Message",
    "MessageRepository",
    "MessageRole",
    "MongoStore",
    "RateDecision",
    "RateLimitRepository",
    "Record",
    "Session",
    "SessionRepository",
    "SessionStatus",
    "Skill",
    "SkillRepository",
    "SqliteStore",
    "StorageError",
    "Store",
    "StoreUnavailable",
    "Task",
    "TaskAction",
    "TaskActionRepository",
    "TaskConflict",
    "TaskRepository",
    "TaskStatus",
    "UsageGroupBy",
    "UsageLog",
    "UsageRepository",
    "UsageTotals",
    "VerificationRecordRow",
    "VerificationRepository",
    "hash_api_key",
    "new_id",
    "open_store",
    "utcnow",
]
