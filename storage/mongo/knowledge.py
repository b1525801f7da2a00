"""MongoDB knowledge documents + chunks (tenant-prefixed text index) and chunk vectors.

Chunks carry a derived ``heading_text`` field (the heading path, text-indexed with weight
2). Vectors live in ``knowledge_vectors`` as float32 bytes with their chunk's domains and
supersession copied in, and are searched by cosine in numpy over a cached matrix (see
``storage._knowledge``); ``knowledge_versions`` holds the per-tenant counter every write
bumps inside its transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from storage._knowledge import (
    VectorCache,
    VectorMatrix,
    as_blob,
    check_chunks,
    check_query_vector,
    check_vectors,
    heading_text,
    lexical_terms,
    norm_domain,
)
from storage.knowledge_models import ChunkHit, ChunkVector, KnowledgeChunk, KnowledgeDocument
from storage.mongo.codec import CHUNKS, DOCUMENTS, VECTORS, VERSIONS
from storage.mongo.errors import Transactions, translated
from storage.mongo.repos import OLDEST_FIRST


def domain_clause(domains: Sequence[str] | None) -> dict[str, Any]:
    """The domain rule: any of ``domains`` or tenant-wide (no domain); all when None."""
    if domains is None:
        return {}
    wanted = sorted({norm_domain(d) for d in domains})
    return {"$or": [{"domain_keys": {"$in": wanted}}, {"domain_keys": {"$size": 0}}]}


def domain_keys(domains: Sequence[str]) -> list[str]:
    """Normalised domains, stored beside ``domains`` for matching (``domains`` stays as given)."""
    return sorted({norm_domain(d) for d in domains})


#: Derived fields a search result does not carry.
_HIDE = {"heading_text": 0, "domain_keys": 0}


@translated
class MongoKnowledge:
    def __init__(self, db: Any, transactions: Transactions) -> None:
        self._db = db
        self._transactions = transactions
        self._cache = VectorCache()

    async def _bump(self, tenant_id: str, session: Any) -> None:
        await self._db[VERSIONS].update_one({"_id": tenant_id}, {"$inc": {"version": 1}}, upsert=True, session=session)

    async def upsert_document(
        self, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
    ) -> None:
        check_chunks(document, chunks)
        chunk_docs = [
            {**CHUNKS.to_doc(c), "heading_text": heading_text(c), "domain_keys": domain_keys(c.domains)} for c in chunks
        ]
        tenant_id = document.tenant_id
        identity = {"source": document.source, "phase": document.phase, "trigger_action": document.trigger_action}

        async def write(session: Any) -> None:
            documents = self._db[DOCUMENTS.name]
            old = await documents.find(
                {"tenant_id": tenant_id, "$or": [identity, {"_id": document.id}]}, {"_id": 1}, session=session
            ).to_list()
            old_ids = [d["_id"] for d in old]
            if old_ids:
                await documents.delete_many({"tenant_id": tenant_id, "_id": {"$in": old_ids}}, session=session)
                await self._drop_chunks(tenant_id, old_ids, session)
            doc = {**DOCUMENTS.to_doc(document), "domain_keys": domain_keys(document.domains)}
            await documents.insert_one(doc, session=session)
            if chunk_docs:
                await self._db[CHUNKS.name].insert_many(chunk_docs, session=session)
            await self._bump(tenant_id, session)

        await self._transactions.run(write)

    async def _drop_chunks(self, tenant_id: str, document_ids: list[str], session: Any) -> None:
        match = {"tenant_id": tenant_id, "document_id": {"$in": document_ids}}
        await self._db[CHUNKS.name].delete_many(match, session=session)
        await self._db[VECTORS].delete_many(match, session=session)

    async def find_document(
        self, tenant_id: str, source: str, *, phase: int = 1, trigger_action: str = ""
    ) -> KnowledgeDocument | None:
        doc = await self._db[DOCUMENTS.name].find_one(
            {"tenant_id": tenant_id, "source": source, "phase": phase, "trigger_action": trigger_action}
        )
        return None if doc is None else DOCUMENTS.from_doc(doc)

    async def get_document(self, tenant_id: str, document_id: str) -> KnowledgeDocument | None:
        doc = await self._db[DOCUMENTS.name].find_one({"_id": document_id, "tenant_id": tenant_id})
        return None if doc is None else DOCUMENTS.from_doc(doc)

    async def list_documents(
        self, tenant_id: str, *, domain: str | None = None, limit: int = 100, after: str | None = None
    ) -> list[KnowledgeDocument]:
        documents = self._db[DOCUMENTS.name]
        query: dict[str, Any] = {"tenant_id": tenant_id}
        if domain is not None:
            query["domain_keys"] = norm_domain(domain)
        if after is not None:  # keyset: strictly after the anchor in (created_at, seq) order
            anchor = await documents.find_one({"_id": after, "tenant_id": tenant_id}, {"created_at": 1, "seq": 1})
            if anchor is None:
                return []
            query["$and"] = [{"$or": [
                {"created_at": {"$gt": anchor["created_at"]}},
                {"created_at": anchor["created_at"], "seq": {"$gt": anchor["seq"]}},
            ]}]
        if limit <= 0:
            return []
        docs = await documents.find(query).sort(OLDEST_FIRST).limit(limit).to_list()
        return DOCUMENTS.from_docs(docs)

    async def delete_document(self, tenant_id: str, document_id: str) -> bool:
        async def delete(session: Any) -> bool:
            result = await self._db[DOCUMENTS.name].delete_one({"_id": document_id, "tenant_id": tenant_id}, session=session)
            if not result.deleted_count:
                return False
            await self._drop_chunks(tenant_id, [document_id], session)
            await self._bump(tenant_id, session)
            return True

        return await self._transactions.run(delete)

    async def list_chunks(
        self, tenant_id: str, *, source: str, phase: int | None = None
    ) -> list[KnowledgeChunk]:
        query: dict[str, Any] = {"tenant_id": tenant_id, "source": source}
        if phase is not None:
            query["phase"] = phase
        order = [("phase", 1), ("trigger_action", 1), ("ordinal", 1), ("seq", 1)]
        docs = await self._db[CHUNKS.name].find(query).sort(order).to_list()
        return CHUNKS.from_docs(docs)

    async def supersede(self, tenant_id: str, pairs: Mapping[str, str]) -> int:
        pairs = {old: new for old, new in pairs.items() if old != new}
        if not pairs:
            return 0

        async def write(session: Any) -> int:
            changed = 0
            for old, new in pairs.items():
                match = {"tenant_id": tenant_id, "_id": old}
                result = await self._db[CHUNKS.name].update_one(match, {"$set": {"superseded_by": new}}, session=session)
                changed += int(result.matched_count)
                await self._db[VECTORS].update_many(
                    {"tenant_id": tenant_id, "chunk_id": old}, {"$set": {"superseded": True}}, session=session
                )
            if changed:
                await self._bump(tenant_id, session)
            return changed

        return await self._transactions.run(write)

    async def search(
        self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 20
    ) -> list[ChunkHit]:
        terms = lexical_terms(query)
        if not terms or limit <= 0:
            return []
        # Plain words only (no quotes, no leading '-'): $text ORs them, stems, drops stop words.
        match: dict[str, Any] = {
            "tenant_id": tenant_id,
            "$text": {"$search": " ".join(terms)},
            "superseded_by": None,
            **domain_clause(domains),
        }
        pipeline = [
            {"$match": match},
            {"$addFields": {"score": {"$meta": "textScore"}}},
            {"$sort": {"score": -1, "seq": 1}},
            {"$limit": limit},
            {"$project": _HIDE},
        ]
        cursor = await self._db[CHUNKS.name].aggregate(pipeline)
        docs = await cursor.to_list()
        return [ChunkHit(chunk=CHUNKS.from_doc(d), score=float(d["score"])) for d in docs]

    async def put_vectors(self, tenant_id: str, vectors: Sequence[ChunkVector]) -> None:
        check_vectors(tenant_id, vectors)
        if not vectors:
            return
        ids = sorted({v.chunk_id for v in vectors})
        blobs = [(v, as_blob(v.vector)) for v in vectors]  # built once: the callback may be retried

        async def write(session: Any) -> None:
            # Read in the transaction: a chunk deleted meanwhile cannot get an orphan vector.
            found = await self._db[CHUNKS.name].find(
                {"tenant_id": tenant_id, "_id": {"$in": ids}},
                {"document_id": 1, "domain_keys": 1, "superseded_by": 1},
                session=session,
            ).to_list()
            chunks = {d["_id"]: d for d in found}
            missing = [i for i in ids if i not in chunks]
            if missing:
                raise ValueError(f"no chunk of tenant {tenant_id!r} has id {missing[0]!r}")
            for v, blob in blobs:
                chunk = chunks[v.chunk_id]
                doc = {
                    "_id": f"{v.chunk_id}|{v.model}|{v.dimension}",
                    "tenant_id": tenant_id,
                    "chunk_id": v.chunk_id,
                    "document_id": chunk["document_id"],
                    "domains": chunk["domain_keys"],
                    "superseded": chunk.get("superseded_by") is not None,
                    "model": v.model,
                    "dimension": v.dimension,
                    "vector": blob,
                }
                await self._db[VECTORS].replace_one({"_id": doc["_id"]}, doc, upsert=True, session=session)
            await self._bump(tenant_id, session)

        await self._transactions.run(write)

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
        matrix = await self._matrix(tenant_id, model, dimension)
        best = await asyncio.to_thread(matrix.top, list(query), domains, limit)  # off the event loop
        if not best:
            return []
        found = await self._db[CHUNKS.name].find(
            {"tenant_id": tenant_id, "_id": {"$in": [key for key, _ in best]}, "superseded_by": None}
        ).to_list()
        chunks = {d["_id"]: CHUNKS.from_doc(d) for d in found}
        return [ChunkHit(chunk=chunks[key], score=score) for key, score in best if key in chunks]

    async def _matrix(self, tenant_id: str, model: str, dimension: int) -> VectorMatrix:
        # The version is read before the vectors: a write in between leaves this entry
        # tagged with the older version, so the next search reloads (never serves stale).
        doc = await self._db[VERSIONS].find_one({"_id": tenant_id})
        version = 0 if doc is None else int(doc["version"])
        cached = self._cache.get(tenant_id, model, dimension, version)
        if cached is not None:
            return cached
        found = await self._db[VECTORS].find(
            {"tenant_id": tenant_id, "model": model, "dimension": dimension, "superseded": False},
            {"chunk_id": 1, "domains": 1, "vector": 1},
        ).to_list()
        rows = ((d["chunk_id"], d["domains"], np.frombuffer(bytes(d["vector"]), dtype=np.float32)) for d in found)
        built = VectorMatrix.build(version, rows, dimension)
        self._cache.put(tenant_id, model, dimension, built)
        return built

    async def version(self, tenant_id: str) -> int:
        doc = await self._db[VERSIONS].find_one({"_id": tenant_id})
        return 0 if doc is None else int(doc["version"])

    async def count_chunks(self, tenant_id: str) -> int:
        return int(await self._db[CHUNKS.name].count_documents({"tenant_id": tenant_id}))
