"""SQLite knowledge documents + chunks with an FTS5 (bm25) lexical index."""

from __future__ import annotations

from collections.abc import Sequence

from storage._common import check_chunks, search_terms
from storage.models import ChunkHit, KnowledgeChunk, KnowledgeDocument
from storage.sqlite.codec import CHUNKS, DOCUMENTS
from storage.sqlite.connection import SqliteDatabase

#: bm25 column weights: (heading, text). A heading hit counts double.
_BM25 = "bm25(knowledge_chunks_fts, 2.0, 1.0)"
_CHUNK_COLUMNS = ", ".join(f"c.{c}" for c in CHUNKS.columns)


class SqliteKnowledge:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def upsert_document(
        self, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
    ) -> None:
        check_chunks(document, chunks)
        await self._db.run(self._upsert, document, list(chunks))

    def _upsert(self, document: KnowledgeDocument, chunks: list[KnowledgeChunk]) -> None:
        with self._db.transaction() as conn:
            # Replaces the tenant's document for the same URL (and a re-sent id); chunks go
            # with it (ON DELETE CASCADE) and the FTS triggers drop them from the index.
            conn.execute(
                "DELETE FROM knowledge_documents"
                " WHERE tenant_id = ? AND (source_url = ? OR id = ?)",
                (document.tenant_id, document.source_url, document.id),
            )
            conn.execute(DOCUMENTS.insert_sql, DOCUMENTS.to_row(document))
            conn.executemany(CHUNKS.insert_sql, CHUNKS.rows(chunks))

    async def get_document(self, tenant_id: str, document_id: str) -> KnowledgeDocument | None:
        row = await self._db.fetch_one(
            f"SELECT {DOCUMENTS.select} FROM knowledge_documents WHERE tenant_id = ? AND id = ?",
            (tenant_id, document_id),
        )
        return None if row is None else DOCUMENTS.from_row(row)

    async def list_documents(
        self, tenant_id: str, domain: str | None = None
    ) -> list[KnowledgeDocument]:
        sql = f"SELECT {DOCUMENTS.select} FROM knowledge_documents WHERE tenant_id = ?"
        params: list[object] = [tenant_id]
        if domain is not None:
            sql += " AND domain = ?"
            params.append(domain)
        rows = await self._db.fetch_all(sql + " ORDER BY created_at, seq", params)
        return DOCUMENTS.from_rows(rows)

    async def delete_document(self, tenant_id: str, document_id: str) -> bool:
        changed = await self._db.execute(
            "DELETE FROM knowledge_documents WHERE tenant_id = ? AND id = ?",
            (tenant_id, document_id),
        )
        return changed > 0

    async def search(
        self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 5
    ) -> list[ChunkHit]:
        terms = search_terms(query)
        if not terms or limit <= 0 or (domains is not None and not domains):
            return []
        match = " OR ".join(f'"{term}"' for term in terms)  # quoted: no FTS5 operators
        sql = (
            f"SELECT {_CHUNK_COLUMNS}, {_BM25} AS rank FROM knowledge_chunks_fts"
            " JOIN knowledge_chunks AS c ON c.seq = knowledge_chunks_fts.rowid"
            " WHERE knowledge_chunks_fts MATCH ? AND c.tenant_id = ?"
        )
        params: list[object] = [match, tenant_id]
        if domains is not None:
            sql += f" AND c.domain IN ({', '.join('?' for _ in domains)})"
            params.extend(domains)
        sql += " ORDER BY c.stale, rank, c.seq LIMIT ?"  # bm25: lower is better
        rows = await self._db.fetch_all(sql, [*params, limit])
        return [ChunkHit(chunk=CHUNKS.from_row(row), score=-float(row["rank"])) for row in rows]

    async def mark_stale(self, tenant_id: str, domain: str, phase_below: int) -> int:
        return await self._db.execute(
            "UPDATE knowledge_chunks SET stale = 1"
            " WHERE tenant_id = ? AND domain = ? AND phase < ? AND stale = 0",
            (tenant_id, domain, phase_below),
        )
