"""MongoDB knowledge documents + chunks, searched through a tenant-prefixed text index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage._common import check_chunks, search_terms
from storage.models import ChunkHit, KnowledgeChunk, KnowledgeDocument
from storage.mongo.codec import CHUNKS, DOCUMENTS
from storage.mongo.errors import Transactions, translated
from storage.mongo.repos import OLDEST_FIRST


@translated
class MongoKnowledge:
    def __init__(self, db: Any, transactions: Transactions) -> None:
        self._db = db
        self._transactions = transactions

    async def upsert_document(
        self, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
    ) -> None:
        check_chunks(document, chunks)
        chunk_docs = CHUNKS.docs(chunks)
        tenant_id = document.tenant_id

        async def write(session: Any) -> None:
            documents, chunk_coll = self._db[DOCUMENTS.name], self._db[CHUNKS.name]
            same = [{"source_url": document.source_url}, {"_id": document.id}]
            old = await documents.find(
                {"tenant_id": tenant_id, "$or": same}, {"_id": 1}, session=session
            ).to_list()
            old_ids = [d["_id"] for d in old]
            if old_ids:
                await documents.delete_many(
                    {"tenant_id": tenant_id, "_id": {"$in": old_ids}}, session=session
                )
                await chunk_coll.delete_many(
                    {"tenant_id": tenant_id, "document_id": {"$in": old_ids}}, session=session
                )
            await documents.insert_one(DOCUMENTS.to_doc(document), session=session)
            if chunk_docs:
                await chunk_coll.insert_many(chunk_docs, session=session)

        await self._transactions.run(write)

    async def get_document(self, tenant_id: str, document_id: str) -> KnowledgeDocument | None:
        doc = await self._db[DOCUMENTS.name].find_one({"_id": document_id, "tenant_id": tenant_id})
        return None if doc is None else DOCUMENTS.from_doc(doc)

    async def list_documents(
        self, tenant_id: str, domain: str | None = None
    ) -> list[KnowledgeDocument]:
        query: dict[str, Any] = {"tenant_id": tenant_id}
        if domain is not None:
            query["domain"] = domain
        docs = await self._db[DOCUMENTS.name].find(query).sort(OLDEST_FIRST).to_list()
        return DOCUMENTS.from_docs(docs)

    async def delete_document(self, tenant_id: str, document_id: str) -> bool:
        async def delete(session: Any) -> bool:
            result = await self._db[DOCUMENTS.name].delete_one(
                {"_id": document_id, "tenant_id": tenant_id}, session=session
            )
            if not result.deleted_count:
                return False
            await self._db[CHUNKS.name].delete_many(
                {"tenant_id": tenant_id, "document_id": document_id}, session=session
            )
            return True

        return await self._transactions.run(delete)

    async def search(
        self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 5
    ) -> list[ChunkHit]:
        terms = search_terms(query)
        if not terms or limit <= 0 or (domains is not None and not domains):
            return []
        # Plain words only (no quotes, no leading '-'): $text ORs them, stems, drops stop words.
        match: dict[str, Any] = {"tenant_id": tenant_id, "$text": {"$search": " ".join(terms)}}
        if domains is not None:
            match["domain"] = {"$in": list(domains)}
        pipeline = [
            {"$match": match},
            {"$addFields": {"score": {"$meta": "textScore"}}},
            {"$sort": {"stale": 1, "score": -1, "seq": 1}},
            {"$limit": limit},
        ]
        cursor = await self._db[CHUNKS.name].aggregate(pipeline)
        docs = await cursor.to_list()
        return [ChunkHit(chunk=CHUNKS.from_doc(d), score=float(d["score"])) for d in docs]

    async def mark_stale(self, tenant_id: str, domain: str, phase_below: int) -> int:
        result = await self._db[CHUNKS.name].update_many(
            {
                "tenant_id": tenant_id,
                "domain": domain,
                "phase": {"$lt": phase_below},
                "stale": False,
            },
            {"$set": {"stale": True}},
        )
        return int(result.modified_count)
