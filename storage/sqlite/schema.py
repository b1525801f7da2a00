"""SQLite schema and its migrations.

``schema_version`` holds one row per applied migration. ``migrate`` applies the missing
ones inside one ``BEGIN IMMEDIATE`` transaction (SQLite DDL is transactional), so two
processes starting at once cannot both apply a migration.

Conventions: every table has ``seq INTEGER PRIMARY KEY`` (stable insertion order, the
tie-breaker when two rows share a millisecond, and the rowid the FTS index points at) and
``id TEXT UNIQUE`` (the record id). Timestamps are fixed-width ISO-8601 UTC text
(``2026-01-02T03:04:05.678Z``), JSON fields are TEXT, booleans are 0/1.
"""

from __future__ import annotations

import sqlite3

from storage._common import iso, now_utc

_V1: tuple[str, ...] = (
    """CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL,
        name TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)""",
    "CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at)",
    """CREATE TABLE sessions (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL, status TEXT NOT NULL, url TEXT, title TEXT,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL)""",
    "CREATE INDEX sessions_tenant_user ON sessions (tenant_id, user_id, created_at)",
    """CREATE TABLE messages (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL, task_id TEXT, role TEXT NOT NULL, content TEXT NOT NULL,
        action TEXT, action_status TEXT, action_error TEXT, created_at TEXT NOT NULL)""",
    "CREATE INDEX messages_session ON messages (tenant_id, session_id, created_at)",
    """CREATE TABLE tasks (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL, session_id TEXT NOT NULL, url TEXT NOT NULL, query TEXT NOT NULL,
        status TEXT NOT NULL, version INTEGER NOT NULL, step_index INTEGER NOT NULL,
        complexity TEXT, plan TEXT, state TEXT NOT NULL, metrics TEXT NOT NULL,
        failure_code TEXT, failure_reason TEXT, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL)""",
    "CREATE INDEX tasks_session_status ON tasks (tenant_id, session_id, status, updated_at)",
    "CREATE INDEX tasks_session_created ON tasks (tenant_id, session_id, created_at)",
    "CREATE INDEX tasks_tenant_created ON tasks (tenant_id, created_at)",
    """CREATE TABLE task_actions (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id), step_index INTEGER NOT NULL,
        thought TEXT NOT NULL, action TEXT NOT NULL, actions TEXT, decided_by TEXT NOT NULL,
        expected_outcome TEXT, before_state TEXT, verification TEXT, metrics TEXT NOT NULL,
        created_at TEXT NOT NULL, UNIQUE (task_id, step_index))""",
    "CREATE INDEX task_actions_tenant ON task_actions (tenant_id, task_id, step_index)",
    """CREATE TABLE corrections (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id), step_index INTEGER NOT NULL,
        attempt INTEGER NOT NULL, strategy TEXT NOT NULL, reason TEXT NOT NULL,
        original_action TEXT NOT NULL, corrected_action TEXT, created_at TEXT NOT NULL)""",
    "CREATE INDEX corrections_task ON corrections (tenant_id, task_id, created_at)",
    """CREATE TABLE verifications (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id), step_index INTEGER NOT NULL,
        tier INTEGER NOT NULL, success INTEGER NOT NULL, goal_achieved INTEGER,
        confidence REAL NOT NULL, error_category TEXT, record TEXT NOT NULL,
        created_at TEXT NOT NULL)""",
    "CREATE INDEX verifications_task ON verifications (tenant_id, task_id, created_at)",
    "CREATE INDEX verifications_tenant_created ON verifications (tenant_id, created_at)",
    """CREATE TABLE usage_logs (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT, session_id TEXT, message_id TEXT, task_id TEXT,
        action_type TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL, thinking_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL, cost_usd REAL, duration_ms REAL NOT NULL,
        trace_id TEXT, created_at TEXT NOT NULL)""",
    "CREATE INDEX usage_logs_tenant_created ON usage_logs (tenant_id, created_at)",
    "CREATE INDEX usage_logs_task ON usage_logs (tenant_id, task_id, created_at)",
    """CREATE TABLE skills (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        domain TEXT NOT NULL, goal TEXT NOT NULL, failed_state TEXT NOT NULL,
        successful_action TEXT NOT NULL, success_count INTEGER NOT NULL,
        failure_count INTEGER NOT NULL, last_used TEXT NOT NULL, created_at TEXT NOT NULL)""",
    "CREATE INDEX skills_domain ON skills (tenant_id, domain, last_used)",
    "CREATE INDEX skills_last_used ON skills (last_used)",
    """CREATE TABLE knowledge_documents (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        source_url TEXT NOT NULL, domain TEXT NOT NULL, title TEXT NOT NULL,
        content_hash TEXT NOT NULL, phase INTEGER NOT NULL, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, UNIQUE (tenant_id, source_url))""",
    "CREATE INDEX knowledge_documents_domain ON knowledge_documents (tenant_id, domain)",
    """CREATE TABLE knowledge_chunks (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        document_id TEXT NOT NULL REFERENCES knowledge_documents (id) ON DELETE CASCADE,
        domain TEXT NOT NULL, ordinal INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL,
        phase INTEGER NOT NULL, stale INTEGER NOT NULL, created_at TEXT NOT NULL)""",
    "CREATE INDEX knowledge_chunks_document ON knowledge_chunks (tenant_id, document_id, ordinal)",
    "CREATE INDEX knowledge_chunks_domain ON knowledge_chunks (tenant_id, domain, phase)",
    # External-content FTS5 index over heading + text, kept in step by triggers.
    """CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5 (
        heading, text, content = 'knowledge_chunks', content_rowid = 'seq',
        tokenize = 'porter unicode61')""",
    """CREATE TRIGGER knowledge_chunks_ai AFTER INSERT ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (rowid, heading, text)
        VALUES (new.seq, new.heading, new.text);
    END""",
    """CREATE TRIGGER knowledge_chunks_ad AFTER DELETE ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, heading, text)
        VALUES ('delete', old.seq, old.heading, old.text);
    END""",
    """CREATE TRIGGER knowledge_chunks_au AFTER UPDATE OF heading, text ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, heading, text)
        VALUES ('delete', old.seq, old.heading, old.text);
        INSERT INTO knowledge_chunks_fts (rowid, heading, text)
        VALUES (new.seq, new.heading, new.text);
    END""",
    """CREATE TABLE rate_counters (
        key TEXT NOT NULL, window_start INTEGER NOT NULL, count INTEGER NOT NULL,
        expires_at INTEGER NOT NULL, PRIMARY KEY (key, window_start)) WITHOUT ROWID""",
    "CREATE INDEX rate_counters_expires ON rate_counters (expires_at)",
)

#: (version, statements). Append new migrations; never edit an applied one.
# The answer of each step, kept so that a re-sent continuation is answered again, not re-run.
_V2: tuple[str, ...] = ("ALTER TABLE task_actions ADD COLUMN answer TEXT",)

# Idempotency-Key records: one per (tenant, user, key), completed in the step's transaction.
_V3: tuple[str, ...] = (
    """CREATE TABLE idempotency_keys (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
        token TEXT NOT NULL, locked_until TEXT NOT NULL, task_id TEXT, step_index INTEGER,
        status_code INTEGER, response TEXT, created_at TEXT NOT NULL, expires_at TEXT NOT NULL,
        UNIQUE (tenant_id, user_id, key))""",
    "CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)",
)

# The knowledge base (issue 13). Migration 1's knowledge tables were never written by any
# product path, so they are dropped and made again in the new shape:
# - documents keyed by (tenant, source, phase, trigger_action);
# - chunks carry two derived columns the FTS index reads: ``scope`` (tenant and domain
#   tokens, see storage._knowledge; empty once superseded, so no search matches it) and
#   ``heading_text`` (the heading path, weighted x2);
# - vectors: float32 blobs keyed by (tenant, model, dimension, chunk);
# - a per-tenant version counter bumped by every knowledge write (vector cache validity);
# - crawl jobs.
_V4: tuple[str, ...] = (
    "DROP TRIGGER IF EXISTS knowledge_chunks_ai",
    "DROP TRIGGER IF EXISTS knowledge_chunks_ad",
    "DROP TRIGGER IF EXISTS knowledge_chunks_au",
    "DROP TABLE IF EXISTS knowledge_chunks_fts",
    "DROP TABLE IF EXISTS knowledge_chunks",
    "DROP TABLE IF EXISTS knowledge_documents",
    """CREATE TABLE knowledge_documents (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        source TEXT NOT NULL, source_kind TEXT NOT NULL, media_type TEXT NOT NULL,
        domains TEXT NOT NULL, title TEXT NOT NULL, content_hash TEXT NOT NULL,
        phase INTEGER NOT NULL, trigger_action TEXT NOT NULL, etag TEXT, last_modified TEXT,
        links TEXT NOT NULL, chunk_count INTEGER NOT NULL, size_bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, source, phase, trigger_action))""",
    "CREATE INDEX knowledge_documents_created ON knowledge_documents (tenant_id, created_at, seq)",
    """CREATE TABLE knowledge_chunks (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        document_id TEXT NOT NULL REFERENCES knowledge_documents (id) ON DELETE CASCADE,
        source TEXT NOT NULL, title TEXT NOT NULL, domains TEXT NOT NULL,
        ordinal INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
        content_hash TEXT NOT NULL, phase INTEGER NOT NULL, hidden INTEGER NOT NULL,
        trigger_action TEXT NOT NULL, superseded_by TEXT, created_at TEXT NOT NULL,
        scope TEXT NOT NULL, heading_text TEXT NOT NULL)""",
    "CREATE INDEX knowledge_chunks_document ON knowledge_chunks (document_id, ordinal)",
    "CREATE INDEX knowledge_chunks_source ON knowledge_chunks (tenant_id, source, phase, ordinal)",
    """CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5 (
        scope, heading_text, text, content = 'knowledge_chunks', content_rowid = 'seq',
        tokenize = 'porter unicode61')""",
    """CREATE TRIGGER knowledge_chunks_ai AFTER INSERT ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (rowid, scope, heading_text, text)
        VALUES (new.seq, new.scope, new.heading_text, new.text);
    END""",
    """CREATE TRIGGER knowledge_chunks_ad AFTER DELETE ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, scope, heading_text, text)
        VALUES ('delete', old.seq, old.scope, old.heading_text, old.text);
    END""",
    """CREATE TRIGGER knowledge_chunks_au AFTER UPDATE OF scope, heading_text, text
        ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, scope, heading_text, text)
        VALUES ('delete', old.seq, old.scope, old.heading_text, old.text);
        INSERT INTO knowledge_chunks_fts (rowid, scope, heading_text, text)
        VALUES (new.seq, new.scope, new.heading_text, new.text);
    END""",
    # A rowid table: a 768-float vector is 3 KB, too large a row for WITHOUT ROWID.
    """CREATE TABLE knowledge_vectors (
        seq INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, model TEXT NOT NULL,
        dimension INTEGER NOT NULL,
        chunk_seq INTEGER NOT NULL REFERENCES knowledge_chunks (seq) ON DELETE CASCADE,
        vector BLOB NOT NULL, UNIQUE (tenant_id, model, dimension, chunk_seq))""",
    "CREATE INDEX knowledge_vectors_chunk ON knowledge_vectors (chunk_seq)",
    """CREATE TABLE knowledge_versions (
        tenant_id TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID""",
    """CREATE TABLE crawl_jobs (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL, url TEXT NOT NULL, strategy TEXT NOT NULL,
        max_pages INTEGER NOT NULL, max_depth INTEGER NOT NULL, domains TEXT NOT NULL,
        status TEXT NOT NULL, pages_done INTEGER NOT NULL, pages_total INTEGER NOT NULL,
        pages_failed INTEGER NOT NULL, pages_unchanged INTEGER NOT NULL,
        documents INTEGER NOT NULL, bytes INTEGER NOT NULL, errors TEXT NOT NULL, error TEXT,
        cancel_requested INTEGER NOT NULL, heartbeat_at TEXT NOT NULL, created_at TEXT NOT NULL,
        started_at TEXT, finished_at TEXT)""",
    "CREATE INDEX crawl_jobs_tenant_created ON crawl_jobs (tenant_id, created_at)",
    "CREATE INDEX crawl_jobs_status_heartbeat ON crawl_jobs (status, heartbeat_at)",
)

# Verified memory (issue 15): a skill is a candidate until admitted and keeps the tasks
# whose verified success it counted; recipes (replayable verified runs) and the tenant's
# memory switches. The last_used indexes serve the 90-day TTL sweep.
_V5: tuple[str, ...] = (
    "ALTER TABLE skills ADD COLUMN status TEXT NOT NULL DEFAULT 'candidate'",
    "ALTER TABLE skills ADD COLUMN evidence TEXT NOT NULL DEFAULT '[]'",
    """CREATE TABLE recipes (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL,
        domain TEXT NOT NULL, template TEXT NOT NULL, variables TEXT NOT NULL,
        steps TEXT NOT NULL, status TEXT NOT NULL, verified_runs INTEGER NOT NULL,
        failed_runs INTEGER NOT NULL, replays INTEGER NOT NULL, evidence TEXT NOT NULL,
        round_trips INTEGER NOT NULL DEFAULT 0, tokens INTEGER NOT NULL DEFAULT 0,
        last_used TEXT NOT NULL, created_at TEXT NOT NULL)""",
    "CREATE INDEX recipes_domain ON recipes (tenant_id, domain, last_used)",
    "CREATE INDEX recipes_tenant_used ON recipes (tenant_id, last_used)",
    "CREATE INDEX recipes_last_used ON recipes (last_used)",
    "CREATE INDEX skills_tenant_used ON skills (tenant_id, last_used)",
    """CREATE TABLE memory_settings (
        tenant_id TEXT PRIMARY KEY, skills INTEGER NOT NULL, replay INTEGER NOT NULL,
        updated_at TEXT NOT NULL) WITHOUT ROWID""",
)

# Hybrid vision (agent/vision): image tokens on usage rows, the tenants' screenshot switch.
_V6: tuple[str, ...] = (
    "ALTER TABLE usage_logs ADD COLUMN image_tokens INTEGER NOT NULL DEFAULT 0",
    """CREATE TABLE vision_settings (
        tenant_id TEXT PRIMARY KEY, screenshots INTEGER NOT NULL, updated_at TEXT NOT NULL) WITHOUT ROWID""",
)

MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, _V1), (2, _V2), (3, _V3), (4, _V4), (5, _V5), (6, _V6),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]


def current_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`; returns the version. Call inside
    ``BEGIN IMMEDIATE``."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version"
        " (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    version = current_version(conn)
    for target, statements in MIGRATIONS:
        if target <= version:
            continue
        for statement in statements:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (target, iso(now_utc())),
        )
        version = target
    return version
