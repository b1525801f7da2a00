"""SQLite knowledge documents + chunks with an FTS5 (bm25) lexical index.

The FTS index has three columns: ``scope`` (tenant and domain tokens), ``heading_text``
(weighted x2) and ``text``. A search is one MATCH: ``scope : (allowed tokens) AND
{heading_text text} : (words)``, so the tenant, the domain rule and supersession are
decided inside the index and only the best ``limit`` rows are joined to their chunks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from storage._knowledge import (
    check_chunks,
    check_query_vector,
    check_vectors,
    chunk_scope,
    heading_text,
    lexical_terms,
    scope_tokens,
)
from storage.knowledge_models import ChunkHit, ChunkVector, KnowledgeChunk, KnowledgeDocument
from storage.sqlite.codec import CHUNKS, DOCUMENTS
from storage.sqlite.connection import SqliteDatabase
from storage.sqlite.knowledge_vectors import SqliteVectorIndex, bump_version

#: bm25 column weights: (scope, heading, text). Scope tokens never score; a heading hit counts double.
_BM25 = "bm25(knowledge_chunks_fts, 0.0, 2.0, 1.0)"
_CHUNK_COLUMNS = ", ".join(f"c.{c}" for c in CHUNKS.columns)
_CHUNK_INSERT = (
    f"INSERT INTO knowledge_chunks ({CHUNKS.select}, scope, heading_text)"
    f" VALUES ({', '.join('?' for _ in CHUNKS.columns)}, ?, ?)"
)
_SEARCH = (
    f"SELECT {_CHUNK_COLUMNS}, r.rank FROM ("
    f" SELECT rowid AS seq, {_BM25} AS rank FROM knowledge_chunks_fts"
    " WHERE knowledge_chunks_fts MATCH ? ORDER BY rank LIMIT ?) AS r"
    " JOIN knowledge_chunks AS c ON c.seq = r.seq"
    " WHERE c.tenant_id = ? AND c.superseded_by IS NULL ORDER BY r.rank, c.seq"
)


def match_expression(tenant_id: str, query: str, domains: Sequence[str] | None) -> str | None:
    """The FTS5 MATCH text, or None when the query has no words. Every word and token is
    quoted: a query is plain words, never FTS syntax."""
    terms = lexical_terms(query)
    if not terms:
        return None
    scope = " OR ".join(f'"{t}"' for t in scope_tokens(tenant_id, domains))
    words = " OR ".join(f'"{t}"' for t in terms)
    return f"scope : ({scope}) AND {{heading_text text}} : ({words})"


class SqliteKnowledge:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._vectors = SqliteVectorIndex(db)

    async def upsert_document(
        self, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
    ) -> None:
        check_chunks(document, chunks)
        rows = [(*CHUNKS.to_row(c), chunk_scope(c), heading_text(c)) for c in chunks]
        await self._db.run(self._upsert, document, rows)

    def _upsert(self, document: KnowledgeDocument, rows: list[tuple[Any, ...]]) -> None:
        with self._db.transaction() as conn:
            # The same identity (or a re-sent id) is replaced; chunks go with it (ON DELETE
            # CASCADE), their vectors with them, and the FTS triggers drop them from the index.
            conn.execute(
                "DELETE FROM knowledge_documents WHERE tenant_id = ? AND (id = ?"
                " OR (source = ? AND phase = ? AND trigger_action = ?))",
                (document.tenant_id, document.id, document.source, document.phase, document.trigger_action),
            )
            conn.execute(DOCUMENTS.insert_sql, DOCUMENTS.to_row(document))
            conn.executemany(_CHUNK_INSERT, rows)
            bump_version(conn, document.tenant_id)

    async def find_document(
        self, tenant_id: str, source: str, *, phase: int = 1, trigger_action: str = ""
    ) -> KnowledgeDocument | None:
        row = await self._db.fetch_one(
            f"SELECT {DOCUMENTS.select} FROM knowledge_documents"
            " WHERE tenant_id = ? AND source = ? AND phase = ? AND trigger_action = ?",
            (tenant_id, source, phase, trigger_action),
        )
        return None if row is None else DOCUMENTS.from_row(row)

    async def get_document(self, tenant_id: str, document_id: str) -> KnowledgeDocument | None:
        row = await self._db.fetch_one(
            f"SELECT {DOCUMENTS.select} FROM knowledge_documents WHERE tenant_id = ? AND id = ?",
            (tenant_id, document_id),
        )
        return None if row is None else DOCUMENTS.from_row(row)

    async def list_documents(
        self, tenant_id: str, *, domain: str | None = None, limit: int = 100, after: str | None = None
    ) -> list[KnowledgeDocument]:
        sql = f"SELECT {DOCUMENTS.select} FROM knowledge_documents WHERE tenant_id = ?"
        params: list[object] = [tenant_id]
        if domain is not None:
            sql += " AND EXISTS (SELECT 1 FROM json_each(domains) WHERE lower(value) = lower(?))"
            params.append(domain)
        if after is not None:  # keyset: strictly after the anchor in (created_at, seq) order
            sql += (
                " AND (created_at, seq) > (SELECT created_at, seq FROM knowledge_documents"
                " WHERE tenant_id = ? AND id = ?)"
            )
            params.extend([tenant_id, after])
        rows = await self._db.fetch_all(sql + " ORDER BY created_at, seq LIMIT ?", [*params, limit])
        return DOCUMENTS.from_rows(rows)

    async def delete_document(self, tenant_id: str, document_id: str) -> bool:
        return await self._db.run(self._delete, tenant_id, document_id)

    def _delete(self, tenant_id: str, document_id: str) -> bool:
        with self._db.transaction() as conn:
            changed = conn.execute(
                "DELETE FROM knowledge_documents WHERE tenant_id = ? AND id = ?",
                (tenant_id, document_id),
            ).rowcount
            if changed:
                bump_version(conn, tenant_id)
        return changed > 0

    async def list_chunks(
        self, tenant_id: str, *, source: str, phase: int | None = None
    ) -> list[KnowledgeChunk]:
        sql = f"SELECT {CHUNKS.select} FROM knowledge_chunks WHERE tenant_id = ? AND source = ?"
        params: list[object] = [tenant_id, source]
        if phase is not None:
            sql += " AND phase = ?"
            params.append(phase)
        rows = await self._db.fetch_all(sql + " ORDER BY phase, trigger_action, ordinal, seq", params)
        return CHUNKS.from_rows(rows)

    async def supersede(self, tenant_id: str, pairs: Mapping[str, str]) -> int:
        if not pairs:
            return 0
        return await self._db.run(self._supersede, tenant_id, dict(pairs))

    def _supersede(self, tenant_id: str, pairs: dict[str, str]) -> int:
        changed = 0
        with self._db.transaction() as conn:
            for old, new in pairs.items():
                # An empty scope takes the chunk out of every search (FTS update trigger).
                changed += conn.execute(
                    "UPDATE knowledge_chunks SET superseded_by = ?, scope = ''"
                    " WHERE tenant_id = ? AND id = ? AND id != ?",
                    (new, tenant_id, old, new),
                ).rowcount
            if changed:
                bump_version(conn, tenant_id)
        return changed

    async def search(
        self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 20
    ) -> list[ChunkHit]:
        match = match_expression(tenant_id, query, domains)
        if match is None or limit <= 0:  # domains == [] still finds tenant-wide chunks
            return []
        rows = await self._db.fetch_all(_SEARCH, (match, limit, tenant_id))
        return [ChunkHit(chunk=CHUNKS.from_row(row), score=-float(row["rank"])) for row in rows]

    async def put_vectors(self, tenant_id: str, vectors: Sequence[ChunkVector]) -> None:
        check_vectors(tenant_id, vectors)
        if vectors:
            await self._db.run(self._vectors.put, tenant_id, list(vectors))

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
        check_query_vector(dimension, query)
        if limit <= 0:
            return []
        matrix = await self._db.run(self._vectors.matrix, tenant_id, model, dimension)
        best = await asyncio.to_thread(matrix.top, list(query), domains, limit)
        rows = await self._db.run(self._vectors.chunks, tenant_id, [int(key) for key, _ in best])
        return [ChunkHit(chunk=CHUNKS.from_row(rows[int(key)]), score=score) for key, score in best if int(key) in rows]

    async def version(self, tenant_id: str) -> int:
        row = await self._db.fetch_one("SELECT version FROM knowledge_versions WHERE tenant_id = ?", (tenant_id,))
        return 0 if row is None else int(row[0])

    async def count_chunks(self, tenant_id: str) -> int:
        row = await self._db.fetch_one("SELECT COUNT(*) FROM knowledge_chunks WHERE tenant_id = ?", (tenant_id,))
        return 0 if row is None else int(row[0])

